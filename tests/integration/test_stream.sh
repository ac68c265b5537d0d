#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft stream: the lines it prints while a program runs are the lines uft
# report prints of a uft record of the same run (event and function_graph
# lines, timestamps, pids and durations aside); a setting libuft cannot apply
# stops it before main with exit 2 and no output; SIGINT stops it with the
# events so far printed; the loss summary of a tiny buffer. Exit 0 pass, 77
# skip, else fail.
source "$(dirname "$0")/lib/file.sh"
FLOOD=$B/bin/flood
KILLME=$B/bin/killme
need "$FLOOD" "$KILLME"

# Event lines as "COMM FLAGS BODY": pid, CPU and timestamp dropped (which
# CPU a thread runs on is the scheduler's choice).
norm() { grep -E ' \[[0-9]+\] ' "$@" | sed -E 's/^ *(.*)-[0-9]+ +\[[0-9]+\] +([^ ]+) +[0-9.]+: /\1 \2 /'; }

# ---- events, filtered: the same lines as record + report ----
"$UFT" stream -e flood:seq -f 'n > 1715' -- "$FLOOD" 2000 >"$tmp/s.out" 2>"$tmp/s.err" ||
	fail "uft stream exited $?: $(cat "$tmp/s.err")"
[ ! -s "$tmp/s.err" ] || fail "uft stream said: $(cat "$tmp/s.err")"
"$UFT" record -q -o "$tmp/r.dat" -e flood:seq -f 'n > 1715' -- "$FLOOD" 2000 >/dev/null \
	2>"$tmp/r.err" || fail "uft record exited $?: $(cat "$tmp/r.err")"
"$UFT" report -i "$tmp/r.dat" >"$tmp/r.txt" || fail "uft report exited $?"
norm "$tmp/s.out" >"$tmp/s.norm"
norm "$tmp/r.txt" >"$tmp/r.norm"
[ "$(wc -l <"$tmp/s.norm")" -eq 285 ] || fail "$(wc -l <"$tmp/s.norm") lines streamed, want 285"
diff "$tmp/r.norm" "$tmp/s.norm" >"$tmp/d" || fail "stream and report differ: $(head "$tmp/d")"
grep_q -x 'flood: 2000 events from 1 thread' "$tmp/s.out" || fail "the program's own output"
grep_q '^#' "$tmp/s.out" && fail "a header in trace_pipe output"

# ---- in time order across threads and drains ----
"$UFT" stream -q -e flood:seq -- "$FLOOD" 2000 2 >"$tmp/t.out" 2>"$tmp/t.err" ||
	fail "uft stream (2 threads) exited $?: $(cat "$tmp/t.err")"
[ "$(grep -c ' seq: ' "$tmp/t.out")" -eq 4000 ] || fail "2 threads: $(grep -c ' seq: ' "$tmp/t.out") events"
grep ' seq: ' "$tmp/t.out" | awk '{ ts = $4 + 0; if (ts < last) bad = 1; last = ts } END { exit bad }' ||
	fail "2 threads: not in time order"

# ---- the checks before main: exit 2, nothing run, nothing printed ----
"$UFT" stream -e flood:no_such -- "$FLOOD" 10 >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
[ $rc = 2 ] || fail "a bad -e exited $rc, want 2"
[ ! -s "$tmp/b.out" ] || fail "a bad -e printed: $(cat "$tmp/b.out")"
grep_q "uft stream: no event matches 'flood:no_such'" "$tmp/b.err" || fail "bad -e: $(cat "$tmp/b.err")"
"$UFT" stream -e flood:seq -f 'nosuchfield == 1' -- "$FLOOD" 10 >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
[ $rc = 2 ] || fail "a bad -f exited $rc, want 2"
[ ! -s "$tmp/b.out" ] || fail "a bad -f printed: $(cat "$tmp/b.out")"
"$UFT" stream -o x -- true >/dev/null 2>&1 && fail "-o taken"
"$UFT" stream -- /no/such/program >/dev/null 2>"$tmp/b.err"
[ $? = 2 ] || fail "a missing program: not exit 2"

# ---- SIGINT: stops the program and the streaming, the events so far printed ----
"$UFT" stream -e killme:seq -- "$KILLME" 0 "$tmp/progress" 20000 >"$tmp/k.out" 2>"$tmp/k.err" &
pid=$!
for _ in $(seq 200); do
	[ -s "$tmp/progress" ] && [ "$(awk '{ print $2 }' "$tmp/progress")" -ge 30000 ] && break
	sleep 0.05
done
[ -s "$tmp/progress" ] || fail "killme made no progress: $(cat "$tmp/k.err")"
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "after SIGINT: exit $rc, want 130 ($(cat "$tmp/k.err"))"
last=$(awk '{ print $2 }' "$tmp/progress")
n=$(grep -c ' seq: n=' "$tmp/k.out")
[ "$n" -ge "$last" ] || fail "after SIGINT: $n events printed, $last were committed"
grep -E ' seq: n=[0-9]+$' "$tmp/k.out" | sed 's/.*n=//' | awk '$1 != NR { bad = 1 } END { exit bad }' ||
	fail "after SIGINT: the events printed are not n=1.. in order"

# ---- a tiny buffer: the loss summary on stderr ----
"$UFT" stream -b 4 -e flood:seq -- "$FLOOD" 200000 >"$tmp/l.out" 2>"$tmp/l.err" ||
	fail "uft stream -b 4 exited $?"
grep_q -E '^uft stream: lost [0-9]+ of 200000 events' "$tmp/l.err" || fail "no loss line: $(cat "$tmp/l.err")"
grep_q 'uft stream: to keep them: a larger buffer' "$tmp/l.err" || fail "no remedy line"
grep_q 'LOST' "$tmp/l.out" || fail "no lost-events line among the events"

# ---- function_graph, with an event as a comment inside the graph ----
graph() { # the lines with CPU and duration dropped
	grep -E '^ *[0-9]+\) ' "$@" | sed -E 's/^ *[0-9]+\) +//; s/^[!*#@$+]? *[0-9.]+ us +\|/|/; s/^ +\|/|/'
}
"$UFT" stream -p function_graph -g flood -e flood:seq -- "$FLOOD" 3 >"$tmp/g.out" 2>"$tmp/g.err" ||
	fail "uft stream -p function_graph exited $?: $(cat "$tmp/g.err")"
if grep -q "current_tracer: cannot set\|cannot add" "$tmp/g.err"; then
	echo "skip: the function tracer runtime does not accept function_graph here ($(head -1 "$tmp/g.err"))"
	exit 77
fi
"$UFT" record -q -o "$tmp/g.dat" -p function_graph -g flood -e flood:seq -- "$FLOOD" 3 \
	>/dev/null 2>&1 || fail "uft record -p function_graph"
"$UFT" report -i "$tmp/g.dat" >"$tmp/g.txt" || fail "uft report (graph)"
graph "$tmp/g.out" >"$tmp/g.s"
graph "$tmp/g.txt" >"$tmp/g.r"
grep_q -x '|  flood() {' "$tmp/g.s" || fail "no 'flood() {' streamed: $(cat "$tmp/g.out")"
grep_q -x '|  /\* seq: thread=0 n=3 \*/' "$tmp/g.s" || fail "no event comment streamed: $(cat "$tmp/g.out")"
diff "$tmp/g.r" "$tmp/g.s" >"$tmp/d" || fail "graph: stream and report differ: $(head "$tmp/d")"
echo "stream: ok"
