#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft ctl reaches a running process's tracefs tree through its control socket:
# ls, cat, write (and the tree's errors, as echo would report them), pipe,
# mkdir/rmdir of instances, --list, stale sockets, and the refusal of another
# user. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

ctl() { "$UFT" ctl -p "$pid" "$@"; }

start_server
[ "$(stat -c %a "$UFT_RUNDIR")" = 700 ] || fail "run directory mode $(stat -c %a "$UFT_RUNDIR")"

# ls and cat
ctl ls >"$tmp/ls" || fail "ls"
for f in README tracing_on events/; do
	grep -qx "$f" "$tmp/ls" || fail "ls lacks $f: $(tr '\n' ' ' <"$tmp/ls")"
done
ctl ls / | cmp -s - "$tmp/ls" || fail "ls / differs from ls"
ctl cat README >"$tmp/readme" || fail "cat README"
grep -q tracing_on "$tmp/readme" || fail "README does not mention tracing_on"

# write, and an invalid write that changes nothing
[ "$(ctl cat tracing_on)" = 1 ] || fail "tracing_on reads '$(ctl cat tracing_on)'"
ctl write tracing_on 0 || fail "write tracing_on 0"
[ "$(ctl cat tracing_on)" = 0 ] || fail "tracing_on is not 0 after writing 0"
ctl write tracing_on bogus 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || fail "write tracing_on bogus exited $rc"
grep -qx "uft: tracing_on: Invalid argument" "$tmp/err" || fail "error: $(cat "$tmp/err")"
[ "$(ctl cat tracing_on)" = 0 ] || fail "a failed write changed tracing_on"
ctl write /tracing_on 1 || fail "write /tracing_on 1"
[ "$(ctl cat tracing_on)" = 1 ] || fail "tracing_on is not 1 after writing 1"
ctl cat nosuch 2>"$tmp/err"
[ $? = 2 ] && grep -qx "uft: nosuch: No such file or directory" "$tmp/err" ||
	fail "cat nosuch: $(cat "$tmp/err")"

# pipe streams events until interrupted, then exits 0
if ctl cat events/server/enable >/dev/null 2>&1; then
	ctl write events/server/enable 1 || fail "enable server events"
	start=$(date +%s%N)
	timeout --preserve-status -s INT 1 "$UFT" ctl -p "$pid" pipe trace_pipe >"$tmp/pipe"
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $rc = 0 ] || fail "pipe exited $rc on SIGINT"
	[ $ms -lt 3000 ] || fail "pipe took $ms ms to stop"
	grep -q ' reply: n=[0-9]* path=' "$tmp/pipe" || fail "pipe: $(head -3 "$tmp/pipe")"
	echo "pipe: $(wc -l <"$tmp/pipe") events in $ms ms"
else
	echo "no events/server/enable in the tree yet: pipe not tested"
fi

# instances
if ctl ls instances >/dev/null 2>&1; then
	ctl mkdir instances/x || fail "mkdir instances/x"
	ctl ls instances | grep_q -x 'x/' || fail "instances/x not listed"
	ctl mkdir instances/x 2>"$tmp/err"
	grep -qx "uft: instances/x: File exists" "$tmp/err" || fail "second mkdir: $(cat "$tmp/err")"
	ctl rmdir instances/x || fail "rmdir instances/x"
	ctl ls instances | grep_q -x 'x/' && fail "instances/x still listed"
else
	echo "no instances/ in the tree yet: mkdir/rmdir not tested"
fi

# --list: live processes with their comm; a dead process's socket is skipped
"$SERVER" 2 &
dead=$!
for _ in $(seq 100); do
	[ -S "$UFT_RUNDIR/$dead.sock" ] && break
	sleep 0.05
done
kill -KILL $dead
wait $dead 2>/dev/null
[ -S "$UFT_RUNDIR/$dead.sock" ] || fail "the killed server left no socket to skip"
"$UFT" ctl --list >"$tmp/list" || fail "--list"
grep -qx "$pid server" "$tmp/list" || fail "--list: $(cat "$tmp/list")"
grep -q "^$dead " "$tmp/list" && fail "--list shows the dead $dead"
"$UFT" ctl -p $dead ls 2>"$tmp/err"
grep -qx "uft: process $dead: No such process" "$tmp/err" || fail "dead pid: $(cat "$tmp/err")"

# a pipe ends when its process exits
ctl pipe trace_pipe >/dev/null &
reader=$!
sleep 0.3
kill "$pid"
wait "$pid"
for _ in $(seq 60); do
	kill -0 $reader 2>/dev/null || break
	sleep 0.05
done
kill -0 $reader 2>/dev/null && fail "pipe did not end with its process"
wait $reader || fail "pipe exited $? when its process ended"
[ -e "$UFT_RUNDIR/$pid.sock" ] && fail "socket left behind after a normal exit"

# another user is refused (SO_PEERCRED): reach the socket through a link in
# a directory that user may enter, since the run directory keeps it out
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	echo "not root or no setpriv: refusal of another user not tested"
elif ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$UFT"; then
	echo "nobody cannot run $UFT: refusal of another user not tested"
else
	start_server
	mkdir "$tmp/pub"
	chmod 711 "$tmp"
	chmod 755 "$tmp/pub"
	ln "$UFT_RUNDIR/$pid.sock" "$tmp/pub/s.sock" && chmod 666 "$tmp/pub/s.sock"
	mkdir "$tmp/pub/run" && chown nobody "$tmp/pub/run" # not /tmp/uft-UID (test_rundir_taken)
	setpriv --reuid=nobody --regid=nogroup --clear-groups env UFT_RUNDIR="$tmp/pub/run" "$UFT" ctl -S "$tmp/pub/s.sock" \
		cat tracing_on >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && grep -qx "uft: $tmp/pub/s.sock: Permission denied" "$tmp/err" ||
		fail "another user: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	ctl cat tracing_on >/dev/null || fail "the owner is refused after another user was"
fi
echo ok
