#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A trace_marker write records the process's pid (the writer is another
# process: the tree serves it from a door thread of its own). With no event
# of its main thread in the buffer, the pid is still named by the program:
# in saved_cmdlines (what trace-cmd extract reads) and in the trace.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

start_server
"$UFT" ctl -p "$pid" write trace_marker "hello from outside" || fail "marker write refused"
"$UFT" ctl -p "$pid" cat saved_cmdlines >"$tmp/cmdlines" || fail "saved_cmdlines unreadable"
grep_q -x "$pid server" "$tmp/cmdlines" || fail "saved_cmdlines: $(cat "$tmp/cmdlines")"
"$UFT" ctl -p "$pid" cat trace >"$tmp/trace"
grep_q -E "^ +server-$pid +\[[0-9]{3}\] .{5} +[0-9.]+: tracing_mark_write: hello from outside$" \
	"$tmp/trace" || fail "trace: $(cat "$tmp/trace")"
echo ok
