#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record / report / list on the demo program, end to end: the events each
# kind of demo activity must produce, trace-cmd reading the same file to the
# same lines, event selection, clocks, formats, the forked child's own pid, and
# exit codes. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"
have_tc=0
command -v trace-cmd >/dev/null && have_tc=1

# Event lines of a report as "TS COMM-PID [CPU] EVENT: BODY", single-spaced;
# uft's flags column (kernel latency format) is dropped, trace-cmd has none.
norm_uft() { awk '/^#/ { next } / \[[0-9]+\] / { ts = $4; sub(/:$/, "", ts); $3 = ""; $4 = ""; $0 = $0; $1 = $1; print ts, $0 }' "$@"; }
norm_tc() { awk '/ \[[0-9]+\] / { ts = $3; sub(/:$/, "", ts); $3 = ""; $0 = $0; $1 = $1; print ts, $0 }' "$@"; }
# Count of events named $2 in a normalized report $1.
count() { awk -v ev="$2:" '$4 == ev { n++ } END { print n + 0 }' "$1"; }
# Timestamps never go backwards in the merged output.
in_order() { awk '{ if ($1 + 0 < last) bad = 1; last = $1 + 0 } END { exit bad }' "$1"; }

# trace-cmd must print the same events (same comm-pid, CPU, timestamp, event
# and body). Events with equal timestamps may come in either order.
same_as_tc() { # FILE NORMALIZED-UFT-REPORT
	[ $have_tc = 1 ] || return 0
	trace-cmd report -i "$1" 2>/dev/null >"$tmp/tc.txt" || fail "trace-cmd report -i $1"
	norm_tc "$tmp/tc.txt" | LC_ALL=C sort -k1,1g -k2 >"$tmp/tc.norm"
	LC_ALL=C sort -k1,1g -k2 "$2" >"$tmp/uft.sorted"
	diff "$tmp/uft.sorted" "$tmp/tc.norm" >"$tmp/tc.diff" ||
		fail "trace-cmd and uft report differ on $1: $(head -20 "$tmp/tc.diff")"
}

record() { # OUT ARGS... -- runs uft record quietly, checks it worked
	local out=$1
	shift
	"$UFT" record -o "$out" "$@" -- "$DEMO" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
		fail "uft record $* exited $?: $(cat "$tmp/rec.err")"
}

# ---- the default recording: every demo event, counted by kind ----
record "$tmp/all.dat"
grep -q '^total: 37 events written, 37 recorded, 0 overrun, 0 dropped' "$tmp/rec.out" ||
	fail "record summary: $(cat "$tmp/rec.out")"
grep -q ' 2 processes$' "$tmp/rec.out" || fail "the forked child was not recorded"
"$UFT" report -i "$tmp/all.dat" >"$tmp/all.txt" || fail "uft report exited $?"
head -1 "$tmp/all.txt" | grep_q -x '# tracer: nop' || fail "report header: $(head -1 "$tmp/all.txt")"
grep -Eq "^# entries-in-buffer/entries-written: 37/37 +#P:$(getconf _NPROCESSORS_CONF)\$" \
	"$tmp/all.txt" || fail "entries line: $(grep entries "$tmp/all.txt")"
grep -q '^#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION$' "$tmp/all.txt" ||
	fail "no column header"
norm_uft "$tmp/all.txt" >"$tmp/all.norm"
[ "$(wc -l <"$tmp/all.norm")" -eq 37 ] || fail "$(wc -l <"$tmp/all.norm") event lines, want 37"
for want in start:1 worker_state:6 request:13 tick:12 batch:3 child:1 done:1; do
	n=$(count "$tmp/all.norm" "${want%:*}")
	[ "$n" = "${want#*:}" ] || fail "${want%:*}: $n events, want ${want#*:}"
done
in_order "$tmp/all.norm" || fail "report not in time order"
grep -q 'request: path=/api/users status=200 latency=' "$tmp/all.norm" || fail "request body"
grep -q 'worker_state: comm=worker-1 worker=1 state=1 prio=11 busy=1$' "$tmp/all.norm" ||
	fail "worker_state body"
