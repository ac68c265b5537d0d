#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The process tracer's format texts (src/proctrace/proc_events.c and the
# generated syscall table) equal the running kernel's format files, ID line
# aside: the sched, raw_syscalls and signal events, and a spread of syscalls
# (no arguments, six, strings, pointers to pointers, renamed ones such as
# newstat). The documented additions (design/process-tracer.md, "Formats and
# the syscall table") are the only differences: the `__NAME_val` string fields
# after the kernel's fields, at the offsets that follow them, and the print
# fmts (names of flags, symbols, errors and calls); a syscall entry without a
# decoded argument keeps the kernel's print fmt. Skips when the kernel's
# tracefs is not readable.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
RUN=$B/tests/proctrace_run
need "$RUN"
T=${TRACEFS:-/sys/kernel/tracing}
[ -r "$T/events/syscalls/sys_enter_openat/format" ] || {
	echo "skip: the kernel's tracefs ($T) is not readable"
	exit 77
}
# extra FILE: the lines that are ours only, checked and printed to stdout;
# fields FILE: the format without them and without the print fmt.
extra() { grep -E $'^\tfield:__data_loc char\[\] __[a-z_0-9]+_val;|^print fmt: ' "$1"; }
fields() { grep -vE $'^\tfield:__data_loc char\[\] __[a-z_0-9]+_val;|^print fmt: |^ID: ' "$1"; }
# vals FILE: each __NAME_val names a string argument NAME of the format and
# sits 4 bytes after the previous field, the first right after the arguments.
vals() {
	awk -F'\t' '/^\tfield:/ {
		split($3, o, ":"); split($4, z, ":"); sub(/;/, "", o[2]); sub(/;/, "", z[2])
		d = $2; sub(/^field:/, "", d); sub(/;$/, "", d); nm = d; sub(/.* /, "", nm)
		if (nm ~ /^__.*_val$/) {
			a = substr(nm, 3, length(nm) - 6)
			if (!(a in str)) { print "not a string argument: " nm; bad = 1 }
			if (o[2] != end) { print nm " at " o[2] ", not " end; bad = 1 }
		} else if (d ~ /^(const )?char \* /) str[nm] = 1
		end = o[2] + z[2]
	} END { exit bad }' "$1"
}
n=0
for ev in sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit \
	raw_syscalls:sys_enter raw_syscalls:sys_exit signal:signal_generate signal:signal_deliver \
	syscalls:sys_enter_openat syscalls:sys_exit_openat syscalls:sys_enter_read \
	syscalls:sys_enter_getppid syscalls:sys_enter_mmap syscalls:sys_enter_execve \
	syscalls:sys_enter_newstat syscalls:sys_enter_clone3 syscalls:sys_enter_rt_sigaction \
	syscalls:sys_enter_exit_group syscalls:sys_exit_exit_group syscalls:sys_enter_sendfile64 \
	syscalls:sys_enter_umount syscalls:sys_enter_io_uring_setup syscalls:sys_exit_wait4; do
	f=$T/events/${ev%%:*}/${ev#*:}/format
	[ -r "$f" ] || continue
	"$RUN" -F "$ev" >"$tmp/ours" || fail "no format for $ev"
	fields "$tmp/ours" >"$tmp/o"
	fields "$f" >"$tmp/k"
	diff -u "$tmp/k" "$tmp/o" || fail "$ev: the kernel's fields differ"
	vals "$tmp/ours" || fail "$ev: a __NAME_val field out of place"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || {
	echo "skip: only $n of the events are in this kernel's tracefs"
	exit 77
}
# every syscall of the table with an event here: the same field lines
"$RUN" -A "$tmp/all" || fail "no formats written"
# one awk pass per side: each file under its event's name, ID lines left out
# one awk pass per side: each file under its event's name, the additions
# and ID lines left out
strip() {
	awk 'FNR == 1 {n = split(FILENAME, p, "/"); print "== " p[n - 1]}
	!/^ID: / && !/^print fmt: / && !/^\tfield:__data_loc char\[\] __[a-z_0-9]+_val;/' "$@"
}
evs=$(cd "$tmp/all/syscalls" && ls)
for ev in $evs; do
	[ -r "$T/events/syscalls/$ev/format" ] || fail "$ev is not an event of this kernel"
done
strip $(for ev in $evs; do echo "$T/events/syscalls/$ev/format"; done) >"$tmp/k.all"
strip $(for ev in $evs; do echo "$tmp/all/syscalls/$ev/format"; done) >"$tmp/o.all"
diff -u "$tmp/k.all" "$tmp/o.all" | head -40
bad=$(diff "$tmp/k.all" "$tmp/o.all" | grep -c '^[<>]')
[ "$bad" = 0 ] || fail "$bad lines of the syscall formats differ from the kernel's"
nval=0 same=0
for ev in $evs; do
	o=$tmp/all/syscalls/$ev/format
	vals "$o" || fail "$ev: a __NAME_val field out of place"
	grep_q '_val;' "$o" && nval=$((nval + 1))
	# an entry with nothing decoded prints as the kernel's
	case $ev in sys_enter_*) ;; *) continue ;; esac
	grep_q '__print_\|__get_str' "$o" && continue
	[ "$(grep '^print fmt: ' "$o")" = "$(grep '^print fmt: ' "$T/events/syscalls/$ev/format")" ] ||
		fail "$ev: the print fmt differs from the kernel's"
	same=$((same + 1))
done
[ "$nval" -ge 50 ] || fail "only $nval syscall events read strings"
grep_q '__get_str(__filename_val)' "$tmp/all/syscalls/sys_enter_openat/format" ||
	fail "openat's print fmt shows no file name"
echo "proctrace formats: ok ($n named, $(echo $evs | wc -w) syscall events, $nval with strings, $same as the kernel prints them)"
