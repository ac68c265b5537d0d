#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# poll(2), epoll and select on events/SYSTEM/EVENT/hist through the FUSE door
# (the kernel's POLLIN/POLLPRI on hist files, 6.11): tests/traced/hist_poll.c
# serves its own tree at a mount and polls it; then polls it through a mount
# that `uft mount -p` serves over the control socket. Exit 0 pass, 77 skip (no
# /dev/fuse, or mounting is not allowed here), else fail.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
B=${UFT_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
PROG=$B/tests/hist_poll
[ -x "$PROG" ] && [ -e "$B/lib/libuft_fuse.so" ] || {
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
tmp=$(realpath "$tmp")
export UFT_RUNDIR=$tmp/run
cleanup() {
	for m in "$tmp/m" "$tmp/r"; do
		grep -q " $m fuse.uft " /proc/self/mounts &&
			{ umount -l "$m" 2>/dev/null || fusermount3 -uz "$m"; }
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

UFT_TRACEFS=$tmp/m timeout 120 "$PROG" "$tmp/m" 2>"$tmp/log"
rc=$?
cat "$tmp/log" >&2
if [ $rc = 3 ] && grep -q 'cannot mount' "$tmp/log"; then
	echo "skip: FUSE mounting fails here: $(grep 'cannot mount' "$tmp/log")"
	exit 77
fi
[ $rc = 0 ] || {
	echo "FAIL: hist_poll exited $rc"
	exit 1
}

# The same through `uft mount -p` (the control socket, protocol version 3),
# which `uft ns` serves to trace-cmd and the selftests too.
mkdir -p "$tmp/r"
"$PROG" "$tmp/r" 2>"$tmp/log2" &
prog=$!
for _ in $(seq 200); do
	ls "$UFT_RUNDIR"/$prog.sock >/dev/null 2>&1 && break
	sleep 0.05
done
"$B/bin/uft" mount -p $prog "$tmp/r" 2>"$tmp/mount.log" &
mnt=$!
wait $prog
rc=$?
cat "$tmp/log2" >&2
kill $mnt 2>/dev/null
wait $mnt 2>/dev/null
[ $rc = 0 ] || {
	echo "FAIL: hist_poll through uft mount -p exited $rc ($(cat "$tmp/mount.log"))"
	exit 1
}
echo ok
