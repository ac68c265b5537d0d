/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tracing_cpumask: the CPUs whose records a buffer keeps, read and written
 * as the kernel's cpumask text: hex, in comma-separated 32-bit groups, the
 * highest first (printk's %*pb over the possible CPUs). */
#include <errno.h>
#include <string.h>

#include "runtime/core/runtime.h"
#include "runtime/tracefs/tfs.h"
#include "util/atomics.h"

/* Groups a write may hold: the kernel's NR_CPUS of 8192 bits. */
#define MAX_GROUPS 256

static bool mask_bit(const uint64_t *m, int cpu)
{
	return cpu >= UFT_BUFFER_MAX_CPUS || (m[cpu / 64] >> (cpu % 64) & 1);
}

static int show_cpumask(const struct tfs_node *n, FILE *out)
{
	const struct uft_buffer *b = &uft_buffers[n->inst->buffer];
	uint64_t m[UFT_CPU_WORDS];
	for (unsigned i = 0; i < UFT_CPU_WORDS; i++)
		m[i] = READ_ONCE(b->cpumask[i]);
	int nbits = tfs_nr_cpus();
	int width = nbits % 32 ? nbits % 32 : 32; /* the top group's bits */
	for (int lo = (nbits - 1) / 32 * 32; lo >= 0; lo -= 32) {
		uint32_t v = 0;
		for (int i = 0; i < width; i++)
			v |= (uint32_t)mask_bit(m, lo + i) << i;
		fprintf(out, "%s%0*x", lo + width < nbits ? "," : "", (width + 3) / 4, v);
		width = 32;
	}
	fputc('\n', out);
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool group_end(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* The kernel's bitmap_parse(): up to the first newline, groups of at most
 * eight hex digits parsed from the end, separated by commas or spaces.
 * Bits of CPUs past the possible ones are dropped, as a kernel whose
 * NR_CPUS exceeds them keeps them unused. */
static int parse_mask(const char *s, size_t len, uint64_t *m)
{
	const char *nl = memchr(s, '\n', len);
	const char *start = s, *end = (nl ? nl : s + len) - 1;
	memset(m, 0, UFT_CPU_WORDS * sizeof(*m));
	for (int group = 0;; group++) {
		while (end >= start && group_end(*end))
			end--;
		if (end < start)
			return 0;
		if (group >= MAX_GROUPS)
			return -EOVERFLOW;
		uint32_t v = 0;
		for (int shift = 0;; shift += 4) {
			if (shift == 32)
				return -EOVERFLOW; /* a ninth digit */
			int d = hex_digit(*end--);
			if (d < 0)
				return -EINVAL;
			v |= (uint32_t)d << shift;
			if (end < start || group_end(*end))
				break;
		}
		int lo = group * 32;
		if (lo < UFT_BUFFER_MAX_CPUS)
			m[lo / 64] |= (uint64_t)v << (lo % 64);
	}
}

static int cpumask_set(uint32_t buffer, const uint64_t *m)
{
	struct uft_buffer *b = &uft_buffers[buffer];
	int ncpu = tfs_nr_cpus() < UFT_BUFFER_MAX_CPUS ? tfs_nr_cpus() : UFT_BUFFER_MAX_CPUS;
	uint32_t masked = 0;
	for (int c = 0; c < ncpu; c++)
		masked |= !mask_bit(m, c);
	/* Bits before the flag: a writer that sees the flag sees this mask or
	 * a later one. */
	for (unsigned i = 0; i < UFT_CPU_WORDS; i++)
		WRITE_ONCE(b->cpumask[i], m[i]);
	uft_store_seq_cst(&b->masked, masked);
	if (buffer == 0)
		uft_buffer_update_fast();
	return 0;
}

static int write_cpumask(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	uint64_t m[UFT_CPU_WORDS];
	int rc = parse_mask(buf, len, m);
	if (rc)
		return rc;
	return cpumask_set(n->inst->buffer, m);
}

const struct tfs_file tfs_cpumask_files[] = {
    {.name = "tracing_cpumask",
     .dir = TFS_D_ROOT,
     .mode = 0644,
     .show = show_cpumask,
     .write = write_cpumask},
    {0},
};
