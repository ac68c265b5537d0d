/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BENCH_PROBE_FN_H
#define BENCH_PROBE_FN_H
unsigned bp_sled(unsigned x, unsigned y);
unsigned bp_mid(unsigned x, unsigned y);
#define BP_MID_POINT 2 /* an instruction boundary inside bp_mid */
#endif
