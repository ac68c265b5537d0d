#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record -p process and uft stream -p process (design/process-tracer.md,
# "In uft record and uft stream"): a shell's fork, exec, exit, syscall and
# signal events in trace.dat, read the same by trace-cmd and uft report, the
# syscall histogram, a syscall set, the categories, -e and -f on the kernel's
# event names, a program linked with libuft giving both kinds of events on one
# timeline, a static program, -P on a running process left running after SIGINT, the errors
# before anything runs, and the stream. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/proc.sh"
source "$(dirname "$0")/lib/tracecmd.sh"
need "$WL" "$DEMO"
need_ptrace

# Event lines of uft report, normalized as lib/tracecmd.sh has them.
report() { "$UFT" report -i "$1" >"$tmp/r.txt" || fail "uft report $1 exited $?"; norm_uft "$tmp/r.txt"; }
# names NORM: "EVENT" per line.
names() { awk '{ e = $4; sub(/:$/, "", e); print e }' "$1" | sort -u; }

# ---- a shell that lists / and signals itself ----
"$UFT" record -p process -o "$tmp/sh.dat" -- sh -c 'ls / >/dev/null; kill -USR1 $$' \
	>"$tmp/rec.out" 2>"$tmp/rec.err"
rc=$?
[ $rc = 138 ] || fail "the shell killed by SIGUSR1 should give 138, got $rc: $(cat "$tmp/rec.err")"
grep_q '^total: .* events written' "$tmp/rec.out" || fail "no summary: $(cat "$tmp/rec.out")"
grep_q '^process tracer: [1-9][0-9]* events$' "$tmp/rec.out" || fail "no process tracer line"
report "$tmp/sh.dat" >"$tmp/sh.norm"
names "$tmp/sh.norm" >"$tmp/sh.names"
for e in sched_process_fork sched_process_exec sched_process_exit sys_enter sys_exit \
	signal_generate signal_deliver sys_enter_openat sys_exit_openat sys_enter_kill; do
	grep_q -x "$e" "$tmp/sh.names" || fail "no $e event in the shell's recording"
done
grep_q 'sched_process_exec: filename=/usr/bin/ls\|sched_process_exec: filename=/bin/ls' \
	"$tmp/sh.norm" || fail "no exec of ls"
grep_q 'signal_deliver: sig=10 ' "$tmp/sh.norm" || fail "no delivery of SIGUSR1"
if [ $have_tc = 1 ]; then
	same_as_tc "$tmp/sh.dat" "$tmp/sh.norm"
fi
"$UFT" report -i "$tmp/sh.dat" --hist 'raw_syscalls:sys_enter:keys=id.syscall' >"$tmp/hist.txt" ||
	fail "uft report --hist exited $?"
grep_q -E '\{ id: sys_openat +\[257\] \} hitcount: +[1-9]' "$tmp/hist.txt" ||
	fail "hist by syscall name: $(head -20 "$tmp/hist.txt")"
grep_q -E '\{ id: sys_kill +\[ *62\] \} hitcount: +1$' "$tmp/hist.txt" ||
	fail "hist: no kill: $(head -20 "$tmp/hist.txt")"

# A command's 127 is its own: the file is still written.
"$UFT" record -q -p process --no-syscalls -o "$tmp/127.dat" -- sh -c 'exit 127' 2>/dev/null
[ $? = 127 ] || fail "exit status 127 not passed through"
[ -s "$tmp/127.dat" ] || fail "no file for a command that exited 127"

# ---- a static program: its threads, children, exec, signals and exit code ----
WLS=$B/tests/pt_workload_static
[ -x "$WLS" ] || fail "no $WLS (make tests-bin builds it)"
"$UFT" record -q -p process -o "$tmp/st.dat" -- "$WLS" run >"$tmp/st.out" 2>&1
rc=$?
[ $rc = 7 ] || fail "static program: exit $rc, not 7: $(cat "$tmp/st.out")"
report "$tmp/st.dat" >"$tmp/st.norm"
for e in 'sched_process_fork: ' 'sched_process_exec: filename=.*/true' \
	'signal_deliver: sig=10 ' 'signal_deliver: sig=12 .* sa_handler=1 ' \
	'exit_status: .* code=0 sig=15 ' 'exit_status: .* code=7 sig=0 ' \
	'sys_enter_getsid: ' 'clone_flags: .* thread'; do
	grep_q "$e" "$tmp/st.norm" || fail "static program: no '$e'"
