#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Traced programs in PID namespaces (containers): two of them, each pid 1 of
# its own namespace and sharing one run directory, and a third whose run
# directory is on a mount of its own, are all listed by `uft ctl --list` with host pids and
# controlled from the host by those pids. A socket left by a killed process
# is removed by the listing. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

[ "$(id -u)" = 0 ] || {
	echo "skip: PID namespaces need root here"
	exit 77
}
unshare -p -f --mount-proc true 2>/dev/null || {
	echo "skip: unshare -p cannot make PID namespaces here"
	exit 77
}
mkdir -p "$UFT_RUNDIR"
chmod 700 "$UFT_RUNDIR"

# The host pid of the server that unshare (pid $1) started, added to the
# processes stopped at the end.
server_of() {
	for _ in $(seq 200); do
		srv=$(pgrep -P "$1" -x server) && {
			pids+=("$srv")
			return 0
		}
		sleep 0.05
	done
	return 1
}

# Waits until `uft ctl -p $1` answers.
wait_ctl() {
	for _ in $(seq 200); do
		"$UFT" ctl -p "$1" cat tracing_on >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	fail "process $1 never answered: $("$UFT" ctl -p "$1" cat tracing_on 2>&1)"
}

unshare -p -f --kill-child --mount-proc "$SERVER" 2 &
u1=$!
unshare -p -f --kill-child --mount-proc "$SERVER" 2 &
u2=$!
# The third: a run directory on a mount of its own, which the host does not
# see and reaches only through /proc/PID/root.
mkdir -p "$tmp/private"
unshare -p -f -m --kill-child --mount-proc sh -c \
	'mount -t tmpfs none "$1" && UFT_RUNDIR=$1/run exec "$0" 2' "$SERVER" "$tmp/private" &
u3=$!
pids+=("$u1" "$u2" "$u3")
server_of $u1 || fail "first container's server"
s1=$srv
server_of $u2 || fail "second container's server"
s2=$srv
server_of $u3 || fail "third container's server"
s3=$srv
for s in "$s1" "$s2" "$s3"; do
	grep -q $'^NSpid:\t'"$s"$'\t1$' /proc/"$s"/status || fail "$s is not pid 1 of its namespace"
done
wait_ctl "$s1"
wait_ctl "$s2"
wait_ctl "$s3"

# Two sockets side by side in the shared run directory, named apart.
n=$(ls "$UFT_RUNDIR" | grep -c '^1@[0-9]*\.sock$')
[ "$n" = 2 ] || fail "run directory: $(ls "$UFT_RUNDIR")"

# Each is controlled from the host: a different setting in each.
"$UFT" ctl -p "$s1" write buffer_size_kb 64 || fail "write to $s1"
"$UFT" ctl -p "$s2" write buffer_size_kb 128 || fail "write to $s2"
"$UFT" ctl -p "$s3" write buffer_size_kb 256 || fail "write to $s3"
[ "$("$UFT" ctl -p "$s1" cat buffer_size_kb)" = 64 ] || fail "$s1 buffer_size_kb"
[ "$("$UFT" ctl -p "$s2" cat buffer_size_kb)" = 128 ] || fail "$s2 buffer_size_kb"
[ "$("$UFT" ctl -p "$s3" cat buffer_size_kb)" = 256 ] || fail "$s3 buffer_size_kb"
"$UFT" start -p "$s3" -e server:reply || fail "start in the container with a private run directory"
for _ in $(seq 100); do
	"$UFT" show -p "$s3" | grep_q ' reply: ' && break
	sleep 0.05
done
"$UFT" show -p "$s3" | grep_q ' reply: ' || fail "no events from $s3"

# The listing names all three by host pid.
"$UFT" ctl --list >"$tmp/list" || fail "--list"
for s in "$s1" "$s2" "$s3"; do
	grep -q "^$s server$" "$tmp/list" || fail "--list lacks $s: $(cat "$tmp/list")"
done
grep -q '^1 ' "$tmp/list" && fail "--list shows a namespace's own pid: $(cat "$tmp/list")"

# A pid that exists but serves nothing, and one that does not exist.
"$UFT" ctl -p $$ cat tracing_on 2>"$tmp/err" && fail "ctl of the test shell succeeded"
grep -qx "uft: process $$: not traced by uft (no control socket)" "$tmp/err" ||
	fail "message for an untraced process: $(cat "$tmp/err")"

# A killed container leaves its socket; the next listing removes it.
kill -KILL "$s1"
wait "$u1" 2>/dev/null
ls "$UFT_RUNDIR" | grep -c '^1@[0-9]*\.sock$' | grep_q -x 2 || fail "the killed server left no socket"
"$UFT" ctl --list >"$tmp/list" || fail "--list after the kill"
grep -q "^$s1 " "$tmp/list" && fail "--list shows the killed $s1"
n=$(ls "$UFT_RUNDIR" | grep -c '^1@[0-9]*\.sock$')
[ "$n" = 1 ] || fail "stale socket kept: $(ls "$UFT_RUNDIR")"
exit 0
