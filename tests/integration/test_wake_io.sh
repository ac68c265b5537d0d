#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The wakeup tracer's futex, eventfd and pipe wakes through libuft.so: `uft
# record -p wakeup` of wake_io_prog, whose thread io_waiter is woken through
# each in turn, keeps a max trace whose switch line is io_waiter's and whose
# closing stack starts at the waiting function; uft report and trace-cmd
# report print the file alike. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
PROG=$B/tests/wake_io_prog
need "$PROG"

export UFT_RUNDIR=$tmp/run
for kind in futex evfd evfd_lib pipe poll; do
	"$UFT" record -p wakeup -o "$tmp/$kind.dat" -- "$PROG" $kind >"$tmp/rec" 2>&1 ||
		fail "$kind: record: $(cat "$tmp/rec")"
	"$UFT" report -i "$tmp/$kind.dat" >"$tmp/rep" 2>&1 || fail "$kind: report: $(cat "$tmp/rep")"
	grep_q -E "^# latency: [0-9]+ us, #3/3, CPU#[0-9]+ " "$tmp/rep" || fail "$kind: latency line: $(cat "$tmp/rep")"
	grep_q -E "^#    \| task: io_waiter-[0-9]+ \(uid:[0-9]+ nice:-?[0-9]+ policy:0 rt_prio:0\)$" "$tmp/rep" ||
		fail "$kind: task line: $(cat "$tmp/rep")"
	grep_q -E "^io_waite-[0-9]+ +[0-9]\.{5} +[0-9]+us.: +[0-9]+:120:S ==> \[[0-9]{3}\] +[0-9]+:120:R io_waiter$" "$tmp/rep" ||
		fail "$kind: switch line: $(cat "$tmp/rep")"
	# (a sanitizer's interceptor, which calls libuft's wrapper, may come first)
	grep -A3 -E "^io_waite-[0-9]+ +[0-9]\.{5} +[0-9]+us.: <stack trace>$" "$tmp/rep" | tail -3 | tr '\n' '|' |
		grep_q -E "^( => [a-z_]+\|)? => io_wait_$kind\| => waiter\|" || fail "$kind: stack: $(cat "$tmp/rep")"
	if command -v trace-cmd >/dev/null 2>&1; then
		trace-cmd report -i "$tmp/$kind.dat" >"$tmp/tc" 2>&1 || fail "$kind: trace-cmd report: $(cat "$tmp/tc")"
		cmp -s "$tmp/rep" "$tmp/tc" || fail "$kind: trace-cmd report differs: $(diff "$tmp/rep" "$tmp/tc")"
	fi
done
exit 0
