#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A traced program killed with SIGKILL loses nothing it committed: its buffers
# live in shared memory the recorder holds, and the recorder drains them once
# the connection closes. Checked twice: the program kills itself after exactly
# N events (every one must be in the file), and the test kills it from outside
# mid-run (everything up to the last number it reported, and nothing beyond
# what it wrote, must be in the file). Exit 0 pass, 77 skip, else fail.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
B=${UFT_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
UFT=$B/bin/uft
[ -x "$UFT" ] && [ -e "$B/lib/libuft.so" ] || {
	echo "skip: build $B first"
	exit 77
}
tmp=$(mktemp -d)
rec_pid=
cleanup() {
	[ -n "$rec_pid" ] && kill "$rec_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

KILLME=$B/bin/killme
[ -x "$KILLME" ] || fail "$KILLME is missing (make all builds it)"

# "total: W events written, R recorded, O overrun, D dropped" -> W R O D
totals() { sed -nE 's/^total: ([0-9]+) events written, ([0-9]+) recorded, ([0-9]+) overrun, ([0-9]+) dropped.*/\1 \2 \3 \4/p' "$1"; }

# Report text on stdin holds the events n=1..$1, each exactly once.
check_seq() {
	awk -v want="$1" '/ seq: +n=[0-9]+$/ {
			k = substr($NF, 3) + 0
			if (k < 1 || k > want || seen[k]++) bad++
			cnt++
		}
		END {
			if (cnt != want || bad) {
				printf "%d events, %d out of range or repeated; want n=1..%d\n", cnt, bad, want
				exit 1
			}
		}'
}

check_file() { # FILE COUNT
	local f=$1 n=$2
	"$UFT" report -i "$f" >"$tmp/report.txt" || fail "uft report -i $f failed"
	grep -q "entries-in-buffer/entries-written: $n/$n " "$tmp/report.txt" ||
		fail "report header: $(grep entries-in-buffer "$tmp/report.txt")"
	check_seq "$n" <"$tmp/report.txt" || fail "uft report of $f"
	if command -v trace-cmd >/dev/null; then
		trace-cmd report -i "$f" 2>/dev/null | check_seq "$n" || fail "trace-cmd report of $f"
	else
		echo "trace-cmd not installed: its part skipped"
	fi
}

# 1. The program writes N events in about a second, then raises SIGKILL.
N=300000
start=$(date +%s%N)
"$UFT" record -M discard -b 65536 -o "$tmp/k.dat" -- "$KILLME" $N "$tmp/progress" 30000 \
	>"$tmp/rec.txt" 2>&1
rc=$?
echo "self-kill: $(grep '^total:' "$tmp/rec.txt") in $((($(date +%s%N) - start) / 1000000)) ms"
[ $rc -eq 137 ] || fail "uft record exited $rc, want 137 (128 + SIGKILL): $(cat "$tmp/rec.txt")"
grep -q 'killed by signal 9' "$tmp/rec.txt" || fail "no 'killed by signal 9' in the summary"
read -r w r o d <<<"$(totals "$tmp/rec.txt")"
[ "${w:-}" = $N ] && [ "$r" = $N ] && [ "$o" = 0 ] && [ "$d" = 0 ] ||
	fail "summary: want $N written, $N recorded, 0 overrun, 0 dropped: $(cat "$tmp/rec.txt")"
check_file "$tmp/k.dat" $N

# 2. The program runs until killed from outside, about a second in.
"$UFT" record -M discard -b 65536 -o "$tmp/x.dat" -- "$KILLME" 0 "$tmp/progress2" 30000 \
	>"$tmp/rec2.txt" 2>&1 &
rec_pid=$!
for _ in $(seq 100); do
	[ -s "$tmp/progress2" ] && break
	sleep 0.05
done
[ -s "$tmp/progress2" ] || fail "killme never reported progress"
sleep 1
read -r pid _ <"$tmp/progress2"
kill -KILL "$pid" || fail "cannot kill $pid"
wait $rec_pid
rc=$?
rec_pid=
[ $rc -eq 137 ] || fail "uft record exited $rc after kill -9, want 137"
read -r _ last <"$tmp/progress2"
read -r w r o d <<<"$(totals "$tmp/rec2.txt")"
echo "external kill: $(grep '^total:' "$tmp/rec2.txt"), last reported $last"
[ "$o" = 0 ] && [ "$d" = 0 ] && [ "$w" = "$r" ] || fail "summary: $(cat "$tmp/rec2.txt")"
# Reported numbers were committed; at most one more burst was written after.
[ "$w" -ge "$last" ] && [ "$w" -le $((last + 10000)) ] ||
	fail "$w events written, but the program had reported $last"
check_file "$tmp/x.dat" "$w"
echo ok
