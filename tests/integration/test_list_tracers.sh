#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The function tracers are offered only where there is something to patch: a
# program built without -fpatchable-function-entry lists only nop in its
# available_tracers and in `uft list -t`, refuses current_tracer=function
# (EINVAL, as a tracer the kernel does not have), and `uft record -p` on it
# names the compiler flag. A program built with it offers all three. Exit 0
# pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"
# A sanitizer build's libuft needs its runtime in the program built here.
need_plain_build "the test builds a plain program"
CC=${CC:-cc}
command -v "$CC" >/dev/null || {
	echo "skip: no C compiler"
	exit 77
}
cat >"$tmp/plain.c" <<'C'
#include <unistd.h>
#include <uft/uft.h>
int main(int argc, char **argv)
{
	UFT_TRACE(plain, hello, "argc=%d", argc);
	if (argc > 1)
		sleep(30);
	return 0;
}
C
LIB=$(realpath "$B/lib")
"$CC" -Iinclude -I"$B/gen" -o "$tmp/plain" "$tmp/plain.c" -L"$LIB" -luft -Wl,-rpath,"$LIB" ||
	fail "cannot build the plain program"

[ "$("$UFT" list -t)" = "timerlat osnoise function_graph wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff irqsoff function nop" ] || fail "uft list -t: $("$UFT" list -t)"
[ "$("$UFT" list -t "$DEMO")" = "timerlat osnoise function_graph wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff irqsoff function nop" ] ||
	fail "uft list -t demo: $("$UFT" list -t "$DEMO")"
[ "$("$UFT" list -t "$tmp/plain")" = "timerlat osnoise wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff irqsoff nop" ] || fail "uft list -t plain: $("$UFT" list -t "$tmp/plain")"
# A dynamic program without libuft gets it preloaded, and has nothing to patch.
[ "$("$UFT" list -t true)" = "timerlat osnoise wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff irqsoff nop" ] || fail "uft list -t true: $("$UFT" list -t true 2>&1)"

"$UFT" record -p function_graph -o "$tmp/x.dat" -- "$tmp/plain" >"$tmp/out" 2>&1
grep -q 'function_graph: no function of this program can be traced: .*-fpatchable-function-entry=5' \
	"$tmp/out" || fail "record -p on the plain program: $(cat "$tmp/out")"

export UFT_RUNDIR=$tmp/run
"$tmp/plain" wait &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 200); do
	[ -S "$UFT_RUNDIR/$pid.sock" ] && break
	sleep 0.05
done
[ "$("$UFT" ctl -p $pid cat available_tracers)" = "timerlat osnoise wakeup_dl wakeup_rt wakeup preemptirqsoff preemptoff irqsoff nop" ] || fail "available_tracers of the plain program"
"$UFT" ctl -p $pid write current_tracer function 2>"$tmp/err" && fail "current_tracer=function accepted"
grep_q 'Invalid argument' "$tmp/err" || fail "current_tracer=function: $(cat "$tmp/err")"
[ "$("$UFT" ctl -p $pid cat current_tracer)" = nop ] || fail "current_tracer changed"
exit 0
