/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-CPU interrupt counts from procfs. */
#define _GNU_SOURCE
#include "latency/cpu_irqs.h"

#include <stdlib.h>
#include <string.h>

/* The column of "CPU<cpu>" in a header line, or -1 (offline CPUs have none). */
static int column_of(const char *hdr, int cpu)
{
	char want[24];
	snprintf(want, sizeof(want), "CPU%d", cpu);
	int col = 0;
	for (const char *p = hdr; *p;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t\n");
		if (!n)
			break;
		if (n == strlen(want) && !strncmp(p, want, n))
			return col;
		col++;
		p += n;
	}
	return -1;
}

/* Adds cpu's column of each row to *sum (or to *nmi for the NMI row). */
static int sum_column(FILE *f, int cpu, uint64_t *sum, uint64_t *nmi)
{
	char *line = NULL;
	size_t cap = 0;
	if (getline(&line, &cap, f) < 0) {
		free(line);
		return -1;
	}
	int col = column_of(line, cpu);
	while (col >= 0 && getline(&line, &cap, f) >= 0) {
		char *p = strchr(line, ':');
		if (!p)
			continue;
		*p = 0;
		const char *name = line + strspn(line, " ");
		p++;
		/* The totals of errors, not interrupts taken on a CPU. */
		if (!strcmp(name, "ERR") || !strcmp(name, "MIS"))
			continue;
		for (int i = 0;; i++) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);
			if (end == p)
				break;
			if (i == col) {
				*(nmi && !strcmp(name, "NMI") ? nmi : sum) += v;
				break;
			}
			p = end;
		}
	}
	free(line);
	return col >= 0 ? 0 : -1;
}

int cpu_irqs_parse(FILE *interrupts, FILE *softirqs, int cpu, struct cpu_irqs *out)
{
	int rc = 0;
	*out = (struct cpu_irqs){0};
	if (!interrupts || sum_column(interrupts, cpu, &out->irq, &out->nmi))
		rc = -1;
	if (!softirqs || sum_column(softirqs, cpu, &out->sirq, NULL))
		rc = -1;
	return rc;
}

int cpu_irqs_read(int cpu, struct cpu_irqs *out)
{
	FILE *i = fopen("/proc/interrupts", "re"), *s = fopen("/proc/softirqs", "re");
	int rc = cpu_irqs_parse(i, s, cpu, out);
	if (i)
		fclose(i);
	if (s)
		fclose(s);
	return rc;
}
