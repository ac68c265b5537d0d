#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# timerlat and osnoise as tracers of a running process's tree, through the
# control socket and, where FUSE mounts, a mounted tree (cat and echo as on
# tracefs): the osnoise/ knobs and their EINVAL, the lines of the measuring
# threads, stop_tracing_total_us stopping tracing with the buffer kept, and
# `uft record -p timerlat` (both contexts) and `-p osnoise -e
# osnoise:sample_threshold` recording the records trace-cmd reads. Shapes
# only, never a timing. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

start_server
ctl() { "$UFT" ctl -p "$pid" "$@"; }
# waits for a line of `trace` matching the extended regex $1
wait_line() {
	for _ in $(seq 300); do
		ctl cat trace | grep_q -E "$1" && return 0
		sleep 0.05
	done
	fail "no line /$1/ in: $(ctl cat trace | head -20)"
}

ctl cat available_tracers | grep_q '^timerlat osnoise ' || fail "available_tracers: $(ctl cat available_tracers)"
[ "$(ctl cat osnoise/timerlat_period_us)" = 1000 ] || fail "timerlat_period_us: $(ctl cat osnoise/timerlat_period_us)"
ctl write osnoise/timerlat_period_us 10 2>"$tmp/err" && fail "timerlat_period_us 10 accepted"
grep_q 'Invalid argument' "$tmp/err" || fail "timerlat_period_us 10: $(cat "$tmp/err")"
ctl write osnoise/runtime_us 2000000 2>"$tmp/err" && fail "runtime over the period accepted"
ctl write osnoise/cpus 0 || fail "osnoise/cpus 0"

ctl write current_tracer timerlat || fail "current_tracer timerlat"
wait_line '#2 +context thread timer_latency +[0-9]+ ns$'
ctl cat trace | sed -n 10p | grep_q -xF '#           TASK-PID      CPU# |||||   TIMESTAMP   ID            CONTEXT                 LATENCY' ||
	fail "timerlat header: $(ctl cat trace | head -12)"
ctl cat trace | grep_q -E '^ +timerlat/0-[0-9]+ +\[000\] \.{5} +[0-9]+\.[0-9]{6}: #1     context thread timer_latency +[0-9]+ ns$' ||
	fail "timerlat line: $(ctl cat trace | head -14)"
ctl write osnoise/stop_tracing_total_us 1 || fail "stop_tracing_total_us"
for _ in $(seq 200); do
	[ "$(ctl cat tracing_on)" = 0 ] && break
	sleep 0.05
done
[ "$(ctl cat tracing_on)" = 0 ] || fail "tracing still on"
ctl cat trace | grep_q 'context thread' || fail "the buffer went with the stop"
ctl write osnoise/stop_tracing_total_us 0
ctl write tracing_on 1

ctl write osnoise/runtime_us 20000 || fail "runtime_us"
ctl write osnoise/period_us 50000 || fail "period_us"
ctl write current_tracer osnoise || fail "current_tracer osnoise"
wait_line '^ +osnoise/0-[0-9]+ +\[000\] \.{5} +[0-9]+\.[0-9]{6}: [0-9]+ +[0-9]+ +[0-9]{1,3}\.[0-9]{5} +[0-9]+( +[0-9]+){5}$'
ctl write current_tracer nop || fail "current_tracer nop"

