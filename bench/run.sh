#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every uft benchmark once and prints one table: ns per event of the same
# loop with nothing in it, with the physical floor (a TSC read plus a 32-byte
# store), with uft tracepoints off and on (also with a hist trigger), with
# LTTng-UST off and on, the rate at which `uft record` turns events into
# trace.dat, the rate of `uft report --hist` over a large kernel file, and
# (with the function tracing rows) what a dynamic probe costs per hit.
#
#   bench/run.sh BUILD_DIR
#
# Knobs (environment): BENCH_ITERS (iterations per timed run of the loops that
# need no consumer, default 10M; ten times that for the empty and disabled
# loops), BENCH_REC_ITERS (per timed run while a consumer drains, default 1M),
# BENCH_REPS (timed runs, median reported, default 7), BENCH_DRAIN_EVENTS
# (default 5M), BENCH_REPORT_REPEAT (stories of 54 events in the file
# `uft report --hist` reads, default 50000). Timings are printed, never checked: this is not a test.
set -u

BUILD=$(cd "${1:-build}" && pwd) || exit 1
B=$BUILD/bench
UFT=$BUILD/bin/uft
ITERS=${BENCH_ITERS:-10000000}
REC_ITERS=${BENCH_REC_ITERS:-1000000}
REPS=${BENCH_REPS:-7}
# Sub-nanosecond loops run longer, so that an interrupt weighs little.
OFF_ITERS=$((ITERS * 10))
DRAIN_EVENTS=${BENCH_DRAIN_EVENTS:-5000000}
# Stories of 54 events in the kernel trace.dat `uft report --hist` reads.
REPORT_REPEAT=${BENCH_REPORT_REPEAT:-50000}
GEN=$BUILD/tests/kernel_dat
# Rings while a consumer drains: one timed run (about 32 MiB) fits twice.
REC_RING_KB=65536
DRAIN_RING_KB=262144

for f in "$B/bench_uft" "$UFT"; do
	[ -x "$f" ] || { echo "bench: $f is missing; run 'make bench'" >&2; exit 1; }
done

TMP=$(mktemp -d /tmp/uft-bench.XXXXXX)
RES=$TMP/results
: >"$RES"
SESSIOND_PID=""
LTTNG_SESSION=""

