#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The process tracer's engine (src/proctrace/, design/process-tracer.md), run
# by its driver build/tests/proctrace_run on build/tests/pt_workload: fork,
# exec, exit and signal events, the syscall sequence of several threads, a
# syscall set applied by the seccomp filter, the categories and the comm
# filter, the exit status passed through, attach and detach leaving the
# process running, and a SIGKILLed tracer leaving its tracee running.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/proc.sh"
need "$RUN" "$WL"
# ptrace may be refused (Yama scope 3, a seccomp profile): try once.
"$RUN" -S -G -- true >/dev/null 2>&1 || {
	echo "skip: ptrace is not permitted here"
	exit 77
}

# the events of the run, one line each: TID [CPU] TS: SYSTEM:EVENT: BODY
"$RUN" -o "$tmp/all" -- "$WL" run
rc=$?
[ "$rc" = 7 ] || fail "the workload's exit status 7 came back as $rc"
ev() { grep -F " $1: " "$tmp/all"; }
main=$(ev sched:sched_process_exec | awk 'NR == 1 {print $1}')
ev sched:sched_process_exec | grep_q "filename=$WL pid=$main old_pid=$main" ||
	fail "no exec of the workload"
threads=$(ev process:clone_flags | grep "^$main .* thread\$" | sed -E 's/.*child_pid=([0-9]+).*/\1/' | tr '\n' ' ')
procs=$(ev process:clone_flags | grep "^$main .* process\$" | sed -E 's/.*child_pid=([0-9]+).*/\1/' | tr '\n' ' ')
[ "$(echo $threads | wc -w)" = 2 ] || fail "two threads expected, got: $threads"
[ "$(echo $procs | wc -w)" = 3 ] || fail "three child processes expected, got: $procs"
for c in $threads $procs; do
	ev sched:sched_process_fork | grep_q "pid=$main child_comm=pt_workload child_pid=$c\$" ||
		fail "no sched_process_fork of $c"
done
read -r ta tb <<<"$threads"
read -r pa pb pc <<<"$procs"
ev sched:sched_process_exec | grep_q -E "filename=[^ ]*true pid=$pb old_pid=$pb\$" ||
	fail "no exec of true in $pb"
ev process:exit_status | grep_q "pid=$pa code=0 sig=15 core=0" || fail "child $pa not killed by SIGTERM"
# a second thread's exec: the process keeps its id, old_pid names the thread,
# and the thread's execve returns under the new id
tc=$(ev process:clone_flags | grep "^$pc .* thread\$" | sed -E 's/.*child_pid=([0-9]+).*/\1/')
[ -n "$tc" ] || fail "no thread in $pc"
ev sched:sched_process_exec | grep_q -E "filename=[^ ]*true pid=$pc old_pid=$tc\$" ||
	fail "no exec of true by thread $tc of $pc"
grep_q -E "^$tc .*syscalls:sys_enter_execve:" "$tmp/all" || fail "no execve entry in $tc"
grep_q -E "^$pc .*syscalls:sys_exit_execve: 0\$" "$tmp/all" || fail "no execve exit under $pc"
ev process:exit_status | grep_q "pid=$pc code=0 sig=0" || fail "no exit of $pc after the thread's exec"
ev process:exit_status | grep_q "pid=$main code=7 sig=0" || fail "no exit status 7 of $main"
ev sched:sched_process_exit | grep_q "pid=$main prio=[0-9]* group_dead=true" ||
	fail "no group exit of $main"
ev sched:sched_process_exit | grep_q "comm=pt_workload pid=$ta prio=[0-9]* group_dead=false" ||
	fail "no thread exit of $ta"

# signals: SIGUSR1 handled, SIGUSR2 ignored, SIGTERM fatal in the child
ev signal:signal_deliver | grep_q "^$main .*sig=10 errno=0 code=-6 sa_handler=ffffffffffffffff" ||
	fail "no delivery of the handled SIGUSR1"
