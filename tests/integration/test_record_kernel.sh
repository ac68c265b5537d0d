#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's events beside a program's (design/recording.md, "The kernel's
# events"): uft record -e SYSTEM:EVENT of tracefs records them from a private
# instance filtered to the program's tree, on the clock that reads uft's, in
# one trace.dat. The order of a uft event just before a getpgid, the kernel's
# sys_enter_getpgid and a uft event just after is right only if the clocks
# agree; trace-cmd reads the same lines; sched_switch of the program's sleep;
# a filter the kernel refuses (exit 2, its message, nothing run); a clock
# that cannot agree refused; the same with uft stream and with -p process
# (launched and -P, the ptrace and the kernel backend) and -p function;
# SIGINT; not root, the reason; tracefs read-only, the reason (exit 2);
# no instance left. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/proc.sh"
source "$(dirname "$0")/lib/tracecmd.sh"
need "$TL" "$RUN" "$WL"
need_root "the kernel's events need root here"
need_kernel
[ -d $T/events/syscalls/sys_enter_getpgid ] || {
	echo "skip: the kernel has no syscalls:sys_enter_getpgid event"
	exit 77
}
N=50
EV=(-e 'theapp:*' -e syscalls:sys_enter_getpgid -e sched:sched_switch)

# order FILE WHAT: for each round n, the program's before n, the kernel's
# sys_enter_getpgid of getpgid(n), after n
order() {
	local pid
	pid=$(grep -E ' (before|after): ' "$1" | head -1 | sed -E 's/^.*-([0-9]+) +\[.*$/\1/')
	[ -n "$pid" ] || fail "$2: no uft event"
	grep -E -- "-$pid +\[[0-9]+\] .*(before|after|sys_enter_getpgid): " "$1" |
		sed -E 's/^.* (before|after): +n=([0-9]+)$/\1 \2/; s/^.* sys_enter_getpgid: +pid: 0x([0-9a-f]+)$/enter \1/' \
			>"$tmp/order"
	for ((i = 1; i <= N; i++)); do printf 'before %d\nenter %08x\nafter %d\n' $i $i $i; done >"$tmp/want"
	diff "$tmp/want" "$tmp/order" >"$tmp/order.diff" ||
		fail "$2: the uft events and the kernel's are not in order: $(head -8 "$tmp/order.diff")"
}

# sleeps FILE WHAT: the program's last event before its sleep, the kernel's
# switch away from it (state S, microseconds later), the event after it
sleeps() {
	local pid
	pid=$(grep -E ' before: n=1$' "$1" | sed -E 's/^.*-([0-9]+) +\[.*$/\1/')
	[ -n "$pid" ] || fail "$2: no uft event"
	grep -E -- "-$pid +\[[0-9]+\] .* (before|after|woke): |sched_switch: prev_comm=timeline prev_pid=$pid .*prev_state=S " "$1" |
		tail -3 | sed -E 's/^.* (after|woke): +n=([0-9]+)$/\1 \2/; s/^.* sched_switch: .*$/switch/' >"$tmp/sleep"
	printf 'after %d\nswitch\nwoke %d\n' $N $N | diff - "$tmp/sleep" >"$tmp/sleep.diff" ||
		fail "$2: the sleep's switch is not between the events around it: $(cat "$tmp/sleep.diff")"
}

# a program's events and the kernel's in one file, one order
"$UFT" record -q -o "$tmp/k.dat" "${EV[@]}" -- "$TL" $N >"$tmp/k.out" 2>&1 &
rec=$!
wait $rec || fail "uft record exited $?: $(cat "$tmp/k.out")"
no_instance $rec || fail "instance left after the recording: $(ls $T/instances)"
grep_q 'no event matches' "$tmp/k.out" && fail "a kernel -e was taken for libuft's: $(cat "$tmp/k.out")"
"$UFT" report -i "$tmp/k.dat" >"$tmp/k.txt" || fail "uft report exited $?"
order "$tmp/k.txt" "uft report"
sleeps "$tmp/k.txt" "uft report"
pid=$(grep -E ' before: n=1$' "$tmp/k.txt" | sed -E 's/^.*-([0-9]+) +\[.*$/\1/')
# its sleep: the kernel switches away from it in state S
grep_q -E "sched_switch: prev_comm=timeline prev_pid=$pid prev_prio=[0-9]+ prev_state=S " "$tmp/k.txt" ||
	fail "no sched_switch of the program's sleep"
if [ $have_tc = 1 ]; then
	norm_uft "$tmp/k.txt" >"$tmp/k.norm"
	same_as_tc "$tmp/k.dat" "$tmp/k.norm"
	trace-cmd report -N -i "$tmp/k.dat" 2>/dev/null >"$tmp/k.tc"
	order "$tmp/k.tc" "trace-cmd report"
fi

