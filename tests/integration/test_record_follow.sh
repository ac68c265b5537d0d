#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record -p process --follow 0 (design/process-tracer.md, "Choosing a
# backend for --follow 0") and --follow's refusals with both backends:
# - as root with the kernel backend: a process started before, not a child
#   of uft, has its events in the file; uft's own are not;
# - as nobody with ptrace: a process of nobody's is followed (the one-line
#   count at start), and left running and untraced after SIGINT;
# - a pid that does not exist, one not ours, one already traced: a clear
#   message and exit 2, nothing recorded.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/proc.sh"
need "$WL" "$RUN"
need_root "needs root (a second user and the kernel backend)"
# started PID ERRFILE: waits for uft record's "following" line.
started() {
	until grep_q following "$2"; do
		kill -0 "$1" 2>/dev/null || fail "uft record ended: $(cat "$2")"
		sleep 0.05
	done
}
as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups -- env -u UFT_RUNDIR)
have_nobody=0
command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 && have_nobody=1

# ---- the kernel backend: every process ----
if "$RUN" --kernel-usable >/dev/null 2>&1; then
	"$WL" loop "$tmp/k.loop" &
	wl=$!
	pids+=("$wl")
	touch "$tmp/k.loop"
	grows "$tmp/k.loop" "the workload does not run"
	"$UFT" record -p process --follow 0 -o "$tmp/all.dat" >"$tmp/all.out" 2>"$tmp/all.err" &
	up=$!
	pids+=("$up")
	started $up "$tmp/all.err"
	grep_q 'following every process (kernel backend)' "$tmp/all.err" ||
		fail "--follow 0 as root: not the kernel backend: $(cat "$tmp/all.err")"
	grows "$tmp/k.loop" "the workload does not run under --follow 0"
	kill -INT $up
	wait $up
	rc=$?
	[ $rc = 0 ] || fail "--follow 0 after SIGINT exited $rc: $(cat "$tmp/all.err")"
	grep_q 'left running' "$tmp/all.out" && fail "a 'left running' line for every process"
	"$UFT" report -i "$tmp/all.dat" >"$tmp/all.txt" || fail "uft report of --follow 0"
	grep_q "pt_workload-$wl .* sys_enter_getppid:" "$tmp/all.txt" ||
		fail "no getppid of the unrelated process"
	grep_q "sys_enter_openat:" "$tmp/all.txt" || fail "no openat of its thread"
	grep_q -E " uft-$up +\[" "$tmp/all.txt" && fail "uft's own events were recorded"
	kill -0 "$wl" || fail "the workload is gone"
	kill -9 "$wl"
	# the kernel backend asked for by name: a missing pid is refused
	"$UFT" record -p process --backend kernel -P 999999999 -o "$tmp/x.dat" 2>"$tmp/err"
	[ $? = 2 ] || fail "kernel backend: a missing pid: exit status"
	grep_q 'no process 999999999' "$tmp/err" || fail "kernel backend: message: $(cat "$tmp/err")"
	[ -e "$tmp/x.dat" ] && fail "kernel backend: a file for a missing pid"
else
	echo "note: --follow 0 with the kernel backend not tested ($("$RUN" --kernel-usable | head -1))"
fi

# ---- ptrace, as nobody: every process of nobody's ----
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)
if [ $have_nobody = 1 ] && [ "$scope" = 0 ]; then
	chmod 711 "$tmp" # nobody reaches its own directory below
	mkdir -m 777 "$tmp/n"
	"${as_nobody[@]}" "$WL" loop "$tmp/n/loop" &
	wl=$!
	pids+=("$wl")
	until [ -e "$tmp/n/loop" ]; do sleep 0.05; done
	grows "$tmp/n/loop" "nobody's workload does not run"
	"${as_nobody[@]}" "$UFT" record -p process --follow 0 -o "$tmp/n/all.dat" \
		>"$tmp/n.out" 2>"$tmp/n.err" &
	up=$!
	pids+=("$up")
	started $up "$tmp/n.err"
	grep_q -E 'following [1-9][0-9]* processes \([0-9]+ not traceable\)' "$tmp/n.err" ||
		fail "--follow 0 as nobody: $(cat "$tmp/n.err")"
	grows "$tmp/n/loop" "the followed process does not run under --follow 0"
	kill -INT $up
	wait $up
	rc=$?
	[ $rc = 0 ] || fail "--follow 0 as nobody after SIGINT exited $rc: $(cat "$tmp/n.err")"
	kill -0 "$wl" || fail "the followed process is gone"
	grep_q -E '^TracerPid:\s+0$' /proc/$wl/status || fail "the process is still traced"
	grows "$tmp/n/loop" "the followed process stopped running after SIGINT"
	"$UFT" report -i "$tmp/n/all.dat" >"$tmp/n.txt" || fail "uft report of --follow 0 as nobody"
	grep_q "pt_workload-$wl .* sys_enter_getppid:" "$tmp/n.txt" ||
		fail "no getppid of nobody's process"

	# refusals, with both backends: not ours (nobody against root's process)
	"$WL" loop "$tmp/root.loop" &
	rl=$!
	pids+=("$rl")
	for be in ptrace kernel; do
		rc=0
		"${as_nobody[@]}" "$UFT" record -p process --backend $be -P $rl \
			-o "$tmp/n/x.dat" >/dev/null 2>"$tmp/n.err" || rc=$?
		[ $rc = 2 ] || fail "$be: a process not ours: exit $rc: $(cat "$tmp/n.err")"
		grep_q -E "not permitted|--backend kernel: " "$tmp/n.err" ||
			fail "$be: a process not ours: $(cat "$tmp/n.err")"
		[ -e "$tmp/n/x.dat" ] && fail "$be: a file for a process not ours"
	done
	# already traced: ptrace refuses and names the tracer; the kernel's
	# events do not need the process to themselves, so it is followed
	"$UFT" record -p process -P $rl -o "$tmp/t1.dat" >/dev/null 2>"$tmp/t1.err" &
	up=$!
	pids+=("$up")
	started $up "$tmp/t1.err"
	"$UFT" record -p process --backend ptrace -P $rl -o "$tmp/x.dat" 2>"$tmp/err"
	[ $? = 2 ] || fail "ptrace: an already traced process: exit status"
	grep_q -E "process $rl is already traced by [0-9]+" "$tmp/err" || fail "already traced: $(cat "$tmp/err")"
	[ -e "$tmp/x.dat" ] && fail "a file for an already traced process"
	kill -INT $up
	wait $up
	kill -9 $rl
else
	echo "note: --follow 0 with ptrace as nobody not tested (setpriv, nobody or Yama scope $scope)"
fi
echo "record --follow: ok"