ev signal:signal_deliver | grep_q "^$main .*sig=12 .*sa_handler=1 " || fail "no ignored SIGUSR2"
ev signal:signal_deliver | grep_q "^$pa .*sig=15 .*sa_handler=0 " || fail "no fatal SIGTERM in $pa"
ev signal:signal_generate | grep_q "^$main .*sig=10 errno=0 code=-6 comm=pt_workload pid=$main grp=0 res=0" ||
	fail "no signal_generate of SIGUSR1"

# each thread's calls, in order, enter and exit paired
seq_of() { grep -E "^$1 .* syscalls:sys_(enter|exit)_($2):" "$tmp/all" | sed -E 's/.*syscalls:(sys_[a-z]+_[a-z0-9_]+):.*/\1/' | tr '\n' ' '; }
[ "$(seq_of "$ta" 'getpgid|getsid|umask')" = "sys_enter_getpgid sys_exit_getpgid sys_enter_getpgid sys_exit_getpgid " ] ||
	fail "thread $ta: $(seq_of "$ta" 'getpgid|getsid|umask')"
[ "$(seq_of "$tb" 'getpgid|getsid|umask')" = "sys_enter_getsid sys_exit_getsid " ] ||
	fail "thread $tb: $(seq_of "$tb" 'getpgid|getsid|umask')"
[ "$(seq_of "$main" 'getpgid|getsid|umask')" = "$(printf 'sys_enter_umask sys_exit_umask %.0s' 1 2 3)" ] ||
	fail "main: $(seq_of "$main" 'getpgid|getsid|umask')"
grep -E "^$ta .*raw_syscalls:sys_enter: NR 121 " "$tmp/all" | grep_q "NR 121 getpgid (0," ||
	fail "no raw_syscalls:sys_enter of getpgid(0) in $ta"
grep_q -E "^$main .*syscalls:sys_exit_umask: 18$" "$tmp/all" || fail "umask's return value"

