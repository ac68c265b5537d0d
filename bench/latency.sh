#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft timerlat beside cyclictest and a bare clock_nanosleep loop
# (bench/sleep_loop.c), and uft osnoise beside oslat: the same CPU, period
# and duration, one tool after the other, median / p99 / max in us and the
# ratios. Printed, never checked: not a test.
#
#   bench/latency.sh BUILD_DIR
#
# Knobs: BENCH_LAT_CPU (default: the last CPU), BENCH_LAT_SECONDS (10),
# BENCH_LAT_PERIOD_US (1000), BENCH_LAT_PRIO (95), BENCH_LAT_NOISE_US (the
# smallest osnoise/oslat sample compared, 10).
set -u

BUILD=$(cd "${1:-build}" && pwd) || exit 1
UFT=$BUILD/bin/uft
LOOP=$BUILD/bench/sleep_loop
for f in "$UFT" "$LOOP"; do
	[ -x "$f" ] || { echo "bench: $f is missing; run 'make bench'" >&2; exit 1; }
done
CPU=${BENCH_LAT_CPU:-$(($(nproc) - 1))}
SECS=${BENCH_LAT_SECONDS:-10}
PERIOD=${BENCH_LAT_PERIOD_US:-1000}
PRIO=${BENCH_LAT_PRIO:-95}
NOISE=${BENCH_LAT_NOISE_US:-10}
TMP=$(mktemp -d /tmp/uft-bench-lat.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

echo "== latency: uft timerlat / osnoise beside cyclictest / oslat (us; one after the other)"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), kernel $(uname -r)"
echo "CPU $CPU, ${SECS} s each, period $PERIOD us, SCHED_FIFO $PRIO for the timer loops"
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"

# stats FILE [FROM]: "count median p99 max" of "BUCKET COUNT" rows (1 us
# buckets, value = the bucket's lower edge) from bucket FROM on, an
# "over N" row counting past the last bucket (a percentile there prints
# "over") and a "max N" row (else the last bucket is the max).
stats() {
	awk -v from="${2:-0}" '
		BEGIN { n = 0; over = 0 }
		$1 == "max" { max = $2; next }
		$1 == "over" { over = $2; total += $2; next }
		$1 ~ /^[0-9]+$/ && $1 >= from { b[n] = $1; c[n] = $2; total += $2; n++ }
		function at(p,   rank, seen, i) {
			rank = int((total * p + 99) / 100); if (rank < 1) rank = 1
			for (i = 0; i < n; i++) { seen += c[i]; if (seen >= rank) return b[i] }
			return "over"
		}
		END {
			if (!total) { print "0 - - -"; exit }
			if (max == "") max = b[n - 1]
			print total, at(50), at(99), max
		}' "$1"
}

row() { # LABEL "count median p99 max"
	read -r n med p99 max <<<"$2"
	printf "  %-34s %9s %8s %8s %8s\n" "$1" "$n" "$med" "$p99" "$max"
}
ratio() { # LABEL A B: A/B of median, p99, max
	read -r _ am ap ax <<<"$2"
	read -r _ bm bp bx <<<"$3"
	awk -v l="$1" -v am="$am" -v ap="$ap" -v ax="$ax" -v bm="$bm" -v bp="$bp" -v bx="$bx" '
		function r(a, b) { return (b > 0 && a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) ? sprintf("%.2f", a / b) : "-" }
		BEGIN { printf "  %-34s %9s %8s %8s %8s\n", l, "", r(am, bm), r(ap, bp), r(ax, bx) }'
}

HDR=$(printf "  %-34s %9s %8s %8s %8s" "" samples median p99 max)

