#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The talk's histogram and synthetic event examples over a small kernel
# trace.dat (build/tests/kernel_dat: the kernel's formats of sched_switch,
# sched_waking, sys_enter, sys_exit and kmalloc, written by uft's writer),
# with their exact texts: the syscall histogram with .syscall, per-pid
# kmalloc sizes with .execname, the wakeup_lat synthetic event (waking to
# switch) with .buckets=10 and among the file's events (--trace), and the
# offcpu chain of two sqlhist statements. trace-cmd reads the file.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
GEN=$B/tests/kernel_dat
need "$GEN"
# same TEXT FILE: FILE holds exactly TEXT
same() {
	printf '%s\n' "$1" | cmp -s - "$2" || fail "$3: $(printf '%s\n' "$1" | diff - "$2")"
}
K=$tmp/k.dat
"$GEN" "$K" || fail "kernel_dat"

if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$K" >"$tmp/tc.txt" 2>"$tmp/tc.err" || fail "trace-cmd report: $(cat "$tmp/tc.err")"
	[ "$(grep -c ': ' "$tmp/tc.txt")" = 54 ] || fail "trace-cmd: $(grep -c ': ' "$tmp/tc.txt") events, want 54"
	grep -q '^            bash-1301  \[000\]  1000.000430: sched_switch:         bash:1301 \[120\] D ==> kworker/u4:2:3723 \[120\]$' \
		"$tmp/tc.txt" || fail "trace-cmd sched_switch line"
	grep -q '^ systemd-journal-570   \[001\]  1000.000275: kmalloc:              (ext4_file_write_iter+0x7b) call_site=ext4_file_write_iter+0x7b ptr=0xffff888004a204c0 bytes_req=4096 bytes_alloc=4096 gfp_flags=cc0 node=-1$' \
		"$tmp/tc.txt" || fail "trace-cmd kmalloc line"
fi

"$UFT" report -i "$K" --hist 'raw_syscalls:sys_enter:keys=id.syscall' >"$tmp/sys.txt" || fail "syscall hist"
same '# event histogram
#
# trigger info: hist:keys=id.syscall:vals=hitcount:sort=hitcount:size=2048 [active]
#

{ id: sys_fsync                     [ 74] } hitcount:          1
{ id: sys_openat                    [257] } hitcount:          1
{ id: sys_futex                     [202] } hitcount:          1
{ id: sys_wait4                     [ 61] } hitcount:          1
{ id: sys_select                    [ 23] } hitcount:          2
{ id: sys_rt_sigprocmask            [ 14] } hitcount:          2
{ id: sys_write                     [  1] } hitcount:          4
{ id: sys_read                      [  0] } hitcount:          5

Totals:
    Hits: 17
    Entries: 8
    Dropped: 0' "$tmp/sys.txt" "syscall hist"

"$UFT" report -i "$K" --hist 'kmem:kmalloc:keys=common_pid.execname:vals=bytes_req:sort=bytes_req' \
	>"$tmp/km.txt" || fail "kmalloc hist"
same '# event histogram
#
# trigger info: hist:keys=common_pid.execname:vals=hitcount,bytes_req:sort=bytes_req:size=2048 [active]
#

{ common_pid: kworker/u4:2    [      3723] } hitcount:          1  bytes_req:        512
{ common_pid: bash            [      1301] } hitcount:          5  bytes_req:        544
{ common_pid: sshd            [      1300] } hitcount:          2  bytes_req:       1536
{ common_pid: systemd-journal [       570] } hitcount:          1  bytes_req:       4096

Totals:
    Hits: 9
    Entries: 4
    Dropped: 0' "$tmp/km.txt" "kmalloc hist"

# wakeup_lat: defined on the command line, the waking trigger saves the
# time, the switch trigger reads it and generates the event, whose own
# trigger buckets the latencies.
WL=(--synth 'wakeup_lat char name[]; pid_t pid; u64 latency'
	--hist 'sched:sched_waking:keys=pid:ts1=common_timestamp.usecs'
	--hist 'sched:sched_switch:keys=next_pid:delta=common_timestamp.usecs-$ts1:onmatch(sched.sched_waking).trace(wakeup_lat,next_comm,next_pid,$delta)')
"$UFT" report -i "$K" "${WL[@]}" --hist 'synthetic:wakeup_lat:keys=name,latency.buckets=10:sort=name,latency' \
	>"$tmp/wl.txt" || fail "wakeup_lat hist"
same '# event histogram
#
# trigger info: hist:keys=pid:vals=hitcount:ts1=common_timestamp.usecs:sort=hitcount:size=2048:clock=global [active]
#