cleanup() {
	if [ -n "$LTTNG_SESSION" ]; then
		lttng destroy "$LTTNG_SESSION" >/dev/null 2>&1
	fi
	if [ -n "$SESSIOND_PID" ]; then
		kill "$SESSIOND_PID" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Writer on one CPU, consumers on another.
NCPU=$(nproc)
PIN_W=()
PIN_C=()
PINNING="not pinned"
if command -v taskset >/dev/null 2>&1; then
	if [ "$NCPU" -ge 2 ]; then
		PIN_W=(taskset -c 1)
		PIN_C=(taskset -c 0)
		PINNING="writer on CPU 1, consumers on CPU 0"
	else
		PIN_W=(taskset -c 0)
		PIN_C=(taskset -c 0)
		PINNING="everything on CPU 0 (one CPU)"
	fi
else
	echo "bench: taskset not found; running unpinned"
fi
# Other load on the machine shows up in the numbers; as root, favour ours.
NICE=()
if [ "$(id -u)" = 0 ]; then
	NICE=(nice -n -10)
	PINNING="$PINNING, nice -10"
fi
# Top-level writer runs, recorders (whose children inherit the nice value).
RUN_W=("${NICE[@]}" "${PIN_W[@]}")
RUN_C=("${NICE[@]}" "${PIN_C[@]}")

# Runs a bench program, keeping its ROW lines; other output goes to the log.
collect() {
	local log=$TMP/log.$RANDOM
	"$@" >"$log" 2>&1
	local rc=$?
	grep '^ROW ' "$log" >>"$RES"
	grep -v '^ROW \|^TSC ' "$log" | sed 's/^/  | /'
	TSC_GHZ=$(awk '/^TSC /{print $2}' "$log" | tail -1)
	[ $rc -eq 0 ] || echo "bench: '$*' exited with status $rc"
	return $rc
}

echo "== uft benchmarks"
echo "machine: $NCPU CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), kernel $(uname -r)"
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs: median of $REPS timed runs after a warm-up, variants interleaved; $ITERS iterations" \
	"per run ($OFF_ITERS for loops under 1 ns, $REC_ITERS while a consumer drains); $PINNING"
echo

echo "-- loop alone and uft tracepoints off ($OFF_ITERS iterations per run), floor"
collect "${RUN_W[@]}" "$B/bench_uft" -n "$OFF_ITERS" -r "$REPS" -p off_ none ints str trace tstr
collect "${RUN_W[@]}" "$B/bench_uft" -n "$ITERS" -r "$REPS" -p off_ floor floor64

echo "-- uft on, in-process, overwrite ring of 1 MiB, no consumer"
UFT_MODE=overwrite UFT_BUFFER_KB=1024 collect "${RUN_W[@]}" "$B/bench_uft" -e -n "$ITERS" -r "$REPS" -p ow_ \
	ints str trace tstr fpass frej hist histonly

echo "-- uft on, uft record -M discard -b $REC_RING_KB, consumer draining"
collect "${RUN_C[@]}" "$UFT" record -M discard -b "$REC_RING_KB" -e 'bench:*' \
	-o "$TMP/rec.dat" -- "${PIN_W[@]}" "$B/bench_uft" -n "$REC_ITERS" -r "$REPS" -p rec_ \
	ints str trace tstr


echo "-- uft record drain rate: $DRAIN_EVENTS events written as fast as possible"
# The recorder's own CPU time (not the program's), when perf can count it.
PERF_REC=()
perf stat --no-inherit -x, -e task-clock -o /dev/null true >/dev/null 2>&1 &&
	PERF_REC=(perf stat --no-inherit -x, -e task-clock -o "$TMP/drain.perf")
t0=$(date +%s%N)
collect "${RUN_C[@]}" "${PERF_REC[@]}" "$UFT" record -M discard -b "$DRAIN_RING_KB" -e 'bench:ints' \
	-o "$TMP/drain.dat" -- "${PIN_W[@]}" "$B/bench_uft" -n "$DRAIN_EVENTS" -r 1 -w 0 -c 20 \
	-p drain_ ints | tee "$TMP/drain.log"
t1=$(date +%s%N)
drain_ns=$((t1 - t0))
drain_size=$(stat -c %s "$TMP/drain.dat" 2>/dev/null || echo 0)
read -r drain_rec drain_drop < <(awk '/^  \| total:/{
	for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^recorded/) r = $i; if ($(i+1) ~ /^dropped/) d = $i }
	sub(",", "", r); sub(",", "", d); print r + 0, d + 0 }' "$TMP/drain.log")
# The machine's own copy speed for that file, in the same run: cp to a new
# file on the same disk (read from the page cache, written to it).
# The recorder writes past the page cache (direct I/O), so the file is read
# once first: the copy is timed from the cache, as the comment says.
cp_ns=0
if [ -s "$TMP/drain.dat" ]; then
	cat "$TMP/drain.dat" >/dev/null
	c0=$(date +%s%N)
	cp "$TMP/drain.dat" "$TMP/drain.copy" && cp_ns=$(($(date +%s%N) - c0))
	rm -f "$TMP/drain.copy"
fi
rec_ms=$(awk -F, '/task-clock/ { print $1 + 0 }' "$TMP/drain.perf" 2>/dev/null)
echo "DRAIN ${drain_rec:-0} ${drain_drop:-0} $drain_ns $drain_size $cp_ns ${rec_ms:-0}" >>"$RES"

echo "-- uft report --hist over a kernel trace.dat of $REPORT_REPEAT x 54 events (median of 3 runs)"
# Runs `uft report -i FILE ARGS...` three times; prints the median ns.
report_ns() {
	local t=()
	for _ in 1 2 3; do
		local t0 t1
		t0=$(date +%s%N)
		"${RUN_W[@]}" "$UFT" report -i "$TMP/k.dat" "$@" >/dev/null || return 1
		t1=$(date +%s%N)
		t+=($((t1 - t0)))
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}
if [ -x "$GEN" ] && "$GEN" -n "$REPORT_REPEAT" "$TMP/k.dat"; then
	nev=$("$UFT" report -i "$TMP/k.dat" 2>/dev/null | sed -n 's|^# entries-in-buffer/entries-written: \([0-9]*\)/.*|\1|p;3q')
	ns1=$(report_ns --hist 'raw_syscalls:sys_enter:keys=id.syscall') &&
		echo "REPORT one $nev $ns1" >>"$RES"
	ns3=$(report_ns --synth 'wakeup_lat char name[]; pid_t pid; u64 latency' \
		--hist 'sched:sched_waking:keys=pid:ts1=common_timestamp.usecs' \
		--hist 'sched:sched_switch:keys=next_pid:delta=common_timestamp.usecs-$ts1:onmatch(sched.sched_waking).trace(wakeup_lat,next_comm,next_pid,$delta)' \
		--hist 'synthetic:wakeup_lat:keys=name,latency.buckets=10:sort=name,latency') &&
		echo "REPORT chain $nev $ns3" >>"$RES"
	nst=$(report_ns) && echo "REPORT text $nev $nst" >>"$RES"
	rm -f "$TMP/k.dat"
