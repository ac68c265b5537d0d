/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Histograms over a trace.dat: synthetic events defined first, then each
 * --hist names an event (the file's or a synthetic one) and a hist
 * specification; records are fed in time order and the kernel's `hist`
 * text of every trigger is printed. Works on uft's files and on the
 * kernel's (trace-cmd). */
#include "report/report_hist.h"

#include <errno.h>

/* Whether rc refuses what was given (status 2), or failed for want of
 * memory (status 1). */
static bool refused(int rc, int *status)
{
	if (rc)
		*status = rc == -ENOMEM ? 1 : 2;
	return rc != 0;
}

struct replay *report_replay(struct trace_file *tf, const struct report_hist_opts *o, bool keep,
			     const char *prog, FILE *err, int *status)
{
	struct replay *r = replay_new(tf, prog, err);

	*status = 1;
	if (!r) {
		fprintf(err, "%s: out of memory\n", prog);
		return NULL;
	}
	/* Every definition and trigger is checked before a record is read: a
	 * refused one is a mistake in the command line. */
	for (size_t i = 0; i < o->nr_synths; i++)
		if (refused(replay_synth(r, o->synths[i]), status))
			goto fail;
	for (size_t i = 0; i < o->nr_hists; i++)
		if (refused(replay_hist(r, o->hists[i]), status))
			goto fail;
	if (keep && replay_register_formats(r)) {
		fprintf(err, "%s: the synthetic events' formats do not parse\n", prog);
		goto fail;
	}
	if (replay_run(r, keep))
		goto fail;
	*status = 0;
	return r;
fail:
	replay_free(r);
	return NULL;
}

int report_hist(struct trace_file *tf, const struct report_hist_opts *o, FILE *out, FILE *err)
{
	int rc;
	struct replay *r = report_replay(tf, o, false, "uft report", err, &rc);

	if (!r)
		return rc;
	rc = replay_print_hists(r, out) ? 1 : 0;
	replay_free(r);
	return rc;
}