done
[ "$(grep -c 'sys_enter_getpgid: ' "$tmp/st.norm")" -ge 2 ] ||
	fail "static program: the thread's two getpgid calls are missing"

# ---- a syscall set, the categories, -e, -f ----
run() { # OUT ARGS... -- records `sh -c 'ls / >/dev/null'` quietly
	local out=$1
	shift
	"$UFT" record -q -o "$out" "$@" -- sh -c 'ls / >/dev/null' 2>"$tmp/run.err" ||
		fail "uft record $* exited $?: $(cat "$tmp/run.err")"
	report "$out" >"$out.norm"
	names "$out.norm" >"$out.names"
}
run "$tmp/set.dat" -p process --syscalls openat
grep -E '^sys_(enter|exit)_' "$tmp/set.dat.names" | grep -v '_openat$' >"$tmp/other" &&
	fail "--syscalls openat recorded other calls: $(head -3 "$tmp/other")"
grep_q -x sys_enter_openat "$tmp/set.dat.names" || fail "--syscalls openat: no openat"
awk '$4 == "sys_enter:" && $6 != 257' "$tmp/set.dat.norm" | grep_q . &&
	fail "--syscalls openat: a raw sys_enter of another call"
grep_q -x sched_process_exec "$tmp/set.dat.names" || fail "--syscalls dropped the lifecycle"

run "$tmp/nosys.dat" -p process --no-syscalls
grep_q '^sys_' "$tmp/nosys.dat.names" && fail "--no-syscalls recorded syscalls"
grep_q -x sched_process_fork "$tmp/nosys.dat.names" || fail "--no-syscalls: no fork"

run "$tmp/nolife.dat" -p process --no-lifecycle --no-signals
grep_q '^sched_\|^signal_' "$tmp/nolife.dat.names" && fail "--no-lifecycle --no-signals"
grep_q -x sys_enter "$tmp/nolife.dat.names" || fail "--no-lifecycle: no syscalls"

"$UFT" record -q -p process -e signal -o "$tmp/sig.dat" -- sh -c 'kill -USR1 $$'
[ $? = 138 ] || fail "-e signal: exit status"
report "$tmp/sig.dat" >"$tmp/sig.norm"
[ "$(names "$tmp/sig.norm" | tr '\n' ' ')" = "signal_deliver signal_generate " ] ||
	fail "-e signal recorded: $(names "$tmp/sig.norm" | tr '\n' ' ')"

run "$tmp/flt.dat" -p process -e raw_syscalls:sys_enter -f 'id == 257'
[ "$(cat "$tmp/flt.dat.names")" = sys_enter ] || fail "-e raw_syscalls:sys_enter: $(cat "$tmp/flt.dat.names")"
awk '$6 != 257' "$tmp/flt.dat.norm" | grep_q . && fail "-f 'id == 257' kept another call"
grep_q . "$tmp/flt.dat.norm" || fail "-f 'id == 257' kept nothing"

run "$tmp/one.dat" -p process -e syscalls:sys_enter_openat
[ "$(cat "$tmp/one.dat.names")" = sys_enter_openat ] ||
	fail "-e syscalls:sys_enter_openat: $(cat "$tmp/one.dat.names")"

"$UFT" record -q -p process -e signal -f 'sig == 99' -o "$tmp/none.dat" -- sh -c 'kill -USR1 $$'
report "$tmp/none.dat" | grep_q . && fail "a filter matching nothing kept events"

"$UFT" record -q -p process -e raw_syscalls:sys_enter -f 'nosuchfield == 1' -o "$tmp/bad.dat" \
	-- true 2>"$tmp/bad.err"
[ $? = 2 ] || fail "a bad filter should exit 2"
grep_q 'nosuchfield' "$tmp/bad.err" || fail "bad filter message: $(cat "$tmp/bad.err")"

run "$tmp/comm.dat" -p process --comm ls
grep_q . "$tmp/comm.dat.norm" || fail "--comm ls kept nothing"
awk '$1 !~ /^ls-/' "$tmp/comm.dat.norm" | grep_q . && fail "--comm ls kept another comm"
run "$tmp/uid.dat" -p process --uid 4000000000
grep_q . "$tmp/uid.dat.norm" && fail "--uid of nobody here kept events"

