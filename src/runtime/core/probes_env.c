/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UFT_PROBES: each line written to dynamic_events through the tree, as one
 * would by hand, so a probe gets its kernel checks, error_log entry and
 * patching; the event each line made is found by the listing it added, and
 * enabled once the recorder's settings are in. */
#define _GNU_SOURCE
#include "runtime/core/probes_env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/secure_env.h"
#include "runtime/tracefs/tracefs.h"
#include "util/util.h"
#include "wire/env_names.h"

/* GROUP/EVENT of each probe defined, for the enable and the undo. */
static char **made;
static size_t nr_made, cap_made;

/* GROUP/EVENT of the listing line of `after` that `before` does not have. */
static char *new_event(const char *before, const char *after)
{
	for (const char *l = after; l && *l;) {
		size_t n = strcspn(l, "\n");
		bool old = false;
		for (const char *b = before; b && *b && !old;) {
			size_t m = strcspn(b, "\n");
			old = m == n && strncmp(b, l, n) == 0;
			b += m + (b[m] == '\n');
		}
		const char *colon = memchr(l, ':', n);
		if (!old && colon) {
			size_t w = strcspn(colon + 1, " \t\n");
			return strndup(colon + 1, w);
		}
		l += n + (l[n] == '\n');
	}
	return NULL;
}

static void undo(void)
{
	while (nr_made) {
		char *ev = made[--nr_made], *un;
		if (asprintf(&un, "-:%s", ev) >= 0) {
			uft_tracefs_put_text("dynamic_events", un, UFT_TFS_APPEND);
			free(un);
		}
		free(ev);
	}
}

/* The newest error_log entry, as the kernel's tracing_log_err wrote it. */
static void report_log(FILE *out)
{
	char *log = uft_tracefs_read_text("error_log");
	if (!log || !*log) {
		free(log);
		return;
	}
	char *e = log;
	for (char *l = log; (l = strchr(l, '\n')) && l[1]; l++)
		if (l[1] == '[')
			e = l + 1;
	fprintf(out, "uft: error_log:\n%s", e);
	free(log);
}

int uft_probes_define_env_to(FILE *out)
{
	const char *env = uft_env(UFT_ENV_PROBES);
	if (!env || !*env)
		return 0;
	char *all = strdup(env);
	if (!all)
		return -1;
	uft_tracefs_put_text("error_log", "", UFT_TFS_TRUNC);
	int rc = 0;
	for (char *line = strtok(all, "\n"); line && !rc; line = strtok(NULL, "\n")) {
		char *before = uft_tracefs_read_text("dynamic_events");
		int err = uft_tracefs_put_text("dynamic_events", line, UFT_TFS_APPEND);
		if (err) {
			fprintf(out, "uft: probe '%s': %s\n", line, strerror(-err));
			report_log(out);
			rc = -1;
		} else if (uft_array_reserve(made, cap_made, nr_made + 1, 8) == 0) {
			char *after = uft_tracefs_read_text("dynamic_events");
			char *ev = new_event(before, after);
			if (ev)
				made[nr_made++] = ev;
			free(after);
		}
		free(before);
	}
	free(all);
	if (rc) {
		undo();
		fprintf(out, "uft: probes: nothing defined, the program runs untraced\n");
	}
	return rc;
}

int uft_probes_enable_env_to(FILE *out)
{
	for (size_t i = 0; i < nr_made; i++) {
		char path[300];
		snprintf(path, sizeof(path), "events/%s/enable", made[i]);
		int err = uft_tracefs_put_text(path, "1", UFT_TFS_TRUNC);
		if (err) {
			fprintf(out, "uft: probe %s: %s: %s\n", made[i], path, strerror(-err));
			return -1;
		}
	}
	return 0;
}
