#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make fuzz`: builds every parser's target (fuzz/fuzz_*.c) with libFuzzer,
# ASan and UBSan (clang), and runs each from its corpus for FUZZ_TIME
# seconds, or FUZZ_RUNS executions when that is set. New interesting inputs
# stay in the build's copy of the corpus; a crash is saved as
# crash-SHA1 in the target's fuzz/corpus folder (so `make test` replays it from then on), and
# the run fails. Prints one line per target: executions, coverage, corpus.
set -uo pipefail
cd "$(dirname "$0")/.."
UFT_EXTRA_PKGS="${UFT_EXTRA_PKGS:-} clang libclang-rt-14-dev" scripts/deps.sh || exit 1
B=build/fuzzer
TIME=${FUZZ_TIME:-60}
RUNS=${FUZZ_RUNS:--1}
ONLY=${FUZZ_TARGETS:-}
# An input slower than this is reported as a hang.
TIMEOUT=${FUZZ_TIMEOUT:-10}
make -s -j"$(nproc)" BUILD=$B CC=clang SAN=fuzzer-no-link,address,undefined fuzzers || exit 1

bad=0
printf '%-14s %12s %9s %7s %7s %s\n' target executions exec/s cov ft result
for bin in "$B"/fuzzer/fuzz_*; do
	[[ -x $bin && $bin != *.d ]] || continue
	name=${bin##*/fuzz_}
	[ -n "$ONLY" ] && [[ " $ONLY " != *" $name "* ]] && continue
	work=$B/corpus/$name
	crashes=$B/crashes/$name
	mkdir -p "$work" "$crashes"
	cp -n fuzz/corpus/"$name"/* "$work"/ 2>/dev/null
	log=$B/$name.log
	args=(-max_total_time="$TIME" -print_final_stats=1 -artifact_prefix="$crashes/" -timeout="$TIMEOUT"
		-rss_limit_mb=2048)
	[ "$RUNS" != -1 ] && args=(-runs="$RUNS" "${args[@]:1}")
	"$bin" "${args[@]}" "$work" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
	result=ok
	if [ $rc != 0 ]; then
		result="FAILED (exit $rc, $log)"
		bad=1
		for c in "$crashes"/*; do
			[ -f "$c" ] || continue
			sum=$(sha1sum "$c" | cut -c1-16)
			cp "$c" fuzz/corpus/"$name"/crash-"$sum"
			result="$result; saved fuzz/corpus/$name/crash-$sum"
		done
	fi
	printf '%-14s %12s %9s %7s %7s %s\n' "$name" "${execs:-?}" "${speed:-?}" "${cov:-?}" \
		"${ft:-?}" "$result"
done
exit $bad
