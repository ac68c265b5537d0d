/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loads a trace.dat with KernelShark's own library (libkshark), as the
 * kernelshark program does, and prints the number of entries, then one line
 * per entry: CPU, pid, task, event and info, for
 * tests/integration/test_kernelshark.sh. Exit 1 when libkshark refuses the
 * file. */
#include <stdio.h>
#include <stdlib.h>

#include <libkshark.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: kshark_load FILE\n");
		return 2;
	}
	struct kshark_context *ctx = NULL;
	if (!kshark_instance(&ctx)) {
		fprintf(stderr, "kshark_load: no libkshark context\n");
		return 1;
	}
	int sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "kshark_load: kshark_open %s: %d\n", argv[1], sd);
		kshark_free(ctx);
		return 1;
	}
	struct kshark_entry **rows = NULL;
	ssize_t n = kshark_load_entries(ctx, sd, &rows);
	if (n < 0) {
		fprintf(stderr, "kshark_load: kshark_load_entries: %zd\n", n);
		kshark_free(ctx);
		return 1;
	}
	printf("entries: %zd\n", n);
	for (ssize_t i = 0; i < n; i++) {
		char *task = kshark_get_task(rows[i]);
		char *ev = kshark_get_event_name(rows[i]);
		char *info = kshark_get_info(rows[i]);
		printf("%d %d %s %s %s\n", rows[i]->cpu, rows[i]->pid, task ? task : "?",
		       ev ? ev : "?", info ? info : "");
		free(ev);
		free(info);
		free(rows[i]);
	}
	free(rows);
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return 0;
}
