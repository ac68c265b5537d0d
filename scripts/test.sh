#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make test`: builds with gcc and clang (-Werror), runs the unit tests, the
# integration tests, the fuzz corpora, and the sanitizer builds.
set -u
cd "$(dirname "$0")/.."
JOBS=$(nproc)
# Every traced test program serves a control socket: in a run directory of
# the tests' own, never the user's (which `uft ctl --list` would then offer).
UFT_RUNDIR=$(mktemp -d /tmp/uft-test-run.XXXXXX)
export UFT_RUNDIR
trap 'rm -rf "$UFT_RUNDIR"' EXIT
pass=0
fail=0
skip=0
failed=()

step() { printf '\n== %s\n' "$*"; }
run() {
	local name=$1
	shift
	local log
	log=$(mktemp)
	timeout --kill-after=10 300 "$@" >"$log" 2>&1
	local rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		printf 'PASS %s\n' "$name"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1))
		printf 'SKIP %s: %s\n' "$name" "$(tail -n 1 "$log")"
	else
		fail=$((fail + 1))
		failed+=("$name")
		printf 'FAIL %s (exit %d)\n' "$name" $rc
		tail -n 40 "$log" | sed 's/^/    /'
	fi
	rm -f "$log"
}

build() {
	local dir=$1
	shift
	make -s -j"$JOBS" BUILD="$dir" "$@" all tests-bin >/dev/null
}

step "format"
if command -v clang-format >/dev/null; then
	run "clang-format" make -s format-check
fi
# The docs map lists every source file, every reference in docs and comments
# resolves, every source file carries its license line.
run "docs-map" python3 scripts/check_docs_map.py
run "doc-refs" python3 scripts/check_doc_refs.py
run "spdx" bash scripts/check_spdx.sh

step "build (gcc)"
build build CC=gcc || { echo "gcc build failed"; exit 1; }
step "build (clang)"
build build/clang CC=clang || { echo "clang build failed"; exit 1; }

# The tests are those of the sources (tests/unit/test_*.c, fuzz/fuzz_*.c and
# the two variants the Makefile builds from them): a binary a removed test left
# in a build directory is not run.
unit_tests() {
	local src
	for src in tests/unit/test_*.c; do
		basename "$src" .c
	done
	echo test_ftrace_nopie
	echo test_ftrace_cxx
}

suite() {
	local dir=$1 tag=$2 n
	for n in $(unit_tests); do
		[ -x "$dir/tests/$n" ] || continue
		run "$tag$n" env UFT_BUILD="$dir" "$dir/tests/$n"
	done
	for src in fuzz/fuzz_*.c; do
		n=$(basename "$src" .c)
		[ -x "$dir/fuzz/$n" ] || continue
		run "$tag$n-corpus" "$dir/fuzz/$n" fuzz/corpus/"${n#fuzz_}"
	done
}

step "unit tests (gcc)"
suite build ""
step "unit tests (clang)"
suite build/clang "clang:"

step "integration tests"
for t in tests/integration/*.sh; do
	[ -f "$t" ] || continue
	run "$(basename "$t" .sh)" env UFT_BUILD=build bash "$t"
done

if [ "${UFT_SKIP_SAN:-0}" != 1 ]; then
	step "ASan+UBSan build"
	build build/asan CC=clang SAN=address,undefined OPT=-O1 || { echo "asan build failed"; exit 1; }
	suite build/asan "asan:"
	for t in tests/integration/*.sh; do
		[ -f "$t" ] || continue
		run "asan:$(basename "$t" .sh)" env UFT_BUILD=build/asan ASAN_OPTIONS=detect_leaks=0 bash "$t"
	done
	step "TSan build (buffer and function tracer tests)"
	build build/tsan CC=clang SAN=thread OPT=-O1 || { echo "tsan build failed"; exit 1; }
	for t in build/tsan/tests/test_ring* build/tsan/tests/test_stress* build/tsan/tests/test_signals \
		build/tsan/tests/test_tracefs build/tsan/tests/test_tracefs_triggers \
		build/tsan/tests/test_tracefs_hist build/tsan/tests/test_tracefs_hist_shards \
		build/tsan/tests/test_ftrace build/tsan/tests/test_reclaim build/tsan/tests/test_csect \
		build/tsan/tests/test_osn_tracer build/tsan/tests/test_insn_probe build/tsan/tests/test_wake_io \
		build/tsan/tests/test_insn_retprobe build/tsan/tests/test_tracefs_retprobe; do
		[ -x "$t" ] || continue
		run "tsan:$(basename "$t")" env UFT_BUILD=build/tsan "$t"
	done
fi

echo
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
