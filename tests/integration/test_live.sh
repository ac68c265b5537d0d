#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The live commands on a running process: start (events, filters, size, clock,
# options), stop, restart, show, stat, extract (read back by trace-cmd and by
# uft report), reset, and their errors. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

start_server
u() { "$UFT" "$@"; }
# Waits until the process's trace holds at least $1 reply events.
wait_events() {
	for _ in $(seq 200); do
		[ "$(u show -p "$pid" | grep -c ' reply: ')" -ge "$1" ] && return 0
		sleep 0.05
	done
	fail "fewer than $1 events in the trace"
}

# start: only the events given, with a filter on them.
u start -p "$pid" -e server:reply -f 'bytes < 150' -b 256 -C mono -O noirq-info || fail "start"
[ "$(u show -p "$pid" --tracing_on)" = 1 ] || fail "tracing_on after start"
[ "$(u show -p "$pid" --buffer_size)" = 256 ] || fail "buffer size after start"
u show -p "$pid" | grep_q '^#           TASK-PID     CPU#     TIMESTAMP  FUNCTION$' ||
	fail "irq-info not off"
u ctl -p "$pid" cat trace_clock | grep_q '\[mono\]' || fail "clock not mono"
wait_events 3
u show -p "$pid" | grep ' reply: ' | grep -v 'bytes=1[0-4][0-9]$' | grep_q . &&
	fail "the filter let other events through"
u stat -p "$pid" >"$tmp/stat" || fail "stat"
grep -q '^   server$' "$tmp/stat" && grep -q '^      reply$' "$tmp/stat" || fail "stat events"
grep -q '^  server:reply "bytes < 150"$' "$tmp/stat" || fail "stat filter: $(cat "$tmp/stat")"
grep -q '^Tracing is enabled$' "$tmp/stat" || fail "stat tracing"
grep -q '^   256$' "$tmp/stat" || fail "stat buffer size"

# stop and restart
u stop -p "$pid" || fail "stop"
[ "$(u show -p "$pid" --tracing_on)" = 0 ] || fail "tracing_on after stop"
n1=$(u show -p "$pid" | grep -c ' reply: ')
sleep 0.3
n2=$(u show -p "$pid" | grep -c ' reply: ')
[ "$n1" = "$n2" ] || fail "events recorded while stopped ($n1 -> $n2)"
u stat -p "$pid" | grep_q '^Tracing is disabled$' || fail "stat after stop"
u restart -p "$pid" || fail "restart"
wait_events $((n2 + 2))

# extract: the buffer into trace.dat, consumed; trace-cmd and uft report agree.
u extract -p "$pid" -o "$tmp/x.dat" >"$tmp/extract" || fail "extract"
grep -q "x.dat: [0-9]* bytes" "$tmp/extract" || fail "extract summary: $(cat "$tmp/extract")"
# Its kallsyms names the process's functions, for function tracer records.
grep -a -q -E '^[0-9a-f]{16} T main$' "$tmp/x.dat" || fail "extract: no 'T main' kallsyms line"
grep -a -q -E '	\[libc\.so\.6\]$' "$tmp/x.dat" || fail "extract: no libc kallsyms line"
u report -i "$tmp/x.dat" | grep ' reply: ' | sed 's/^.*: reply: //' >"$tmp/uft.txt"
[ -s "$tmp/uft.txt" ] || fail "extracted file has no events"
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$tmp/x.dat" 2>/dev/null | grep ' reply: ' |
		sed 's/^.*reply: *//' >"$tmp/tc.txt"
	cmp -s "$tmp/uft.txt" "$tmp/tc.txt" || fail "trace-cmd and uft report differ"
fi

# --compression zstd: a version 7 file with the events of the buffer.
wait_events 2
u extract -p "$pid" -o "$tmp/z.dat" --compression zstd >/dev/null || fail "extract --compression"
[ "$(head -c 11 "$tmp/z.dat" | tail -c 1)" = 7 ] ||
	fail "extract --compression did not write version 7"
u report -i "$tmp/z.dat" | grep_q ' reply: ' || fail "compressed extract has no events"
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$tmp/z.dat" 2>/dev/null | grep_q ' reply: ' ||
		fail "trace-cmd cannot read the compressed extract"
fi
u extract -p "$pid" -o "$tmp/bad.dat" --compression lz4 2>/dev/null && fail "--compression lz4 taken"
[ ! -e "$tmp/bad.dat" ] || fail "a refused extract wrote a file"

# 128 KiB sub-buffers: a 60000-byte marker is one record; extract reads
# pages larger than a protocol read in pieces and writes 128 KiB pages.
u ctl -p "$pid" write buffer_subbuf_size_kb 100 || fail "buffer_subbuf_size_kb"
[ "$(u ctl -p "$pid" cat buffer_subbuf_size_kb)" = 128 ] || fail "sub-buffer not rounded to 128"
u ctl -p "$pid" write buffer_subbuf_size_kb 0 2>/dev/null && fail "buffer_subbuf_size_kb 0 taken"
big=$(head -c 60000 /dev/zero | tr '\0' M)
u ctl -p "$pid" write trace_marker "$big" || fail "big marker"
u extract -p "$pid" -o "$tmp/big.dat" >"$tmp/extract" || fail "extract of 128 KiB pages"
u report -i "$tmp/big.dat" | grep_q "tracing_mark_write: $big\$" || fail "big marker not whole"
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$tmp/big.dat" 2>/dev/null | grep_q "tracing_mark_write: *$big\$" ||
		fail "trace-cmd: big marker not whole"
