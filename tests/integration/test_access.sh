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
echo ok
