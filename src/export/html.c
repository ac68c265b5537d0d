/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uft report --html: one page that needs no network. The pass streams the
 * timeline's events (calls as [track, start, length, name, depth], instants
 * with length -1) into a JSON script element as it reads, up to
 * HTML_MAX_EVENTS (the rest counted, not shown); at the end come the
 * threads and names, the flame graph of the call tree (flame_write) and
 * the --hist texts the caller ran, then the page's script, which draws the
 * timeline and turns each hist text into a table with bars. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/flame_svg.h"
#include "export/html.h"
#include "export/html_assets.h"
#include "export/json_out.h"
#include "export/names.h"

struct html {
	struct calltree ct; /* first: the tree's callbacks get the page */
	struct exp_sink tree;
	FILE *out;
	const char *title;
	const struct html_hist *hists;
	size_t nr_hists;
	struct names names;
	uint64_t shown, omitted;
	size_t max_events;
};

static int put_event(struct html *h, uint32_t track, uint64_t ts, int64_t dur, const char *name,
		     uint32_t depth)
{
	if (h->shown >= h->max_events) {
		h->omitted++;
		return 0;
	}
	uint32_t id = names_intern(&h->names, name, strlen(name));
	if (id == UINT32_MAX)
		return -ENOMEM;
	fprintf(h->out, "%s[%u,%llu,%lld,%u,%u]", h->shown ? ",\n" : "", track,
		(unsigned long long)ts, (long long)dur, id, depth);
	h->shown++;
	return 0;
}

static int h_begin(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f)
{
	struct html *h = ctx;
	return h->tree.begin(ctx, x, t, f);
}

static int h_end(void *ctx, struct exp *x, struct exp_thread *t, struct exp_frame *f, uint64_t ts)
{
	struct html *h = ctx;
	int rc = h->tree.end(ctx, x, t, f, ts);
	int64_t dur = ts > f->ts ? (int64_t)(ts - f->ts) : 0;
	return rc ? rc : put_event(h, t->idx, f->ts, dur, exp_name(x, f->name), t->depth - 1);
}

static int h_complete(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts, uint64_t dur,
		      uint64_t self, uint32_t name)
{
	struct html *h = ctx;
	int rc = h->tree.complete(ctx, x, t, ts, dur, self, name);
	return rc ? rc : put_event(h, t->idx, ts, (int64_t)dur, exp_name(x, name), t->depth);
}

static int h_instant(void *ctx, struct exp *x, struct exp_thread *t, const struct exp_rec *r)
{
	(void)x;
	return put_event(ctx, t->idx, r->ts, -1, r->name, 0);
}

static int h_stack(void *ctx, struct exp *x, struct exp_thread *t, uint64_t ts,
		   const uint32_t *names, size_t n)
{
	struct html *h = ctx;
	return h->tree.stack(ctx, x, t, ts, names, n);
}

static void json_strz(FILE *f, const char *s)
{
	json_str(f, s, strlen(s));
}

/* The threads (by first appearance) and the names, as the script reads
 * them. */
static void meta(struct html *h, struct exp *x, uint32_t nr_threads, const int *pids)
{
	FILE *f = h->out;
	fprintf(f,
		"\n]</script>\n<script id=\"meta\" type=\"application/json\">{\"omitted\":%llu,"
		"\"clock\":\"%s\",\"threads\":[",
		(unsigned long long)h->omitted, exp_clock_ns(x) ? "ns" : "ticks");
	for (uint32_t i = 0; i < nr_threads; i++) {
		fprintf(f, "%s[%d,", i ? "," : "", pids[i]);
		json_strz(f, exp_comm(x, pids[i]));
		fputc(']', f);
	}
	fputs("],\"names\":[", f);
	for (uint32_t i = 0; i < h->names.n; i++) {
		if (i)
			fputc(',', f);
		json_strz(f, h->names.str[i]);
	}
	fputs("]}</script>\n", f);
}

static void hists(struct html *h)
{
	FILE *f = h->out;
	fprintf(f, "<section id=\"hists\"><h2>Histograms</h2>\n");
	if (!h->nr_hists)
		fputs("<p class=\"none\">No --hist given.</p>\n", f);
	for (size_t i = 0; i < h->nr_hists; i++) {
		fputs("<div class=\"hist\"><h3>", f);
		xml_text(f, h->hists[i].spec);
		fputs("</h3><pre class=\"hist-text\">", f);
		xml_text(f, h->hists[i].text);
		fputs("</pre></div>\n", f);
	}
	fputs("</section>\n", f);
}

static int h_finish(void *ctx, struct exp *x)
{
	struct html *h = ctx;
	uint32_t n = exp_nr_threads(x);
	int *pids = malloc((n ? n : 1) * sizeof(*pids));
	if (!pids)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		pids[i] = exp_thread_pid(x, i);
	meta(h, x, n, pids);
	free(pids);
	fputs("<section id=\"flamegraph\"><h2>Flame graph</h2>\n", h->out);
	int rc = flame_write(&h->ct, FLAME_BY_AUTO, h->title, x, h->out, true);
	if (rc)
		return rc;
	fputs("</section>\n", h->out);
	hists(h);
	fprintf(h->out, "<script>%s</script>\n</body>\n</html>\n", html_script);
	return ferror(h->out) ? -EIO : 0;
}

static void head(struct html *h)
{
	FILE *f = h->out;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>uft "
	      "report: ",
	      f);
	xml_text(f, h->title);
	fprintf(
	    f,
	    "</title>\n<style>%s</style>\n<script>%s</script>\n</head>\n<body>\n<h1>uft report: ",
	    html_style, html_error_hook);
	xml_text(f, h->title);
	fputs("</h1>\n<p id=\"summary\"></p>\n<section id=\"timeline-sec\"><h2>Timeline</h2>\n"
	      "<div id=\"controls\"><button id=\"zin\">Zoom in</button><button id=\"zout\">Zoom "
	      "out</button><button id=\"zreset\">Reset</button> <span id=\"range\"></span> "
	      "<span class=\"hint\">wheel: zoom, drag: pan</span></div>\n"
	      "<div id=\"timeline\"></div><div id=\"tip\"></div></section>\n"
	      "<script id=\"events\" type=\"application/json\">[\n",
	      f);
}

int export_html(struct trace_file *tf, const struct exp_opts *o, const char *title,
		const struct html_hist *hv, size_t nr_hists, FILE *out, FILE *err)
{
	struct html h = {.out = out,
			 .title = title,
			 .hists = hv,
			 .nr_hists = nr_hists,
			 .max_events = HTML_MAX_EVENTS};
	calltree_sink(&h.ct, &h.tree);
	struct exp_sink s = {
	    .ctx = &h,
	    .begin = h_begin,
	    .end = h_end,
	    .complete = h_complete,
	    .instant = h_instant,
	    .stack = h_stack,
	    .finish = h_finish,
	};
	head(&h);
	int rc = exp_run(tf, o, &s, err);
	calltree_free(&h.ct);
	names_free(&h.names);
	return rc;
}
