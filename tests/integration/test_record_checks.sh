#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record checks what it can before the program runs and exits 2 with
# nothing run and no file: an output it cannot write, a program it cannot
# find, a static program without libuft, a tracer with nothing to patch.
# It preloads libuft into a dynamic program built without it, so the
# function tracers work on it; it says what share of the events was lost
# and how to keep them (--max-loss makes that an exit status); SIGINT or
# SIGTERM sent to it stops the recording and writes what was captured,
# passing the signal on or (--keep-running) leaving the program running.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"
need_plain_build "its libuft is not preloaded into plain programs"
CC=${CC:-cc}
command -v "$CC" >/dev/null || {
	echo "skip: no C compiler"
	exit 77
}
export UFT_RUNDIR=$tmp/run

# expect RC CMD...: runs CMD (output in $tmp/out, $tmp/err), checks its status.
expect() {
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ $rc -eq "$want" ] || fail "'$*' exited $rc, want $want: $(cat "$tmp/err")"
}

# A program built with the patchable entry and without libuft.
cat >"$tmp/fib.c" <<'C'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static volatile sig_atomic_t stop;
static void on_int(int sig) { stop = sig; }
int main(int argc, char **argv)
{
	printf("started\n");
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "loop")) {
		/* until SIGINT, then a last call and a clean exit */
		signal(SIGINT, on_int);
		while (!stop)
			usleep(fib(10) * 10);
		return fib(3) == 2 ? 0 : 1;
	}
	printf("%d\n", fib(argc > 1 ? atoi(argv[1]) : 12));
	return 0;
}
C
"$CC" -O1 -fpatchable-function-entry=5 -o "$tmp/fib" "$tmp/fib.c" || fail "cannot build fib"
"$CC" -O1 -o "$tmp/plainfib" "$tmp/fib.c" || fail "cannot build plainfib"
nm -D "$tmp/fib" | grep_q uft && fail "fib is linked with libuft"

# 1. Checked before anything runs: exit 2, the program's output empty, no file.
expect 2 "$UFT" record -o "$tmp/no/such/dir/x.dat" -- "$tmp/fib"
[ "$(cat "$tmp/err")" = "uft record: cannot write $tmp/no/such/dir/x.dat: No such file or directory" ] ||
	fail "unwritable output: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "the program ran for an unwritable output"
expect 2 "$UFT" record -o "$tmp" -- "$tmp/fib"
grep_q 'Is a directory' "$tmp/err" || fail "a directory as output: $(cat "$tmp/err")"
expect 2 "$UFT" record -o "$tmp/x.dat" -- no-such-program-here
[ "$(cat "$tmp/err")" = "uft record: no-such-program-here: command not found" ] ||
	fail "missing program: $(cat "$tmp/err")"
expect 2 "$UFT" record -p function_graph -o "$tmp/x.dat" -- "$tmp/plainfib"
printf '%s\n' "uft record: function_graph: no function of this program can be traced: build it (or the libraries to trace) with -fpatchable-function-entry=5 (gcc 8+, clang 10+)" \
	"uft record: nothing recorded: $tmp/plainfib was stopped before main" >"$tmp/want"
diff "$tmp/want" "$tmp/err" || fail "no patchable function"
[ ! -s "$tmp/out" ] || fail "the program without patchable entries ran"
expect 2 "$UFT" record -p function -l 'no_such_fn*' -o "$tmp/x.dat" -- "$tmp/fib"
grep_q "^uft record: set_ftrace_filter: no function matches 'no_such_fn\*'$" "$tmp/err" ||
	fail "-l matching nothing: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "the program ran with a -l that matches nothing"
if "$CC" -static -O1 -o "$tmp/static" "$tmp/fib.c" 2>/dev/null; then
	expect 2 "$UFT" record -o "$tmp/x.dat" -- "$tmp/static"
	grep_q "is statically linked without libuft" "$tmp/err" || fail "static: $(cat "$tmp/err")"
else
	echo "note: no static libc, the static program case is not checked"
fi
[ ! -e "$tmp/x.dat" ] || fail "a file was written by a refused recording"
! ls -A "$tmp" | grep_q '^\.x\.dat\.' || fail "a temporary file was left"

# An event of a system the program does not have may come with a library it
# loads later: a warning, the program runs; at the end still nothing: exit 1.
expect 1 "$UFT" record -q -e 'later:*' -o "$tmp/later.dat" -- "$DEMO" 1
printf '%s\n' "uft record: warning: no event matches 'later:*' yet (a library loaded later may define it)" \
	"uft record: no event matches 'later:*'" >"$tmp/want"
diff "$tmp/want" "$tmp/err" || fail "a later library's event"
[ -s "$tmp/out" ] && [ -s "$tmp/later.dat" ] || fail "the program did not run, or no file"