{ pid:       3723 } hitcount:          1
{ pid:         14 } hitcount:          2
{ pid:       1300 } hitcount:          2
{ pid:       1301 } hitcount:          2
{ pid:        570 } hitcount:          2

Totals:
    Hits: 9
    Entries: 5
    Dropped: 0


# event histogram
#
# trigger info: hist:keys=next_pid:vals=hitcount:delta=common_timestamp.usecs-$ts1:sort=hitcount:size=2048:clock=global:onmatch(sched.sched_waking).trace(wakeup_lat,next_comm,next_pid,$delta) [active]
#

{ next_pid:       3723 } hitcount:          1
{ next_pid:         14 } hitcount:          2
{ next_pid:       1300 } hitcount:          2
{ next_pid:       1301 } hitcount:          2
{ next_pid:        570 } hitcount:          2

Totals:
    Hits: 9
    Entries: 5
    Dropped: 0


# event histogram
#
# trigger info: hist:keys=name,latency.buckets=10:vals=hitcount:sort=name,latency.buckets=10:size=2048 [active]
#

{ name: bash                                              , latency: ~ 10-19 } hitcount:          1
{ name: bash                                              , latency: ~ 40-49 } hitcount:          1
{ name: kworker/u4:2                                      , latency: ~ 20-29 } hitcount:          1
{ name: rcu_preempt                                       , latency: ~ 0-9 } hitcount:          2
{ name: sshd                                              , latency: ~ 0-9 } hitcount:          1
{ name: sshd                                              , latency: ~ 20-29 } hitcount:          1
{ name: systemd-journal                                   , latency: ~ 10-19 } hitcount:          1
{ name: systemd-journal                                   , latency: ~ 50-59 } hitcount:          1

Totals:
    Hits: 9
    Entries: 8
    Dropped: 0' "$tmp/wl.txt" "wakeup_lat hist"

# --trace: the file's 54 events and the 9 generated ones, each right after
# the sched_switch that generated it; --cpu selects both.
"$UFT" report -i "$K" "${WL[@]}" --trace >"$tmp/tr.txt" || fail "--trace"
grep -q '^# entries-in-buffer/entries-written: 63/63   #P:2$' "$tmp/tr.txt" || fail "--trace header"
grep -A2 ' 1000.000348: sched_switch' "$tmp/tr.txt" >"$tmp/tr2.txt"
same '          <idle>-0       [000] d..2.  1000.000348: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=bash next_pid=1301 next_prio=120
          <idle>-0       [000] d..2.  1000.000348: wakeup_lat: name=bash pid=1301 latency=48
            bash-1301    [000] .....  1000.000360: sys_enter: NR 14 (3, 0, 0, 0, 0, 0)' "$tmp/tr2.txt" "--trace lines"
grep ' wakeup_lat: ' "$tmp/tr.txt" >"$tmp/tr3.txt"
same '          <idle>-0       [001] d..2.  1000.000203: wakeup_lat: name=rcu_preempt pid=14 latency=3
     rcu_preempt-14      [001] d..2.  1000.000215: wakeup_lat: name=sshd pid=1300 latency=5
          <idle>-0       [000] d..2.  1000.000348: wakeup_lat: name=bash pid=1301 latency=48
            bash-1301    [000] d..2.  1000.000430: wakeup_lat: name=kworker/u4:2 pid=3723 latency=20
    kworker/u4:2-3723    [000] d..2.  1000.000462: wakeup_lat: name=bash pid=1301 latency=12
          <idle>-0       [001] d..2.  1000.005339: wakeup_lat: name=systemd-journal pid=570 latency=59
          <idle>-0       [001] d..2.  1000.005420: wakeup_lat: name=sshd pid=1300 latency=20
          <idle>-0       [001] d..2.  1000.005504: wakeup_lat: name=rcu_preempt pid=14 latency=4
     rcu_preempt-14      [001] d..2.  1000.005523: wakeup_lat: name=systemd-journal pid=570 latency=13' \
	"$tmp/tr3.txt" "--trace wakeup_lat lines"
"$UFT" report -i "$K" --cpu 0 "${WL[@]}" --trace >"$tmp/tr0.txt" || fail "--trace --cpu 0"
grep -q '^# entries-in-buffer/entries-written: 30/30   #P:2$' "$tmp/tr0.txt" || fail "--cpu 0 header: $(grep entries "$tmp/tr0.txt")"
[ "$(grep -c ' wakeup_lat: ' "$tmp/tr0.txt")" = 3 ] || fail "--cpu 0 wakeup_lat lines"

# The action in its older form, .SYNTH(params), generates the same records.
"$UFT" report -i "$K" "${WL[@]:0:4}" \
	--hist 'sched:sched_switch:keys=next_pid:delta=common_timestamp.usecs-$ts1:onmatch(sched.sched_waking).wakeup_lat(next_comm,next_pid,$delta)' \
	--trace | grep ' wakeup_lat: ' | cmp -s - "$tmp/tr3.txt" || fail ".wakeup_lat() form"

