#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A recording whose pages keep the rings' raw cycle counts (TSC2NSEC and
# OFFSET options): three exec'd processes, each with its own clock
# calibration and the later ones with event ids the recorder remaps, make
# one timeline that `uft report` and `trace-cmd report` print alike.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"
FLOOD=$B/bin/flood
need "$FLOOD"
command -v trace-cmd >/dev/null || { echo "SKIP: trace-cmd not installed"; exit 77; }

norm_uft() { awk '/^#/ { next } / \[[0-9]+\] / { ts = $4; sub(/:$/, "", ts); $3 = ""; $4 = ""; $0 = $0; $1 = $1; print ts, $0 }' "$@"; }
norm_tc() { awk '/ \[[0-9]+\] / { ts = $3; sub(/:$/, "", ts); $3 = ""; $0 = $0; $1 = $1; print ts, $0 }' "$@"; }
count() { awk -v ev="$2:" '$4 == ev { n++ } END { print n + 0 }' "$1"; }

# demo first: its ids are the file's; each flood's seq event gets a new one.
"$UFT" record -o "$tmp/t.dat" -- sh -c "'$DEMO'; '$FLOOD' 20000 1; '$FLOOD' 20000 1" \
	>"$tmp/rec.out" 2>"$tmp/rec.err" || fail "uft record exited $?: $(cat "$tmp/rec.err")"
grep_q '^total: 40037 events written, 40037 recorded, 0 overrun, 0 dropped' "$tmp/rec.out" ||
	fail "record summary: $(cat "$tmp/rec.out")"

trace-cmd dump --options -i "$tmp/t.dat" >"$tmp/opts.txt" 2>&1 || fail "trace-cmd dump"
grep_q 'Option TSC2NSEC' "$tmp/opts.txt" || { echo "SKIP: no raw cycle clock here"; exit 77; }

"$UFT" report -i "$tmp/t.dat" >"$tmp/uft.txt" || fail "uft report exited $?"
trace-cmd report -i "$tmp/t.dat" 2>/dev/null >"$tmp/tc.txt" || fail "trace-cmd report"
norm_uft "$tmp/uft.txt" >"$tmp/uft.norm"
norm_tc "$tmp/tc.txt" >"$tmp/tc.norm"
[ "$(count "$tmp/uft.norm" seq)" = 40000 ] || fail "seq: $(count "$tmp/uft.norm" seq) events"
[ "$(count "$tmp/uft.norm" request)" = 13 ] || fail "request: $(count "$tmp/uft.norm" request)"
awk '{ if ($1 + 0 < last) bad = 1; last = $1 + 0 } END { exit bad }' "$tmp/uft.norm" ||
	fail "report not in time order"
LC_ALL=C sort -k1,1g -k2 "$tmp/uft.norm" >"$tmp/a"
LC_ALL=C sort -k1,1g -k2 "$tmp/tc.norm" >"$tmp/b"
diff "$tmp/a" "$tmp/b" >"$tmp/d" || fail "uft and trace-cmd report differ: $(head -10 "$tmp/d")"
# The processes ran one after another: their times do not interleave.
awk '$4 == "seq:" { split($2, p, "-"); if (p[2] != last) { runs++; last = p[2] } }
	END { exit runs != 2 }' "$tmp/uft.norm" || fail "the floods' events interleave"
# The demo ran first, whatever each process's calibration.
first_seq=$(awk '$4 == "seq:" { print $1; exit }' "$tmp/uft.norm")
last_demo=$(awk '$4 == "done:" { print $1 }' "$tmp/uft.norm")
awk -v a="$last_demo" -v b="$first_seq" 'BEGIN { exit !(a < b) }' ||
	fail "demo's last event ($last_demo) not before the first flood's ($first_seq)"

# One thread on one CPU: its pages lie in one run in the spool, which then
# becomes the file (metadata written into the hole before the pages, the
# rest of the hole cut out). The same file either way: readable by both
# readers, the output's usual mode, nothing left beside it.
command -v taskset >/dev/null || { echo PASS; exit 0; }
umask 022
"$UFT" record -o "$tmp/one.dat" -- taskset -c 0 "$FLOOD" 20000 1 >"$tmp/rec1.out" 2>&1 ||
	fail "uft record (one thread) exited $?: $(cat "$tmp/rec1.out")"
grep_q '^total: 20000 events written, 20000 recorded' "$tmp/rec1.out" ||
	fail "record summary: $(cat "$tmp/rec1.out")"
size=$(stat -c %s "$tmp/one.dat")
[ "$size" -lt $((16 << 20)) ] || fail "one.dat is $size bytes"
[ "$(stat -c %a "$tmp/one.dat")" = 644 ] || fail "one.dat mode $(stat -c %a "$tmp/one.dat")"
ls -a "$tmp" | grep_q -E 'spool|^\.one' && fail "left beside the output: $(ls -a "$tmp")"
"$UFT" report -i "$tmp/one.dat" >"$tmp/one.txt" || fail "uft report one.dat exited $?"
trace-cmd report -i "$tmp/one.dat" 2>/dev/null >"$tmp/one.tc" || fail "trace-cmd report one.dat"
norm_uft "$tmp/one.txt" >"$tmp/one.norm"
[ "$(count "$tmp/one.norm" seq)" = 20000 ] || fail "one.dat: $(count "$tmp/one.norm" seq) seq events"
diff <(norm_uft "$tmp/one.txt") <(norm_tc "$tmp/one.tc") >"$tmp/d1" ||
	fail "one.dat: uft and trace-cmd report differ: $(head -10 "$tmp/d1")"
echo PASS