# a syscall set: only those calls stop the tracee (seccomp), lifecycle still there
"$RUN" -s getpgid,getsid,umask -o "$tmp/set" -- "$WL" run
[ $? = 7 ] || fail "exit status with a syscall set"
names=$(grep -o 'syscalls:sys_enter_[a-z0-9_]*' "$tmp/set" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')
[ "$names" = "syscalls:sys_enter_getpgid=2 syscalls:sys_enter_getsid=1 syscalls:sys_enter_umask=3 " ] ||
	fail "syscall set: $names"
grep_q 'raw_syscalls:sys_enter: NR 95 ' "$tmp/set" || fail "no raw sys_enter of umask with a set"
grep_q 'sched:sched_process_exec' "$tmp/set" || fail "no lifecycle events with a syscall set"
# a class
"$RUN" -s %signal -S -o "$tmp/none" -- "$WL" run
grep_q syscalls: "$tmp/none" && fail "syscall events with -S"
"$RUN" -s %signal -o "$tmp/class" -- "$WL" run
grep -o 'syscalls:sys_enter_[a-z0-9_]*' "$tmp/class" | sort -u | grep -v -E '_(rt_sig[a-z]*|sig[a-z0-9]*|tgkill|kill|tkill|pause)$' |
	grep_q . && fail "calls outside %signal: $(grep -o 'syscalls:sys_enter_[a-z0-9_]*' "$tmp/class" | sort -u)"
grep_q 'syscalls:sys_enter_rt_sigaction' "$tmp/class" || fail "%signal lacks rt_sigaction"
"$RUN" -s nosuchcall -- true 2>/dev/null
[ $? = 2 ] || fail "an unknown syscall is not refused"

# categories and the comm filter
"$RUN" -L -G -o "$tmp/sys" -- "$WL" run
grep_q -E ' (sched|signal|process):' "$tmp/sys" && fail "lifecycle or signal events with -L -G"
grep_q 'syscalls:sys_enter_umask' "$tmp/sys" || fail "no syscalls with -L -G"
"$RUN" -S -o "$tmp/life" -- "$WL" run
grep_q 'syscalls:' "$tmp/life" && fail "syscall events with -S"
grep_q 'signal:signal_deliver' "$tmp/life" || fail "no signals with -S"
"$RUN" -c true -o "$tmp/comm" -- "$WL" run
awk '{print $1}' "$tmp/comm" | sort -u | grep_q -v -x "$(awk '/sched_process_exec: filename=[^ ]*true/ {print $1}' "$tmp/comm")" &&
	fail "events of other comms with -c true"
grep_q 'sched:sched_process_exit: comm=true ' "$tmp/comm" || fail "no events of true with -c true"

# the uid filter (the real uid in decimal, a glob)
me=$(id -u)
"$RUN" -u "$me" -o "$tmp/uid" -- "$WL" run
grep_q 'sched:sched_process_exec' "$tmp/uid" || fail "no events with -u $me"
"$RUN" -u "$((me + 1))*" -o "$tmp/uid2" -- "$WL" run
[ -s "$tmp/uid2" ] && fail "events of uid $me with -u $((me + 1))*"
# the comms the engine reports for cmdlines
"$RUN" -v -S -G -o /dev/null -- "$WL" run 2>"$tmp/comms"
grep_q -E '^comm [0-9]+ true$' "$tmp/comms" || fail "no comm after exec: $(cat "$tmp/comms")"
grep_q -E '^comm [0-9]+ pt_workload$' "$tmp/comms" || fail "no comm of the workload"

# the exit status passes through, a signal as 128 + N
"$RUN" -S -L -G -- sh -c 'exit 5'
[ $? = 5 ] || fail "exit 5 not passed through"
"$RUN" -S -L -G -- sh -c 'kill -9 $$'
[ $? = 137 ] || fail "a SIGKILLed command's status"
"$RUN" -- /nonexistent/prog >/dev/null 2>&1
[ $? = 127 ] || fail "a command that cannot run"

# attach to a running process and detach: it runs on, untraced
"$WL" loop "$tmp/ticks" &
wl=$!
pids+=("$wl")
wait_for() { # wait_for FILE PATTERN: up to 10 s
	for _ in $(seq 100); do
		grep_q -E "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
running() { # running PID TICKS: not stopped, not traced, still ticking
	local st n
	st=$(awk '/^State:/ {print $2}' "/proc/$1/status")
	case $st in t | T | "") return 1 ;; esac
	grep_q -x 'TracerPid:[[:space:]]*0' "/proc/$1/status" || return 1
	n=$(wc -l <"$2")
	wait_for "$2" "^$((n + 3))\$"
}
wait_for "$tmp/ticks" '^3$' || fail "the loop does not tick"
"$RUN" -p "$wl" -o "$tmp/att" 2>"$tmp/att.err" &
tr=$!
pids+=("$tr")
wait_for "$tmp/att" 'syscalls:sys_exit_getppid' || fail "no getppid events after attach: $(cat "$tmp/att.err")"
wait_for "$tmp/att" "^$wl .*syscalls:sys_enter_clock_nanosleep" || fail "main thread not followed"
# only the ticker thread opens files
wait_for "$tmp/att" 'syscalls:sys_enter_openat' || fail "second thread not followed"
grep 'syscalls:sys_enter_openat' "$tmp/att" | grep_q -v "^$wl " || fail "the ticker's calls under the main thread's id"
grep_q -x "TracerPid:[[:space:]]*$tr" "/proc/$wl/status" || fail "not traced by the driver"
kill -INT "$tr"
wait "$tr"
rc=$?
[ "$rc" = 0 ] || fail "the driver's status after detach: $rc"
running "$wl" "$tmp/ticks" || fail "the process is not running untraced after detach"

# a group-stop under the tracer: SIGSTOP stops it (PTRACE_LISTEN), SIGCONT
# resumes it, and a detach during a group-stop leaves it stopped
"$RUN" -p "$wl" -o "$tmp/stop" 2>/dev/null &
tr=$!
pids+=("$tr")
wait_for "$tmp/stop" 'syscalls:sys_exit_getppid' || fail "no events on attach for the group-stop"
kill -STOP "$wl"
wait_for "$tmp/stop" "signal_deliver: sig=19 " || fail "no delivery of SIGSTOP"
for _ in $(seq 50); do
	case $(awk '/^State:/ {print $2}' "/proc/$wl/status") in t | T) break ;; esac
	sleep 0.1