else
	echo "  skipped: $GEN missing or failed"
fi

echo "-- LTTng-UST"
LTTNG_NOTE=""
if [ ! -x "$B/bench_lttng" ]; then
	LTTNG_NOTE="skipped: bench_lttng not built (liblttng-ust-dev missing)"
elif ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
	LTTNG_NOTE="skipped: lttng-tools not installed"
else
	if ! pgrep -u "$(id -u)" -x lttng-sessiond >/dev/null 2>&1; then
		if lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1; then
			SESSIOND_PID=$(pgrep -n -u "$(id -u)" -x lttng-sessiond)
			echo "  started lttng-sessiond (pid $SESSIOND_PID)"
		fi
	fi
	LTTNG_SESSION=uft-bench-$$
	if lttng create "$LTTNG_SESSION" --output="$TMP/lttng" >/dev/null &&
		lttng enable-channel --userspace --discard --subbuf-size=8M --num-subbuf=8 \
			-s "$LTTNG_SESSION" bench >/dev/null &&
		lttng enable-event --userspace 'bench_lttng:*' -c bench -s "$LTTNG_SESSION" >/dev/null &&
		lttng start "$LTTNG_SESSION" >/dev/null; then
		BENCH_PAUSE_MS=200 collect "${RUN_W[@]}" "$B/bench_lttng" -n "$REC_ITERS" -r "$REPS" \
			-p lttng_on_ ints
		lttng stop "$LTTNG_SESSION" >/dev/null 2>&1
		lost=$(lttng list "$LTTNG_SESSION" 2>/dev/null |
			awk '/Discarded events:/ { n += $3 } END { print n + 0 }')
		echo "LTTNG_LOST $lost" >>"$RES"
		echo "  lttng: $lost events discarded"
		lttng destroy "$LTTNG_SESSION" >/dev/null 2>&1
		LTTNG_SESSION=""
		collect "${RUN_W[@]}" "$B/bench_lttng" -n "$OFF_ITERS" -r "$REPS" -p lttng_off_ none ints
	else
		LTTNG_NOTE="skipped: could not set up an LTTng session"
		lttng destroy "$LTTNG_SESSION" >/dev/null 2>&1
		LTTNG_SESSION=""
	fi
fi
[ -n "$LTTNG_NOTE" ] && echo "  $LTTNG_NOTE"
echo

