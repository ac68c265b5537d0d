/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The noise detector's share of the CPU. */
#include "latency/osn_detect.h"

uint64_t osn_available_e5(uint64_t runtime, uint64_t noise)
{
	if (!runtime)
		return 0;
	if (noise > runtime)
		noise = runtime;
	/* 100 * 100000 * (runtime - noise) / runtime without overflow for
	 * runtimes up to 1.8e11 ns: split the multiplication. */
	unsigned __int128 v = (unsigned __int128)(runtime - noise) * 10000000u;
	return (uint64_t)(v / runtime);
}
