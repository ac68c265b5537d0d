#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The control socket's access policy (runtime/doors/access.h) with a second
# user: a member of UFT_ACCESS_GROUP gets the UFT_ACCESS level (stats,
# records, control, all) and no more, each refusal is EACCES and an
# error_log line, a user outside the group is refused at the door, and a bad
# setting leaves the tree to its owner. Needs root (to be two users) and
# setpriv. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
	getent group nogroup >/dev/null || {
	echo "skip: needs root, setpriv, a user nobody and a group nogroup"
	exit 77
}
member() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$UFT" ctl -S "$sock" "$@"; }
outsider() { setpriv --reuid=nobody --regid=daemon --clear-groups -- "$UFT" ctl -S "$sock" "$@"; }
member_ok() { member "$@" >"$tmp/out" 2>"$tmp/err" || fail "member $* refused: $(cat "$tmp/err")"; }
member_refused() {
	member "$@" >"$tmp/out" 2>"$tmp/err" && fail "member $* was allowed"
	grep_q 'Permission denied' "$tmp/err" || fail "member $*: $(cat "$tmp/err")"
}
setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$UFT" || {
	echo "skip: nobody cannot run $UFT"
	exit 77
}
chmod 711 "$tmp"

serve() { # LEVEL: a server whose tree the group nogroup may use at LEVEL
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	pids=()
	UFT_ACCESS_GROUP=nogroup UFT_ACCESS=$1 start_server 2>"$tmp/server.err"
	sock=$UFT_RUNDIR/$pid.sock
}

serve stats
[ "$(stat -c '%a %G' "$sock")" = "660 nogroup" ] || fail "socket $(stat -c '%a %G' "$sock")"
[ "$(stat -c '%a %G' "$UFT_RUNDIR")" = "710 nogroup" ] || fail "rundir $(stat -c '%a %G' "$UFT_RUNDIR")"
member_ok ls events
member_ok cat tracing_on
member_ok cat events/server/reply/format
member_refused cat trace
member_refused write tracing_on 0
[ "$("$UFT" ctl -p "$pid" cat tracing_on)" = 1 ] || fail "a refused write changed tracing_on"
"$UFT" ctl -p "$pid" cat error_log >"$tmp/log"
grep_q "access: error: Permission denied: uid $(id -u nobody) has access 'stats', this needs 'records'" \
	"$tmp/log" || fail "error_log: $(cat "$tmp/log")"
grep_q '^  Command: read trace$' "$tmp/log" || fail "error_log command: $(cat "$tmp/log")"
grep_q '^  Command: write tracing_on$' "$tmp/log" || fail "error_log command: $(cat "$tmp/log")"
outsider cat tracing_on >"$tmp/out" 2>"$tmp/err" && fail "a user outside the group got in"
grep_q 'Permission denied' "$tmp/err" || fail "outsider: $(cat "$tmp/err")"

serve records
member_ok cat trace
member_refused write events/server/enable 1
member_refused mkdir instances/x

serve control
member_ok write events/server/enable 1
member_ok mkdir instances/x
member_ok rmdir instances/x
member_ok write trace_marker hello
member_refused write current_tracer function
member_refused write set_ftrace_filter main

serve all
member_ok write current_tracer nop

serve bogus
grep_q "UFT_ACCESS=bogus: not stats, records, control or all" "$tmp/server.err" ||
	fail "bad level: $(cat "$tmp/server.err")"
[ "$(stat -c %a "$sock")" = 600 ] || fail "socket $(stat -c %a "$sock") with a bad level"
"$UFT" ctl -p "$pid" cat tracing_on >/dev/null || fail "the owner is refused"

# The FUSE door of a tree with an access group, shared with allow_other:
# files show the group and, as group bits, what the level allows; the kernel
# (default_permissions) enforces them.
if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
	echo "FUSE door not tested: no /dev/fuse or fusermount3"
	echo ok
	exit 0
fi
fuse_serve() { # LEVEL
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	pids=()
	mnt=$tmp/mnt
	UFT_FUSE_ALLOW_OTHER=1 UFT_TRACEFS=$mnt UFT_ACCESS_GROUP=nogroup UFT_ACCESS=$1 \
		start_server 2>"$tmp/fuse.err"
	for _ in $(seq 100); do
		mountpoint -q "$mnt" && return 0
		sleep 0.05
	done
	fail "not mounted: $(cat "$tmp/fuse.err")"
}
as_member() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
as_outsider() { setpriv --reuid=nobody --regid=daemon --clear-groups -- "$@"; }
# What a member, and a user outside the group, may do at stats through a
# shared mount at $mnt: other users get nothing ("other" bits are never
# shown: the mount serves everyone with its owner's access).
check_stats_mount() { # WHAT
	[ "$(stat -c '%G %a' "$mnt/tracing_on")" = "nogroup 640" ] ||
		fail "$1: tracing_on shows $(stat -c '%G %a' "$mnt/tracing_on")"
	[ "$(stat -c '%G %a' "$mnt/trace")" = "nogroup 600" ] ||
		fail "$1: trace shows $(stat -c '%G %a' "$mnt/trace")"
	[ "$(as_member cat "$mnt/tracing_on")" = 1 ] || fail "$1: a member cannot read tracing_on"
	as_member cat "$mnt/trace" >/dev/null 2>&1 && fail "$1: a member read trace at stats"
	as_member sh -c "echo 0 > '$mnt/tracing_on'" 2>/dev/null &&
		fail "$1: a member wrote tracing_on at stats"
	as_outsider cat "$mnt/tracing_on" >/dev/null 2>&1 && fail "$1: an outsider read tracing_on"
	as_outsider cat "$mnt/trace" >/dev/null 2>&1 && fail "$1: an outsider read trace"
	return 0
}
fuse_serve stats
check_stats_mount "the process's own mount"
fuse_serve control
as_member sh -c "echo 1 > '$mnt/events/server/enable'" || fail "a member cannot enable at control"
as_member head -c 100 "$mnt/trace" >/dev/null || fail "a member cannot read trace at control"
as_member sh -c "echo function > '$mnt/current_tracer'" 2>/dev/null &&
	fail "a member changed current_tracer at control"
as_member mkdir "$mnt/instances/g" || fail "a member cannot make an instance at control"
as_member rmdir "$mnt/instances/g" || fail "a member cannot remove an instance at control"

# uft mount -p, shared: its owner's connection serves everyone, so the tree's
# policy reaches the kernel's check through the modes and group it shows.
serve stats
mkdir "$tmp/rmnt"
mnt=$tmp/rmnt
UFT_FUSE_ALLOW_OTHER=1 "$UFT" mount -p "$pid" "$mnt" 2>"$tmp/mount.err" &
pids+=($!)
for _ in $(seq 100); do
	mountpoint -q "$mnt" && break
	sleep 0.05
done
mountpoint -q "$mnt" || fail "uft mount: $(cat "$tmp/mount.err")"
check_stats_mount "uft mount -p"
for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
wait 2>/dev/null
pids=()
echo ok
