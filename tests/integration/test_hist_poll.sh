#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# poll(2), epoll and select on events/SYSTEM/EVENT/hist through the FUSE door
# (the kernel's POLLIN/POLLPRI on hist files, 6.11): tests/traced/hist_poll.c
# serves its own tree at a mount and polls it. Exit 0 pass, 77 skip (no
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
	grep -q " $tmp/m fuse.uft " /proc/self/mounts &&
		{ umount -l "$tmp/m" 2>/dev/null || fusermount3 -uz "$tmp/m"; }
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
echo ok
