#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The process tracer's kernel backend (design/process-tracer.md, "Kernel
# backend"), run by build/tests/proctrace_run --backend kernel: the events of a
# launched workload, the same syscall sequence per thread as the ptrace
# backend, the same lifecycle events, clone flags and exit statuses (with
# and without syscalls traced), events the kernel lost reported with a tiny
# buffer (UFT_PT_KBUF_KB), attaching to a running process, the private instance removed at
# the end (also after SIGINT) and leftovers of dead uft processes cleaned, and
# one clock: a time read by the tracer's clock just before a syscall is earlier
# than the kernel's sys_enter of that call, and one read just after is later.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/proc.sh"
need "$RUN" "$WL"
need_root "the kernel backend needs root here"
need_kernel
# ours: instances named after a driver's pid

# a launched workload: lifecycle, signals, syscalls, the exit status
"$RUN" --backend kernel -o "$tmp/all" -- "$WL" run &
drv=$!
wait $drv
rc=$?
[ "$rc" = 7 ] || fail "the workload's exit status 7 came back as $rc"
no_instance $drv || fail "instance left after the run: $(ls $T/instances)"
ev() { grep -F " $1: " "$tmp/all"; }
main=$(ev sched:sched_process_exec | awk 'NR == 1 {print $1}')
[ -n "$main" ] || fail "no exec event"
ev sched:sched_process_exec | grep_q "filename=$WL pid=$main old_pid=$main" || fail "no exec of the workload"
[ "$(ev sched:sched_process_fork | grep -c "^$main ")" = 5 ] ||
	fail "five forks expected (two threads, three processes): $(ev sched:sched_process_fork)"
ev sched:sched_process_exec | grep_q -E 'filename=[^ ]*true pid=([0-9]+) old_pid=[0-9]+$' ||
	fail "no exec of true"
ev sched:sched_process_exit | grep_q "pid=$main prio=[0-9]* group_dead=true" || fail "no group exit of $main"
ev signal:signal_generate | grep_q "^$main .*sig=10 errno=0 code=-6 comm=pt_workload pid=$main grp=0 res=0" ||
	fail "no signal_generate of SIGUSR1"
ev signal:signal_deliver | grep_q "^$main .*sig=10 errno=0 code=-6 " || fail "no delivery of SIGUSR1"
grep_q -E "^$main .*syscalls:sys_exit_umask: 18$" "$tmp/all" || fail "umask's return value"
grep_q -E "^$main .*raw_syscalls:sys_enter: NR 95 " "$tmp/all" || fail "no raw sys_enter of umask"
grep_q "unknown event id" "$tmp/all" && fail "records with ids the formats do not name"
awk '{print $1}' "$tmp/all" | sort -u | grep_q -x 0 && fail "records of pid 0"

# both backends: the same calls per thread, names and return values (ids
# of processes, which differ from run to run, left out)
set=getpgid,getsid,umask,rt_sigaction,wait4,execve,kill,tgkill,openat
seqs() {
	awk '/ syscalls:sys_(enter|exit)_/ {
		name = $4; sub(/^syscalls:/, "", name); sub(/:$/, "", name)
		v = ""
		if (name ~ /^sys_exit_/) v = name ~ /_(wait4|getpgid|getsid)$/ ? " P" : " " $5
		seq[$1] = seq[$1] name v ";"
	} END { for (t in seq) print seq[t] }' "$1" | sort
}
"$RUN" --backend ptrace -s $set -o "$tmp/p" -- "$WL" run
[ $? = 7 ] || fail "ptrace backend: exit status"
"$RUN" --backend kernel -s $set -o "$tmp/k" -- "$WL" run
[ $? = 7 ] || fail "kernel backend: exit status"
seqs "$tmp/p" >"$tmp/p.seq"
seqs "$tmp/k" >"$tmp/k.seq"
[ "$(wc -l <"$tmp/p.seq")" -ge 6 ] || fail "too few threads with calls: $(cat "$tmp/p.seq")"
diff "$tmp/p.seq" "$tmp/k.seq" >"$tmp/diff" || fail "the backends' syscall sequences differ: $(cat "$tmp/diff")"
# the set is the kernel's filter: nothing else is written
grep -o 'syscalls:sys_enter_[a-z0-9_]*' "$tmp/k" | sort -u | grep -v -E "_(${set//,/|})\$" |
	grep_q . && fail "calls outside the set: $(grep -o 'syscalls:sys_enter_[a-z0-9_]*' "$tmp/k" | sort -u)"
