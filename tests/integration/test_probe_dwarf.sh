#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Probe args by DWARF name on a running process through its tree (uft ctl):
# libdw is not mapped until a definition uses a name; the names give the
# trace text of the register fetches they stand for; $arg*; a name the
# function does not have refused with the kernel's error_log line.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

TARGET=$B/tests/probe_target
start_live "$tmp/addr" "$TARGET"

ctl write -a dynamic_events 'p:rg parse_request path=+0(%di):string len=%si:u32' ||
	fail "define by registers"
grep_q 'libdw' "/proc/$pid/maps" && fail "libdw mapped before a name was used"
ctl write -a dynamic_events 'p:nm parse_request path=path:string len' || fail "define by names"
grep_q 'libdw' "/proc/$pid/maps" || fail "libdw not mapped for a name"
ctl write -a dynamic_events 'f:all parse_request $arg*' || fail "define \$arg*"
[ "$(ctl cat dynamic_events)" = "p:kprobes/rg parse_request path=+0(%di):string len=%si:u32
p:kprobes/nm parse_request path=path:string len=len
f:fprobes/all parse_request path=path len=len" ] || fail "listing: $(ctl cat dynamic_events)"
ctl cat events/fprobes/all/format | grep_q 'field:u32 len;' || fail "the type of len"

ctl write -a dynamic_events 'p:bad parse_request nosuch' 2>/dev/null && fail "unknown name taken"
ctl cat error_log | grep_q 'trace_kprobe: error: This variable is not found at this probe point' ||
	fail "error_log: $(ctl cat error_log)"

# One write enables (and disables) both kprobes: they see the same calls.
ctl write events/fprobes/enable 1 || fail "enable fprobes"
ctl write events/kprobes/enable 1 || fail "enable kprobes"
sleep 0.2
ctl write events/kprobes/enable 0 || fail "disable kprobes"
ctl write events/fprobes/enable 0 || fail "disable fprobes"
ctl cat trace >"$tmp/trace"
sed -n 's/.* rg: ([^)]*) //p' "$tmp/trace" >"$tmp/rg"
sed -n 's/.* nm: ([^)]*) //p' "$tmp/trace" >"$tmp/nm"
[ -s "$tmp/rg" ] || fail "no rg lines: $(head -5 "$tmp/trace")"
cmp -s "$tmp/rg" "$tmp/nm" || fail "names differ from registers: $(diff "$tmp/rg" "$tmp/nm" | head)"
grep_q '^path="/api/users" len=10$' "$tmp/nm" || fail "values: $(head -3 "$tmp/nm")"
grep_q 'all: (parse_request+0x0/0x[0-9a-f]*) path=0x[0-9a-f]* len=10$' "$tmp/trace" ||
	fail "\$arg* trace: $(grep all: "$tmp/trace" | head -3)"
ctl write dynamic_events '' || fail "delete all"
exit 0
