/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A flame graph as one SVG file with its script inside: the call tree laid
 * out bottom-up (outermost calls at the bottom, each frame as wide as its
 * share of the total), click to zoom on a frame, Ctrl-F or the Search
 * button to highlight frames by regular expression, Escape or a click on
 * "all" to reset. Frames narrower than MIN_PX are left out and counted in
 * the subtitle. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/flame_svg.h"
#include "export/json_out.h"
#include "export/flame_script.h"

#define WIDTH 1200
#define FRAME_H 16
#define PAD_TOP 50
#define PAD_SIDE 10
#define MIN_PX 0.1

struct flame {
	struct calltree ct;
	enum flame_by by;
	const char *title;
	FILE *out;
	uint32_t max_depth;
	uint64_t omitted;
};

/* Warm colours from the name, the same for a name wherever it appears. */
static void colour(const char *name, unsigned *r, unsigned *g, unsigned *b)
{
	uint32_t h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	*r = 205 + h % 50;
	*g = (h >> 8) % 180;
	*b = (h >> 16) % 55;
}

static uint32_t depth_of(const struct calltree *ct, uint32_t i)
{
	uint32_t d = 0;
	for (; i != CT_ROOT; i = ct->v[i].parent)
		d++;
	return d;
}

static void frame(struct flame *fl, struct exp *x, uint32_t i, double x0, uint32_t depth)
{
	const struct ct_node *n = &fl->ct.v[i];
	const char *name = i == CT_ROOT ? "all" : exp_name(x, n->name);
	double total = (double)fl->ct.v[CT_ROOT].total;
	double w = total > 0 ? (double)n->total / total * (WIDTH - 2 * PAD_SIDE) : 0;
	double y = PAD_TOP + (double)(fl->max_depth - depth) * FRAME_H;
	unsigned r, g, b;
	colour(name, &r, &g, &b);
	fprintf(fl->out, "<g class=\"f\"><title>");
	xml_text(fl->out, name);
	fprintf(fl->out,
		" (%llu %s, %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
		"height=\"%d\" fill=\"rgb(%u,%u,%u)\" rx=\"2\"/><text x=\"%.2f\" y=\"%.0f\">",
		(unsigned long long)n->total, fl->by == FLAME_BY_TIME ? "ns" : "calls",
		total > 0 ? 100.0 * (double)n->total / total : 0.0, PAD_SIDE + x0, y, w,
		FRAME_H - 1, r, g, b, PAD_SIDE + x0 + 3, y + FRAME_H - 4);
	fputs("</text></g>\n", fl->out);
}

/* Every frame at least MIN_PX wide, depth first; x0 of each child runs on
 * from its previous sibling's end. */
static int frames(struct flame *fl, struct exp *x)
{
	struct calltree *ct = &fl->ct;
	double scale = ct->v[CT_ROOT].total
			   ? (double)(WIDTH - 2 * PAD_SIDE) / (double)ct->v[CT_ROOT].total
			   : 0;
	double *x0 = malloc(ct->n * sizeof(*x0));
	if (!x0)
		return -ENOMEM;
	x0[CT_ROOT] = 0;
	for (uint32_t i = 0; i < ct->n; i++) {
		/* Parents come before children in the array: x0[i] is set. */
		double at = x0[i];
		uint32_t depth = i == CT_ROOT ? 0 : depth_of(ct, i);
		if ((double)ct->v[i].total * scale >= MIN_PX)
			frame(fl, x, i, x0[i], depth);
		else if (ct->v[i].total)
			fl->omitted++;
		for (uint32_t c = ct->v[i].child; c != CT_NONE; c = ct->v[c].next) {
			x0[c] = at;
			at += (double)ct->v[c].total * scale;
		}
	}
	free(x0);
	return 0;
}

static void max_depth(struct flame *fl)
{
	for (uint32_t i = 1; i < fl->ct.n; i++) {
		uint32_t d = depth_of(&fl->ct, i);
		if (d > fl->max_depth && fl->ct.v[i].total)
			fl->max_depth = d;
	}
}

int flame_write(struct calltree *ct, enum flame_by by, const char *title, struct exp *x, FILE *f,
		bool inline_svg)
{
	struct flame fl = {.by = calltree_by(ct, by), .title = title, .out = f};
	fl.ct = *ct; /* the same arrays; fl.ct is not freed */
	int rc = calltree_link(&fl.ct, fl.by, x);
	*ct = fl.ct;
	if (rc)
		return rc;
	max_depth(&fl);
	unsigned h = PAD_TOP + (fl.max_depth + 1) * FRAME_H + 30;
	if (!inline_svg)
		fputs("<?xml version=\"1.0\" standalone=\"no\"?>\n", f);
	fprintf(
	    f,
	    "<svg id=\"flame\" version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%u\" viewBox=\"0 0 %d %u\" data-width=\"%d\" data-pad=\"%d\" "
	    "data-unit=\"%s\">\n<style>%s</style>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fdf8ee\"/>\n"
	    "<text id=\"title\" x=\"%d\" y=\"20\">",
	    WIDTH, h, WIDTH, h, WIDTH, PAD_SIDE, fl.by == FLAME_BY_TIME ? "ns" : "calls",
	    flame_style, WIDTH / 2);
	xml_text(f, title);
	fprintf(f, "</text>\n<text id=\"sub\" x=\"%d\" y=\"38\">by %s</text>\n", WIDTH / 2,
		fl.by == FLAME_BY_TIME ? "self time (ns)" : "count");
	fprintf(f,
		"<text id=\"search\" x=\"%d\" y=\"20\">Search</text>\n"
		"<text id=\"reset\" x=\"%d\" y=\"20\" visibility=\"hidden\">Reset zoom</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%u\"></text>\n<g id=\"frames\">\n",
		WIDTH - PAD_SIDE - 60, PAD_SIDE, WIDTH - PAD_SIDE - 160, h - 10);
	rc = frames(&fl, x);
	if (rc)
		return rc;
	if (!fl.ct.v[CT_ROOT].total)
		fprintf(f,
			"<text id=\"empty\" x=\"%d\" y=\"%d\">no function_graph calls or stack "
			"samples in this file</text>\n",
			PAD_SIDE, PAD_TOP);
	fprintf(f,
		"</g>\n<text id=\"omitted\" x=\"%d\" y=\"%u\">%llu frames narrower than %.1f px "
		"left out</text>\n",
		PAD_SIDE, h - 10, (unsigned long long)fl.omitted, MIN_PX);
	fprintf(f, "<script><![CDATA[%s]]></script>\n</svg>\n", flame_script);
	return ferror(f) ? -EIO : 0;
}

static int fl_finish(void *ctx, struct exp *x)
{
	struct flame *fl = ctx;
	return flame_write(&fl->ct, fl->by, fl->title, x, fl->out, false);
}

int export_flame_svg(struct trace_file *tf, const struct exp_opts *o, enum flame_by by,
		     const char *title, FILE *out, FILE *err)
{
	struct flame fl = {.by = by, .title = title, .out = out};
	struct exp_sink s;
	calltree_sink(&fl.ct, &s);
	s.finish = fl_finish;
	/* The callbacks take the tree, fl_finish the flame: the tree is its
	 * first member. */
	int rc = exp_run(tf, o, &s, err);
	calltree_free(&fl.ct);
	return rc;
}