awk -v tsc="${TSC_GHZ:-0}" -v lnote="$LTTNG_NOTE" '
function row(key, label,    m) {
	if (!(key in ns)) return
	m = sprintf("%-46s %9.2f %8.1f %8.2f-%-8.2f", label, ns[key], cyc[key], lo[key], hi[key])
	if (floor > 0) m = m sprintf(" %6.2fx", ns[key] / floor)
	else m = m sprintf(" %7s", "")
	if (com[key] != "" && (com[key] > 0 || drop[key] > 0)) m = m sprintf("  %d/%d", com[key], drop[key])
	print m
}
$1 == "ROW" { ns[$2] = $3; cyc[$2] = $4; lo[$2] = $5; hi[$2] = $6; com[$2] = $7; drop[$2] = $8 }
$1 == "DRAIN" { drec = $2; ddrop = $3; dns = $4; dsize = $5; dcp = $6; dms = $7 }
$1 == "LTTNG_LOST" { llost = $2 }
$1 == "REPORT" { rev[$2] = $3; rns[$2] = $4 }
END {
	floor = ("off_floor" in ns) ? ns["off_floor"] : 0
	printf "%-46s %9s %8s %17s %7s  %s\n", "row", "ns/event", "TSC cyc", "min-max ns", "/floor", "committed/dropped"
	printf "%-46s %9s %8s %17s %7s  %s\n", "---", "--------", "-------", "----------", "------", "-----------------"
	row("off_none", "1 no tracepoint (empty loop)")
	row("off_floor", "2 floor: rdtsc + 32-byte store, 1 MiB array")
	row("off_floor64", "2 floor, 64 MiB array (size of the rings)")
	row("rec_ints", "3 uft on, UFT_EVENT 3 ints (record, discard)")
	row("rec_str", "4 uft on, UFT_EVENT __string 12 ch (record)")
	row("rec_trace", "4 uft on, UFT_TRACE 3 ints (record)")
	row("rec_tstr", "4 uft on, UFT_TRACE %s 12 ch (record)")
	row("ow_ints", "3 uft on, 3 ints (in-process, overwrite 1 MiB)")
	row("ow_str", "4 uft on, __string (in-process, overwrite)")
	row("ow_trace", "4 uft on, UFT_TRACE (in-process, overwrite)")
	row("ow_tstr", "4 uft on, UFT_TRACE %s (in-process, overwrite)")
	row("ow_fpass", "8 uft on, 3 ints, 2-term filter passes")
	row("ow_frej", "8 uft on, 3 ints, 2-term filter rejects")
	row("ow_hist", "9 uft on, 3 ints + hist trigger (1 key, 1 val)")
	row("ow_histonly", "9 hist trigger alone (event soft-disabled)")
	row("off_ints", "5 uft off, UFT_EVENT 3 ints")
	row("off_str", "5 uft off, UFT_EVENT __string")
	row("off_trace", "5 uft off, UFT_TRACE 3 ints")
	row("off_tstr", "5 uft off, UFT_TRACE %s")
	row("lttng_on_ints", "6 LTTng-UST on, 3 ints (discard, consumerd)")
	row("lttng_off_none", "6 no tracepoint (LTTng process)")
	row("lttng_off_ints", "6 LTTng-UST off, 3 ints")
	if (lnote != "") printf "6 LTTng-UST: %s\n", lnote
	if (dns > 0) {
		printf "7 uft record drain: %d events in %.3f s end to end = %.2f M events/s, %.1f MB/s into trace.dat, %d dropped\n",
			drec, dns / 1e9, drec / (dns / 1e9) / 1e6, dsize / (dns / 1e9) / 1e6, ddrop
		if ("drain_ints" in ns) printf "  (writer side during that run: %.2f ns/event, fresh ring pages included)\n", ns["drain_ints"]
		if (dms > 0 && drec > 0)
			printf "  recorder CPU (perf stat --no-inherit): %.1f ns/event = %.1f M events/s\n",
				dms * 1e6 / drec, drec / (dms / 1e3) / 1e6
		if (dcp > 0)
			printf "  plain copy of that file (cp): %.1f MB/s; recording/copy = %.2f [>= 0.5]\n",
				dsize / (dcp / 1e9) / 1e6, dcp / dns
	}
	if (rns["one"] > 0)
		printf "10 uft report --hist, 1 trigger: %d events in %.3f s = %.2f M events/s\n",
			rev["one"], rns["one"] / 1e9, rev["one"] / (rns["one"] / 1e9) / 1e6
	if (rns["chain"] > 0)
		printf "10 uft report, wakeup_lat (3 triggers, synthetic event): %.2f M events/s\n",
			rev["chain"] / (rns["chain"] / 1e9) / 1e6
	if (rns["text"] > 0)
		printf "10 uft report, text of every event (for scale): %.2f M events/s\n",
			rev["text"] / (rns["text"] / 1e9) / 1e6
	if (llost != "") printf "6 LTTng-UST discarded %d events (warm-up and timed runs)\n", llost
	print ""
	print "ratios (targets in brackets; informational, never asserted):"
	if (floor > 0 && "rec_ints" in ns)
		printf "  uft/floor          %6.2f   [<= 1.25]  (uft record, discard)\n", ns["rec_ints"] / floor
	if ("off_floor64" in ns && ns["off_floor64"] > 0 && "rec_ints" in ns)
		printf "  uft/floor64        %6.2f             (uft record, against the floor of its ring size)\n",
			ns["rec_ints"] / ns["off_floor64"]
	if (floor > 0 && "ow_ints" in ns)
		printf "  uft/floor          %6.2f   [<= 1.25]  (in-process overwrite ring)\n", ns["ow_ints"] / floor
	if ("rec_trace" in ns && "rec_ints" in ns)
		printf "  UFT_TRACE/UFT_EVENT %5.2f   [<= 1.3]   (3 ints, uft record)\n", ns["rec_trace"] / ns["rec_ints"]
	if ("rec_str" in ns && "rec_ints" in ns)
		printf "  __string/3 ints    %6.2f   [<= 1.3]   (12 characters, uft record)\n", ns["rec_str"] / ns["rec_ints"]
	if ("lttng_on_ints" in ns && "rec_ints" in ns)
		printf "  LTTng/uft          %6.2f   [>= 7]\n", ns["lttng_on_ints"] / ns["rec_ints"]
	if ("off_ints" in ns && "off_none" in ns)
		printf "  uft off - none     %+6.3f ns [<= 0.2 ns]  (UFT_EVENT; UFT_TRACE %+.3f ns)\n",
			ns["off_ints"] - ns["off_none"], ns["off_trace"] - ns["off_none"]
	if ("lttng_off_ints" in ns && "lttng_off_none" in ns)
		printf "  LTTng off - none   %+6.3f ns\n", ns["lttng_off_ints"] - ns["lttng_off_none"]
	if ("ow_fpass" in ns && "ow_ints" in ns)
		printf "  filter passes      %+6.2f ns over the unfiltered event (%.2fx)\n",
			ns["ow_fpass"] - ns["ow_ints"], ns["ow_fpass"] / ns["ow_ints"]
	if ("ow_frej" in ns && "ow_ints" in ns)
		printf "  filter rejects     %+6.2f ns over the unfiltered event (%.2fx), no buffer space\n",
			ns["ow_frej"] - ns["ow_ints"], ns["ow_frej"] / ns["ow_ints"]
	if ("ow_hist" in ns && "ow_ints" in ns)
		printf "  hist trigger       %+6.2f ns over recording the event alone (%.2fx); alone %.2f ns\n",
			ns["ow_hist"] - ns["ow_ints"], ns["ow_hist"] / ns["ow_ints"], ns["ow_histonly"]
	if (tsc > 0) printf "(TSC %.3f GHz; TSC cycles are reference cycles, not core cycles)\n", tsc
}' "$RES"