grep -q 'batch: count=4 sum=20$' "$tmp/all.norm" || fail "batch body"
# Workers trace under their thread names.
[ "$(grep -c ' worker-[0-2]-[0-9]* ' "$tmp/all.norm")" -eq 33 ] || fail "worker comms"

# The fork child: its own pid, its own two events, the parent's status line.
parent=$(awk '$4 == "start:" { print $2 }' "$tmp/all.norm")
child=$(awk '$4 == "child:" { print $2 }' "$tmp/all.norm")
[ -n "$parent" ] && [ -n "$child" ] && [ "$parent" != "$child" ] ||
	fail "child event pid '$child' vs parent '$parent'"
grep -q " $child \[[0-9]*\] request: path=/child status=200 latency=42\$" "$tmp/all.norm" ||
	fail "the child's request is not under its pid $child"
[ "$(awk '$4 == "done:" { print $2 }' "$tmp/all.norm")" = "$parent" ] || fail "done pid"
ppid=$(sed -nE 's/.* child: ppid=([0-9]+)$/\1/p' "$tmp/all.norm")
[ "demo-$ppid" = "$parent" ] || fail "child says ppid=$ppid, parent is $parent"
same_as_tc "$tmp/all.dat" "$tmp/all.norm"

# Per-CPU views: --cpu N keeps exactly that CPU's lines.
total=0
for cpu in $(seq 0 $(($(getconf _NPROCESSORS_CONF) - 1))); do
	"$UFT" report --cpu "$cpu" -i "$tmp/all.dat" | norm_uft >"$tmp/cpu.norm"
	c=$(printf '[%03d]' "$cpu")
	[ "$(grep -cvF " $c " "$tmp/cpu.norm")" -eq 0 ] || fail "--cpu $cpu shows other CPUs"
	total=$((total + $(wc -l <"$tmp/cpu.norm")))
done
[ $total -eq 37 ] || fail "per-CPU reports add up to $total, want 37"

# ---- event selection ----
record "$tmp/req.dat" -e demo:request
"$UFT" report -i "$tmp/req.dat" | norm_uft >"$tmp/req.norm"
[ "$(wc -l <"$tmp/req.norm")" -eq 13 ] && [ "$(count "$tmp/req.norm" request)" -eq 13 ] ||
	fail "-e demo:request: $(awk '{ print $4 }' "$tmp/req.norm" | sort | uniq -c | tr '\n' ' ')"
same_as_tc "$tmp/req.dat" "$tmp/req.norm"

record "$tmp/notick.dat" -e 'demo:*' -e '!demo:tick'
"$UFT" report -i "$tmp/notick.dat" | norm_uft >"$tmp/notick.norm"
[ "$(count "$tmp/notick.norm" tick)" -eq 0 ] && [ "$(wc -l <"$tmp/notick.norm")" -eq 25 ] ||
	fail "-e 'demo:*' -e '!demo:tick': $(wc -l <"$tmp/notick.norm") events"

# ---- clocks ----
record "$tmp/mono.dat" -C mono
"$UFT" report -i "$tmp/mono.dat" | norm_uft >"$tmp/mono.norm"
[ "$(wc -l <"$tmp/mono.norm")" -eq 37 ] || fail "-C mono: $(wc -l <"$tmp/mono.norm") events"
awk '$1 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ { exit 1 }' "$tmp/mono.norm" || fail "-C mono timestamps"
in_order "$tmp/mono.norm" || fail "-C mono order"
# CLOCK_MONOTONIC: the recording happened in the last minute of uptime
# (which /proc/uptime gives to the hundredth, truncated).
up=$(cut -d' ' -f1 /proc/uptime)
awk -v up="$up" '$1 > up + 0.01 || $1 < up - 60 { exit 1 }' "$tmp/mono.norm" ||
	fail "-C mono timestamps are not CLOCK_MONOTONIC seconds (uptime $up)"
same_as_tc "$tmp/mono.dat" "$tmp/mono.norm"