# ---- timer wake-up latency ----
"$UFT" timerlat hist -c "$CPU" -p "$PERIOD" -d "$SECS" -P "f:$PRIO" -E 100000 >"$TMP/tl" 2>"$TMP/tl.err"
awk '/^max:/ { print "max", $2 } /^over:/ { print "over", $2 } /^[0-9]/ { print $1, $2 }' "$TMP/tl" >"$TMP/tl.rows"
TL=$(stats "$TMP/tl.rows")
taskset -c "$CPU" "$LOOP" "$CPU" "$PERIOD" "$SECS" "$PRIO" >"$TMP/bare" 2>"$TMP/bare.err"
awk '/^# Max Latencies:/ { print "max", $4 + 0 } /^# Histogram Overflows:/ { print "over", $4 + 0 }
	/^[0-9]/ { print $1 + 0, $2 + 0 }' "$TMP/bare" >"$TMP/bare.rows"
BARE=$(stats "$TMP/bare.rows")
CT=""
if command -v cyclictest >/dev/null 2>&1; then
	cyclictest -q -m -D "$SECS" -i "$PERIOD" -a "$CPU" -t 1 -p "$PRIO" -h 100000 >"$TMP/ct" 2>"$TMP/ct.err"
	awk '/^# Max Latencies:/ { print "max", $4 + 0 } /^# Histogram Overflows:/ { print "over", $4 + 0 }
		/^[0-9]/ { print $1 + 0, $2 + 0 }' "$TMP/ct" >"$TMP/ct.rows"
	CT=$(stats "$TMP/ct.rows")
fi
echo "timer wake-up latency, period $PERIOD us:"
echo "$HDR"
row "uft timerlat hist" "$TL"
row "bare clock_nanosleep loop" "$BARE"
[ -n "$CT" ] && row "cyclictest" "$CT"
[ -n "$CT" ] && ratio "uft / cyclictest" "$TL" "$CT"
ratio "uft / bare loop" "$TL" "$BARE"
read -r _ tm _ _ <<<"$TL"
read -r _ bm _ _ <<<"$BARE"
echo "  median difference from the bare loop: $tm - $bm = $((tm - bm)) us (the machine's noise at this scale)"
PATH_NS=""
[ -x "$BUILD/bench/lat_path" ] && PATH_NS=$(taskset -c "$CPU" "$BUILD/bench/lat_path" | awk '/^ns /{print $2}')
[ -n "$PATH_NS" ] &&
	echo "  target: timerlat's own work per wake-up (stats, histogram, stop check) $PATH_NS ns [<= 1000 ns]"
[ -z "$CT" ] && echo "  cyclictest rows skipped: rt-tests not installed (bench/deps.sh installs it as root)"

# ---- noise of a busy loop: samples of NOISE us and more ----
# 1023 buckets of 1 us and an overflow on both sides: oslat's range.
"$UFT" osnoise hist -c "$CPU" -d "$SECS" -T 1 -E 1023 >"$TMP/on" 2>"$TMP/on.err"
awk '/^max:/ { print "max", $2 } /^over:/ { print "over", $2 } /^[0-9]/ { print $1, $2 }' "$TMP/on" >"$TMP/on.rows"
ON=$(stats "$TMP/on.rows" "$NOISE")
OL=""
if command -v oslat >/dev/null 2>&1; then
	other=$(( CPU == 0 ? ($(nproc) > 1 ? 1 : 0) : 0 ))
	oslat -q -c "$CPU" -C "$other" -D "$SECS" -b 1024 >"$TMP/ol" 2>"$TMP/ol.err"
	# oslat's bucket N (us) holds [N-1, N): its first, 001, holds the
	# sub-microsecond reads; the last also counts the overflows. Rows as
	# lower edges, like uft's index.
	awk '/Maximum:/ { print "max", $2 }
		/^ *[0-9]+ \(us\):/ { if (/overflows/) print "over", $3; else print $1 - 1, $3 }' "$TMP/ol" >"$TMP/ol.rows"
	OL=$(stats "$TMP/ol.rows" "$NOISE")
fi
echo "busy-loop noise, samples of $NOISE us and more (uft osnoise: period = runtime = 1 s):"
echo "$HDR"
row "uft osnoise hist" "$ON"
[ -n "$OL" ] && row "oslat" "$OL"
[ -n "$OL" ] && ratio "uft / oslat" "$ON" "$OL"
[ -z "$OL" ] && echo "  oslat rows skipped: rt-tests not installed (bench/deps.sh installs it as root)"
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
