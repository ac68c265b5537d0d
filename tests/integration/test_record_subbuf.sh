#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record --subbuf-size: a record larger than a 4 KiB page is lost (and
# counted) with the default sub-buffer and kept whole with 16 KiB ones; the
# file's pages take the largest sub-buffer read, and trace-cmd reads the
# file to the same lines as uft report. Bad sizes are refused.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
BIG=$B/tests/big_record
need "$BIG"
have_tc=0
command -v trace-cmd >/dev/null && have_tc=1

# The page size in a trace.dat's initial header (after magic and version).
page_size() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read(64)
i = d.index(b"\0", 10)
print(int.from_bytes(d[i + 3:i + 7], "little"))' "$1"
}
# "EVENT: BODY" of each event line, for either program's report.
bodies() { sed -nE 's/.* (blob: *)(len=.*)$/blob: \2/p' "$@"; }

text=$(python3 -c 'print("".join(chr(97 + (i // 64) % 26) for i in range(10000)))')

# Default sub-buffers: the big record does not fit a page.
"$UFT" record -o "$tmp/small.dat" -- "$BIG" 10000 >"$tmp/rec.out" 2>&1 ||
	fail "uft record exited $?: $(cat "$tmp/rec.out")"
grep_q '^total: 2 events written, 2 recorded, 0 overrun, 0 dropped, 1 lost$' "$tmp/rec.out" ||
	fail "default summary: $(cat "$tmp/rec.out")"
[ "$(page_size "$tmp/small.dat")" = 4096 ] || fail "page size $(page_size "$tmp/small.dat")"

# 16 KiB sub-buffers: kept whole, in 16 KiB pages.
"$UFT" record --subbuf-size 16 -o "$tmp/big.dat" -- "$BIG" 10000 >"$tmp/rec.out" 2>&1 ||
	fail "uft record --subbuf-size exited $?: $(cat "$tmp/rec.out")"
grep_q '^total: 3 events written, 3 recorded, 0 overrun, 0 dropped$' "$tmp/rec.out" ||
	fail "--subbuf-size summary: $(cat "$tmp/rec.out")"
[ "$(page_size "$tmp/big.dat")" = 16384 ] || fail "page size $(page_size "$tmp/big.dat")"
"$UFT" report -i "$tmp/big.dat" >"$tmp/uft.txt" || fail "uft report exited $?"
bodies "$tmp/uft.txt" >"$tmp/uft.b"
printf 'blob: len=7 text=before\nblob: len=10001 text=%s\nblob: len=6 text=after\n' "$text" \
	>"$tmp/want.b"
cmp -s "$tmp/uft.b" "$tmp/want.b" || fail "uft report: $(cut -c1-100 "$tmp/uft.b")"
if [ $have_tc = 1 ]; then
	trace-cmd report -i "$tmp/big.dat" >"$tmp/tc.txt" 2>/dev/null || fail "trace-cmd report"
	bodies "$tmp/tc.txt" >"$tmp/tc.b"
	cmp -s "$tmp/tc.b" "$tmp/want.b" || fail "trace-cmd report: $(cut -c1-100 "$tmp/tc.b")"
fi

# Sizes the tree refuses are refused here, before anything runs.
for bad in 0 513 x; do
	"$UFT" record --subbuf-size "$bad" -o "$tmp/bad.dat" -- "$BIG" 10 >"$tmp/bad.out" 2>&1 &&
		fail "--subbuf-size $bad accepted"
	grep_q "bad sub-buffer size" "$tmp/bad.out" || fail "--subbuf-size $bad: $(cat "$tmp/bad.out")"
	[ ! -e "$tmp/bad.dat" ] || fail "--subbuf-size $bad wrote a file"
done
echo "PASS"
