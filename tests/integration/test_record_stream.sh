#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record streams what it drains to disk: threads that keep moving
# between CPUs come out complete and in time order on every CPU (segments
# merged), also as trace-cmd reads it; and the recorder's memory does not
# grow with the recording.
source "$(dirname "$0")/lib/file.sh"
set -e
trap 'echo "FAIL at line $LINENO: $BASH_COMMAND"' ERR
need "$B/tests/migrate" "$B/bin/flood"

# 1. Migrating threads: nothing lost, each thread's numbers in order, each
# CPU's stream in time order.
# (12 threads on a few CPUs: many segments of a CPU overlap and are merged)
N=20000
T=12
$UFT record -M discard -b 16384 -o "$tmp/m.dat" -- "$B/tests/migrate" $N $T 150 >"$tmp/sum.txt"
grep_q "^total: $((N * T)) events written, $((N * T)) recorded, 0 overrun, 0 dropped" "$tmp/sum.txt" ||
	{ cat "$tmp/sum.txt"; exit 1; }
$UFT report -i "$tmp/m.dat" | grep ' seq: ' >"$tmp/all.txt"
[ "$(wc -l <"$tmp/all.txt")" -eq $((N * T)) ]
awk -v n=$N -v t=$T '{split($(NF-1),a,"="); split($NF,b,"=");
	if (b[2] != last[a[2]] + 1) bad++; last[a[2]] = b[2]}
	END {for (i = 0; i < t; i++) if (last[i] != n) bad++; exit bad != 0}' "$tmp/all.txt"
for cpu in $(seq 0 $(($(nproc) - 1))); do
	$UFT report -i "$tmp/m.dat" --cpu "$cpu" | { grep ' seq: ' || true; } |
		awk '{ts=$4; sub(":", "", ts); if (ts + 0 < last + 0) bad++; last = ts} END {exit bad != 0}'
done
if command -v trace-cmd >/dev/null; then
	[ "$(trace-cmd report -i "$tmp/m.dat" 2>/dev/null | grep -c ' seq: ')" -eq $((N * T)) ]
fi

# 2. Bounded memory: a recording ten times larger does not need a recorder
# ten times larger (the old collector held everything until the end).
[ -x /usr/bin/time ] || { echo "skip memory check: no /usr/bin/time"; echo ok; exit 0; }
rss() { # events -> "maxrss_kb recorded file_bytes"
	/usr/bin/time -f '%M' -o "$tmp/rss" $UFT record -M discard -b 4096 -o "$tmp/r.dat" \
		-- "$B/bin/flood" "$1" 1 >"$tmp/rsum.txt" 2>/dev/null
	echo "$(tail -1 "$tmp/rss") $(awk '/^total:/{print $5}' "$tmp/rsum.txt") $(stat -c %s "$tmp/r.dat")"
}
read -r small_kb small_n _ < <(rss 200000)
read -r big_kb big_n big_bytes < <(rss 2000000)
echo "recorder: $small_n events in $small_kb KB, $big_n events ($big_bytes bytes) in $big_kb KB"
# Only meaningful when the big recording did get most of its events. A
# sanitizer's shadow memory and quarantine add tens of MB whatever the size,
# so there only the growth is checked, not the size against the file's.
if [ "$big_n" -ge 1000000 ]; then
	sanitizer_build || [ $((big_kb * 1024)) -lt "$big_bytes" ]
	[ "$big_kb" -lt $((small_kb * 2 + 16384)) ]
fi
echo ok