# The same event from sqlhist: its records in time order.
"$UFT" sqlhist -i "$K" -e --seed 1 -n wakeup_lat 'SELECT end.next_comm AS name, start.pid,
	(end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) AS latency
	FROM sched_waking AS start JOIN sched_switch AS end ON start.pid = end.next_pid' >"$tmp/sq.txt" ||
	fail "sqlhist wakeup_lat"
grep -q '^# entries-in-buffer/entries-written: 9/9   #P:2$' "$tmp/sq.txt" || fail "sqlhist header"
grep -v '^#' "$tmp/sq.txt" | cmp -s - "$tmp/tr3.txt" || fail "sqlhist events: $(grep -v '^#' "$tmp/sq.txt" | diff "$tmp/tr3.txt" -)"

# offcpu: the system call a task blocked in (sysname, at the switch out in
# state D) and how long it stayed off the CPU (at its switch in).
"$UFT" sqlhist -i "$K" -e --seed 1 --hist 'keys=id.syscall,comm,pid:vals=lat' \
	-n sysname 'SELECT start.id, end.prev_pid FROM sys_enter AS start
	JOIN sched_switch AS end ON start.common_pid = end.prev_pid WHERE end.prev_state == 2' \
	-n offcpu 'SELECT start.id, end.next_comm AS comm, end.next_pid AS pid,
	(end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) AS lat FROM sysname AS start
	JOIN sched_switch AS end ON start.prev_pid = end.next_pid' >"$tmp/off.txt" || fail "offcpu"
same '# event histogram
#
# trigger info: hist:keys=id.syscall,comm,pid:vals=hitcount,lat:sort=hitcount:size=2048 [active]
#

{ id: sys_read                      [  0], comm: bash                                              , pid:       1301 } hitcount:          1  lat:         32
{ id: sys_fsync                     [ 74], comm: systemd-journal                                   , pid:        570 } hitcount:          1  lat:       5059
{ id: sys_futex                     [202], comm: systemd-journal                                   , pid:        570 } hitcount:          1  lat:        163

Totals:
    Hits: 3
    Entries: 3
    Dropped: 0' "$tmp/off.txt" "offcpu hist"

# A synthetic event whose trigger generates it again stops eight deep: 16
# switches, 8 records each. (A parameter has at least two characters, as the
# kernel requires.)
"$UFT" report -i "$K" --synth 'again u64 xx' \
	--hist 'sched:sched_switch:keys=next_pid:onmatch(sched.sched_switch).trace(again,next_pid)' \
	--hist 'synthetic:again:keys=xx:onmatch(synthetic.again).trace(again,xx)' --trace >"$tmp/deep.txt" ||
	fail "self-generating event"
[ "$(grep -c ' again: xx=' "$tmp/deep.txt")" = 128 ] || fail "chain depth: $(grep -c ' again: ' "$tmp/deep.txt")"

# Refusals: the kernel's messages, nothing printed.
"$UFT" report -i "$K" --synth 'wakeup_lat char name[; pid_t pid' --hist 'sched_switch:keys=next_pid' \
	>"$tmp/e.out" 2>"$tmp/e.err" && fail "bad --synth accepted"
[ -s "$tmp/e.out" ] && fail "output despite a bad --synth"
same 'uft report: synthetic_events: error: Invalid array specification
  Command: wakeup_lat char name[; pid_t pid
                           ^' "$tmp/e.err" "--synth error"
"$UFT" report -i "$K" --hist 'sched:sched_switch:keys=next_pid:onmatch(sched.sched_waking).trace(nosuch,next_pid)' \
	>"$tmp/e.out" 2>"$tmp/e.err" && fail "unknown synthetic event accepted"
same 'uft report: hist:sched:sched_switch: error: Couldn'"'"'t find synthetic event
  Command: hist:keys=next_pid:onmatch(sched.sched_waking).trace(nosuch,next_pid)
                                                                ^' "$tmp/e.err" "onmatch error"
"$UFT" report -i "$K" --synth 'sched_switch u64 x' --hist 'sched_switch:keys=next_pid' 2>"$tmp/e.err" &&
	fail "ambiguous event accepted"
grep -q "event name is not unique" "$tmp/e.err" || fail "ambiguous: $(cat "$tmp/e.err")"
"$UFT" report -i "$K" --trace 2>"$tmp/e.err" && fail "--trace alone accepted"
same 'uft report: --synth and --trace go with --hist' "$tmp/e.err" "--trace alone"
exit 0
