/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BENCH_FTRACE_FN_H
#define BENCH_FTRACE_FN_H
unsigned bf_plain(unsigned x);
unsigned bf_sled(unsigned x);
#endif
