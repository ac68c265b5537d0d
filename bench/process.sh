#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The process tracer beside strace and perf: ns per traced getppid with the
# tracer and the program on one CPU and on two, ns per getppid a syscall set
# leaves out, and the cost of a fork + exec + wait. Each number is measured
# inside bench/syscall_loop.c (a tracer's start-up and file are left out),
# the best of BENCH_PROC_REPS runs. Printed, never checked: not a test.
#
#   bench/process.sh BUILD_DIR
#
# Knobs: BENCH_PROC_CALLS (getppid calls per run, default 200000),
# BENCH_PROC_FORKS (fork + exec per run, default 500), BENCH_PROC_REPS (3),
# BENCH_PROC_ROWS (the rows to run, e.g. "untraced uft_kernel perf_record";
# default all).
set -u

BUILD=$(cd "${1:-build}" && pwd) || exit 1
UFT=$BUILD/bin/uft
LOOP=$BUILD/bench/syscall_loop
CALLS=${BENCH_PROC_CALLS:-200000}
FORKS=${BENCH_PROC_FORKS:-500}
REPS=${BENCH_PROC_REPS:-3}
for f in "$UFT" "$LOOP"; do
	[ -x "$f" ] || { echo "bench: $f is missing; run 'make bench'" >&2; exit 1; }
done
TMP=$(mktemp -d /tmp/uft-bench-proc.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

ONE=()
TWO_T=()
TWO_P=()
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
	ONE=(taskset -c 0)
	TWO_T=(taskset -c 0)
	TWO_P=(taskset -c 1)
fi

# best NAME CMD...: the smallest "ns X" of REPS runs of CMD, into $RES.
RES=$TMP/res
: >"$RES"
best() {
	local name=$1 b="" v
	shift
	[ -z "${BENCH_PROC_ROWS:-}" ] || [[ " $BENCH_PROC_ROWS " == *" $name "* ]] || return 0
	for _ in $(seq "$REPS"); do
		v=$("$@" 2>"$TMP/err" | awk '/^ns /{print $2}' | tail -1)
		if [ -z "$v" ]; then
			echo "  | $name: no result ($(head -c 200 "$TMP/err" | tr '\n' ' '))"
			return 1
		fi
		b=$(awk -v a="$b" -v c="$v" 'BEGIN{print (a == "" || c < a) ? c : a}')
	done
	echo "$name $b" >>"$RES"
}

REC=("$UFT" record -q -o "$TMP/p.dat")
echo "== the process tracer (ns per operation, best of $REPS, measured in the program)"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), kernel $(uname -r)"
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"

best untraced "${ONE[@]}" "$LOOP" getppid "$CALLS"
best uft_one "${ONE[@]}" "${REC[@]}" -p process --syscalls getppid -- "$LOOP" getppid "$CALLS"
best uft_all_one "${ONE[@]}" "${REC[@]}" -p process -- "$LOOP" getppid "$CALLS"
best uft_two "${TWO_T[@]}" "${REC[@]}" -p process --syscalls getppid -- \
	"${TWO_P[@]}" "$LOOP" getppid "$CALLS"
best uft_out "${ONE[@]}" "${REC[@]}" -p process --syscalls openat -- "$LOOP" getppid "$CALLS"
if "$UFT" record -h 2>&1 | grep -q -- '--backend'; then
	best uft_kernel "${ONE[@]}" "${REC[@]}" -p process --backend kernel --syscalls getppid -- \
		"$LOOP" getppid "$CALLS"
	best uft_kernel_all "${ONE[@]}" "${REC[@]}" -p process --backend kernel -- \
		"$LOOP" getppid "$CALLS"
fi
if command -v strace >/dev/null 2>&1; then
	best strace_one "${ONE[@]}" strace -f -qq -o /dev/null -e trace=getppid --seccomp-bpf \
		"$LOOP" getppid "$CALLS"
	best strace_all_one "${ONE[@]}" strace -f -qq -o /dev/null "$LOOP" getppid "$CALLS"
	best strace_two "${TWO_T[@]}" strace -f -qq -o /dev/null -e trace=getppid --seccomp-bpf \
		"${TWO_P[@]}" "$LOOP" getppid "$CALLS"
fi
if perf trace -e getppid -o /dev/null -- true >/dev/null 2>&1; then
	best perf_trace "${ONE[@]}" perf trace -e getppid -o /dev/null -- "$LOOP" getppid "$CALLS"
fi
if perf record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o "$TMP/perf.data" \
	-- true >/dev/null 2>&1; then
	best perf_record "${ONE[@]}" perf record -q -e raw_syscalls:sys_enter \
		-e raw_syscalls:sys_exit -o "$TMP/perf.data" -- "$LOOP" getppid "$CALLS"
fi
best fork_untraced "$LOOP" forkexec "$FORKS"
best fork_uft "${REC[@]}" -p process -- "$LOOP" forkexec "$FORKS"
command -v strace >/dev/null 2>&1 &&
	best fork_strace strace -f -qq -o /dev/null "$LOOP" forkexec "$FORKS"

awk '
	{ ns[$1] = $2 }
	function over(k) { return ns[k] - ns["untraced"] }
	function row(k, label) { if (k in ns) printf "  %-16s %10.0f ns  (%+.0f over untraced)  %s\n", k, ns[k], over(k), label }
	END {
		printf "getppid, tracer and program on CPU 0 unless said:\n"
		row("untraced", "no tracer")
		row("uft_one", "uft record -p process --syscalls getppid")
		row("uft_all_one", "uft record -p process (every syscall)")
		row("uft_two", "the same, tracer on CPU 0, program on CPU 1")
		row("uft_kernel", "uft record -p process --backend kernel --syscalls getppid")
		row("uft_kernel_all", "uft record -p process --backend kernel (every syscall)")
		row("strace_one", "strace -e trace=getppid --seccomp-bpf")
		row("strace_all_one", "strace (every syscall)")
		row("strace_two", "strace --seccomp-bpf, tracer on CPU 0, program on CPU 1")
		row("perf_trace", "perf trace -e getppid")
		row("perf_record", "perf record -e raw_syscalls:*")
		print "targets:"
		if ("uft_one" in ns && "strace_one" in ns)
			printf "  uft/strace, one CPU   %5.2f   [<= 0.5]\n", over("uft_one") / over("strace_one")
		if ("uft_two" in ns && "strace_two" in ns)
			printf "  uft/strace, two CPUs  %5.2f   [<= 0.5]\n", over("uft_two") / over("strace_two")
		if ("uft_out" in ns)
			printf "  left out by the set   %+5.0f ns [<= +50] (uft --syscalls openat, a getppid loop)\n", over("uft_out")
		if ("uft_kernel" in ns)
			printf "  kernel backend        %5.0f ns [<= 500] over untraced\n", over("uft_kernel")
		print "fork + exec of /bin/true + wait, per child:"
		printf "  untraced %.0f us", ns["fork_untraced"] / 1000
		if ("fork_uft" in ns) printf ", uft %.0f us", ns["fork_uft"] / 1000
		if ("fork_strace" in ns) printf ", strace -f %.0f us", ns["fork_strace"] / 1000
		printf "\n"
	}' "$RES"
