/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flame graph's SVG, for --flame and for the HTML report. */
#ifndef UFT_EXPORT_FLAME_SVG_H
#define UFT_EXPORT_FLAME_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "export/calltree.h"

/* Writes the tree (linked here) as an <svg id="flame"> with its script;
 * inline_svg leaves out the XML declaration (for an HTML page). 0 or
 * -errno. */
int flame_write(struct calltree *ct, enum flame_by by, const char *title, struct exp *x, FILE *f,
		bool inline_svg);

#endif
