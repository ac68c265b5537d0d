#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Dynamic probes on a running process through its tree (uft ctl): a probe on
# a sled function with string and register args, the calls in `trace`, a
# filter and a hist on its fields, the kernel's errors, a return probe,
# deletion, and the function's code bytes back as they were. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

TARGET=$B/tests/probe_target
start_live "$tmp/addr" "$TARGET"
# The function's first bytes (its sled), from the process's memory.
addr=$(cat "$tmp/addr")
[ -n "$addr" ] || fail "no address printed"
code() { dd if="/proc/$pid/mem" bs=1 skip=$((0x$addr)) count=5 status=none | od -A n -t x1; }
before=$(code)
[ -n "$before" ] || {
	echo "skip: /proc/$pid/mem is not readable here"
	exit 77
}

ctl write -a dynamic_events 'p:myprobe parse_request path=+0(%di):string len=%si:u32' ||
	fail "define"
[ "$(ctl cat dynamic_events)" = "p:kprobes/myprobe parse_request path=+0(%di):string len=%si:u32" ] ||
	fail "listing: $(ctl cat dynamic_events)"
ctl cat events/kprobes/myprobe/format | grep_q '__data_loc char\[\] path;' || fail "format"
ctl write events/kprobes/myprobe/enable 1 || fail "enable"
[ "$(code)" != "$before" ] || fail "the sled was not patched"
sleep 0.2
ctl cat trace >"$tmp/trace"
grep_q 'myprobe: (parse_request+0x0/0x[0-9a-f]*) path="/api/users" len=10$' "$tmp/trace" ||
	fail "trace: $(head -20 "$tmp/trace")"
grep_q 'path="/static/app.js" len=14$' "$tmp/trace" || fail "second path"

# A filter on a probe field, and a hist keyed on one.
ctl write events/kprobes/myprobe/filter 'len > 5' || fail "filter"
ctl write events/kprobes/myprobe/trigger 'hist:keys=path' || fail "hist"
ctl write trace '' || fail "clear"
sleep 0.2
ctl cat trace >"$tmp/trace"
grep_q 'len=10$' "$tmp/trace" || fail "filter dropped everything"
grep_q 'len=1$' "$tmp/trace" && fail "filter let len=1 through"
ctl cat events/kprobes/myprobe/hist | grep_q '{ path: /api/users *} hitcount: *[1-9]' ||
	fail "hist: $(ctl cat events/kprobes/myprobe/hist)"

# Busy while enabled; the kernel's errno and error_log line for bad lines.
ctl write -a dynamic_events '-:myprobe' 2>/dev/null && fail "deleted while enabled"
ctl write -a kprobe_events 'p:bad parse_request x=%zz' 2>/dev/null && fail "bad register taken"
ctl cat error_log | grep_q 'trace_kprobe: error: Invalid register name' || fail "error_log"

# A return probe on the same sled: the return value, $argN read at the
# return from the registers saved at the entry, the kernel's text.
ctl write -a kprobe_events 'r:rp parse_request ret=$retval:u32 p=+0($arg1):string' ||
	fail "return probe"
ctl write events/kprobes/rp/enable 1 || fail "enable rp"
ctl write trace '' || fail "clear"
sleep 0.2
ctl cat trace >"$tmp/trace"
grep_q 'rp: (main+0x[0-9a-f]*/0x[0-9a-f]* <- parse_request) ret=10 p="/api/users"$' "$tmp/trace" ||
	fail "return trace: $(head -20 "$tmp/trace")"
ctl write events/kprobes/rp/enable 0 || fail "disable rp"
ctl write -a kprobe_events '-:rp' || fail "delete rp"

ctl write events/kprobes/myprobe/trigger '!hist:keys=path' || fail "hist off"
ctl write events/kprobes/myprobe/enable 0 || fail "disable"
ctl write -a dynamic_events '-:myprobe' || fail "delete"
[ -z "$(ctl cat dynamic_events)" ] || fail "listing after delete"
ctl ls events | grep_q '^kprobes/$' && fail "events/kprobes left"
after=$(code)
[ "$before" = "$after" ] || fail "code bytes: '$before' then '$after'"
exit 0
