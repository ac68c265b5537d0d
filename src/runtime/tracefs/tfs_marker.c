/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* trace_marker and trace_marker_raw: writes that become records, as the
 * kernel's ftrace entries print (id 5) and raw_data (id 16). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/shm_layout.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/tracefs/tfs.h"
#include "runtime/tracefs/tfs_marker.h"

/* The largest record a ring of the buffer takes (the writer's limit: a
 * page's data less a time extend and the longest event header), for the
 * buffer's sub-buffer size (buffer_subbuf_size_kb). */
#define RECORD_MAX(b) UFT_RECORD_MAX(uft_buffer_subbuf(&uft_buffers[b]))
/* The most text one trace_marker write records: a record less the common
 * header and the ip, and room for the newline and the NUL the kernel adds. */
#define MARKER_MAX(b) (RECORD_MAX(b) - 16u - 2u)
/* The most bytes one trace_marker_raw record holds after its id: a record
 * less the common header, the id and the filler an exact size may need
 * (uft_write_exact_to_buffer()). */
#define RAW_MAX(b) (RECORD_MAX(b) - 12u - 12u)

static volatile uint16_t print_gate, raw_gate;

static const struct uft_field print_fields[] = {
    {"unsigned long", "ip", 8, 8, 0, UFT_FIELD_SCALAR, 0},
    {"char", "buf[]", 16, 0, 1, UFT_FIELD_ARRAY, 1},
};

static const struct uft_field raw_fields[] = {
    {"unsigned int", "id", 8, 4, 0, UFT_FIELD_SCALAR, 0},
    {"char", "buf[]", 12, 0, 1, UFT_FIELD_ARRAY, 1},
};

static struct uft_event print_event = {
    .magic = UFT_EVENT_MAGIC,
    .style = UFT_STYLE_STRUCT,
    .gate = &print_gate,
    .system = "ftrace",
    .name = "print",
    .fields = print_fields,
    .nr_fields = 2,
    .fixed_size = 16,
    .print_fmt = "\"%ps: %s\", (void *)REC->ip, REC->buf",
    .file = __FILE__,
    .line = __LINE__,
};

static struct uft_event raw_event = {
    .magic = UFT_EVENT_MAGIC,
    .style = UFT_STYLE_STRUCT,
    .gate = &raw_gate,
    .system = "ftrace",
    .name = "raw_data",
    .fields = raw_fields,
    .nr_fields = 2,
    .fixed_size = 12,
    .print_fmt = "\"id:%04x %08x\", REC->id, (int)REC->buf[0]",
    .file = __FILE__,
    .line = __LINE__,
};

void tfs_marker_init(void)
{
	uft_registry_add_fixed(&print_event, UFT_ID_PRINT);
	uft_registry_add_fixed(&raw_event, UFT_ID_RAW_DATA);
}

/* As the kernel's: a write longer than a record holds records what fits
 * and returns that count, so a writer that carries on with the rest (echo,
 * stdio) gets it all recorded, one record per write. */
static int write_marker(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	if (!tfs_opt(n->inst, "markers"))
		return -EINVAL;
	size_t max = MARKER_MAX(n->inst->buffer);
	size_t taken = len > max ? max : len, text = taken;
	char small[UFT_PAGE_DATA_SIZE];
	char *body = taken + 2 <= sizeof(small) ? small : malloc(taken + 2);
	if (!body)
		return -ENOMEM;
	memcpy(body, buf, text);
	/* Triggers see the text as written: the newline added after them. */
	uint32_t added = UINT32_MAX;
	if (!text || body[text - 1] != '\n') {
		added = (uint32_t)text;
		body[text++] = '\n'; /* one line per write, as the kernel adds */
	}
	body[text] = 0;
	struct {
		struct uft_common_entry c;
		uint64_t ip;
	} head = {{0, 0, 0, 0}, UFT_MARKER_IP};
	/* The writer is outside the process and each open has its own door
	 * thread: the record names the process, a pid that stays the same
	 * from write to write, as the kernel's writer's does (hist keys,
	 * onmatch on common_pid). */
	head.c.pid = (int32_t)getpid();
	int rc = (int)taken;
	if (uft_session_start() != 0)
		rc = -ENOMEM;
	else /* The event's triggers in this buffer run on the write, as the
	      * kernel's since 4.17 (hist, snapshot, traceoff ...). */
		uft_write_to_buffer_trig(n->inst->buffer, &print_event, &head, sizeof(head), body,
					 (uint32_t)text + 1, added);
	if (body != small)
		free(body);
	return rc;
}

static int write_marker_raw(const struct tfs_node *n, char *buf, size_t len, unsigned of)
{
	if (!tfs_opt(n->inst, "markers") || len < 4)
		return -EINVAL;
	if (len - 4 > RAW_MAX(n->inst->buffer))
		return -EINVAL;
	struct {
		struct uft_common_entry c;
		uint32_t id;
	} __attribute__((packed)) head;
	memset(&head, 0, sizeof(head));
	memcpy(&head.id, buf, 4);
	if (uft_session_start() != 0)
		return -ENOMEM;
	/* The kernel's raw_data: the id, the bytes, the size rounded to 4 */
	uft_write_exact_to_buffer(n->inst->buffer, &raw_event, &head, sizeof(head), buf + 4,
				  (uint32_t)(len - 4));
	return (int)len;
}

int tfs_marker_render(FILE *f, const void *data, uint32_t len)
{
	const struct uft_common_entry *e = data;
	const char *p = data;
	if (e->type == UFT_ID_PRINT && len >= 16) {
		size_t n = strnlen(p + 16, len - 16);
		if (n && p[16 + n - 1] == '\n')
			n--;
		fputs("tracing_mark_write: ", f);
		fwrite(p + 16, 1, n, f);
		return 1;
	}
	if (e->type == UFT_ID_RAW_DATA && len >= 12) {
		uint32_t id;
		memcpy(&id, p + 8, 4);
		fprintf(f, "# %x buf:", id);
		for (uint32_t i = 12; i < len; i++)
			fprintf(f, " %02x", (unsigned char)p[i]);
		return 1;
	}
	return 0;
}

const struct tfs_file tfs_marker_files[] = {
    {.name = "trace_marker", .dir = TFS_D_ROOT, .mode = 0220, .write = write_marker},
    {.name = "trace_marker_raw", .dir = TFS_D_ROOT, .mode = 0220, .write = write_marker_raw},
    {0},
};