# beside the function tracer
"$UFT" record -q -o "$tmp/fn.dat" -p function -e sched:sched_switch -- "$TL" 2 >"$tmp/fn.out" 2>&1 ||
	fail "-p function: exit $?: $(cat "$tmp/fn.out")"
"$UFT" report -i "$tmp/fn.dat" >"$tmp/fn.txt" || fail "uft report exited $?"
grep_q ': main <-' "$tmp/fn.txt" || fail "-p function: no function entry"
grep_q 'sched_switch: prev_comm=timeline ' "$tmp/fn.txt" || fail "-p function: no sched_switch"

# a filter for the kernel: only the events it passes
"$UFT" record -q -o "$tmp/f.dat" -e 'theapp:*' -e sched:sched_switch -f "prev_pid != 0 && prev_state & 1" \
	-- "$TL" 2 >"$tmp/f.out" 2>&1 || fail "uft record with a kernel filter exited $?: $(cat "$tmp/f.out")"
"$UFT" report -i "$tmp/f.dat" >"$tmp/f.txt" || fail "uft report exited $?"
grep_q 'sched_switch: .*prev_state=S ' "$tmp/f.txt" || fail "the filter let nothing in"
grep_q -E 'sched_switch: .*prev_state=(R|D|Z|X)' "$tmp/f.txt" && fail "the kernel's filter was not applied"

# a filter the kernel refuses: its message, exit 2, nothing run, no file
"$UFT" record -o "$tmp/bad.dat" -e 'theapp:*' -e sched:sched_switch -f 'prev_pid ===' \
	-- sh -c "touch $tmp/ran" >"$tmp/bad.out" 2>&1 &
rec=$!
wait $rec
rc=$?
[ $rc = 2 ] || fail "a bad kernel filter: exit $rc, not 2"
grep_q 'bad filter for sched:sched_switch' "$tmp/bad.out" || fail "no message: $(cat "$tmp/bad.out")"
grep_q 'parse_error' "$tmp/bad.out" || fail "not the kernel's message: $(cat "$tmp/bad.out")"
[ -e "$tmp/ran" ] && fail "the command ran after a bad kernel filter"
[ -e "$tmp/bad.dat" ] && fail "a file written after a bad kernel filter"
no_instance $rec || fail "instance left after a bad filter"

# a clock the kernel's events cannot be on; one they can
"$UFT" record -o "$tmp/c.dat" -C counter -e sched:sched_switch -- true >"$tmp/c.out" 2>&1
rc=$?
[ $rc = 2 ] || fail "-C counter with kernel events: exit $rc, not 2"
grep_q 'cannot be stamped on uft.s counter clock' "$tmp/c.out" || fail "-C counter: $(cat "$tmp/c.out")"
"$UFT" record -q -o "$tmp/m.dat" -C mono "${EV[@]}" -- "$TL" $N >"$tmp/m.out" 2>&1 ||
	fail "-C mono: exit $?: $(cat "$tmp/m.out")"
"$UFT" report -i "$tmp/m.dat" >"$tmp/m.txt" || fail "uft report exited $?"
order "$tmp/m.txt" "-C mono"

# uft stream: the same order
"$UFT" stream "${EV[@]}" -- "$TL" $N >"$tmp/s.txt" 2>"$tmp/s.err" || fail "uft stream exited $?: $(cat "$tmp/s.err")"
order "$tmp/s.txt" "uft stream"
grep_q 'sched_switch: prev_comm=timeline ' "$tmp/s.txt" || fail "uft stream: no sched_switch"

# -p process: its sys_enter_getpgid (ptrace), the kernel's sched_switch
"$UFT" record -q -o "$tmp/p.dat" -p process --no-lifecycle --no-signals "${EV[@]}" \
	-- "$TL" $N >"$tmp/p.out" 2>&1 &
rec=$!
wait $rec || fail "-p process: exit $?: $(cat "$tmp/p.out")"
no_instance $rec || fail "-p process: instance left"
"$UFT" report -i "$tmp/p.dat" >"$tmp/p.txt" || fail "uft report exited $?"
order "$tmp/p.txt" "-p process"
grep_q 'sched_switch: prev_comm=timeline ' "$tmp/p.txt" || fail "-p process: no kernel sched_switch"
[ "$(grep -c 'sys_enter_getpgid' "$tmp/p.txt")" = $N ] ||
	fail "-p process: sys_enter_getpgid from both the tracer and the kernel"
# -p process --backend kernel: the engine's sys_enter_getpgid is the
# kernel's, on CLOCK_MONOTONIC where the program's TSC is calibrated against
# it (recorder/mono_tsc.h): still between the program's events around it
"$UFT" record -q -o "$tmp/pk.dat" -p process --backend kernel -e 'theapp:*' \
	-e syscalls:sys_enter_getpgid -- "$TL" $N >"$tmp/pk.out" 2>&1 ||
	fail "-p process --backend kernel: exit $?: $(cat "$tmp/pk.out")"
