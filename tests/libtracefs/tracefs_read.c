/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A libtracefs program as anyone would write it for the kernel, run under
 * `uft ns` against a traced process's tree: it enables SYSTEM:EVENT, lets
 * it run a while, and prints the trace read through libtracefs's API (the
 * event list, the enable file, the trace file and the per-CPU raw buffers
 * through tracefs_iterate_raw_events).
 *
 *   tracefs_read SYSTEM EVENT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

static int count_event(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	(*(int *)ctx)++;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: tracefs_read SYSTEM EVENT\n");
		return 2;
	}
	const char *sys = argv[1], *ev = argv[2];
	printf("tracing_dir=%s\n", tracefs_tracing_dir());
	char **systems = tracefs_event_systems(NULL);
	int found = 0;
	for (int i = 0; systems && systems[i]; i++)
		found |= strcmp(systems[i], sys) == 0;
	tracefs_list_free(systems);
	if (!found) {
		fprintf(stderr, "tracefs_read: no system %s\n", sys);
		return 1;
	}
	if (tracefs_trace_off(NULL) || tracefs_instance_file_clear(NULL, "trace") ||
	    tracefs_event_enable(NULL, sys, ev) || tracefs_trace_on(NULL)) {
		perror("tracefs_read: enable");
		return 1;
	}
	usleep(300000);
	tracefs_trace_off(NULL);
	printf("enabled=%d\n", tracefs_event_is_enabled(NULL, sys, ev) == TRACEFS_ALL_ENABLED);
	char *trace = tracefs_instance_file_read(NULL, "trace", NULL);
	if (!trace) {
		perror("tracefs_read: trace");
		return 1;
	}
	fputs(trace, stdout);
	free(trace);
	struct tep_handle *tep = tracefs_local_events(NULL);
	if (!tep) {
		perror("tracefs_read: tracefs_local_events");
		return 1;
	}
	int n = 0;
	if (tracefs_iterate_raw_events(tep, NULL, NULL, 0, count_event, &n) < 0) {
		perror("tracefs_read: tracefs_iterate_raw_events");
		return 1;
	}
	printf("raw_events=%d\n", n);
	tracefs_event_disable(NULL, sys, ev);
	tep_free(tep);
	return 0;
}