fi
u ctl -p "$pid" write buffer_subbuf_size_kb 16 || fail "buffer_subbuf_size_kb 16"

# Errors: exit 1 and the reason; nothing changes.
u start -p "$pid" -e nosuch 2>"$tmp/err" && fail "start -e nosuch succeeded"
grep -q "no event matches 'nosuch'" "$tmp/err" || fail "message: $(cat "$tmp/err")"
u start -p "$pid" -e server -f 'nosuch == 1' 2>"$tmp/err"
[ $? = 2 ] || fail "a bad filter did not exit 2"
grep -q 'Field not found' "$tmp/err" && grep -q 'Command: nosuch == 1' "$tmp/err" ||
	fail "bad filter message: $(cat "$tmp/err")"
u show -p 1 2>"$tmp/err" && fail "show -p 1 succeeded"
u show -p "$pid" -B nosuch 2>"$tmp/err" && fail "show of a missing instance succeeded"

# An instance, then reset: events off, defaults back, instances gone.
u ctl -p "$pid" mkdir instances/live || fail "mkdir"
u start -p "$pid" -B live -e server || fail "start -B"
u show -p "$pid" -B live --tracing_on | grep_q -x 1 || fail "instance tracing_on"
u ctl -p "$pid" write set_ftrace_filter main || fail "set_ftrace_filter"
u ctl -p "$pid" write max_graph_depth 3 || fail "max_graph_depth"
u ctl -p "$pid" write tracing_cpumask 0 || fail "tracing_cpumask"
u ctl -p "$pid" write per_cpu/cpu0/buffer_size_kb 8 || fail "per-CPU buffer_size_kb"
u ctl -p "$pid" write options/stacktrace 1 || fail "options/stacktrace"
# Triggers, hists that use each other's variables, a synthetic event they
# feed, and a function command: reset removes them in an order the tree takes.
u ctl -p "$pid" write synthetic_events 'replygap u64 gap' || fail "synthetic event"
u ctl -p "$pid" write -a events/server/reply/trigger \
	'hist:keys=common_pid:ts0=common_timestamp.usecs' || fail "hist with a variable"
u ctl -p "$pid" write -a events/ftrace/print/trigger \
	'hist:keys=common_pid:gap=common_timestamp.usecs-$ts0:onmatch(server.reply).trace(replygap,$gap)' ||
	fail "onmatch hist"
u ctl -p "$pid" write -a events/server/reply/trigger 'traceoff if bytes > 100000' ||
	fail "traceoff trigger"
u ctl -p "$pid" write -a instances/live/events/server/reply/trigger 'hist:keys=bytes' ||
	fail "instance hist"
u ctl -p "$pid" write -a set_ftrace_filter 'main:traceoff' || fail "function command"
u reset -p "$pid" -B live 2>"$tmp/err" || fail "reset -B: $(cat "$tmp/err")"
u ctl -p "$pid" cat instances/live/events/server/reply/trigger | grep_q -v '^#' &&
	fail "instance hist after reset -B"
u ctl -p "$pid" write -a instances/live/events/server/reply/trigger 'hist:keys=bytes' ||
	fail "instance hist again"
u reset -p "$pid" || fail "reset"
for ev in server/reply ftrace/print; do
	u ctl -p "$pid" cat events/$ev/trigger | grep_q -v '^#' &&
		fail "triggers of $ev after reset: $(u ctl -p "$pid" cat events/$ev/trigger)"
done
[ -z "$(u ctl -p "$pid" cat synthetic_events)" ] || fail "synthetic events after reset"
[ "$(u ctl -p "$pid" cat set_ftrace_filter)" = "#### all functions enabled ####" ] ||
	fail "set_ftrace_filter after reset: $(u ctl -p "$pid" cat set_ftrace_filter)"
[ "$(u ctl -p "$pid" cat max_graph_depth)" = 0 ] || fail "max_graph_depth after reset"
ncpu=$(getconf _NPROCESSORS_CONF)
if [ "$ncpu" -le 32 ]; then
	[ "$(u ctl -p "$pid" cat tracing_cpumask)" = "$(printf %x $(((1 << ncpu) - 1)))" ] ||
		fail "tracing_cpumask after reset: $(u ctl -p "$pid" cat tracing_cpumask)"
fi
[ "$(u ctl -p "$pid" cat options/stacktrace)" = 0 ] || fail "options/stacktrace after reset"
[ "$(u ctl -p "$pid" cat per_cpu/cpu0/buffer_size_kb)" = 1024 ] || fail "per-CPU size after reset"
[ "$(u ctl -p "$pid" cat buffer_subbuf_size_kb)" = 4 ] || fail "sub-buffer size after reset"
[ -z "$(u ctl -p "$pid" cat set_event)" ] || fail "events still enabled after reset"
[ "$(u show -p "$pid" --buffer_size)" = 1024 ] || fail "buffer size after reset"
u ctl -p "$pid" cat trace_clock | grep_q '\[local\]' || fail "clock after reset"
[ -z "$(u ctl -p "$pid" ls instances)" ] || fail "instances left after reset"
[ "$(u show -p "$pid" | grep -c ' reply: ')" = 0 ] || fail "trace not empty after reset"
exit 0
