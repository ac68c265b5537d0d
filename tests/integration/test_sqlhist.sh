#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft sqlhist: statements resolved against a recording of the demo program
# print the kernel's shell commands (a histogram, and a JOIN with a fixed
# seed); mistakes exit 2 with a message and a caret; -e over a file prints
# the result. Against the running example server: -p prints uft ctl commands
# and -e installs a histogram, or for a JOIN the synthetic event and the two
# triggers that emit it (a self-join: the gap of an event to itself is 0).
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"
DEMO=$B/bin/demo
[ -x "$DEMO" ] || {
	echo "skip: build $B first"
	exit 77
}
u() { "$UFT" "$@"; }

u record -o "$tmp/t.dat" -- "$DEMO" >/dev/null 2>"$tmp/rec.err" || fail "record: $(cat "$tmp/rec.err")"

u sqlhist -i "$tmp/t.dat" 'select path, cast(latency as _COUNTER_) from request where status == 200' \
	>"$tmp/h.txt" || fail "histogram statement"
echo "echo 'hist:keys=path:vals=latency if status == 200' >> /sys/kernel/tracing/events/demo/request/trigger" |
	cmp -s - "$tmp/h.txt" || fail "histogram: $(cat "$tmp/h.txt")"

u sqlhist -i "$tmp/t.dat" -t /tmp/tfs -B inst 'SELECT CAST(common_pid AS EXECNAME), worker FROM demo.tick' \
	>"$tmp/h2.txt" || fail "-t/-B statement"
echo "echo 'hist:keys=common_pid.execname,worker' >> /tmp/tfs/instances/inst/events/demo/tick/trigger" |
	cmp -s - "$tmp/h2.txt" || fail "-t/-B: $(cat "$tmp/h2.txt")"

UFT_SQLHIST_SEED=4242 u sqlhist -i "$tmp/t.dat" -n req_lat \
	'SELECT e.path, (e.TIMESTAMP_USECS - s.TIMESTAMP_USECS) AS lat FROM tick AS s
	 JOIN request AS e ON s.common_pid = e.common_pid WHERE s.worker = 1, e.status != 404' \
	>"$tmp/j.txt" || fail "JOIN statement"
cat >"$tmp/want.txt" <<'X'
echo 's:req_lat char path[]; u64 lat;' >> /sys/kernel/tracing/dynamic_events
echo 'hist:keys=common_pid:__arg_4242_1=common_timestamp.usecs if worker == 1' >> /sys/kernel/tracing/events/demo/tick/trigger
echo 'hist:keys=common_pid:__path_4242_2=path,__lat_4242_3=common_timestamp.usecs-$__arg_4242_1:onmatch(demo.tick).trace(req_lat,$__path_4242_2,$__lat_4242_3) if status != 404' >> /sys/kernel/tracing/events/demo/request/trigger
X
cmp -s "$tmp/want.txt" "$tmp/j.txt" || fail "JOIN: $(diff "$tmp/want.txt" "$tmp/j.txt")"
# --seed wins over the environment; -f - reads standard input
echo 'SELECT e.path FROM tick AS s JOIN request AS e ON s.common_pid = e.common_pid' |
	UFT_SQLHIST_SEED=1 u sqlhist -i "$tmp/t.dat" --seed 7 -f - >"$tmp/j2.txt" || fail "-f -"
grep -q "trace(Anonymous,\$__path_7_1)'" "$tmp/j2.txt" || fail "--seed: $(cat "$tmp/j2.txt")"

u sqlhist -i "$tmp/t.dat" 'SELECT nosuch FROM request' 2>"$tmp/err" >/dev/null
[ $? = 2 ] || fail "unknown field: not exit 2"
printf "uft sqlhist: error: demo.request has no field 'nosuch'\n  SELECT nosuch FROM request\n         ^\n" |
	cmp -s - "$tmp/err" || fail "error text: $(cat "$tmp/err")"
u sqlhist -i "$tmp/t.dat" 'SELECT path FROM request, tick' 2>"$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "expected JOIN, WHERE or the end, found ','" "$tmp/err" || fail "syntax: $(cat "$tmp/err")"
# -i -e: applied to the file; a statement without JOIN prints its histogram,
# the same as uft report --hist with the trigger it translates to
u sqlhist -i "$tmp/t.dat" -e 'SELECT path FROM request' >"$tmp/fe.txt" || fail "-i -e"
u report -i "$tmp/t.dat" --hist 'demo:request:keys=path' >"$tmp/fe_want.txt" || fail "report --hist"
cmp -s "$tmp/fe_want.txt" "$tmp/fe.txt" || fail "-i -e: $(diff "$tmp/fe_want.txt" "$tmp/fe.txt")"
grep -q '^# trigger info: hist:keys=path:vals=hitcount:sort=hitcount:size=2048 \[active\]$' "$tmp/fe.txt" ||
	fail "-i -e trigger info: $(cat "$tmp/fe.txt")"
u sqlhist -i "$tmp/t.dat" -e 'SELECT path FROM request' -x 2>"$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "after a statement: -n NAME SQL, found '-x'" "$tmp/err" || fail "-i -e extra: $(cat "$tmp/err")"
u sqlhist -i "$tmp/t.dat" -e -B inst 'SELECT path FROM request' 2>"$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "runs over the file: -B and -t do not apply" "$tmp/err" || fail "-i -e -B: $(cat "$tmp/err")"
u sqlhist -i "$tmp/t.dat" -e --hist 'keys=path' 'SELECT path FROM request' 2>"$tmp/err" >/dev/null
[ $? = 2 ] && grep -q "the last statement makes no synthetic event" "$tmp/err" || fail "--hist without JOIN: $(cat "$tmp/err")"

# A running process.
start_server
u sqlhist -p "$pid" 'SELECT bytes FROM reply WHERE bytes > 10' >"$tmp/p.txt" || fail "-p"
echo "uft ctl -p $pid write -a events/server/reply/trigger 'hist:keys=bytes if bytes > 10'" |
	cmp -s - "$tmp/p.txt" || fail "-p output: $(cat "$tmp/p.txt")"
u sqlhist -p "$pid" -e 'SELECT bytes FROM reply WHERE bytes > 10' >/dev/null || fail "-e histogram"
u ctl -p "$pid" cat events/server/reply/trigger | grep_q '^hist:keys=bytes:vals=hitcount:.* if bytes > 10 \[active\]$' ||
	fail "trigger not installed: $(u ctl -p "$pid" cat events/server/reply/trigger)"
u sqlhist -p "$pid" -e -n gap 'SELECT e.n, (e.TIMESTAMP_USECS - s.TIMESTAMP_USECS) AS d
	FROM reply AS s JOIN reply AS e ON s.common_pid = e.common_pid' >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] || fail "JOIN -e: exit $rc: $(cat "$tmp/err")"
u ctl -p "$pid" cat dynamic_events | grep_q '^s:synthetic/gap' || fail "synthetic event missing"
# The synthetic event, once enabled, is emitted by the end event's onmatch.
u ctl -p "$pid" write events/synthetic/gap/enable 1 || fail "enable gap"
for _ in $(seq 100); do
	u show -p "$pid" | grep_q ' gap: n=[0-9]* d=0$' && break
	sleep 0.05
done
u show -p "$pid" | grep_q ' gap: n=[0-9]* d=0$' || fail "no gap events: $(u show -p "$pid" | tail -3)"
exit 0
