/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The same call sites compiled in three files of test_events: the one that
 * creates the events, another one (the writer inline at the call site) and one
 * built with UFT_OUTLINE (a call to the writer). TEV_CALLS names the function. */
static const uint16_t tev_calls_arr[2] = {7, 65535};

void TEV_CALLS(int k);
void TEV_CALLS(int k)
{
	trace_all((int8_t)-k, 200, -300, 60000, -70000 - k, 4000000000u, -5000000000ll,
		  18000000000000000000ull, k & 1, (const void *)0x1234, k ? "named" : NULL,
		  tev_calls_arr);
}
