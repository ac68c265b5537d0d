#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Row 11 of docs/BENCHMARKS.md: uft report's exports over a function_graph
# trace.dat of 10 million records (tests/gen/graph_dat.c -g: two threads,
# nested calls, leaves), to Perfetto, folded stacks, Chrome JSON and a flame
# graph. Each export runs BENCH_REPS times (default 3), the median wall time
# is taken; events per second are the file's records over it (start-up,
# reading the mapped file and writing the output included). Peak RSS comes
# from /usr/bin/time (it counts the input's mapped pages, which the page
# cache can reclaim); peak anonymous memory (the heap: what grows with the
# data) is sampled from /proc/PID/status every 10 ms. The CPU time (user +
# system, from /usr/bin/time) is printed too: on a shared machine the wall
# time also holds the waits for a CPU.
#
#   bench/export.sh BUILD_DIR
#
# The exports are written to /dev/shm when it is there (BENCH_EXPORT_OUT
# names another folder): the disk's write-back of a few hundred MB would
# time the disk, not the export. Timings are printed, never checked: this is
# not a test.
set -u
BUILD=$(cd "${1:-build}" && pwd) || exit 1
UFT=$BUILD/bin/uft
GEN=$BUILD/tests/graph_dat
REPS=${BENCH_REPS:-3}
STORIES=${BENCH_EXPORT_STORIES:-833334} # 12 records each: 10000008
for f in "$UFT" "$GEN"; do
	[ -x "$f" ] || { echo "bench: $f is missing; run 'make bench'" >&2; exit 1; }
done
TMP=$(mktemp -d /tmp/uft-export-bench.XXXXXX)
OUTDIR=${BENCH_EXPORT_OUT:-/dev/shm}
[ -d "$OUTDIR" ] && [ -w "$OUTDIR" ] || OUTDIR=$TMP
OUT=$(mktemp "$OUTDIR/uft-export-bench.XXXXXX")
trap 'rm -rf "$TMP" "$OUT"' EXIT
"$GEN" -g -n "$STORIES" "$TMP/g.dat" || exit 1
EVENTS=$((STORIES * 12))
cat "$TMP/g.dat" >/dev/null # into the page cache before the first run

# run OUT ARGS...: one export; prints "WALL_US PEAK_KB ANON_KB CPU_S".
run() {
	local out=$1 t0 t1 pid anon=0 a
	shift
	t0=$(date +%s%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M %U %S' -o "$TMP/rss" "$UFT" report -i "$TMP/g.dat" "$@" -o "$out" &
	else
		"$UFT" report -i "$TMP/g.dat" "$@" -o "$out" &
		echo 0 0 0 >"$TMP/rss"
	fi
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		# The uft under /usr/bin/time is its child.
		for p in $pid $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
			a=$(awk '/^RssAnon:/ {print $2}' /proc/"$p"/status 2>/dev/null)
			[ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
		done
		sleep 0.01
	done
	wait "$pid" || { echo "bench: uft report $* failed" >&2; return 1; }
	t1=$(date +%s%N)
	tail -1 "$TMP/rss" | awk -v us=$(((t1 - t0) / 1000)) -v anon="$anon" '{ print us, $1, anon, $2 + $3 }'
}

row() { # LABEL ARGS...
	local label=$1 i
	shift
	: >"$TMP/runs"
	for ((i = 0; i < REPS; i++)); do
		run "$OUT" "$@" >>"$TMP/runs" || return
	done
	local size
	size=$(stat -c %s "$OUT")
	sort -n "$TMP/runs" | awk -v n="$REPS" -v ev="$EVENTS" -v label="$label" -v size="$size" '
		{ us[NR] = $1; rss[NR] = $2; anon[NR] = $3; cpu[NR] = $4 }
		END {
			m = int((n + 1) / 2)
			maxr = 0; maxa = 0
			for (i = 1; i <= n; i++) { if (rss[i] > maxr) maxr = rss[i]; if (anon[i] > maxa) maxa = anon[i] }
			printf "11 %-22s %8d events in %6.3f s = %6.2f M events/s (CPU %5.2f s), peak RSS %4.0f MB (anon %3.0f MB), output %4.0f MB\n",
				label, ev, us[m] / 1e6, ev / us[m], cpu[m], maxr / 1024, maxa / 1024, size / 1048576
		}'
}

echo "uft report exports of a function_graph file, $EVENTS records ($(($(stat -c %s "$TMP/g.dat") / 1048576)) MB), written to $OUTDIR:"
row "--format perfetto" --format perfetto
row "--format folded" --format folded
row "--format chrome-json" --format chrome-json
row "--flame (SVG)" --flame
