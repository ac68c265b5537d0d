#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# trace.dat files the real trace-cmd wrote: tests/data/tc_instances_zstd.dat
# (a kernel recording by `trace-cmd extract`, version 7, zstd, two instances;
# scripts/make_tracecmd_data.sh) and the versions `trace-cmd convert` makes
# of it and of uft's own files. uft report prints the events trace-cmd report
# prints, every instance's, and --hist counts what trace-cmd's text counts;
# uft record --compression writes files trace-cmd reads back the same.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"
source "$(dirname "$0")/lib/tracecmd.sh"
K=tests/data/tc_instances_zstd.dat

# ---- the committed file, without trace-cmd ----
"$UFT" report -i "$K" >"$tmp/k.txt" || fail "uft report $K exited $?"
norm_uft "$tmp/k.txt" >"$tmp/k.norm"
[ "$(grep -c '^uftA: ' "$tmp/k.norm")" = 347 ] && [ "$(grep -c '^uftB: ' "$tmp/k.norm")" = 228 ] ||
	fail "instances: $(cut -d' ' -f1 "$tmp/k.norm" | sort | uniq -c | tr '\n' ' ')"
grep_q -E '^# entries-in-buffer/entries-written: 575/575 ' "$tmp/k.txt" || fail "entries line"
grep_q -x 'uftA: make_tracecmd_d-6161 \[000\] 41914.973993: 0xffffffff814aa001: uft test marker' \
	"$tmp/k.norm" || fail "the trace_marker print of instance uftA"
"$UFT" report -i "$K" --hist 'sched:sched_switch:keys=prev_pid' >"$tmp/h.txt" ||
	fail "uft report --hist exited $?"
grep_q -x '    Hits: 346' "$tmp/h.txt" || fail "sched_switch hits: $(grep Hits "$tmp/h.txt")"
grep_q -x '{ prev_pid:      15211 } hitcount:         82' "$tmp/h.txt" || fail "prev_pid 15211"

if ! command -v trace-cmd >/dev/null; then
	echo "skip: trace-cmd is not installed: the comparisons with trace-cmd report"
	exit 77
fi

# ---- the same events as trace-cmd report, in every version of the file ----
same_as_tc "$K" "$tmp/k.norm"
trace-cmd convert --file-version 6 -i "$K" -o "$tmp/k6.dat" >/dev/null 2>&1 || fail "convert to v6"
trace-cmd convert --file-version 7 --compression none -i "$K" -o "$tmp/k7.dat" >/dev/null 2>&1 ||
	fail "convert to v7 uncompressed"
for f in k6 k7; do
	"$UFT" report -i "$tmp/$f.dat" | norm_uft >"$tmp/$f.norm" || fail "uft report $f"
	cmp -s "$tmp/$f.norm" "$tmp/k.norm" || fail "$f: $(diff "$tmp/$f.norm" "$tmp/k.norm" | head -5)"
done

# ---- --hist counts equal the counts of trace-cmd's text ----
trace-cmd report -N -i "$K" 2>/dev/null >"$tmp/tc.txt" || fail "trace-cmd report -N"
hist_vs_tc "$K" sched:sched_switch prev_pid "$tmp/tc.txt"
hist_vs_tc "$K" sched:sched_switch next_comm "$tmp/tc.txt"
hist_vs_tc "$K" sched:sched_wakeup pid "$tmp/tc.txt"
hist_vs_tc "$tmp/k6.dat" sched:sched_wakeup comm "$tmp/tc.txt"

# ---- uft record --compression: trace-cmd reads the file back ----
for alg in zstd zlib; do
	"$UFT" record -q --compression $alg -o "$tmp/$alg.dat" -- "$DEMO" >/dev/null 2>&1 ||
		fail "uft record --compression $alg exited $?"
	head -c 20 "$tmp/$alg.dat" | grep_q -a "tracing7" || fail "$alg: not a version 7 file"
	"$UFT" report -i "$tmp/$alg.dat" | norm_uft >"$tmp/$alg.norm"
	[ "$(wc -l <"$tmp/$alg.norm")" = 37 ] || fail "$alg: $(wc -l <"$tmp/$alg.norm") events, want 37"
	# trace-cmd reads what it has the library for (Debian's 3.1.6: zstd only).
	if trace-cmd list -c 2>/dev/null | grep_q "^[[:space:]]*$alg,"; then
		same_as_tc "$tmp/$alg.dat" "$tmp/$alg.norm"
		trace-cmd dump -v -i "$tmp/$alg.dat" >/dev/null 2>&1 || fail "trace-cmd dump -v: $alg"
	fi
done
# The record of --compression none stays version 6.
"$UFT" record -q --compression none -o "$tmp/none.dat" -- "$DEMO" >/dev/null 2>&1
head -c 20 "$tmp/none.dat" | grep_q -a "tracing6" || fail "--compression none: not version 6"
"$UFT" record --compression lz4 -- "$DEMO" >/dev/null 2>&1
[ $? = 2 ] || fail "--compression lz4 is not a usage error"

# ---- trace-cmd's compressed conversion of uft's own file ----
trace-cmd convert --file-version 7 --compression zstd -i "$tmp/none.dat" -o "$tmp/conv.dat" \
	>/dev/null 2>&1 || fail "trace-cmd convert of uft's file"
"$UFT" report -i "$tmp/none.dat" | norm_uft >"$tmp/none.norm"
"$UFT" report -i "$tmp/conv.dat" | norm_uft >"$tmp/conv.norm"
cmp -s "$tmp/none.norm" "$tmp/conv.norm" || fail "converted: $(diff "$tmp/none.norm" "$tmp/conv.norm" | head -5)"
same_as_tc "$tmp/conv.dat" "$tmp/conv.norm"
echo PASS
