#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel recording the real trace-cmd makes on this machine, now: two
# instances with sched events and a trace_marker print, written by
# `trace-cmd extract` as version 7 with zstd (scripts/make_tracecmd_data.sh),
# then converted to version 6. uft report prints the events trace-cmd report
# prints and --hist counts what trace-cmd's text counts.
# Exit 0 pass, 77 skip (not root, no kernel tracefs, no trace-cmd), else fail.
source "$(dirname "$0")/lib/file.sh"
need
source "$(dirname "$0")/lib/tracecmd.sh"
command -v trace-cmd >/dev/null || { echo "skip: trace-cmd is not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: recording kernel events needs root"; exit 77; }
[ -d /sys/kernel/tracing/instances ] && [ -w /sys/kernel/tracing/instances ] ||
	{ echo "skip: no writable kernel tracefs at /sys/kernel/tracing"; exit 77; }
command -v unshare >/dev/null || { echo "skip: no unshare(1)"; exit 77; }
unshare -m true 2>/dev/null || { echo "skip: no mount namespaces here"; exit 77; }

K=$tmp/live.dat
scripts/make_tracecmd_data.sh "$K" "uft$$" >"$tmp/make.out" 2>&1 ||
	fail "the trace-cmd recording failed: $(tail -3 "$tmp/make.out")"
head -c 24 "$K" | grep_q -a zstd || fail "trace-cmd did not write a zstd file"
"$UFT" report -i "$K" | norm_uft >"$tmp/k.norm" || fail "uft report exited $?"
grep_q "^uft$$A: " "$tmp/k.norm" || fail "no events of instance uft$$A"
grep_q -E "^uft$$A: .* uft test marker\$" "$tmp/k.norm" || fail "no trace_marker print"
same_as_tc "$K" "$tmp/k.norm"

trace-cmd convert --file-version 6 -i "$K" -o "$tmp/k6.dat" >/dev/null 2>&1 || fail "convert to v6"
"$UFT" report -i "$tmp/k6.dat" | norm_uft >"$tmp/k6.norm"
cmp -s "$tmp/k6.norm" "$tmp/k.norm" || fail "v6: $(diff "$tmp/k6.norm" "$tmp/k.norm" | head -5)"

trace-cmd report -N -i "$K" 2>/dev/null >"$tmp/tc.txt" || fail "trace-cmd report -N"
# The recording may miss an event kind in a quiet moment; count those it has.
for spec in sched:sched_switch:prev_pid sched:sched_switch:next_comm sched:sched_wakeup:pid; do
	ev=${spec%:*} field=${spec##*:}
	grep_q -F " ${ev#*:}: " "$tmp/tc.txt" || continue
	hist_vs_tc "$K" "$ev" "$field" "$tmp/tc.txt"
done
echo PASS
