#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft top on tests/traced/top_prog.c, whose counts are known: batch frames
# (events per event and per thread, functions of the function tracer and of
# the profiler, a hist trigger's table, loss counters, the end when the
# process exits), refused arguments, and the terminal view under tmux (its
# header and rows, the s, p and q keys). Counts are checked, never rates or
# times. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

PROG=$B/tests/top_prog
[ -x "$PROG" ] || {
	echo "skip: build $B/tests/top_prog first (make tests-bin)"
	exit 77
}
u() { "$UFT" "$@"; }

# Starts top_prog with its events on; its pid in $pid, its rounds file $rounds.
start_prog() {
	rounds=$tmp/rounds.$RANDOM
	"$PROG" "$rounds" &
	pid=$!
	pids+=("$pid")
	wait_socket "$pid"
	u start -p "$pid" -e 'top:*' || fail "uft start"
}
# Waits until $1 holds the pattern $2.
wait_for() {
	for _ in $(seq 400); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "no '$2' in $1: $(tail -30 "$1" 2>/dev/null)"
}
# Asks for round $1 and waits until the program has written it.
round() {
	kill -USR1 "$pid"
	for _ in $(seq 400); do
		[ "$(cat "$rounds" 2>/dev/null)" = "$1" ] && return 0
		sleep 0.05
	done
	fail "top_prog did not finish round $1"
}
# The last frame of a batch output.
last_frame() { awk '/^uft top - frame /{f=""} {f=f $0 "\n"} END{printf "%s", f}' "$1"; }
# The TOTAL column (the last) of the row whose first field is $2 in frame text $1.
total() { awk -v k="$2" '$1==k{print $NF; exit}' <<<"$1"; }

# ---- refused arguments: exit 2, nothing on standard output ----
for args in "-d 0" "-d abc" "-d -1" "-n 0" "-n x" "-p abc" "-p 999999999" "-p 1,abc" \
	"-a -p 1" "extra"; do
	# shellcheck disable=SC2086
	u top -b $args >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc = 2 ] || fail "uft top $args: exit $rc, not 2"
	[ -s "$tmp/o" ] && fail "uft top $args printed: $(cat "$tmp/o")"
	[ -s "$tmp/e" ] || fail "uft top $args: no message"
done
u top -h | grep_q '^usage: uft top' || fail "uft top -h"

# ---- batch mode: counts, functions, hist, the process's end ----
start_prog
u ctl -p "$pid" write set_ftrace_filter top_leaf || fail "set_ftrace_filter"
u ctl -p "$pid" write current_tracer function || fail "current_tracer"
u ctl -p "$pid" write events/top/beta/trigger 'hist:keys=n' || fail "hist trigger"
u top -p "$pid" -b -d 0.2 >"$tmp/b.out" 2>"$tmp/b.err" &
top=$!
pids+=("$top")
wait_for "$tmp/b.out" '^uft top - frame 1,'
grep -q $'\033' "$tmp/b.out" && fail "batch mode wrote terminal codes"
round 1
# The first round's calls from the records, seen before the profiler is on.
wait_for "$tmp/b.out" '^top_leaf .* 50$'
# The second round under the profiler: its 50 calls come from trace_stat.
u ctl -p "$pid" write function_profile_enabled 1 || fail "function_profile_enabled"
# Seen by a whole frame before the round: its calls are not counted twice.
wait_for "$tmp/b.out" '^FUNCTION .* TIME us$'
round 2
wait_for "$tmp/b.out" '^top:beta .* 400$'
kill -TERM "$pid"
wait "$top"
rc=$?
[ $rc = 0 ] || fail "uft top exit $rc after the process ended: $(cat "$tmp/b.err")"
grep -q "^uft top: process $pid (top_prog) exited$" "$tmp/b.err" ||
	fail "no exit message: $(cat "$tmp/b.err")"
f=$(last_frame "$tmp/b.out")
[ "$(total "$f" top:alpha)" = 800 ] || fail "top:alpha total: $f"
[ "$(total "$f" top:beta)" = 400 ] || fail "top:beta total: $f"
[ "$(total "$f" ftrace:function)" = 100 ] || fail "ftrace:function total: $f"
[ "$(awk '$1=="top_leaf"{print $4}' <<<"$f")" = 100 ] || fail "top_leaf calls (records, then the profiler): $f"
[ "$(awk -v p="$pid" '$1=="top_prog" && $2==p && $3==p {print $NF}' <<<"$f")" = 700 ] ||
	fail "main thread total: $f"
[ "$(awk -v p="$pid" '$1=="topworker" && $2==p {print $NF}' <<<"$f")" = 600 ] ||
	fail "worker thread total: $f"
grep -q "^PID $pid (top_prog): tracer function, tracing on, .* 1300 in all, exited$" <<<"$f" ||
	fail "process line: $f"
grep -q "^  lost since top began: 0 overrun, 0 dropped, 0 unwritable;" <<<"$f" ||
	fail "loss line: $f"
grep -q "^HIST top:beta (pid $pid)$" <<<"$f" || fail "no hist section: $f"
[ "$(grep -c '^  { n: *[0-3] } hitcount: *100$' <<<"$f")" = 4 ] || fail "hist rows: $f"
grep -q '^ *Hits: 400$' <<<"$f" || fail "hist totals: $f"