done
n=$(wc -l <"$tmp/ticks")
sleep 0.3
[ "$(wc -l <"$tmp/ticks")" = "$n" ] || fail "the process ticks in a group-stop"
kill -CONT "$wl"
wait_for "$tmp/stop" "signal_deliver: sig=18 " || fail "no delivery of SIGCONT"
wait_for "$tmp/ticks" "^$((n + 3))\$" || fail "the process does not run on after SIGCONT"
kill -STOP "$wl"
sleep 0.3
kill -INT "$tr"
wait "$tr"
grep_q -x 'TracerPid:[[:space:]]*0' "/proc/$wl/status" || fail "still traced after the detach"
grep_q -E '^State:[[:space:]]*T' "/proc/$wl/status" || fail "a group-stopped process was resumed by the detach"
kill -CONT "$wl"
running "$wl" "$tmp/ticks" || fail "the process does not run after the group-stop"

# a second tracer is refused with a clear message; a missing pid too
"$RUN" -S -p "$wl" -o /dev/null 2>"$tmp/err1" &
tr=$!
pids+=("$tr")
wait_for "$tmp/err1" attached || fail "second attach"
"$RUN" -S -p "$wl" 2>"$tmp/err2"
rc=$?
[ "$rc" = 2 ] || fail "attaching a traced process: status $rc"
grep_q "already traced by $tr" "$tmp/err2" || fail "message: $(cat "$tmp/err2")"
kill -INT "$tr"
wait "$tr"
"$RUN" -p 999999999 2>"$tmp/err3"
[ $? = 2 ] || fail "attaching a missing process"
grep_q "no process" "$tmp/err3" || fail "message: $(cat "$tmp/err3")"

# a SIGKILLed tracer: the attached process runs on (no PTRACE_O_EXITKILL)
"$RUN" -p "$wl" -o "$tmp/att2" 2>/dev/null &
tr=$!
pids+=("$tr")
wait_for "$tmp/att2" 'syscalls:sys_exit_getppid' || fail "no events on the second attach"
kill -9 "$tr"
wait "$tr" 2>/dev/null
running "$wl" "$tmp/ticks" || fail "the process is not running after its tracer was killed"
kill -9 "$wl"
wait "$wl" 2>/dev/null

# the same for a launched command traced at every syscall
"$RUN" -o "$tmp/launch" -- "$WL" loop "$tmp/ticks2" &
tr=$!
pids+=("$tr")
wait_for "$tmp/launch" 'syscalls:sys_exit_getppid' || fail "no events of the launched loop"
wl=$(awk '/sched_process_exec/ {print $1; exit}' "$tmp/launch")
pids+=("$wl")
kill -9 "$tr"
wait "$tr" 2>/dev/null
running "$wl" "$tmp/ticks2" || fail "the launched command is not running after its tracer was killed"
# a launched command with a syscall set is served to its end on SIGINT (its
# seccomp filter would fail getppid with ENOSYS without a tracer); the
# status of the command (SIGTERM) passes through
"$RUN" -s getppid -o "$tmp/sc" -- "$WL" loop "$tmp/ticks3" &
tr=$!
pids+=("$tr")
wait_for "$tmp/sc" 'syscalls:sys_exit_getppid' || fail "no getppid events with a set"
wl=$(awk '/sched_process_exec/ {print $1; exit}' "$tmp/sc")
pids+=("$wl")
kill -INT "$tr"
sleep 0.3
kill -0 "$tr" 2>/dev/null || fail "the tracer left its seccomp-filtered command"
n=$(wc -l <"$tmp/sc")
wait_for "$tmp/ticks3" "^$(($(wc -l <"$tmp/ticks3") + 3))\$" || fail "the command stopped running"
[ "$(wc -l <"$tmp/sc")" = "$n" ] || fail "events after the stop request"
kill -TERM "$wl"
wait "$tr"
rc=$?
[ "$rc" = 143 ] || fail "the command's SIGTERM came back as $rc"
echo "proctrace: ok"