# The same tree mounted (FUSE), where the machine lets us.
if [ -c /dev/fuse ] && [ -e "$B/lib/libuft_fuse.so" ] && { [ "$(id -u)" = 0 ] || command -v fusermount3 >/dev/null; }; then
	mnt=$tmp/mnt
	mkdir -p "$mnt"
	after_exit() { grep -q " $mnt fuse.uft " /proc/self/mounts && { umount -l "$mnt" 2>/dev/null || fusermount3 -uz "$mnt"; }; }
	UFT_TRACEFS=$mnt "$SERVER" 2 2>"$tmp/fuse.err" &
	pids+=($!)
	for _ in $(seq 100); do
		mountpoint -q "$mnt" && break
		sleep 0.05
	done
	if mountpoint -q "$mnt"; then
		ls "$mnt/osnoise" | tr '\n' ' ' | grep_q 'cpus.*timerlat_period_us' || fail "ls osnoise: $(ls "$mnt/osnoise")"
		echo 5 >"$mnt/osnoise/timerlat_period_us" 2>/dev/null && fail "FUSE: timerlat_period_us 5 accepted"
		echo 0 >"$mnt/osnoise/cpus" || fail "FUSE: osnoise/cpus"
		echo timerlat >"$mnt/current_tracer" || fail "FUSE: current_tracer timerlat"
		for _ in $(seq 300); do
			grep_q -E '#2 +context thread' "$mnt/trace" && break
			sleep 0.05
		done
		grep_q -E '^ +timerlat/0-[0-9]+ .*#2 +context thread timer_latency' "$mnt/trace" || fail "FUSE trace: $(head -14 "$mnt/trace")"
		echo nop >"$mnt/current_tracer"
	else
		echo "note: FUSE not mounted here: $(cat "$tmp/fuse.err")"
	fi
fi

# uft record -p timerlat: the records, which trace-cmd decodes.
"$UFT" record -p timerlat -o "$tmp/t.dat" -- "$B/tests/wake_prog" once >"$tmp/rec" 2>&1 || fail "record: $(cat "$tmp/rec")"
if [ -s "$tmp/t.dat" ] && command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report -i "$tmp/t.dat" >"$tmp/t.txt" 2>&1
	grep_q -E 'timerlat: +seq:[0-9]+	context:1	timer_latency:[0-9]+$' "$tmp/t.txt" ||
		fail "trace-cmd report: $(head "$tmp/t.txt")"
	# Each activation's irq record (context 0) comes before its thread
	# record, with the same seq, on the same CPU.
	grep_q -E 'timerlat: +seq:1	context:0	timer_latency:[0-9]+$' "$tmp/t.txt" ||
		fail "trace-cmd report: no context irq record: $(head "$tmp/t.txt")"
	awk '/timerlat: +seq:/ {
		match($0, /\[[0-9]+\]/); cpu = substr($0, RSTART, RLENGTH)
		split($0, f, "seq:"); split(f[2], g, "\t"); seq = g[1]; ctx = g[2]
		if (ctx == "context:0") { if (cpu in open) bad = 1; open[cpu] = seq }
		else if (ctx == "context:1") { if (!(cpu in open) || open[cpu] != seq) bad = 1; delete open[cpu] }
	} END { exit bad }' "$tmp/t.txt" || fail "trace-cmd report: irq and thread records out of pairs"
fi

# uft record -p osnoise -e osnoise:sample_threshold: the kernel's noise
# event, which uft report and trace-cmd (libtraceevent, through the format's
# print fmt) print alike.
"$UFT" record -p osnoise -e osnoise:sample_threshold -o "$tmp/o.dat" -- "$B/tests/wake_prog" once >"$tmp/rec" 2>&1 ||
	fail "record osnoise: $(cat "$tmp/rec")"
st='sample_threshold: +start [0-9]+\.[0-9]{9} duration [0-9]+ ns interference [0-9]+$'
"$UFT" report "$tmp/o.dat" >"$tmp/o.txt" 2>&1
grep_q -E "^ +osnoise/[0-9]+-[0-9]+ +\[[0-9]{3}\] \.{5} +[0-9.]+: $st" "$tmp/o.txt" ||
	fail "uft report: no sample_threshold: $(head "$tmp/o.txt")"
if command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report -i "$tmp/o.dat" 2>&1 | grep_q -E "osnoise/[0-9]+-[0-9]+ +\[[0-9]{3}\] +[0-9.]+: $st" ||
		fail "trace-cmd report: $(trace-cmd report -i "$tmp/o.dat" 2>&1 | head)"
fi
exit 0