# -n: that many frames, then exit 0 while the process runs on.
start_prog
u top -p "$pid" -b -d 0.1 -n 3 >"$tmp/n.out" || fail "uft top -n 3"
[ "$(grep -c '^uft top - frame ' "$tmp/n.out")" = 3 ] || fail "-n 3 frames: $(cat "$tmp/n.out")"
kill -0 "$pid" || fail "the process did not outlive uft top"

# Loss: an 8 KiB overwriting ring per thread (4 asked) and two rounds of 300
# events in each thread.
u ctl -p "$pid" write buffer_size_kb 4 || fail "buffer_size_kb"
u top -p "$pid" -b -d 0.2 >"$tmp/l.out" 2>&1 &
top=$!
pids+=("$top")
wait_for "$tmp/l.out" '^uft top - frame 1,'
round 1
round 2
wait_for "$tmp/l.out" '^  lost since top began: [1-9][0-9]* overrun'
grep -q '^note: some events were overwritten' "$tmp/l.out" || fail "no partial-count note"
kill "$top"
wait "$top" 2>/dev/null

# -a: every traceable process as they come and go; one that exits is noted
# and dropped, and top goes on.
start_prog
p1=$pid
u top -a -b -d 0.2 >"$tmp/a.out" 2>&1 &
top=$!
pids+=("$top")
wait_for "$tmp/a.out" '^uft top - frame 1,'
grep -q "^PID $p1 (top_prog): " "$tmp/a.out" || fail "-a: no line for $p1: $(cat "$tmp/a.out")"
start_prog
p2=$pid
wait_for "$tmp/a.out" "^PID $p2 (top_prog): "
kill -TERM "$p2"
wait_for "$tmp/a.out" "^process $p2 (top_prog) exited$"
kill -0 "$top" 2>/dev/null || fail "-a: uft top ended with a process"
kill "$top"
wait "$top" 2>/dev/null

# ---- the terminal view under tmux ----
if ! command -v tmux >/dev/null; then
	echo "skip (tmux part): no tmux (scripts/deps.sh installs it)"
	exit 0
fi
start_prog
sock=uft-top-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
on_exit() { tm kill-server 2>/dev/null; }
tm new-session -d -s top -x 120 -y 50 \
	"UFT_RUNDIR=$UFT_RUNDIR $UFT top -p $pid -d 0.2; echo rc=\$? >$tmp/t.rc; sleep 30" ||
	fail "tmux new-session"
pane() { tm capture-pane -p -t top; }
wait_pane() {
	for _ in $(seq 400); do
		pane >"$tmp/pane"
		grep -q -- "$1" "$tmp/pane" && return 0
		sleep 0.05
	done
	fail "no '$1' in the pane: $(cat "$tmp/pane")"
}
wait_pane '^uft top - frame [0-9]*, every 0.2 s .*sort RATE$'
wait_pane '^keys: s or > next sort column'
grep -q "^PID $pid (top_prog): tracer nop, tracing on" "$tmp/pane" || fail "pane header: $(cat "$tmp/pane")"
grep -q '^EVENT  *RATE/s  *COUNT  *TOTAL$' "$tmp/pane" || fail "pane events header"
round 1
wait_pane '^top:alpha  *[0-9.]*  *[0-9]*  *400$'
wait_pane '^topworker  *'"$pid"' '
# s: the next column; the header says so at once.
tm send-keys -t top s
wait_pane 'sort TOTAL$'
tm send-keys -t top '>'
wait_pane 'sort NAME$'
tm send-keys -t top '<'
wait_pane 'sort TOTAL$'
# Under TOTAL, top:alpha (400) comes before top:beta (200).
[ "$(grep -E '^top:(alpha|beta) ' "$tmp/pane" | awk '{print $1}' | tr '\n' ' ')" = "top:alpha top:beta " ] ||
	fail "order under TOTAL: $(cat "$tmp/pane")"
# p: paused, the frame stays while events come; p again goes on.
tm send-keys -t top p
wait_pane '\[paused\]$'
n1=$(sed -n 's/^uft top - frame \([0-9]*\),.*/\1/p' "$tmp/pane")
round 2
sleep 1
pane >"$tmp/pane"
n2=$(sed -n 's/^uft top - frame \([0-9]*\),.*/\1/p' "$tmp/pane")
[ "$n1" = "$n2" ] || fail "frames went on while paused ($n1 -> $n2)"
grep -q '^top:alpha .* 400$' "$tmp/pane" || fail "a paused frame changed: $(cat "$tmp/pane")"
tm send-keys -t top p
wait_pane '^top:alpha .* 800$'
grep -q '\[paused\]' "$tmp/pane" && fail "still paused"
# q: top ends with status 0.
tm send-keys -t top q
for _ in $(seq 200); do
	[ -s "$tmp/t.rc" ] && break
	sleep 0.05
done
[ "$(cat "$tmp/t.rc" 2>/dev/null)" = rc=0 ] || fail "q: $(cat "$tmp/t.rc" 2>/dev/null)"
echo "PASS"