# Dynamic probes: ns per call of a small function with nothing on it, with
# the function tracer, with probes of several kinds, and with the kernel's
# uprobe, and the overhead over the untraced call (bench/bench_probe.c); the
# kernel's uprobe gets fewer calls (microseconds each).
if [ -x "$B/bench_probe" ]; then
	echo
	echo "-- dynamic probes (ns per call; overhead over the same call untraced)"
	PB=$TMP/probe.log
	UFT_CTL=0 UFT_MODE=overwrite "${PIN_W[@]}" "$B/bench_probe" "$ITERS" "$REPS" 20000 >"$PB" ||
		echo "bench: bench_probe exited with status $?"
	grep -v '^PROBE_ROW ' "$PB"
	awk '
	$1 == "PROBE_ROW" { o[$2] = $3 }
	function ratio(a, b, label, target) {
		if ((a in o) && (b in o) && o[b] > 0)
			printf "  %-34s %8.2f   %s\n", label, o[a] / o[b], target
	}
	END {
		ratio("sled", "function", "sled probe / function tracer", "[<= 2]")
		if ("mid" in o) printf "  %-34s %8.2f   %s\n", "instruction probe, ns per hit", o["mid"], "[<= 50]"
		ratio("kernel_uprobe", "sled", "kernel uprobe / sled probe", "[>= 100]")
		ratio("kernel_uprobe", "mid", "kernel uprobe / instruction probe", "[>= 100]")
		ratio("kernel_uprobe", "malloc", "kernel uprobe / malloc probe", "[>= 100]")
		ratio("kernel_uprobe", "entry_return", "kernel uprobe / entry+return", "[>= 100]")
	}' "$PB"
fi