# ---- the program's own events beside the process events ----
"$UFT" record -q -p process -e 'demo:*' -o "$tmp/demo.dat" -- "$DEMO" >/dev/null 2>"$tmp/demo.err" ||
	fail "demo under -p process exited $?: $(cat "$tmp/demo.err")"
report "$tmp/demo.dat" >"$tmp/demo.norm"
for e in start request worker_state sched_process_fork sched_process_exec sys_enter; do
	names "$tmp/demo.norm" | grep_q -x $e || fail "demo: no $e event"
done
# Each worker thread is born (the tracer's fork event) before its first
# event of its own (libuft's), and the program's exec comes before all.
awk '{ ts = $3; sub(/:$/, "", ts); ts += 0 }
	$4 == "sched_process_exec:" && !exec { exec = ts }
	$4 == "sched_process_fork:" { c = $NF; sub(/child_pid=/, "", c); born[c] = ts }
	$4 == "worker_state:" { p = $1; sub(/.*-/, "", p); if (!(p in first)) first[p] = ts }
	$4 == "start:" { start = ts }
	END {
		if (!exec || !start || start < exec) { print "start before exec"; exit 1 }
		for (p in first) { n++; if (!(p in born) || born[p] > first[p]) { print "worker " p; exit 1 } }
		if (n != 3) { print n " workers"; exit 1 }
	}' "$tmp/demo.norm" >"$tmp/order" || fail "demo events out of order: $(cat "$tmp/order")"
if [ $have_tc = 1 ]; then
	same_as_tc "$tmp/demo.dat" "$tmp/demo.norm"
fi

# ---- errors before anything runs ----
"$UFT" record -p process -P 999999999 -o "$tmp/x.dat" 2>"$tmp/err" && fail "unknown pid accepted"
[ $? = 2 ] || fail "unknown pid: exit status"
grep_q 'no process 999999999' "$tmp/err" || fail "unknown pid message: $(cat "$tmp/err")"
[ -e "$tmp/x.dat" ] && fail "a file was written for an unknown pid"
"$UFT" record -p process -P 1 -- true 2>/dev/null
[ $? = 2 ] || fail "-P with a command should be refused"
"$UFT" record --syscalls openat -- true 2>/dev/null
[ $? = 2 ] || fail "--syscalls without -p process should be refused"

# ---- -P on a running process, left running after SIGINT ----
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)
if [ "$scope" = 0 ] || [ "$(id -u)" = 0 ]; then
	"$WL" loop "$tmp/loop" &
	wl=$!
	disown $wl
	pids+=("$wl")
	touch "$tmp/loop"
	grows "$tmp/loop" "the workload does not run"
	"$UFT" record -p process -P "$wl" -o "$tmp/att.dat" >"$tmp/att.out" 2>"$tmp/att.err" &
	up=$!
	pids+=("$up")
	until grep_q following "$tmp/att.err"; do
		kill -0 $up 2>/dev/null || fail "uft record -P ended: $(cat "$tmp/att.err")"
		sleep 0.05
	done
	grows "$tmp/loop" "the followed process does not run under uft record -P"
	kill -INT $up
	wait $up
	rc=$?
	[ $rc = 0 ] || fail "uft record -P after SIGINT exited $rc: $(cat "$tmp/att.err")"
	grep_q "(pid $wl) left running" "$tmp/att.out" || fail "no 'left running': $(cat "$tmp/att.out")"
	kill -0 "$wl" || fail "the followed process is gone"
	grep_q -E '^TracerPid:\s+0$' /proc/$wl/status || fail "the process is still traced"
	grows "$tmp/loop" "the followed process stopped running after SIGINT"
	report "$tmp/att.dat" >"$tmp/att.norm"
	grep_q "pt_workload-$wl .* sys_enter_getppid:" "$tmp/att.norm" ||
		fail "no getppid of the followed process"
	grep_q "sys_enter_openat:" "$tmp/att.norm" || fail "no openat of its thread"
	if [ $have_tc = 1 ]; then
		same_as_tc "$tmp/att.dat" "$tmp/att.norm"
	fi
	# A recorder killed outright leaves it running too (ptrace detaches).
	"$UFT" record -p process -P "$wl" -o "$tmp/kill.dat" >/dev/null 2>"$tmp/kill.err" &
	up=$!
	until grep_q following "$tmp/kill.err"; do
		kill -0 $up 2>/dev/null || fail "uft record -P ended: $(cat "$tmp/kill.err")"
		sleep 0.05
	done
	kill -9 $up
	wait $up 2>/dev/null
	grows "$tmp/loop" "the followed process stopped running after SIGKILL"
	grep_q -E '^TracerPid:\s+0$' /proc/$wl/status || fail "still traced after SIGKILL"
