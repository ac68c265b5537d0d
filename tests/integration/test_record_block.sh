#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record's default mode, block: a writer whose ring is full waits for the
# recorder instead of overwriting, so a program writing as fast as it can,
# with a signal handler and a forked child writing too, loses nothing with
# the default settings and with a tiny ring (the counts are exact); the waits
# are counted in the summary. Stopped mid-run, the recorder costs each ring
# one bounded wait, then the ring overwrites (counted); killed mid-run, it
# leaves the program to finish normally (its writers stop waiting). Exit 0
# pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
BW=$B/tests/block_writer
need "$BW"

# "total: W events written, R recorded, O overrun, D dropped" -> W R O D
totals() { sed -nE 's/^total: ([0-9]+) events written, ([0-9]+) recorded, ([0-9]+) overrun, ([0-9]+) dropped.*/\1 \2 \3 \4/p' "$1"; }

# record NAME WANT_PER_CALL ARGS...: records block_writer N with ARGS, checks
# that every event is there: calls * WANT_PER_CALL (+ the handler's events
# when WANT_PER_CALL is 1, UFT_TRACE events).
record() {
	local name=$1 per=$2
	shift 2
	"$UFT" record -o "$tmp/$name.dat" "$@" -- "$BW" "$N" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		fail "uft record $*: exit $?: $(cat "$tmp/$name.err")"
	read -r _ calls _ sigs <<<"$(grep '^calls ' "$tmp/$name.out")"
	[ -n "${calls:-}" ] || fail "$name: the program did not finish: $(cat "$tmp/$name.out")"
	local want=$((calls * per))
	[ "$per" = 1 ] && want=$((want + sigs))
	read -r w r o d <<<"$(totals "$tmp/$name.out")"
	echo "$name: want $want ($sigs signals): $(grep -E '^(total|waits):' "$tmp/$name.out" | tr '\n' ' ')"
	[ "${w:-}" = "$want" ] && [ "$r" = "$want" ] && [ "$o" = 0 ] && [ "$d" = 0 ] ||
		fail "$name: want $want written and recorded, nothing lost: $(cat "$tmp/$name.out" "$tmp/$name.err")"
	! grep -q 'lost' "$tmp/$name.err" || fail "$name: $(cat "$tmp/$name.err")"
}

N=400000
# The defaults (1 MiB rings), then rings of 16 KiB: the writer outruns the
# recorder and must wait for it, which the summary counts.
record default 1 -e 'blk:*'
record small 1 -e 'blk:*' -b 16
grep -qE '^waits: [1-9][0-9]* for the recorder on a full buffer, [0-9]+ of them ran out$' \
	"$tmp/small.out" || fail "no waits counted with 16 KiB rings: $(cat "$tmp/small.out")"
# Every event of the tiny-ring run is in the file, each once.
"$UFT" report -i "$tmp/small.dat" >"$tmp/small.rep" || fail "uft report of small.dat"
seqs=$(grep -c ' seq: n=' "$tmp/small.rep")
[ "$seqs" = $((N + N / 4)) ] || fail "small.dat: $seqs seq events, want $((N + N / 4))"
# The function_graph tracer, two records per call of step().
if "$UFT" record -q -p function_graph -l step -o "$tmp/probe.dat" -- "$BW" 10 >/dev/null 2>"$tmp/probe.err" &&
	! grep -q "cannot set\|cannot add" "$tmp/probe.err"; then
	record graph 2 -p function_graph -l step
	record graph_small 2 -p function_graph -l step -b 16
else
	echo "function_graph not available here: $(head -1 "$tmp/probe.err")"
fi
# -M overwrite keeps the old behaviour: a tiny ring overwrites, no waits.
"$UFT" record -M overwrite -b 16 -e 'blk:*' -o "$tmp/ow.dat" -- "$BW" $N >"$tmp/ow.out" 2>&1 ||
	fail "uft record -M overwrite: $(cat "$tmp/ow.out")"
read -r w r o d <<<"$(totals "$tmp/ow.out")"
[ "$o" -gt 0 ] && [ $((r + o)) = "$w" ] || fail "-M overwrite -b 16: $(cat "$tmp/ow.out")"
! grep -q '^waits:' "$tmp/ow.out" || fail "-M overwrite counted waits"

# The recorder stopped (SIGSTOP) mid-run, after the child registered: each
# ring's writer waits for it once, at most a second, then overwrites, so
# the program finishes while the recorder is still stopped; resumed, the
# recorder counts the waits that ran out and what was overwritten.
big=$((N * 10))
"$UFT" record -b 16 -e 'blk:*' -o "$tmp/s.dat" -- "$BW" $big "$tmp/sprog" "$tmp/sdone" \
	>"$tmp/s.out" 2>&1 &
rec=$!
for _ in $(seq 600); do
	at=0
	[ -s "$tmp/sprog" ] && read -r _ at <"$tmp/sprog"
	[ "${at:-0}" -gt $((big / 2 + 100000)) ] && break
	sleep 0.05
done
[ "${at:-0}" -gt $((big / 2 + 100000)) ] || fail "block_writer did not pass its fork: $(cat "$tmp/s.out")"
kill -STOP $rec
for _ in $(seq 600); do
	[ -s "$tmp/sdone" ] && break
	sleep 0.1
done
kill -CONT $rec
[ -s "$tmp/sdone" ] || fail "block_writer did not finish while the recorder was stopped"
wait $rec || fail "uft record exited $? after SIGCONT: $(cat "$tmp/s.out")"
read -r w r o d <<<"$(totals "$tmp/s.out")"
read -r _ calls _ sigs <"$tmp/sdone"
echo "stopped at call $at of $big: $(grep -E '^(total|waits):' "$tmp/s.out" | tr '\n' ' ')"
[ "$w" = $((calls + sigs)) ] && [ $((r + o)) = "$w" ] && [ "$o" -gt 0 ] && [ "$d" = 0 ] ||
	fail "recorder stopped: want $((calls + sigs)) written = recorded + overrun, overrun > 0: $(cat "$tmp/s.out")"
grep -qE '^waits: [0-9]+ for the recorder on a full buffer, [1-9][0-9]* of them ran out$' "$tmp/s.out" ||
	fail "no wait that ran out counted: $(cat "$tmp/s.out")"

# The recorder killed mid-run: the program (writers waiting on a 16 KiB
# ring) goes on and exits normally, with its child.
big=$((N * 20))
"$UFT" record -b 16 -e 'blk:*' -o "$tmp/k.dat" -- "$BW" $big "$tmp/progress" "$tmp/done" \
	>"$tmp/k.out" 2>&1 &
rec=$!
for _ in $(seq 400); do
	[ -s "$tmp/progress" ] && break
	sleep 0.05
done
[ -s "$tmp/progress" ] || fail "block_writer never reported progress: $(cat "$tmp/k.out")"
read -r pid at <"$tmp/progress"
kill -KILL $rec
wait $rec 2>/dev/null
# No timing is asserted: the wait below only bounds a hang (minutes).
for _ in $(seq 1200); do
	[ -s "$tmp/done" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
[ -s "$tmp/done" ] || fail "block_writer (pid $pid, at $at of $big) did not finish after the recorder was killed"
grep -q "^calls $((big + big / 4)) " "$tmp/done" || fail "done: $(cat "$tmp/done")"
echo "recorder killed at call $at of $big: the program finished ($(cat "$tmp/done"))"
echo "PASS"
