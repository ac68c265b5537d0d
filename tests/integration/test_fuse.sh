#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The FUSE doors: a process serving its own tree (UFT_TRACEFS=DIR) and
# `uft mount -p PID DIR` serving a running process's tree from outside. Both
# must let ls, cat and echo work as on tracefs, errors included, and unmount
# when they end. Exit 0 pass, 77 skip (no /dev/fuse, or mounting is not
# allowed here), else fail.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
B=${UFT_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
UFT=$B/bin/uft
SERVER=$B/bin/server
[ -x "$UFT" ] && [ -x "$SERVER" ] && [ -e "$B/lib/libuft_fuse.so" ] || {
	echo "skip: build $B first"
	exit 77
}
[ -c /dev/fuse ] || {
	echo "skip: no /dev/fuse"
	exit 77
}
if [ "$(id -u)" != 0 ] && ! command -v fusermount3 >/dev/null; then
	echo "skip: not root and no fusermount3"
	exit 77
fi
tmp=$(mktemp -d)
export UFT_RUNDIR=$tmp/run
pids=()
mounted() { grep -q " $1 fuse.uft " /proc/self/mounts; }
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	for d in "$tmp/a" "$tmp/b" "$tmp/c"; do
		mounted "$d" && { umount -l "$d" 2>/dev/null || fusermount3 -uz "$d"; }
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

# Waits for DIR to be mounted; skips when the door said it cannot mount.
wait_mount() {
	local dir=$1 log=$2
	for _ in $(seq 100); do
		mounted "$dir" && return 0
		grep -q 'cannot mount' "$log" 2>/dev/null && break
		sleep 0.05
	done
	if grep -q 'cannot mount' "$log" 2>/dev/null; then
		echo "skip: FUSE mounting fails here: $(grep 'cannot mount' "$log")"
		exit 77
	fi
	fail "$dir was not mounted: $(cat "$log")"
}

wait_unmount() {
	for _ in $(seq 100); do
		mounted "$1" || return 0
		sleep 0.05
	done
	fail "$1 is still mounted"
}

# The same checks through either door.
check_tree() {
	local m=$1
	ls "$m" >"$tmp/ls" || fail "ls $m"
	grep -qx README "$tmp/ls" && grep -qx tracing_on "$tmp/ls" && grep -qx events "$tmp/ls" ||
		fail "ls $m: $(tr '\n' ' ' <"$tmp/ls")"
	[ -d "$m/events" ] && [ -f "$m/tracing_on" ] || fail "types of events/ and tracing_on"
	[ "$(stat -c %s "$m/README")" = 0 ] || fail "README size is not 0, as on tracefs"
	grep -q tracing_on "$m/README" || fail "cat README"
	[ "$(cat "$m/tracing_on")" = 1 ] || fail "tracing_on reads '$(cat "$m/tracing_on")'"
	echo 0 >"$m/tracing_on" || fail "echo 0 > tracing_on"
	[ "$(cat "$m/tracing_on")" = 0 ] || fail "tracing_on is not 0"
	(echo bogus >"$m/tracing_on") 2>"$tmp/err" && fail "echo bogus > tracing_on succeeded"
	grep -q 'write error: Invalid argument' "$tmp/err" || fail "echo bogus: $(cat "$tmp/err")"
	[ "$(cat "$m/tracing_on")" = 0 ] || fail "a failed write changed tracing_on"
	echo 1 >"$m/tracing_on" || fail "echo 1 > tracing_on"
	(: >"$m/no_such_file") 2>/dev/null && fail "a file could be created"
	if [ -f "$m/events/server/enable" ]; then
		echo 1 >"$m/events/server/enable" || fail "enable server events"
		local start ms
		start=$(date +%s%N)
		timeout -s INT 1 cat "$m/trace_pipe" >"$tmp/pipe"
		ms=$((($(date +%s%N) - start) / 1000000))
		[ $ms -lt 3000 ] || fail "cat trace_pipe took $ms ms to stop on SIGINT"
		grep -q ' reply: n=[0-9]* path=' "$tmp/pipe" || fail "trace_pipe: $(head -3 "$tmp/pipe")"
		echo 0 >"$m/events/server/enable"
		echo "$m/trace_pipe: $(wc -l <"$tmp/pipe") events in $ms ms"
		# O_NONBLOCK set by fcntl after open (as trace-cmd extract does):
		# the per-CPU pages are read out, then EAGAIN, never a block.
		if command -v python3 >/dev/null; then
			timeout 20 python3 -c '
import fcntl, os, sys
for cpu in sorted(os.listdir(sys.argv[1] + "/per_cpu")):
    fd = os.open(sys.argv[1] + "/per_cpu/" + cpu + "/trace_pipe_raw", os.O_RDONLY)
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    try:
        while os.read(fd, 4096):
            pass
    except BlockingIOError:
        pass
    os.close(fd)' "$m" || fail "trace_pipe_raw made non-blocking with fcntl did not end in EAGAIN"
		fi
	else
		echo "no events/server/enable in the tree yet: trace_pipe not tested"
	fi
	if [ -d "$m/instances" ]; then
		mkdir "$m/instances/x" || fail "mkdir instances/x"
		[ -f "$m/instances/x/tracing_on" ] || fail "instances/x has no tracing_on"
		(mkdir "$m/instances/x") 2>"$tmp/err" && fail "a second mkdir instances/x succeeded"
		grep -q 'File exists' "$tmp/err" || fail "second mkdir: $(cat "$tmp/err")"
		rmdir "$m/instances/x" || fail "rmdir instances/x"
		[ -e "$m/instances/x" ] && fail "instances/x is still there"
	else
		echo "no instances/ in the tree yet: mkdir/rmdir not tested"
	fi
}

# 1. The process serves its own tree.
UFT_TRACEFS=$tmp/a "$SERVER" 2 2>"$tmp/a.log" &
pid=$!
pids+=("$pid")
wait_mount "$tmp/a" "$tmp/a.log"
check_tree "$tmp/a"
kill "$pid"
wait "$pid" || fail "the server exited $? after SIGTERM"
wait_unmount "$tmp/a"
echo "UFT_TRACEFS: ok"

# 2. uft mount serves a running process's tree, until SIGINT.
"$SERVER" 2 &
pid=$!
pids+=("$pid")
mkdir "$tmp/b"
for _ in $(seq 100); do
	[ -S "$UFT_RUNDIR/$pid.sock" ] && break
	sleep 0.05
done
"$UFT" mount -p "$pid" "$tmp/b" 2>"$tmp/b.log" &
mp=$!
pids+=("$mp")
wait_mount "$tmp/b" "$tmp/b.log"
check_tree "$tmp/b"
kill -INT $mp
wait $mp || fail "uft mount exited $? on SIGINT"
wait_unmount "$tmp/b"

# ... and until the process exits.
"$UFT" mount -p "$pid" "$tmp/b" 2>"$tmp/b.log" &
mp=$!
pids+=("$mp")
wait_mount "$tmp/b" "$tmp/b.log"
kill "$pid"
wait "$pid"
wait $mp || fail "uft mount exited $? when its process ended"
wait_unmount "$tmp/b"
echo "uft mount: ok"

"$UFT" mount -p "$pid" "$tmp/b" 2>"$tmp/err"
[ $? = 2 ] && grep -qx "uft: process $pid: No such process" "$tmp/err" ||
	fail "mount of a gone process: $(cat "$tmp/err")"

# 3. A tree shared with other users (UFT_FUSE_ALLOW_OTHER=1) keeps the modes
# it shows, owner and group the process's: a user of the process's group
# reads a 0644 file through 0750 directories but cannot write it; any other
# user reaches nothing.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	chmod 755 "$tmp"
	UFT_FUSE_ALLOW_OTHER=1 UFT_TRACEFS=$tmp/c "$SERVER" 2 2>"$tmp/c.log" &
	pid=$!
	pids+=("$pid")
	wait_mount "$tmp/c" "$tmp/c.log"
	in_group() { setpriv --reuid=nobody --regid=nogroup --groups="$(id -g)" -- "$@"; }
	as_other() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
	[ "$(in_group cat "$tmp/c/tracing_on")" = 1 ] || fail "the group cannot read tracing_on"
	in_group sh -c "echo 0 > '$tmp/c/tracing_on'" 2>"$tmp/err" &&
		fail "the group wrote tracing_on (mode $(stat -c %a "$tmp/c/tracing_on"))"
	grep -q 'Permission denied' "$tmp/err" || fail "the group's write: $(cat "$tmp/err")"
	as_other cat "$tmp/c/tracing_on" >/dev/null 2>"$tmp/err" && fail "another user read tracing_on"
	grep -q 'Permission denied' "$tmp/err" || fail "another user's read: $(cat "$tmp/err")"
	[ "$(cat "$tmp/c/tracing_on")" = 1 ] || fail "a refused write changed tracing_on"
	kill "$pid"
	wait "$pid"
	wait_unmount "$tmp/c"
	echo "allow_other: ok"
else
	echo "allow_other not tested: needs root, setpriv and a user nobody"
fi
echo ok
