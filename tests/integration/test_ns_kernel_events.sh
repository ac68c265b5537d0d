#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `uft ns -p PID --kernel-events`: the kernel's sched events of other tasks
# on a traced program's tree (tests/conformance/kernel_names.c defines them
# with the kernel's names): set_event_pid of the command's shell with
# event-fork takes its children (their fork from the kernel adds them), a
# histogram's .execname names them, a filter on a field picks one by comm,
# the trace's comm-pid column names them; the program's own events stay;
# without -k nothing of another task appears. Then the INJECT operation as
# hostile input: a record of no event, a short one, one whose __data_loc
# points outside are refused, counted and logged, the program lives.
# Root and the kernel's tracefs needed. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"
need_uft_ns
PROG=$B/tests/kernel_names
[ -x "$PROG" ] || fail "no $PROG (make tests-bin)"
kt=/sys/kernel/tracing
# As uft ns sees it: mounted in its namespace where the host has none.
unshare -m --propagation private sh -c "[ -d $kt/instances ] || mount -t tracefs nodev $kt
	[ -w $kt/instances ] && [ -e $kt/events/sched/sched_process_fork ]" 2>/dev/null || {
	echo "skip: the kernel's tracefs is not usable here"
	exit 77
}

"$PROG" 2000 &
pid=$!
pids+=("$pid")
wait_socket "$pid"

# 1. Other tasks' events through the namespace.
"$UFT" ns -p "$pid" -k -- sh -c '
	cd /sys/kernel/tracing || exit 10
	echo $$ >set_event_pid
	echo 1 >options/event-fork
	echo 1 >events/sched/sched_process_fork/enable
	echo 1 >events/sched/sched_process_exec/enable
	/bin/true; /bin/true
	cat trace >"$0/pid.txt"
	echo $$ >"$0/shell"
	echo 0 >options/event-fork
	echo >set_event_pid
	echo 0 >events/enable
	echo >trace
	echo "hist:keys=common_pid.execname" >events/sched/sched_process_fork/trigger
	/bin/true
	cat events/sched/sched_process_fork/hist >"$0/hist.txt"
	echo "!hist:keys=common_pid.execname" >events/sched/sched_process_fork/trigger
	echo "comm == \"sleep\"" >events/sched/sched_process_exit/filter
	echo 1 >events/sched/sched_process_exit/enable
	sleep 0.01
	cat trace >"$0/filter.txt"
	echo 0 >events/sched/sched_process_exit/enable
	echo 0 >events/sched/sched_process_exit/filter
	echo 1 >events/sched/sched_switch/enable
	sleep 0.05
	cat trace >"$0/own.txt"
	echo 0 >events/enable' "$tmp" 2>"$tmp/ns.err" &
ns_pid=$!
wait $ns_pid
rc=$?
[ $rc = 0 ] || fail "uft ns -k: step $rc: $(cat "$tmp/ns.err")"
shell=$(cat "$tmp/shell")
grep_q "sched_process_fork: comm=sh pid=$shell child_comm=sh child_pid=" "$tmp/pid.txt" ||
	fail "no fork of the shell: $(grep -v '^#' "$tmp/pid.txt" | head -5)"
# The children's own events: their exec, by set_event_pid + event-fork.
grep_q 'true-[0-9]* .* sched_process_exec: filename=/bin/true pid=' "$tmp/pid.txt" ||
	fail "no exec of a child of the shell: $(grep -v '^#' "$tmp/pid.txt" | head -5)"
grep -v '^#' "$tmp/pid.txt" | grep -v -e "sh-$shell " -e 'true-[0-9]* ' -e 'cat-[0-9]* ' |
	head -3 | grep . &&
	fail "a task neither the shell nor its children is in the trace"
grep_q "{ common_pid: sh *\[ *$shell\] } hitcount: *[1-9]" "$tmp/hist.txt" ||
	fail "execname of the shell: $(cat "$tmp/hist.txt")"
grep_q 'sched_process_exit: comm=sleep pid=' "$tmp/filter.txt" ||
	fail "filter comm == sleep: $(grep -v '^#' "$tmp/filter.txt" | head -3)"