record "$tmp/counter.dat" -C counter
"$UFT" report -i "$tmp/counter.dat" | norm_uft >"$tmp/counter.norm"
[ "$(wc -l <"$tmp/counter.norm")" -eq 37 ] || fail "-C counter: $(wc -l <"$tmp/counter.norm")"
# Raw counts (a few per event), not times.
awk '$1 !~ /^[0-9]+$/ || $1 > 1000 { exit 1 }' "$tmp/counter.norm" || fail "-C counter prints times"
in_order "$tmp/counter.norm" || fail "-C counter order"
same_as_tc "$tmp/counter.dat" "$tmp/counter.norm"

# ---- list ----
"$UFT" list -e "$DEMO" >"$tmp/list.txt" || fail "uft list -e $DEMO exited $?"
printf 'demo:%s\n' batch child 'done' request start tick worker_state >"$tmp/list.want"
sort "$tmp/list.txt" | diff - "$tmp/list.want" >/dev/null || fail "uft list -e: $(cat "$tmp/list.txt")"
"$UFT" list -i "$tmp/all.dat" | sort | diff - "$tmp/list.want" >/dev/null || fail "uft list -i"
"$UFT" list -F -i "$tmp/all.dat" >"$tmp/formats.txt" || fail "uft list -F exited $?"
[ "$(grep -c '^name: ' "$tmp/formats.txt")" -eq 7 ] || fail "list -F: $(grep -c '^name: ' "$tmp/formats.txt") formats"
grep -A12 '^name: request$' "$tmp/formats.txt" >"$tmp/request.fmt"
for f in 'field:unsigned short common_type;	offset:0;	size:2;	signed:0;' \
	'field:int common_pid;	offset:4;	size:4;	signed:1;' \
	'field:__data_loc char\[\] path;' 'field:int status;' 'field:uint64_t latency;'; do
	grep -q "	$f" "$tmp/request.fmt" || fail "request format lacks '$f'"
done
"$UFT" list -F --full -i "$tmp/all.dat" >"$tmp/full.txt"
grep -q '^print fmt: "path=%s status=%d latency=%llu"' "$tmp/full.txt" ||
	fail "list -F --full: no print fmt"

# ---- exit codes ----
expect_rc() { # WANT CMD... : the command's exit status must be WANT
	local want=$1
	shift
	"$@" >/dev/null 2>&1
	local rc=$?
	[ $rc -eq "$want" ] || fail "'$*' exited $rc, want $want"
}
expect_rc 0 "$UFT" record -q -o "$tmp/q.dat" -- "$DEMO"
expect_rc 3 "$UFT" record -q -o "$tmp/q.dat" -- sh -c 'exit 3' # the program's status
expect_rc 2 "$UFT" record -q -o "$tmp/none.dat" -- "$tmp/no-such-program" # nothing run
[ ! -e "$tmp/none.dat" ] || fail "a file written for a program that does not exist"
expect_rc 2 "$UFT" record --no-such-option -- "$DEMO"
expect_rc 2 "$UFT" record -C no-such-clock -- "$DEMO"
expect_rc 2 "$UFT" record -M sideways -- "$DEMO"
expect_rc 2 "$UFT" record -b 0 -- "$DEMO"
expect_rc 2 "$UFT" record -o "$tmp/q.dat"
expect_rc 2 "$UFT" report -i "$tmp/no-such-file.dat"
expect_rc 2 "$UFT" report --cpu x -i "$tmp/all.dat"
expect_rc 2 "$UFT" list -e "$tmp/no-such-program"
expect_rc 0 "$UFT" list -t
expect_rc 2 "$UFT" list -e '(' -i "$tmp/all.dat" # a bad regular expression
expect_rc 2 "$UFT" no-such-command
expect_rc 2 "$UFT" record -q -e demo:nope -e demo:request -o "$tmp/q.dat" -- "$DEMO"
"$UFT" record -q -e demo:nope -e demo:request -o "$tmp/q.dat" -- "$DEMO" >/dev/null 2>"$tmp/nope.txt"
grep -qx "uft record: no event matches 'demo:nope'" "$tmp/nope.txt" || fail "no error for demo:nope"
printf 'not a trace' >"$tmp/garbage.dat"
expect_rc 2 "$UFT" report -i "$tmp/garbage.dat"
[ $have_tc = 1 ] || echo "trace-cmd not installed: its comparisons skipped"
echo ok
