#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record's summary adds up while the live tree works on the recorded
# buffer: clears (`echo > trace`), consuming trace_pipe reads and
# buffer_size_kb changes (new rings) during the recording. Written is
# recorded plus overrun, and the CPU lines add up to the total line.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

start_recorded_server 1
ctl() { "$UFT" ctl -p "$pid" "$@"; }
for i in 1 2 3 4; do
	sleep 0.2
	ctl write trace "" || fail "clear"
	sleep 0.2
	timeout -s INT 0.3 "$UFT" ctl -p "$pid" pipe trace_pipe >/dev/null
	ctl write buffer_size_kb $((100 + i)) || fail "buffer_size_kb"
done
sleep 0.2
kill "$pid"
wait "$rec"

read -r w r o d _ <<<"$(grep '^total:' "$tmp/rec.out" | sed -E 's/[^0-9]+/ /g')"
[ -n "$w" ] || fail "no summary: $(cat "$tmp/rec.out")"
[ "$w" -eq $((r + o)) ] || fail "written $w != recorded $r + overrun $o: $(cat "$tmp/rec.out")"
[ "$o" -gt 0 ] || fail "the clears and pipe reads cost nothing: $(cat "$tmp/rec.out")"
ev=0 ov=0 dr=0
while read -r e v x; do
	ev=$((ev + e)) ov=$((ov + v)) dr=$((dr + x))
done < <(grep '^CPU[0-9]*:' "$tmp/rec.out" | sed -E 's/^CPU[0-9]+: //; s/[^0-9]+/ /g')
[ "$ev" -eq "$r" ] && [ "$ov" -eq "$o" ] && [ "$dr" -eq "$d" ] ||
	fail "CPU lines ($ev, $ov, $dr) differ from the total ($r, $o, $d): $(cat "$tmp/rec.out")"
n=$("$UFT" report -i "$tmp/x.dat" | grep -c ' reply: n=')
[ "$n" -eq "$r" ] || fail "report shows $n events, the summary $r"
echo "written=$w recorded=$r overrun=$o"
echo ok