# The max-latency tracers: ns per pair, with no tracer, another one, and the
# one that measures it (bench/bench_csect.c).
if [ -x "$B/bench_csect" ]; then
	echo
	echo "-- max-latency tracers (ns per pair)"
	UFT_CTL=0 UFT_MODE=overwrite "${PIN_W[@]}" "$B/bench_csect" "$ITERS" "$REPS" ||
		echo "bench: bench_csect exited with status $?"
fi

# Function tracing: ns per call of an empty function, median of the timed
# runs (bench/bench_ftrace.c); then the overhead per traced call of bf_fib(27)
# under uft's tracers and under uftrace in the same run, with its ratios.
if [ -x "$B/bench_ftrace" ]; then
	echo
	echo "-- function tracing (ns per call)"
	FT=$TMP/ftrace.log
	UFT_CTL=0 "${PIN_W[@]}" "$B/bench_ftrace" "$((ITERS * 10))" "$REPS" >"$FT" ||
		echo "bench: bench_ftrace exited with status $?"
	grep -v '^FIB_OVERHEAD ' "$FT"
	# uftrace runs on the other CPU and pins the program to the writer's.
	WCPU=""
	[ ${#PIN_W[@]} -gt 0 ] && WCPU=${PIN_W[2]}
	fib() { # fib ns per call of: [uftrace options --] binary
		"$@" -r "$REPS" ${WCPU:+-c "$WCPU"} 2>/dev/null | awk '/^FIB /{print $2}'
	}
	FIB_NOTE=""
	if ! command -v uftrace >/dev/null 2>&1; then
		FIB_NOTE="uftrace rows skipped: uftrace not installed (bench/deps.sh installs it as root)"
	elif [ ! -x "$B/fib_pg" ] || [ ! -x "$B/fib_patchable" ]; then
		FIB_NOTE="uftrace rows skipped: fib_pg or fib_patchable not built"
	else
		UDIR=$(mktemp -d /dev/shm/uft-bench-uftrace.XXXXXX 2>/dev/null || mktemp -d "$TMP/uftrace.XXXXXX")
		base=$(fib "$B/fib_patchable")
		pg=$(fib "${NICE[@]}" "${PIN_C[@]}" uftrace record --no-libcall -d "$UDIR/pg" "$B/fib_pg")
		rm -rf "$UDIR/pg"
		pe=$(fib "${NICE[@]}" "${PIN_C[@]}" uftrace record --no-libcall -P bf_fib -d "$UDIR/pe" \
			"$B/fib_patchable")
		rm -rf "$UDIR"
		[ -n "$base" ] && [ -n "$pg" ] && echo "FIB_OVERHEAD uftrace_pg $(awk -v a="$pg" -v b="$base" 'BEGIN{print a - b}')" >>"$FT"
		[ -n "$base" ] && [ -n "$pe" ] && echo "FIB_OVERHEAD uftrace_pe $(awk -v a="$pe" -v b="$base" 'BEGIN{print a - b}')" >>"$FT"
		[ -n "$pg" ] && [ -n "$pe" ] || FIB_NOTE="uftrace rows skipped: uftrace record failed"
		echo "fib(27) without libuft, untraced: ${base:-?} ns per call"
	fi
	echo
	echo "-- overhead per traced call of fib(27): (traced - untraced) / calls, ns"
	awk -v note="$FIB_NOTE" '
	$1 == "FIB_OVERHEAD" { o[$2] = $3 }
	function row(key, label,    m) {
		if (!(key in o)) return
		m = sprintf("%-46s %9.2f", label, o[key])
		if (key ~ /^uft_/ && ("uftrace_pg" in o) && o["uftrace_pg"] > 0)
			m = m sprintf("   /uftrace -pg %5.2f, /uftrace -fpatchable %5.2f  [<= 0.33]",
				o[key] / o["uftrace_pg"], o[key] / o["uftrace_pe"])
		print m
	}
	END {
		o["uft_function"] = o["function"]; o["uft_graph"] = o["function_graph"]
		if (!("function" in o)) delete o["uft_function"]
		if (!("function_graph" in o)) delete o["uft_graph"]
		row("uft_function", "uft function tracer")
		row("uft_graph", "uft function_graph tracer")
		row("uftrace_pg", "uftrace record --no-libcall, -pg")
		row("uftrace_pe", "uftrace record --no-libcall -P, -fpatchable")
		if (note != "") print note
	}' "$FT"
fi
