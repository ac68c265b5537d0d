#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Buffer accounting through the recorder: with a buffer far too small, overwrite
# mode keeps the newest events and counts the rest as overruns, discard mode keeps
# the oldest and counts the rest as dropped; the counts add up exactly.
set -euo pipefail
B=${UFT_BUILD:-build}
UFT=$B/bin/uft
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
N=200000

summary() { grep '^total:' "$1" | sed -E 's/[^0-9]+/ /g'; }

# overwrite: written = recorded + overrun, nothing dropped, newest kept
$UFT record -M overwrite -b 16 -o "$tmp/o.dat" -- "$B/bin/flood" $N 2 >"$tmp/o.txt"
read -r w r o d _ <<<"$(summary "$tmp/o.txt")"
echo "overwrite: written=$w recorded=$r overrun=$o dropped=$d"
[ "$w" -eq $((2 * N)) ] || { echo "written $w != $((2 * N))"; exit 1; }
[ "$d" -eq 0 ] || { echo "dropped in overwrite mode"; exit 1; }
[ $((r + o)) -eq "$w" ] || { echo "recorded + overrun != written"; exit 1; }
[ "$o" -gt 0 ] || { echo "expected overruns with a 16 KiB buffer"; exit 1; }
$UFT report -i "$tmp/o.dat" >"$tmp/o.rep"
if command -v trace-cmd >/dev/null; then
	# the per-CPU stats trace-cmd shows add up to the summary's
	stat_o=$(trace-cmd report --stat -i "$tmp/o.dat" 2>/dev/null | awk '/^overrun:/{s+=$2} END{print s}')
	stat_r=$(trace-cmd report --stat -i "$tmp/o.dat" 2>/dev/null | awk '/^read events:/{s+=$3} END{print s}')
	[ "$stat_o" -eq "$o" ] && [ "$stat_r" -eq "$r" ] || { echo "--stat says $stat_o/$stat_r"; exit 1; }
fi
grep -q "entries-in-buffer/entries-written: $r/" "$tmp/o.rep"
# each thread's last event is kept (the newest survive)
for t in 0 1; do
	grep -q "seq: thread=$t n=$N\$" "$tmp/o.rep" || { echo "thread $t lost its newest event"; exit 1; }
done
# what is kept is a run of consecutive pages per thread: numbers only increase
awk '/ seq: /{split($NF,a,"="); split($(NF-1),t,"="); if (a[2] <= last[t[2]]) bad=1; last[t[2]]=a[2]}
     END{exit bad}' "$tmp/o.rep" || { echo "events out of order"; exit 1; }

# discard: written = recorded, no overrun, written + dropped = attempted, oldest kept
$UFT record -M discard -b 16 -o "$tmp/d.dat" -- "$B/bin/flood" $N 2 >"$tmp/d.txt"
read -r w r o d _ <<<"$(summary "$tmp/d.txt")"
echo "discard: written=$w recorded=$r overrun=$o dropped=$d"
[ "$o" -eq 0 ] || { echo "overrun in discard mode"; exit 1; }
[ "$w" -eq "$r" ] || { echo "written != recorded"; exit 1; }
[ $((w + d)) -eq $((2 * N)) ] || { echo "written + dropped != attempted"; exit 1; }
$UFT report -i "$tmp/d.dat" >"$tmp/d.rep"
if command -v trace-cmd >/dev/null; then
	stat_d=$(trace-cmd report --stat -i "$tmp/d.dat" 2>/dev/null | awk '/^dropped events:/{s+=$3} END{print s}')
	[ "$stat_d" -eq "$d" ] || { echo "--stat says $stat_d dropped"; exit 1; }
fi
for t in 0 1; do
	grep -q "seq: thread=$t n=1\$" "$tmp/d.rep" || { echo "thread $t lost its first event"; exit 1; }
done

# a big enough buffer loses nothing
$UFT record -M discard -b 65536 -o "$tmp/all.dat" -- "$B/bin/flood" $N 2 >"$tmp/all.txt"
read -r w r o d _ <<<"$(summary "$tmp/all.txt")"
[ "$w" -eq $((2 * N)) ] && [ "$r" -eq "$w" ] && [ "$d" -eq 0 ] || {
	echo "lost events with a large buffer: $(cat "$tmp/all.txt")"
	exit 1
}
if command -v trace-cmd >/dev/null; then
	n=$(trace-cmd report -i "$tmp/all.dat" 2>/dev/null | grep -c ' seq: ')
	[ "$n" -eq $((2 * N)) ] || { echo "trace-cmd sees $n events"; exit 1; }
fi
# a region that cannot give every thread a ring (16 rings of 1 GiB): the
# threads left without one are counted as dropped, the rest recorded whole
$UFT record -M discard -b 1048576 -o "$tmp/big.dat" -- "$B/bin/flood" 1000 20 >"$tmp/big.txt"
read -r w r o d _ <<<"$(summary "$tmp/big.txt")"
[ "$r" -eq "$w" ] && [ "$o" -eq 0 ] && [ "$d" -gt 0 ] && [ $((w + d)) -eq 20000 ] || {
	echo "threads without a ring: $(cat "$tmp/big.txt")"
	exit 1
}
# a buffer no thread ring can have is refused before the program runs
if $UFT record -b 2097152 -o "$tmp/huge.dat" -- "$B/bin/flood" 10 1 >"$tmp/huge.txt" 2>&1; then
	echo "-b 2097152 was accepted"
	exit 1
fi
grep -q 'larger than the 1048576 KiB a thread ring can have' "$tmp/huge.txt" ||
	{ echo "-b 2097152: $(cat "$tmp/huge.txt")"; exit 1; }
grep -q '^flood:' "$tmp/huge.txt" && { echo "the program ran"; exit 1; }
echo ok
