# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the process tracer's and the kernel events' tests (sourced after
# file.sh, not run): their programs, the background pids killed at exit, the
# root and kernel checks that skip, the private instances' checks.
RUN=$B/tests/proctrace_run
WL=$B/tests/pt_workload
TL=$B/tests/timeline
# PIDs started in the background: killed at exit, with the temporary directory.
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
have_tc=0
command -v trace-cmd >/dev/null && have_tc=1

# need_root WHY: skips the test unless it runs as root.
need_root() {
	[ "$(id -u)" = 0 ] || {
		echo "skip: $1"
		exit 77
	}
}
# need_kernel: skips the test unless the kernel backend can be used (the
# reason proctrace_run gives); T is then the tracefs mount.
need_kernel() {
	local why
	why=$("$RUN" --kernel-usable) || {
		echo "skip: $why"
		exit 77
	}
	T=/sys/kernel/tracing
	[ -d $T/instances ] || T=/sys/kernel/debug/tracing
}
# need_ptrace: skips the test unless ptrace is permitted here.
need_ptrace() {
	"$UFT" record -q -p process --no-syscalls -o "$tmp/probe.dat" -- true >/dev/null 2>&1 || {
		echo "skip: ptrace is not permitted here"
		exit 77
	}
}
# no_instance PID: the recorder PID left no instances/uft-PID-N.
no_instance() { ! ls "$T/instances" | grep_q -x "uft-$1-[0-9]*"; }
# has_instance PID: waits until the recorder PID has made its instance.
has_instance() {
	local i
	for ((i = 0; i < 1200; i++)); do
		ls "$T/instances" | grep_q -x "uft-$1-[0-9]*" && return 0
		sleep 0.05
	done
	fail "no instance of uft record $1"
}
# grows FILE WHAT: waits until FILE has 3 more lines (its writer runs).
grows() {
	local n i
	n=$(wc -l <"$1")
	for ((i = 0; i < 1200; i++)); do
		[ "$(wc -l <"$1")" -gt $((n + 2)) ] && return 0
		sleep 0.05
	done
	fail "$2"
}