else
	echo "note: -P not tested (Yama ptrace_scope $scope)"
fi

# ---- --backend ----
"$UFT" record -p process --backend bogus -- true >/dev/null 2>"$tmp/be.err"
[ $? = 2 ] || fail "--backend bogus was not refused with exit 2"
grep_q "'bogus' is not ptrace or kernel" "$tmp/be.err" || fail "--backend bogus: $(cat "$tmp/be.err")"
if "$B/tests/proctrace_run" --kernel-usable >/dev/null 2>&1; then
	# The kernel's own events from a private instance: the same names, read
	# by trace-cmd, and the instance gone afterwards.
	"$UFT" record -q -p process --backend kernel -o "$tmp/k.dat" -- sh -c 'exit 4'
	[ $? = 4 ] || fail "--backend kernel: the exit status was not passed through"
	trace-cmd report "$tmp/k.dat" >"$tmp/k.tc" 2>/dev/null || fail "trace-cmd cannot read the kernel backend's file"
	grep_q 'sched_process_exec: .*filename=/usr/bin/sh' "$tmp/k.tc" || fail "--backend kernel: no exec"
	grep_q 'sys_enter_exit_group:' "$tmp/k.tc" || fail "--backend kernel: no exit_group"
	ls /sys/kernel/tracing/instances/ /sys/kernel/debug/tracing/instances/ 2>/dev/null |
		grep_q "^uft-$$-\|^uft-[0-9]*-[0-9]*$" && fail "an instance was left: $(ls /sys/kernel/tracing/instances/)"
else
	echo "note: --backend kernel not tested ($("$B/tests/proctrace_run" --kernel-usable 2>&1 | head -1))"
fi
# A user the kernel's tracefs refuses: the kernel backend is refused before
# anything runs, with the reason.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	mkdir -m 777 "$tmp/nobody"
	rc=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- env -u UFT_RUNDIR \
		"$UFT" record -p process --backend kernel -o "$tmp/nobody/k.dat" -- \
		touch "$tmp/nobody/ran" >/dev/null 2>"$tmp/nobody.err" || rc=$?
	[ $rc = 2 ] || fail "--backend kernel as nobody: exit $rc: $(cat "$tmp/nobody.err")"
	grep_q -- '--backend kernel: ' "$tmp/nobody.err" || fail "--backend kernel as nobody: $(cat "$tmp/nobody.err")"
	[ ! -e "$tmp/nobody/ran" ] && [ ! -e "$tmp/nobody/k.dat" ] || fail "--backend kernel as nobody ran the command"
fi

# ---- uft stream ----
"$UFT" stream -p process -- true >"$tmp/st.out" 2>"$tmp/st.err" || fail "uft stream exited $?"
grep_q 'sched_process_exec: filename=.*true' "$tmp/st.out" || fail "stream: no exec line"
grep_q 'sys_enter_exit_group: error_code: 0x0' "$tmp/st.out" || fail "stream: no exit_group"
"$UFT" stream -p process --no-syscalls -- sh -c 'exit 5' >/dev/null 2>&1
[ $? = 5 ] || fail "stream: the exit status was not passed through"
# Both kinds of events, from two sources out of time order with each other,
# each printed once and whole.
"$UFT" stream -p process --no-syscalls -e 'demo:*' -- "$DEMO" >"$tmp/st2.out" 2>"$tmp/st2.err" ||
	fail "uft stream of the demo exited $?: $(cat "$tmp/st2.err")"
[ "$(grep -c ' start: workers=3$' "$tmp/st2.out")" = 1 ] || fail "stream: start not printed once"
[ "$(grep -c ' request: ' "$tmp/st2.out")" = 13 ] || fail "stream: not 13 requests"
grep_q ' sched_process_fork: ' "$tmp/st2.out" || fail "stream: no fork beside the demo's events"
grep_q ' type: \|<\.\.\.>' "$tmp/st2.out" && fail "stream: garbled lines: $(grep -m3 ' type: ' "$tmp/st2.out")"
exit 0
