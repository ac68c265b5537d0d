#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Four threads on fewer CPUs: each thread's events are packed into pages on
# disk as they are drained, and the threads sharing a CPU are merged at the
# end.
# Nothing may be lost or reordered.
set -euo pipefail
trap 'echo "FAIL at line $LINENO: $BASH_COMMAND"' ERR
B=${UFT_BUILD:-build}
UFT=$B/bin/uft
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
N=100000
T=4

$UFT record -M discard -b 65536 -o "$tmp/s.dat" \
	-- "$B/bin/flood" $N $T >"$tmp/sum.txt"
grep -q "^total: $((N * T)) events written, $((N * T)) recorded, 0 overrun, 0 dropped" "$tmp/sum.txt" ||
	{ cat "$tmp/sum.txt"; exit 1; }
$UFT report -i "$tmp/s.dat" | grep ' seq: ' >"$tmp/all.txt"
[ "$(wc -l <"$tmp/all.txt")" -eq $((N * T)) ]
# every thread's numbers complete and in order
awk -v n=$N -v t=$T '{split($(NF-1),a,"="); split($NF,b,"=");
	if (b[2] != last[a[2]] + 1) bad++; last[a[2]] = b[2]}
	END {for (i = 0; i < t; i++) if (last[i] != n) bad++; exit bad != 0}' "$tmp/all.txt"
# each CPU's stream in time order in the file
for cpu in $(seq 0 $(($(nproc) - 1))); do
	# (a busy machine may leave a CPU without any event: grep finds none)
	$UFT report -i "$tmp/s.dat" --cpu "$cpu" | { grep ' seq: ' || true; } |
		awk '{ts=$4; sub(":", "", ts); if (ts + 0 < last + 0) bad++; last = ts} END {exit bad != 0}'
done
if command -v trace-cmd >/dev/null; then
	[ "$(trace-cmd report -i "$tmp/s.dat" 2>/dev/null | grep -c ' seq: ')" -eq $((N * T)) ]
fi
echo ok
