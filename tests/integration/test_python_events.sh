#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Python module python/uft_events.py: an event defined at run time from
# Python, its enable flag, records read back from the process's own tree
# (uft ctl) byte for byte, hostile payloads refused; the same events
# recorded by uft record and read alike by uft report and trace-cmd report;
# and the kernel forwarding option's refusal where the kernel has no
# user_events. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/tracecmd.sh"
have_tc=0
command -v trace-cmd >/dev/null && have_tc=1
need
command -v python3 >/dev/null || {
	echo "skip: no python3"
	exit 77
}
need_plain_build "python3 cannot load a sanitizer's libuft"
export UFT_RUNDIR=$tmp/run UFT=$UFT PYTHONPATH=$PWD/python UFT_LIBUFT=$PWD/$B/lib/libuft.so
mkdir -m 700 "$UFT_RUNDIR"
PY=tests/integration/python_events.py

# ---- in-process: ctl reads the records back ----
timeout 60 python3 "$PY" check >"$tmp/check.out" 2>&1 || fail "$(cat "$tmp/check.out")"
grep_q -x "python events: ok" "$tmp/check.out" || fail "$(cat "$tmp/check.out")"

# ---- uft record, uft report, trace-cmd report ----
want=$'pyev: n=1 delta=-2 tag=py msg=hello note=a\npyev: n=2 delta=1099511627776 tag=abcdefgh msg= note=note two\npyev: n=300 delta=0 tag=x msg=with spaces and = signs note='
"$UFT" record -e 'user_events:pyev' -o "$tmp/py.dat" -- python3 "$PY" emit \
	>"$tmp/rec.out" 2>"$tmp/rec.err" || fail "uft record: $(cat "$tmp/rec.err" "$tmp/rec.out")"
"$UFT" report -i "$tmp/py.dat" >"$tmp/r.txt" || fail "uft report exited $?"
norm_uft "$tmp/r.txt" >"$tmp/r.norm"
got=$(grep -o 'pyev: .*' "$tmp/r.norm")
[ "$got" = "$want" ] || fail "uft report: got
$got"
if [ $have_tc = 1 ]; then
	same_as_tc "$tmp/py.dat" "$tmp/r.norm"
	trace-cmd report -i "$tmp/py.dat" 2>/dev/null | grep -o 'pyev: .*' | sed -E 's/^pyev: +/pyev: /' >"$tmp/tc.body"
	[ "$(cat "$tmp/tc.body")" = "$want" ] || fail "trace-cmd report: $(cat "$tmp/tc.body")"
else
	echo "no trace-cmd: its report not compared"
fi

# ---- the kernel option ----
kdata=/sys/kernel/tracing/user_events_data
if [ -w "$kdata" ]; then
	UFT_USER_EVENTS_KERNEL=1 python3 -c 'import uft_events; uft_events.Event("uftpyk u32 a")' \
		2>"$tmp/k.err" || fail "kernel forwarding: $(cat "$tmp/k.err")"
	grep_q '^u:uftpyk u32 a' /sys/kernel/tracing/dynamic_events ||
		fail "uftpyk not registered with the kernel"
else
	UFT_USER_EVENTS_KERNEL=1 python3 -c 'import uft_events; uft_events.Event("uftpyk u32 a")' \
		2>"$tmp/k.err" || fail "registration with the option set failed: $(cat "$tmp/k.err")"
	grep_q -x "uft: user_events: UFT_USER_EVENTS_KERNEL=1, but the kernel's user_events_data cannot be opened (.*); events are recorded by uft alone" \
		"$tmp/k.err" || fail "no refusal message: $(cat "$tmp/k.err")"
	echo "skip part: the kernel offers no user_events ($kdata not writable): forwarding to it not tested"
fi
echo "python events: pass"
