/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Histograms over a trace.dat: synthetic events defined first, then each
 * --hist names an event (the file's or a synthetic one) and a hist
 * specification; records are fed in time order and the kernel's `hist`
 * text of every trigger is printed. Works on uft's files and on the
 * kernel's (trace-cmd). */
#include "report/report_hist.h"

struct replay *report_replay(struct trace_file *tf, const struct report_hist_opts *o, bool keep,
			     const char *prog, FILE *err)
{
	struct replay *r = replay_new(tf, prog, err);

	if (!r) {
		fprintf(err, "%s: out of memory\n", prog);
		return NULL;
	}
	for (size_t i = 0; i < o->nr_synths; i++)
		if (replay_synth(r, o->synths[i]))
			goto fail;
	for (size_t i = 0; i < o->nr_hists; i++)
		if (replay_hist(r, o->hists[i]))
			goto fail;
	if (keep && replay_register_formats(r)) {
		fprintf(err, "%s: the synthetic events' formats do not parse\n", prog);
		goto fail;
	}
	if (replay_run(r, keep))
		goto fail;
	return r;
fail:
	replay_free(r);
	return NULL;
}

int report_hist(struct trace_file *tf, const struct report_hist_opts *o, FILE *out, FILE *err)
{
	struct replay *r = report_replay(tf, o, false, "uft report", err);
	int rc;

	if (!r)
		return 1;
	rc = replay_print_hists(r, out) ? 1 : 0;
	replay_free(r);
	return rc;
}
