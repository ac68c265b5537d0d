#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The process tracer's decoded text (design/process-tracer.md, "Formats and
# the syscall table"): a program opening an existing and a missing file, an
# mmap and a kill, recorded with uft record -p process, read back byte for
# byte by uft report, and trace-cmd report printing the same lines. With the
# ptrace backend the paths are read from the tracee; with the kernel backend
# (when usable) the same format shows them empty. Exit 0 pass, 77 skip.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/proc.sh"
source "$(dirname "$0")/lib/tracecmd.sh"
P=$B/tests/pt_decode_prog
need "$P" "$RUN"
need_ptrace
missing=$tmp/no/such-file

# check BACKEND: records the program and compares its lines with the ones
# built from what it printed (paths shown when `read` is 1).
check() {
	local backend=$1 read=$2 f=$tmp/$1.dat
	"$UFT" record -q -p process --backend "$backend" --syscalls openat,mmap,kill -o "$f" \
		-- "$P" /etc/hostname "$missing" >"$tmp/out" 2>"$tmp/err" ||
		fail "$backend: uft record exited $?: $(cat "$tmp/err")"
	local file fd map pid fname=/etc/hostname mname=$missing
	file=$(sed -E 's/.*file=([0-9a-f]+).*/\1/' "$tmp/out")
	missing_at=$(sed -E 's/.*missing=([0-9a-f]+).*/\1/' "$tmp/out")
	fd=$(sed -E 's/.*fd=([0-9]+).*/\1/' "$tmp/out")
	map=$(sed -E 's/.*map=([0-9a-f]+).*/\1/' "$tmp/out")
	pid=$(sed -E 's/.*pid=([0-9]+).*/\1/' "$tmp/out")
	[ -n "$pid" ] && [ -n "$map" ] || fail "$backend: the program printed $(cat "$tmp/out")"
	[ "$read" = 1 ] || fname='' mname=''
	cat >"$tmp/want" <<-W
		sys_enter: NR 257 openat (ffffffffffffff9c, $file, 80000, 0, X, X)
		sys_enter_openat: dfd: AT_FDCWD, filename: 0x$file "$fname", flags: O_RDONLY|O_CLOEXEC, mode: 0x00000000
		sys_exit: NR 257 openat = $fd
		sys_exit_openat: $fd
		sys_enter: NR 257 openat (ffffffffffffff9c, $missing_at, 20401, 0, X, X)
		sys_enter_openat: dfd: AT_FDCWD, filename: 0x$missing_at "$mname", flags: O_WRONLY|O_APPEND|O_NOFOLLOW, mode: 0x00000000
		sys_exit: NR 257 openat = -2 (ENOENT)
		sys_exit_openat: -2 (ENOENT)
		sys_enter: NR 9 mmap (0, 2000, 3, 22, ffffffffffffffff, 0)
		sys_enter_mmap: addr: 0x00000000, len: 0x00002000, prot: PROT_READ|PROT_WRITE, flags: MAP_PRIVATE|MAP_ANONYMOUS, fd: 0xffffffffffffffff, off: 0x00000000
		sys_exit: NR 9 mmap = $((16#$map))
		sys_exit_mmap: 0x$map
		sys_enter: NR 62 kill ($(printf %x "$pid"), c, X, X, X, X)
		sys_enter_kill: pid: 0x$(printf %08x "$pid"), sig: SIGUSR2
		sys_exit: NR 62 kill = 0
		sys_exit_kill: 0
	W
	"$UFT" report -i "$f" >"$tmp/r.txt" || fail "$backend: uft report exited $?"
	norm_uft "$tmp/r.txt" >"$tmp/r.norm"
	# the program's 16 syscall lines from its first openat (the loader's
	# come before), the bodies alone; the raw entries' unused arguments are
	# whatever the registers held
	grep -E "^[^ ]*-$pid .* sys_(enter|exit)[a-z0-9_]*: " "$tmp/r.norm" | sed -E 's/^.* [0-9]+\.[0-9]+: //' |
		awk -v s="sys_enter: NR 257 openat (ffffffffffffff9c, $file," \
			'index($0, s) == 1 { on = 1 } on && n < 16 { print; n++ }' |
		sed -E 's/^(sys_enter: NR 257 openat \(([^,]*, ){3}[^,]*), .*\)$/\1, X, X)/' |
		sed -E 's/^(sys_enter: NR 62 kill \([^,]*, [^,]*), .*\)$/\1, X, X, X, X)/' >"$tmp/got"
	diff "$tmp/want" "$tmp/got" >"$tmp/d" || fail "$backend: the decoded lines differ:
$(cat "$tmp/d")"
	if [ $have_tc = 1 ]; then
		same_as_tc "$f" "$tmp/r.norm"
	fi
}

check ptrace 1
why=$("$RUN" --kernel-usable) || {
	echo "decode: ok (ptrace; kernel backend skipped: $why)"
	exit 0
}
check kernel 0
echo "decode: ok (ptrace and kernel)"
