#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record writes one trace clock into its file: while it reads a process's
# top buffer, writing another clock to trace_clock is refused (EBUSY, an
# error_log line) and the recording stays in one clock; instances keep theirs
# to change. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

start_recorded_server 2
ctl() { "$UFT" ctl -p "$pid" "$@"; }

ctl write trace_clock global 2>"$tmp/err" && fail "trace_clock changed while recorded"
grep_q -x 'uft: trace_clock: Device or resource busy' "$tmp/err" || fail "error: $(cat "$tmp/err")"
ctl cat trace_clock | grep_q '\[local\]' || fail "clock: $(ctl cat trace_clock)"
ctl cat error_log >"$tmp/log"
grep_q 'trace_clock: error: Clock cannot change while uft record reads this buffer' "$tmp/log" ||
	fail "error_log: $(cat "$tmp/log")"
grep_q '^  Command: global$' "$tmp/log" || fail "error_log command: $(cat "$tmp/log")"
ctl write trace_clock local || fail "the clock in use was refused"
ctl mkdir instances/i || fail "mkdir"
ctl write instances/i/trace_clock global || fail "an instance's clock was refused"
ctl rmdir instances/i

sleep 0.3
kill "$pid"
wait "$rec"
"$UFT" report -i "$tmp/x.dat" >"$tmp/report" 2>&1 || fail "report: $(tail -3 "$tmp/report")"
grep_q ' reply: n=' "$tmp/report" || fail "no events recorded: $(head -5 "$tmp/report")"
echo ok