# 2. Preloaded: function_graph of a program that does not link libuft.
expect 0 "$UFT" record -p function_graph -o "$tmp/g.dat" -- "$tmp/fib" 5
grep_q '^5$' "$tmp/out" || fail "fib 5 output: $(cat "$tmp/out")"
"$UFT" report -i "$tmp/g.dat" >"$tmp/g.txt"
grep_q ' |  main() {$' "$tmp/g.txt" || fail "no main() in the graph"
[ "$(grep -c 'fib()' "$tmp/g.txt")" -ge 10 ] || fail "too few fib() in the graph"
# LD_PRELOAD the program had is kept after libuft.
expect 0 env LD_PRELOAD=libm.so.6 "$UFT" record -o "$tmp/f.dat" -- \
	sh -c 'echo "$LD_PRELOAD"'
grep_q '/libuft\.so\.[0-9]*:libm\.so\.6$' "$tmp/out" || fail "LD_PRELOAD: $(cat "$tmp/out")"

# A program with libuft.a of its own, started through a launcher that gets
# libuft.so preloaded: the preloaded copy stands down (one runtime writes).
cat >"$tmp/own.c" <<'C'
#include <uft/uft.h>
int main(void)
{
	for (int i = 0; i < 5; i++)
		UFT_TRACE(own, tick, "i=%d", i);
	return 0;
}
C
"$CC" -Iinclude -I"$B/gen" -o "$tmp/own" "$tmp/own.c" "$B/lib/libuft.a" -lpthread -ldl ||
	fail "cannot build a program with libuft.a"
expect 0 "$UFT" record -e 'own:*' -o "$tmp/own.dat" -- env UFT_X=1 "$tmp/own"
grep_q ', 2 processes$' "$tmp/out" || fail "launcher + libuft.a program: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "launcher + libuft.a program: $(cat "$tmp/err")"
[ "$("$UFT" report -i "$tmp/own.dat" | grep -c ' tick: i=')" = 5 ] || fail "libuft.a events"

# 3. Loss: counted, its share and the remedy; --max-loss turns it into exit 3.
expect 0 "$UFT" record -q -M overwrite -b 16 -p function_graph -o "$tmp/l.dat" -- "$tmp/fib" 20
grep_q '^uft record: lost [0-9]* of [0-9]* events ([0-9.]*%); [0-9]* overwritten before they were read$' \
	"$tmp/err" || fail "no loss line: $(cat "$tmp/err")"
grep_q '^uft record: to keep them: a larger buffer per thread (-b [0-9]*; it was 16 KiB), fewer events (-e, -f; -l, -n or --max-graph-depth for the function tracers), -M block to have a thread wait for the recorder on a full buffer, or -M discard to keep the first events instead of the last$' \
	"$tmp/err" || fail "no remedy line: $(cat "$tmp/err")"
expect 3 "$UFT" record -q -M overwrite -b 16 --max-loss 1 -p function_graph -o "$tmp/l.dat" -- "$tmp/fib" 20
grep_q '^uft record: more than 1% lost (--max-loss)$' "$tmp/err" || fail "--max-loss: $(cat "$tmp/err")"
[ -s "$tmp/l.dat" ] || fail "--max-loss did not keep the file"
expect 0 "$UFT" record -q --max-loss 0 -p function_graph -o "$tmp/n.dat" -- "$tmp/fib" 5
[ ! -s "$tmp/err" ] || fail "a loss reported where none was: $(cat "$tmp/err")"
expect 2 "$UFT" record --max-loss 101 -- "$tmp/fib"
expect 2 "$UFT" record --max-loss x -- "$tmp/fib"

# 4. SIGINT sent to uft record is passed on: the program ends its own way and
# its last calls are in the file.
wait_started() {
	for _ in $(seq 400); do
		grep_q started "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "the program did not start"
}
"$UFT" record -p function -o "$tmp/s.dat" -- "$tmp/fib" loop >"$tmp/s.out" 2>&1 &
rec=$!
wait_started "$tmp/s.out"
kill -INT $rec
rc=0
wait $rec || rc=$?
[ $rc -eq 0 ] || fail "record after SIGINT exited $rc: $(cat "$tmp/s.out")"
"$UFT" report -i "$tmp/s.dat" | grep_q ' fib <-main$' || fail "no fib calls after SIGINT"
# --keep-running: SIGTERM stops the recording, the program goes on.
"$UFT" record --keep-running -p function -o "$tmp/k.dat" -- "$tmp/fib" loop >"$tmp/k.out" 2>&1 &
rec=$!
wait_started "$tmp/k.out"
prog=$(pgrep -P $rec)
kill -TERM $rec
rc=0
wait $rec || rc=$?
[ $rc -eq 0 ] || fail "record --keep-running after SIGTERM exited $rc"
grep_q "^$tmp/fib (pid $prog) left running$" "$tmp/k.out" || fail "no 'left running': $(cat "$tmp/k.out")"
kill -0 "$prog" 2>/dev/null || fail "the program did not keep running"
kill -INT "$prog"
"$UFT" report -i "$tmp/k.dat" | grep_q ' fib <-main$' || fail "no fib calls in the --keep-running file"
echo ok