grep 'raw_syscalls:sys_enter' "$tmp/k" | grep_q -v -E 'NR (121|124|95|13|61|59|62|234|257) ' &&
	fail "raw calls outside the set"

# both backends: the same lifecycle events, clone flags and exit statuses
# (ids left out; as a multiset: the order across threads is the clocks')
life() {
	awk '/ (sched:sched_process_|process:)/ {
		$1 = $2 = $3 = ""
		gsub(/(child_)?pid=[0-9]+|old_pid=[0-9]+/, "")
		print
	}' "$1" | sort
}
"$RUN" --backend ptrace -S -G -o "$tmp/pl" -- "$WL" run
[ $? = 7 ] || fail "ptrace backend: exit status"
"$RUN" --backend kernel -S -G -o "$tmp/kl" -- "$WL" run
[ $? = 7 ] || fail "kernel backend: exit status"
life "$tmp/pl" >"$tmp/pl.life"
life "$tmp/kl" >"$tmp/kl.life"
grep_q 'process:clone_flags: *flags=0x[0-9a-f]* thread' "$tmp/kl.life" || fail "no clone_flags of a thread: $(cat "$tmp/kl.life")"
grep_q 'process:exit_status: *code=0 sig=15 core=0' "$tmp/kl.life" || fail "no exit by SIGTERM: $(cat "$tmp/kl.life")"
grep_q 'process:exit_status: *code=7 sig=0 core=0' "$tmp/kl.life" || fail "no exit code 7: $(cat "$tmp/kl.life")"
diff "$tmp/pl.life" "$tmp/kl.life" >"$tmp/diff" || fail "the backends' lifecycle events differ: $(cat "$tmp/diff")"
# the same when syscalls are traced (the clone and exit calls are then read
# from the raw events, let in by the filter but not handed over)
"$RUN" --backend kernel -s getpgid -G -o "$tmp/ks" -- "$WL" run
[ $? = 7 ] || fail "kernel backend with a set: exit status"
life "$tmp/ks" >"$tmp/ks.life"
diff "$tmp/pl.life" "$tmp/ks.life" >"$tmp/diff" || fail "lifecycle with a syscall set differs: $(cat "$tmp/diff")"
grep 'raw_syscalls:sys_enter' "$tmp/ks" | grep_q -v 'NR 121 ' && fail "raw calls outside the set: $(grep -m3 'raw_syscalls:sys_enter' "$tmp/ks")"
# a child's exit code and a killed child's signal, not seen by waitpid here
for b in ptrace kernel; do
	"$RUN" --backend $b -S -G -o "$tmp/ex.$b" -- sh -c '(exit 3); sh -c "kill -9 \$\$"; :'
	life "$tmp/ex.$b" >"$tmp/ex.$b.life"
	grep_q 'exit_status: *code=3 sig=0' "$tmp/ex.$b.life" || fail "$b: no exit code 3: $(cat "$tmp/ex.$b.life")"
	grep_q 'exit_status: *code=0 sig=9' "$tmp/ex.$b.life" || fail "$b: no SIGKILL: $(cat "$tmp/ex.$b.life")"
done
diff "$tmp/ex.ptrace.life" "$tmp/ex.kernel.life" >"$tmp/diff" || fail "exit statuses differ: $(cat "$tmp/diff")"

# the exit status passes through
"$RUN" --backend kernel -S -L -G -- sh -c 'exit 5'
[ $? = 5 ] || fail "exit 5 not passed through"
"$RUN" --backend kernel -S -L -G -- sh -c 'kill -9 $$'
[ $? = 137 ] || fail "a SIGKILLed command's status"

# events the kernel lost are reported, never silent: a tiny buffer and a
# syscall storm, through the engine and in uft record's summary
# (whether the reader falls behind depends on the load: a longer storm is
# tried when a run lost nothing, and a run that lost nothing must say 0)
for n in 200000 1000000 4000000; do
	UFT_PT_KBUF_KB=8 "$RUN" --backend kernel -n -- "$WL" spin $n >/dev/null 2>"$tmp/lost.err"
	grep_q -E '^lost [1-9][0-9]*$' "$tmp/lost.err" && break
done
grep_q -E '^lost [1-9][0-9]*$' "$tmp/lost.err" || fail "no lost events reported: $(cat "$tmp/lost.err")"
for n in 200000 1000000 4000000; do
	UFT_PT_KBUF_KB=8 "$UFT" record -p process --backend kernel -o "$tmp/lost.dat" -- "$WL" spin $n \
		>"$tmp/lost.out" 2>&1 || fail "uft record with a small buffer: $(cat "$tmp/lost.out")"
	grep_q -E '^total: .*, [1-9][0-9]* overrun' "$tmp/lost.out" && break
	grep_q -E '^total: .*, 0 overrun' "$tmp/lost.out" || fail "no overrun count: $(cat "$tmp/lost.out")"
