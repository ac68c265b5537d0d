#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The recorder writes whole spool pages with direct I/O where the file
# system takes it, and falls back to buffered writes where it does not: at
# the open (no direct I/O at all) or at a later write (some pages already
# written directly). The same for the pages copied from the spool into the
# file when the spool cannot become the file (a thread that moved between
# CPUs). Every way, the file holds every event in order and trace-cmd reads
# it as uft does.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
FLOOD=$B/bin/flood
MIGRATE=$B/tests/migrate
SHIM=$B/tests/no_direct.so
need "$FLOOD" "$MIGRATE"
[ -f "$SHIM" ] || { echo "skip: build $B first (make all tests-bin): no $SHIM"; exit 77; }
command -v trace-cmd >/dev/null || { echo "SKIP: trace-cmd not installed"; exit 77; }
N=300000 # about 9 MiB of pages: several spool flushes

# check NAME [ENV...]: records N events with ENV set, checks both reports.
# PROG: the program (flood, or migrate: one thread moving to another CPU
# every 40000 events).
PROG=("$FLOOD" $N 1)
check() {
	local name=$1
	shift
	env "$@" "$UFT" record -o "$tmp/$name.dat" -- "${PROG[@]}" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		fail "$name: uft record exited $?: $(cat "$tmp/$name.err")"
	grep_q "^total: $N events written, $N recorded, 0 overrun, 0 dropped" "$tmp/$name.out" ||
		fail "$name: summary: $(cat "$tmp/$name.out")"
	"$UFT" report -i "$tmp/$name.dat" >"$tmp/$name.uft" || fail "$name: uft report exited $?"
	# Every seq value once, in order.
	awk -v n=$N '/ seq: / { split($NF, v, "="); if (v[2] != ++k) { print "at " k ": " $0; exit 1 } }
		END { if (k != n) { print k " events"; exit 1 } }' "$tmp/$name.uft" >"$tmp/$name.bad" ||
		fail "$name: uft report: $(cat "$tmp/$name.bad")"
	trace-cmd report -i "$tmp/$name.dat" 2>/dev/null >"$tmp/$name.tc" || fail "$name: trace-cmd report"
	[ "$(grep -c ' seq: ' "$tmp/$name.tc")" = $N ] ||
		fail "$name: trace-cmd report has $(grep -c ' seq: ' "$tmp/$name.tc") events"
	cmp -s <(grep -o 'seq: .*' "$tmp/$name.uft" | tr -s ' ') <(grep -o 'seq: .*' "$tmp/$name.tc" | tr -s ' ') ||
		fail "$name: uft and trace-cmd report differ"
}

check direct
check no-open LD_PRELOAD="$SHIM" UFT_TEST_NO_DIRECT=open
check no-write LD_PRELOAD="$SHIM" UFT_TEST_NO_DIRECT=write:2
check no-first-write LD_PRELOAD="$SHIM" UFT_TEST_NO_DIRECT=write:0
if [ "$(nproc)" -gt 1 ]; then
	PROG=("$MIGRATE" $N 1 40000)
	check moved
	check moved-no-open LD_PRELOAD="$SHIM" UFT_TEST_NO_DIRECT=open
	check moved-no-write LD_PRELOAD="$SHIM" UFT_TEST_NO_DIRECT=write:12
	# A file size limit too small for a spool region per CPU: one region.
	(ulimit -f $((512 * 1024)) && check moved-fsize) || exit 1
	# A file system without FALLOC_FL_COLLAPSE_RANGE (tmpfs): the regions
	# stay apart and the pages are copied into the file.
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
		shm=$(mktemp -d /dev/shm/uft-direct.XXXXXX)
		(tmp=$shm && check moved-tmpfs)
		rc=$?
		rm -rf "$shm"
		[ $rc = 0 ] || exit 1
	fi
fi
# The first run did try direct I/O (whether this file system took it or not).
if command -v strace >/dev/null; then
	strace -f -qq -e trace=open,openat -o "$tmp/strace.txt" "$UFT" record -o "$tmp/s.dat" -- "$FLOOD" $N 1 \
		>/dev/null 2>&1 || fail "uft record under strace exited $?"
	grep_q 'O_DIRECT[|)]' "$tmp/strace.txt" || fail "the spool was never opened for direct I/O"
fi
echo "PASS: test_record_direct"
