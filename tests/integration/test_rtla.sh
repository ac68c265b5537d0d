#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's own rtla, unchanged, on a traced program's tree (`uft ns`):
# timerlat top/hist and osnoise top/hist print their tables from uft's
# measuring threads (ftrace:timerlat records of both contexts,
# ftrace:osnoise records, osnoise:sample_threshold events), `-a` stops
# and saves its trace instance with the stack record, and rtla's
# thread latencies agree with `uft timerlat top` run the same way. Bounds
# are generous: the machine may be loaded. Root only. Exit 0 pass, 77 skip.
source "$(dirname "$0")/lib/live.sh"
need_uft_ns
command -v rtla >/dev/null || {
	echo "skip: no rtla (make deps installs it)"
	exit 77
}
start_server
# rtla prints a row for each configured CPU (sysconf(_SC_NPROCESSORS_CONF)).
cpus=$(getconf _NPROCESSORS_CONF)
# rtla's tables without its colour escapes.
run_rtla() {
	timeout 120 "$UFT" ns -p "$pid" -- rtla "$@" >"$tmp/raw" 2>&1
	local rc=$?
	sed 's/\x1b\[[0-9;]*m//g' "$tmp/raw" >"$tmp/out"
	[ $rc = 0 ] || fail "rtla $* exited $rc: $(tail -5 "$tmp/out")"
}

# 1. timerlat top: a row per CPU with both contexts counted (1 ms period:
# about 3000 activations in 3 s; at least 100 on a loaded machine).
run_rtla timerlat top -d 3s -q
row='^ +[0-9]+ #([0-9]+) +\| +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ \| +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$'
n=$(grep -cE "$row" "$tmp/out")
[ "$n" = "$cpus" ] || fail "timerlat top: $n rows for $cpus CPUs: $(cat "$tmp/out")"
grep -E "$row" "$tmp/out" | while read -r cpu count _ icur imin iavg imax _ tcur tmin tavg tmax; do
	count=${count#\#}
	[ "$count" -ge 100 ] || fail "timerlat top: CPU $cpu counted $count activations"
	[ "$imin" -le "$iavg" ] && [ "$iavg" -le "$imax" ] || fail "CPU $cpu: irq min/avg/max $imin/$iavg/$imax"
	[ "$tmin" -le "$tavg" ] && [ "$tavg" -le "$tmax" ] || fail "CPU $cpu: thread min/avg/max $tmin/$tavg/$tmax"
	# The handler runs before the thread resumes: never later on average.
	[ "$iavg" -le "$tavg" ] || fail "CPU $cpu: irq avg $iavg above thread avg $tavg"
done || exit 1
rtla_avg=$(grep -E "$row" "$tmp/out" | awk 'NR==1 {print $11}')
echo "rtla timerlat top: $n CPUs, CPU 0 thread avg ${rtla_avg} us"

# 2. The same measurement by uft's own command: the averages agree within
# a factor of 20 or 1 ms (load changes between the runs).
"$UFT" timerlat top -d 3s -q >"$tmp/uft.out" 2>&1 || fail "uft timerlat top: $(tail -3 "$tmp/uft.out")"
uft_avg=$(grep -E '^ +0 #[0-9]+ ' "$tmp/uft.out" | awk '{print $11}')
[ -n "$uft_avg" ] || fail "uft timerlat top: $(cat "$tmp/uft.out")"
awk -v a="$rtla_avg" -v b="$uft_avg" 'BEGIN {
	lo = a < b ? a : b; hi = a < b ? b : a
	exit !(hi - lo <= 1000 || hi <= 20 * (lo > 0 ? lo : 1)) }' ||
	fail "rtla's average $rtla_avg us and uft's $uft_avg us disagree"
echo "uft timerlat top: CPU 0 thread avg ${uft_avg} us"

# 3. timerlat hist: both contexts' columns per CPU, with counts and a sane min.
run_rtla timerlat hist -d 3s
grep -E '^count:' "$tmp/out" | awk -v want=$((2 * cpus)) '{
	if (NF - 1 != want) exit 1
	for (i = 2; i <= NF; i++) if ($i < 100) exit 1 }' ||
	fail "timerlat hist counts: $(grep -E '^(Index|count:)' "$tmp/out")"
grep -E '^min:' "$tmp/out" | grep_q 18446744073709551615 && fail "timerlat hist: a column never saw a sample"
grep_q -E '^over:' "$tmp/out" || fail "timerlat hist: no over: line"
echo "rtla timerlat hist: $(grep -E '^count:' "$tmp/out")"

# 4. osnoise top: a row per CPU with whole periods, runtime and % available.
run_rtla osnoise top -d 3s -q
orow='^ +[0-9]+ #([0-9]+) +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{5} +[0-9]+ +[0-9]+( +[0-9]+){5}$'
n=$(grep -cE "$orow" "$tmp/out")
[ "$n" = "$cpus" ] || fail "osnoise top: $n rows for $cpus CPUs: $(cat "$tmp/out")"
grep -E "$orow" "$tmp/out" | while read -r cpu periods runtime noise avail _; do
	[ "${periods#\#}" -ge 1 ] || fail "osnoise top: CPU $cpu ran no period"
	[ "$runtime" -ge 500000 ] || fail "osnoise top: CPU $cpu runtime $runtime us"
	[ "$noise" -le "$runtime" ] || fail "osnoise top: CPU $cpu noise $noise above runtime"
	awk -v a="$avail" 'BEGIN { exit !(a >= 0 && a <= 100) }' || fail "osnoise top: $avail% available"
done || exit 1
echo "rtla osnoise top: $n CPUs"

# 5. osnoise hist: built from osnoise:sample_threshold; a column per CPU.
run_rtla osnoise hist -d 3s
grep -E '^count:' "$tmp/out" | awk -v want="$cpus" '{ exit !(NF - 1 == want) }' ||
	fail "osnoise hist: $(grep -E '^(Index|count:)' "$tmp/out")"
echo "rtla osnoise hist: $(grep -E '^count:' "$tmp/out")"

# 6. timerlat top -a 1: rtla's second instance (its trace) beside its own,
# both running timerlat; the first IRQ latency of 1 us or more stops both
# (-a sets stop_tracing_us, stop_tracing_total_us and print_stack), after
# the stack record, and rtla saves the trace.
cd "$tmp" || exit 1
timeout 120 "$UFT" ns -p "$pid" -- rtla timerlat top -a 1 -d 10s -q >"$tmp/raw" 2>&1
sed 's/\x1b\[[0-9;]*m//g' "$tmp/raw" >"$tmp/out"
grep_q '^rtla timerlat hit stop tracing' "$tmp/out" || fail "timerlat top -a: $(tail -5 "$tmp/out")"
grep_q -E '^ +timerlat/[0-9]+-[0-9]+ +\[[0-9]{3}\] \.{5} +[0-9.]+: #[0-9]+ +context +(irq|thread) timer_latency +[0-9]+ ns$' \
	timerlat_trace.txt || fail "timerlat_trace.txt: $(tail -5 timerlat_trace.txt)"
grep_q -E '^ => timerlat_thread$' timerlat_trace.txt || fail "no stack in timerlat_trace.txt: $(tail -5 timerlat_trace.txt)"
echo "rtla timerlat top -a: stopped, trace saved"

# rtla removed its instances; the program still runs.
"$UFT" ns -p "$pid" -- ls /sys/kernel/tracing/instances >"$tmp/inst" || fail "ls instances"
[ -s "$tmp/inst" ] && fail "rtla left instances: $(cat "$tmp/inst")"
kill -0 "$pid" || fail "the traced program died"
echo ok
