#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instruction-boundary probes on a running process through its tree (uft
# ctl), libuft as a shared library: a probe on libc's nanosleep (no sled) with
# a memory fetch, a uprobe by file offset on the call inside it (a relocated
# call), a return probe on nanosleep, the code bytes in the process patched
# and then equal to the file's,
# and a point that is not an instruction boundary refused with the kernel's
# error_log line. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

TARGET=$B/tests/probe_target
start_live "$tmp/addr" "$TARGET"
LIBC=$(awk '$6 ~ /\/libc\.so\.6$/ {print $6; exit}' "/proc/$pid/maps")
[ -n "$LIBC" ] || {
	echo "skip: no libc.so.6 in the target's maps"
	exit 77
}
# nanosleep's file offset, through the executable segment's header.
sym=$(readelf -Ws "$LIBC" | awk '$8 ~ /^nanosleep@@/ {print $2; exit}')
read -r seg_off seg_va < <(readelf -lW "$LIBC" | awk '$1 == "LOAD" && $8 == "E" {print $2, $3; exit}')
[ -n "$sym" ] && [ -n "$seg_off" ] || {
	echo "skip: cannot find nanosleep in $LIBC"
	exit 77
}
foff=$((0x$sym - seg_va + seg_off))
# The call to clock_nanosleep inside it (e8 rel32), by its file offset.
call_at=$(objdump -d --start-address=$((0x$sym)) --stop-address=$((0x$sym + 32)) "$LIBC" |
	awk '/\tcall / {sub(":", "", $1); print $1; exit}')
mem() { dd if="/proc/$pid/mem" bs=1 skip=$(($1)) count=8 status=none | od -A n -t x1; }
file() { dd if="$LIBC" bs=1 skip=$(($1)) count=8 status=none | od -A n -t x1; }

ctl write -a dynamic_events 'p:ns libc:nanosleep nsec=+8(%di):s64 ip=%ip:x64' || fail "define"
ctl write events/kprobes/ns/enable 1 || fail "enable"
if [ -n "$call_at" ]; then
	coff=$((0x$call_at - seg_va + seg_off))
	ctl write -a uprobe_events "$(printf 'p:nc %s:0x%x' "$LIBC" "$coff")" || fail "uprobe define"
	ctl write events/uprobes/nc/enable 1 || fail "uprobe enable"
fi
sleep 0.3
ctl cat trace >"$tmp/trace"
grep_q 'ns: (.*nanosleep+0x0/0x[0-9a-f]*) nsec=1000000 ip=0x' "$tmp/trace" ||
	fail "trace: $(head -20 "$tmp/trace")"
ip=$(awk '/ ns: / {sub(".*ip=", ""); print; exit}' "$tmp/trace")
[ -n "$ip" ] || fail "no ip"
case "$(mem "$ip")" in " e9"*) ;; *) fail "not patched: $(mem "$ip")" ;; esac
if [ -n "$call_at" ]; then
	grep_q ' nc: (0x[0-9a-f]*)$' "$tmp/trace" || fail "uprobe trace: $(head -20 "$tmp/trace")"
	cip=$((ip + 0x$call_at - 0x$sym))
	ctl write events/uprobes/nc/enable 0 || fail "uprobe disable"
	ctl write -a uprobe_events '-:nc' || fail "uprobe delete"
	[ "$(mem $cip)" = "$(file $coff)" ] || fail "call bytes: $(mem $cip) vs $(file $coff)"
fi

# A return probe on the same function (no sled): its return hooked from
# the same point, the entry's argument read at the return.
ctl write -a dynamic_events 'r:nsr libc:nanosleep ret=$retval:s32 req=$arg1:x64' ||
	fail "return probe define"
ctl write events/kprobes/nsr/enable 1 || fail "return probe enable"
sleep 0.3
ctl write events/kprobes/nsr/enable 0 || fail "return probe disable"
ctl cat trace >"$tmp/trace"
grep_q ' nsr: (.* <- [_a-z]*nanosleep) ret=0 req=0x[0-9a-f]*$' "$tmp/trace" ||
	fail "return probe trace: $(grep nsr "$tmp/trace" | head -5)"
ctl write -a dynamic_events '-:nsr' || fail "return probe delete"

# Not an instruction boundary: the kernel's errno and message.
ctl write -a kprobe_events 'p:bad libc:nanosleep+1' 2>/dev/null && fail "mid-instruction taken"
ctl cat error_log | grep_q 'trace_kprobe: error: Probe point is not an instruction boundary' ||
	fail "error_log: $(ctl cat error_log)"

ctl write events/kprobes/ns/enable 0 || fail "disable"
ctl write -a dynamic_events '-:ns' || fail "delete"
[ "$(mem "$ip")" = "$(file $foff)" ] || fail "code bytes: $(mem "$ip") vs the file's $(file $foff)"
exit 0
