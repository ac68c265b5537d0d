#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft attach: a dynamic program started without libuft gets it loaded while
# it runs. The program keeps running, a read() it was blocked in when
# stopped completes with the line written afterwards, the control socket
# serves the tree, the function tracer records the program's own functions.
# Refusals: a bad pid, a static program (when a static libc is there), a
# second attach. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null || {
	echo "skip: no C compiler"
	exit 77
}
# A sanitizer build's libuft needs its runtime in the program: attach
# refuses to load it into a plain one, and the rest is not tested.
if nm -D "$B/lib/libuft.so" | grep_q -E ' U __(asan|tsan)_init$'; then
	printf 'int main(void) { for (;;) ; }\n' >"$tmp/spin.c"
	"$CC" -o "$tmp/spin" "$tmp/spin.c" || fail "cannot build the spinning program"
	"$tmp/spin" &
	pids+=("$!")
	"$UFT" attach -p "$!" >"$tmp/out" 2>&1
	[ $? = 2 ] && grep_q "sanitizer build" "$tmp/out" || fail "sanitizer libuft: $(cat "$tmp/out")"
	echo "skip: $B is a sanitizer build; the test builds a plain program"
	exit 77
fi
cat >"$tmp/plain.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) void attach_leaf(unsigned long i) { sink += i; }
__attribute__((noinline)) void attach_loop_body(unsigned long i) { attach_leaf(i * 3); }
/* Reads lines from standard input (a fifo), echoing them, then loops. */
int main(void)
{
	char line[256];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	if (!fgets(line, sizeof(line), stdin))
		return 3;
	printf("got %s", line);
	for (unsigned long i = 0;; i++) {
		attach_loop_body(i);
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
}
C
"$CC" -O0 -g -fpatchable-function-entry=5 -o "$tmp/plain" "$tmp/plain.c" ||
	fail "cannot build the plain program"

mkfifo "$tmp/fifo"
"$tmp/plain" <"$tmp/fifo" >"$tmp/plain.out" 2>&1 &
pid=$!
pids+=("$pid")
exec 3>"$tmp/fifo" # the program now blocks in read() on the fifo
for _ in $(seq 200); do
	grep_q ready "$tmp/plain.out" && break
	sleep 0.05
done
grep_q ready "$tmp/plain.out" || fail "the program did not start"
grep_q libuft "/proc/$pid/maps" && fail "libuft is in the program before attach"

# Refusals first: nothing is touched.
"$UFT" attach -p 999999999 >"$tmp/out" 2>&1
[ $? = 2 ] || fail "a bad pid: $(cat "$tmp/out")"
"$UFT" attach -p 4194304 >"$tmp/out" 2>&1
[ $? = 2 ] && grep_q "no such process" "$tmp/out" || fail "a missing pid: $(cat "$tmp/out")"
"$UFT" attach >/dev/null 2>&1
[ $? = 2 ] || fail "no -p accepted"

# A library dlopen refuses: its message, exit 1, the program untouched.
printf 'not a library\n' >"$tmp/bad.so"
"$UFT" attach -p "$pid" -l "$tmp/bad.so" >"$tmp/out" 2>&1
[ $? = 1 ] && grep_q "dlopen failed: .*bad.so" "$tmp/out" || fail "a bad library: $(cat "$tmp/out")"
kill -0 "$pid" || fail "the program died of a failed dlopen"

"$UFT" attach -p "$pid" >"$tmp/out" 2>&1 || fail "attach: $(cat "$tmp/out")"
grep_q "control socket $UFT_RUNDIR/$pid.sock" "$tmp/out" || fail "attach said: $(cat "$tmp/out")"
grep_q libuft "/proc/$pid/maps" || fail "libuft is not in the program"
kill -0 "$pid" || fail "the program died"

# The read() it was blocked in goes on and completes.
echo "a line after attach" >&3
for _ in $(seq 200); do
	grep_q "got a line after attach" "$tmp/plain.out" && break
	sleep 0.05
done
grep_q "got a line after attach" "$tmp/plain.out" || fail "the read did not complete: $(cat "$tmp/plain.out")"

# A second attach finds it there.
"$UFT" attach -p "$pid" >"$tmp/out" 2>&1 || fail "second attach: $(cat "$tmp/out")"
grep_q "already has libuft" "$tmp/out" || fail "second attach said: $(cat "$tmp/out")"

# The function filter as the first request: the functions are found then.
"$UFT" ctl -p "$pid" write set_ftrace_filter 'attach_*' || fail "set_ftrace_filter"
"$UFT" ctl -p "$pid" cat available_tracers >"$tmp/tracers" || fail "available_tracers"
grep_q -w function "$tmp/tracers" || fail "no function tracer: $(cat "$tmp/tracers")"
"$UFT" ctl -p "$pid" write current_tracer function || fail "current_tracer function"
for _ in $(seq 200); do
	"$UFT" ctl -p "$pid" cat trace >"$tmp/trace" || fail "trace"
	grep_q attach_leaf "$tmp/trace" && break
	sleep 0.05
done
grep_q -E 'attach_leaf <-attach_loop_body' "$tmp/trace" || fail "no function records: $(tail "$tmp/trace")"
grep_q -E 'attach_loop_body <-main' "$tmp/trace" || fail "no caller main: $(tail "$tmp/trace")"
"$UFT" show -p "$pid" >/dev/null || fail "uft show"
"$UFT" stop -p "$pid" && "$UFT" start -p "$pid" || fail "uft stop, uft start"
"$UFT" ctl -p "$pid" write current_tracer nop || fail "current_tracer nop"
"$UFT" reset -p "$pid" >/dev/null || fail "uft reset"
kill -0 "$pid" || fail "the program died while traced"

# uft mount, where FUSE mounts work.
if [ "$(id -u)" = 0 ] && [ -c /dev/fuse ]; then
	mkdir "$tmp/mnt"
	"$UFT" mount -p "$pid" "$tmp/mnt" 2>"$tmp/mount.log" &
	mp=$!
	for _ in $(seq 200); do
		grep_q " $tmp/mnt fuse.uft " /proc/self/mounts && break
		grep_q 'cannot mount' "$tmp/mount.log" && break
		sleep 0.05
	done
	if grep_q " $tmp/mnt fuse.uft " /proc/self/mounts; then
		grep_q -w function "$tmp/mnt/available_tracers" || fail "available_tracers through the mount"
		kill -INT "$mp"
		wait "$mp" || fail "uft mount exited $?"
	else
		kill "$mp" 2>/dev/null
		wait "$mp" 2>/dev/null
		echo "FUSE mounting fails here: uft mount is not tested"
	fi
fi

# Another user may not attach (ptrace's permission check), and is told why.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid 65534 --regid 65534 --clear-groups "$UFT" attach -p "$pid" \
		-l "$B/lib/libuft.so.0" >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "another user's attach: exit $rc: $(cat "$tmp/out")"
fi

# A static program, when a static C library is there.
cat >"$tmp/static.c" <<'C'
#include <unistd.h>
int main(void) { pause(); return 0; }
C
if "$CC" -static -o "$tmp/static" "$tmp/static.c" 2>/dev/null; then
	"$tmp/static" &
	spid=$!
	pids+=("$spid")
	"$UFT" attach -p "$spid" >"$tmp/out" 2>&1
	[ $? = 2 ] && grep_q "statically linked" "$tmp/out" || fail "static: $(cat "$tmp/out")"
	kill -0 "$spid" || fail "the static program died"
else
	echo "no static C library: the static refusal is not tested"
fi
echo PASS