grep -v '^#' "$tmp/filter.txt" | grep -v 'comm=sleep ' | head -3 | grep . && fail "the filter let others through"
grep_q "kernel_names-$pid .* sched_switch: prev_comm=kernel_names" "$tmp/own.txt" ||
	fail "the program's own events are gone"
grep_q 'uft ns: kernel events: [0-9]* sent, [0-9]* taken, 0 refused by the program, [0-9]* lost in the kernel' \
	"$tmp/ns.err" || fail "no count line: $(cat "$tmp/ns.err")"
echo "$(grep 'kernel events' "$tmp/ns.err")"
# No instance of ours left in the kernel.
unshare -m --propagation private sh -c "[ -d $kt/instances ] || mount -t tracefs nodev $kt
	ls $kt/instances" >"$tmp/instances"
! grep_q "^uft-$ns_pid-" "$tmp/instances" || fail "an instance is left: $(cat "$tmp/instances")"

# 2. Without -k: the program's events only.
"$UFT" ns -p "$pid" -- sh -c '
	cd /sys/kernel/tracing && echo >trace && echo 1 >events/sched/sched_process_fork/enable &&
	/bin/true &&
	sleep 0.05 && cat trace && echo 0 >events/enable && echo >trace' >"$tmp/plain.txt"
grep -v '^#' "$tmp/plain.txt" | grep -v "kernel_names-$pid " | head -3 | grep . &&
	fail "another task's event without --kernel-events"

# 3. Hostile records straight on the socket.
exec_id=$("$UFT" ctl -p "$pid" cat events/sched/sched_process_exec/id)
python3 - "$UFT_RUNDIR/$pid.sock" "$exec_id" >"$tmp/inject.out" <<'EOF' || fail "inject: $(cat "$tmp/inject.out")"
import socket, struct, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
def call(op, payload, rid):
    s.sendall(struct.pack('<IIHH', len(payload), rid, op, 0) + payload)
    hdr = b''
    while len(hdr) < 12: hdr += s.recv(12 - len(hdr))
    n, _, _, _ = struct.unpack('<IIHH', hdr)
    body = b''
    while len(body) < n: body += s.recv(n - len(body))
    return struct.unpack('<q', body[:8])[0]
assert call(1, struct.pack('<II', 0x43544655, 4), 1) == 4, "protocol 4"
def rec(body, ln=None):
    ln = len(body) if ln is None else ln
    h = struct.pack('<IIQ16s', ln, 0, 0, b'hostile')
    pad = (-(32 + len(body))) % 8
    return h + body + b'\0' * pad
# no event has id 65535; 4 bytes are short of a common header
bad = rec(struct.pack('<HBBi', 65535, 0, 0, 4242) + b'\0' * 8) + rec(b'\0' * 4)
print('refused', call(14, bad, 2))
# a length past the message
print('past', call(14, rec(b'\0' * 16, ln=4096), 3))
# sched_process_exec: filename's __data_loc at 8, pid 12, old_pid 16
eid = int(sys.argv[2])
def exec_rec(loc):
    return rec(struct.pack('<HBBiIii', eid, 0, 0, 4242, loc, 4242, 4242) + b'/bin/x\0\0')
print('outside', call(14, exec_rec(200 | 7 << 16), 4))
print('good', call(14, exec_rec(20 | 7 << 16), 5))
EOF
grep_q '^refused 0$' "$tmp/inject.out" && grep_q '^past 0$' "$tmp/inject.out" &&
	grep_q '^outside 0$' "$tmp/inject.out" && grep_q '^good 1$' "$tmp/inject.out" ||
	fail "hostile records taken: $(cat "$tmp/inject.out")"
"$UFT" ctl -p "$pid" cat error_log >"$tmp/errlog"
grep_q 'kernel event' "$tmp/errlog" || fail "no error_log line: $(cat "$tmp/errlog")"
kill -0 "$pid" || fail "kernel_names died of hostile records"
echo ok