"$UFT" report -i "$tmp/pk.dat" >"$tmp/pk.txt" || fail "uft report exited $?"
order "$tmp/pk.txt" "-p process --backend kernel"
if [ $have_tc = 1 ]; then
	trace-cmd report -N -i "$tmp/pk.dat" 2>/dev/null >"$tmp/pk.tc"
	order "$tmp/pk.tc" "-p process --backend kernel, trace-cmd report"
fi
# the process tracer's exec comes before any of the program's events: the
# kernel's times still agree with the program's
"$UFT" record -q -o "$tmp/q.dat" -p process --no-syscalls --no-signals -e 'theapp:*' \
	-e 'sched:sched_process_*' -e sched:sched_switch \
	-- "$TL" $N >"$tmp/q.out" 2>&1 || fail "-p process --no-syscalls: exit $?: $(cat "$tmp/q.out")"
"$UFT" report -i "$tmp/q.dat" >"$tmp/q.txt" || fail "uft report exited $?"
grep_q 'sched_process_exec' "$tmp/q.txt" || fail "-p process --no-syscalls: no exec"
sleeps "$tmp/q.txt" "-p process --no-syscalls"

# SIGINT: the file is written, the instance removed
"$UFT" record -o "$tmp/i.dat" -e sched:sched_switch -e 'theapp:*' -- sleep 30 >"$tmp/i.out" 2>&1 &
rec=$!
pids+=($rec)
has_instance $rec
sleep 0.3
kill -INT $rec
wait $rec
no_instance $rec || fail "SIGINT: instance left"
grep_q '^kernel events: [1-9]' "$tmp/i.out" || fail "SIGINT: no kernel events in the summary: $(cat "$tmp/i.out")"
"$UFT" report -i "$tmp/i.dat" >"$tmp/i.txt" || fail "SIGINT: uft report exited $?"
grep_q 'sched_switch: prev_comm=sleep .*prev_state=S ' "$tmp/i.txt" || fail "SIGINT: no sched_switch of sleep"

# -p process -P: the attached process's sched_switch, and it runs on
"$WL" loop "$tmp/loop.txt" &
wl=$!
pids+=($wl)
"$UFT" record -o "$tmp/a.dat" -p process -P $wl --no-syscalls --no-signals -e sched:sched_switch \
	>"$tmp/a.out" 2>&1 &
rec=$!
pids+=($rec)
has_instance $rec
sleep 0.5
kill -INT $rec
wait $rec || fail "-P: exit $?: $(cat "$tmp/a.out")"
kill -0 $wl || fail "-P: the process did not run on"
no_instance $rec || fail "-P: instance left"
"$UFT" report -i "$tmp/a.dat" >"$tmp/a.txt" || fail "-P: uft report exited $?"
grep_q "sched_switch: prev_comm=pt_workload prev_pid=$wl " "$tmp/a.txt" ||
	fail "-P: no sched_switch of the attached process"

# not root: tracefs cannot be read, the -e matches nothing and says why
if command -v setpriv >/dev/null; then
	mkdir "$tmp/nob" "$tmp/nob/run" && chmod 755 "$tmp" && chmod 777 "$tmp/nob" &&
		chown 65534 "$tmp/nob/run"
	# its own run directory: /tmp/uft-65534 stays for test_rundir_taken
	setpriv --reuid=65534 --regid=65534 --clear-groups env UFT_RUNDIR="$tmp/nob/run" \
		"$UFT" record -o "$tmp/nob/n.dat" -e 'theapp:*' -e sched:sched_switch -- "$TL" 2 >"$tmp/n.out" 2>&1
	rc=$?
	[ $rc = 1 ] || fail "not root: exit $rc, not 1: $(cat "$tmp/n.out")"
	grep_q "no event matches 'sched:sched_switch' (if it is a kernel event: .*root" "$tmp/n.out" ||
		fail "not root: no reason given: $(cat "$tmp/n.out")"
fi

# tracefs that can be listed but not written (read-only in a private mount
# namespace): exit 2 with the reason, the program never started
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	rm -f "$tmp/ro.started"
	# debugfs hidden too: its tracing directory is the other place uft looks
	unshare -m sh -c 'mount -o remount,bind,ro "$1" &&
		{ [ ! -d /sys/kernel/debug ] || mount -t tmpfs -o ro none /sys/kernel/debug; } &&
		exec "$2" record -o "$3" -e sched:sched_switch -- touch "$4"' \
		sh "$T" "$UFT" "$tmp/ro.dat" "$tmp/ro.started" >"$tmp/ro.out" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "read-only tracefs: exit $rc, not 2: $(cat "$tmp/ro.out")"
	grep_q "sched:sched_switch is a kernel event, which cannot be recorded here: .*not writable" "$tmp/ro.out" ||
		fail "read-only tracefs: no reason given: $(cat "$tmp/ro.out")"
	[ ! -e "$tmp/ro.started" ] || fail "read-only tracefs: the program ran"
fi
echo "ok"
