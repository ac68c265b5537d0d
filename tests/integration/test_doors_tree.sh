#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The same tracefs session driven through each door of a running server: the
# control socket (uft ctl) and FUSE (uft mount, echo and cat). Enable at every
# level, filters with globs, a bad filter and its error_log lines byte for
# byte, clearing trace, a blocking trace_pipe read woken by a new event, an
# instance, buffer resize while tracing, clock switch, markers.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"
[ -x "$B/tests/pollwait" ] || {
	echo "skip: build $B's tests first"
	exit 77
}
mnt=$tmp/mnt
mounted() { grep -q " $1 fuse.uft " /proc/self/mounts; }
after_exit() { mounted "$mnt" && umount -l "$mnt" 2>/dev/null; }
door=setup
fail() {
	echo "FAIL ($door): $*"
	exit 1
}
start_server

# The two doors: rd PATH prints a file, wr PATH TEXT writes it like echo >,
# ap PATH TEXT like echo >>; md and rd_dir make and remove an instance.
ctl_rd() { "$UFT" ctl -p "$pid" cat "$1"; }
ctl_wr() { "$UFT" ctl -p "$pid" write "$1" "$2" 2>/dev/null; }
ctl_ap() { "$UFT" ctl -p "$pid" write -a "$1" "$2" 2>/dev/null; }
ctl_md() { "$UFT" ctl -p "$pid" mkdir "$1"; }
ctl_rm() { "$UFT" ctl -p "$pid" rmdir "$1"; }
fuse_rd() { cat "$mnt/$1"; }
fuse_wr() { echo "$2" >"$mnt/$1" 2>/dev/null; }
fuse_ap() { echo "$2" >>"$mnt/$1" 2>/dev/null; }
fuse_md() { mkdir "$mnt/$1"; }
fuse_rm() { rmdir "$mnt/$1"; }

session() {
	door=$1
	rd() { "${door}_rd" "$@"; }
	wr() { "${door}_wr" "$@"; }
	ap() { "${door}_ap" "$@"; }
	wr tracing_on 1 || fail "tracing_on"
	wr trace "" || fail "clear"

	# Enable at every level, with the 0/1/X reads.
	wr events/server/reply/enable 1 || fail "event enable"
	[ "$(rd events/server/reply/enable)" = 1 ] || fail "event enable reads"
	[ "$(rd events/server/enable)" = 1 ] || fail "system enable reads"
	wr events/server/enable 0 || fail "system disable"
	[ "$(rd events/server/reply/enable)" = 0 ] || fail "system disable did not reach the event"
	wr events/enable 1 || fail "top enable"
	# every event: the program's one and libuft's osnoise:* (as the kernel's)
	[ "$(rd set_event | grep -v '^osnoise:')" = "server:reply" ] || fail "set_event: $(rd set_event)"
	wr set_event "" || fail "set_event clear"
	[ "$(rd events/enable)" = 0 ] || fail "top enable after clearing set_event"
	wr events/enable 2 && fail "enable 2 accepted"
	ap set_event "server:reply" || fail "set_event append"

	# A glob filter; only matching records are kept.
	wr events/server/reply/filter 'path ~ "/api*" && bytes > 100' || fail "filter"
	[ "$(rd events/server/reply/filter)" = 'path ~ "/api*" && bytes > 100' ] || fail "filter reads"
	wr trace "" || fail "clear"
	sleep 0.3
	rd trace | grep ' reply: ' >"$tmp/lines"
	[ -s "$tmp/lines" ] || fail "no record passed the filter"
	grep -v 'path=/api/users' "$tmp/lines" | grep_q . && fail "the filter let others through"

	# A bad filter: EINVAL, the old filter stays, error_log has the kernel's lines
	# (for an unknown field the caret stands one past the character after it).
	wr error_log "" || fail "error_log clear"
	wr events/server/reply/filter 'bytes > 1 && nosuch == 1' && fail "bad filter accepted"
	[ "$(rd events/server/reply/filter)" = 'path ~ "/api*" && bytes > 100' ] ||
		fail "a bad filter changed the filter"
	rd error_log | sed 's/^\[ *[0-9]*\.[0-9]*\] /[TS] /' >"$tmp/log"
	printf '%s\n' '[TS] event filter parse error: error: Field not found' \
		'  Command: bytes > 1 && nosuch == 1' \
		'                               ^' | cmp -s - "$tmp/log" ||
		fail "error_log: $(cat -A "$tmp/log")"
	wr events/server/reply/filter 0 || fail "filter clear"
	[ "$(rd events/server/reply/filter)" = none ] || fail "filter after 0"

	# A blocking trace_pipe read, woken by the next event.
	wr trace "" || fail "clear"
	timeout 5 head -n 1 < <(rd trace_pipe 2>/dev/null) >"$tmp/pipe"
	grep -q ' reply: ' "$tmp/pipe" || fail "trace_pipe gave: $(cat "$tmp/pipe")"

	# poll(2) on a mounted trace_pipe: not ready while nothing is traced,
	# woken when an event comes.
	if [ "$door" = fuse ]; then
		wr events/server/enable 0
		wr trace "" || fail "clear"
		"$B/tests/pollwait" "$mnt/trace_pipe" 300 >/dev/null && fail "poll: ready on an empty pipe"
		(sleep 0.3 && wr events/server/enable 1) &
		local enabler=$!
		"$B/tests/pollwait" "$mnt/trace_pipe" 5000 >/dev/null || fail "poll: not woken by an event"
		wait "$enabler"
	fi

	# Resize while tracing, then switch the clock (which clears).
	wr buffer_size_kb 64 || fail "resize"
	[ "$(rd buffer_size_kb)" = 64 ] || fail "size reads"
	sleep 0.1
	rd trace | grep_q ' reply: ' || fail "no events after the resize"
	wr trace_clock bogus && fail "bogus clock accepted"
	wr trace_clock mono || fail "clock"
	rd trace_clock | grep_q '\[mono\]' || fail "clock reads"
	wr trace_clock local || fail "clock back"
	wr buffer_size_kb 1024 || fail "size back"

	# Markers.
	wr trace_marker "hello from $door" || fail "marker"
	rd trace | grep_q "tracing_mark_write: hello from $door$" || fail "marker not in trace"

	# An instance of its own.
	"${door}_md" instances/d1 || fail "mkdir"
	"${door}_md" instances/d1 2>/dev/null && fail "second mkdir"
	wr instances/d1/events/server/enable 1 || fail "instance enable"
	wr events/server/enable 0 || fail "top disable"
	wr trace "" || fail "clear"
	sleep 0.2
	rd instances/d1/trace | grep_q ' reply: ' || fail "instance has no events"
	rd trace | grep_q ' reply: ' && fail "top has events while disabled"
	"${door}_rm" instances/d1 || fail "rmdir"
	wr events/server/enable 0
}

session ctl

if [ -c /dev/fuse ] && { [ "$(id -u)" = 0 ] || command -v fusermount3 >/dev/null; }; then
	mkdir -p "$mnt"
	"$UFT" mount -p "$pid" "$mnt" 2>"$tmp/mount.log" &
	pids+=($!)
	for _ in $(seq 100); do
		mounted "$mnt" && break
		sleep 0.05
	done
	if mounted "$mnt"; then
		session fuse
	else
		echo "note: FUSE door not tested: $(cat "$tmp/mount.log")"
	fi
else
	echo "note: FUSE door not tested: no /dev/fuse or no permission"
fi
echo ok