done
grep_q -E '^total: .*, [1-9][0-9]* overrun' "$tmp/lost.out" || fail "no overrun in the summary: $(cat "$tmp/lost.out")"
grep_q 'lost [1-9][0-9]* of ' "$tmp/lost.out" || fail "no loss line: $(cat "$tmp/lost.out")"

# one clock: before < the kernel's sys_enter of getpgid(0x7ffffff0) < after
"$RUN" --backend kernel -s getpgid -L -G -o "$tmp/clk" -- "$RUN" -T >"$tmp/probe"
read -r _ before _ after <"$tmp/probe"
ts=$(grep 'raw_syscalls:sys_enter: NR 121 getpgid (7ffffff0,' "$tmp/clk" | awk '{sub(/:$/, "", $3); sub(/\./, "", $3); print $3}')
[ -n "$ts" ] || fail "no sys_enter of the probe's getpgid: $(cat "$tmp/clk")"
ts=$((10#$ts))
[ "$before" -lt "$ts" ] && [ "$ts" -lt "$after" ] ||
	fail "clocks disagree: uft before $before, kernel sys_enter $ts, uft after $after"

# attach to a running process: both threads followed; SIGINT ends the
# driver, which removes its instance; the process runs on
wait_for() { # wait_for FILE PATTERN: up to 30 s (a loaded machine)
	for _ in $(seq 300); do
		grep_q -E "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
"$WL" loop "$tmp/ticks" &
wl=$!
pids+=("$wl")
wait_for "$tmp/ticks" '^3$' || fail "the loop does not tick"
"$RUN" --backend kernel -p "$wl" -o "$tmp/att" 2>"$tmp/att.err" &
drv=$!
pids+=("$drv")
wait_for "$tmp/att" "^$wl .*syscalls:sys_exit_getppid" || fail "no getppid events after attach: $(cat "$tmp/att.err")"
wait_for "$tmp/att" 'syscalls:sys_enter_openat' || fail "second thread not followed"
grep 'syscalls:sys_enter_openat' "$tmp/att" | grep_q -v "^$wl " || fail "the ticker's calls under the main thread's id"
ls "$T/instances" | grep_q -x "uft-$drv-[0-9]*" || fail "no instance while attached"
kill -INT "$drv"
wait "$drv"
rc=$?
[ "$rc" = 0 ] || fail "the driver's status after SIGINT: $rc"
no_instance $drv || fail "instance left after SIGINT: $(ls $T/instances)"
n=$(wc -l <"$tmp/ticks")
wait_for "$tmp/ticks" "^$((n + 3))\$" || fail "the process does not run on"
kill -9 "$wl"
wait "$wl" 2>/dev/null

# SIGINT while a launched command runs: the instance goes too
"$RUN" --backend kernel -o "$tmp/l" -- "$WL" loop "$tmp/ticks2" 2>"$tmp/l.err" &
drv=$!
pids+=("$drv")
wait_for "$tmp/l" 'syscalls:sys_exit_getppid' ||
	fail "no events of the launched loop (driver $(kill -0 $drv 2>/dev/null && echo running || echo gone)," \
		"$(wc -l <"$tmp/ticks2" 2>/dev/null) ticks): $(cat "$tmp/l.err"; head -5 "$tmp/l")"
wl=$(awk '/sched_process_exec/ {print $1; exit}' "$tmp/l")
pids+=("$wl")
kill -INT "$drv"
wait "$drv"
no_instance $drv || fail "instance left after SIGINT of a launch: $(ls $T/instances)"
kill -9 "$wl"

# a missing pid is refused
"$RUN" --backend kernel -p 999999999 2>"$tmp/err"
[ $? = 2 ] || fail "attaching a missing process"
grep_q "no process" "$tmp/err" || fail "message: $(cat "$tmp/err")"

# an instance left by a uft process that died (SIGKILL) is removed at start
sh -c 'exit 0' &
dead=$!
wait $dead
if ! kill -0 $dead 2>/dev/null; then
	mkdir "$T/instances/uft-$dead-0" || fail "cannot make a stale instance"
	"$RUN" --backend kernel -S -L -G -- true
	[ -d "$T/instances/uft-$dead-0" ] && {
		rmdir "$T/instances/uft-$dead-0"
		fail "the stale instance of $dead was not removed"
	}
fi
echo "proctrace kernel: ok"
