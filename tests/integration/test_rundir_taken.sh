#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Another user who creates /tmp/uft-<uid> first cannot switch off a user's
# control socket: the process falls back to ~/.cache/uft, says so once, and
# uft ctl finds it there. Needs root (to act as two users) and setpriv.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 || {
	echo "skip: needs root, setpriv and a user nobody"
	exit 77
}
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
as_nobody test -x "$UFT" || {
	echo "skip: nobody cannot run $UFT"
	exit 77
}
uid=$(id -u nobody)
taken=/tmp/uft-$uid
[ -e "$taken" ] && {
	echo "skip: $taken exists already"
	exit 77
}
after_exit() { rm -rf "$taken"; }
# root plays the other user: the name exists, but not as nobody's own
mkdir -m 755 "$taken"
chmod 711 "$tmp"
mkdir "$tmp/home" && chown nobody "$tmp/home"
unset UFT_RUNDIR XDG_RUNTIME_DIR
export HOME=$tmp/home

setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$SERVER" 2 2>"$tmp/err" &
pid=$!
pids+=("$pid")
sock=$HOME/.cache/uft/$pid.sock
for _ in $(seq 200); do
	[ -S "$sock" ] && break
	sleep 0.05
done
[ -S "$sock" ] || fail "no socket $sock: $(cat "$tmp/err")"
[ "$(stat -c %a "$HOME/.cache/uft")" = 700 ] || fail "mode $(stat -c %a "$HOME/.cache/uft")"
grep_q -x "uft: $taken is not a private directory of this user; using $HOME/.cache/uft" \
	"$tmp/err" || fail "no notice: $(cat "$tmp/err")"
[ -z "$(ls -A "$taken")" ] || fail "something was made in $taken"
[ "$(as_nobody "$UFT" ctl -p "$pid" cat tracing_on)" = 1 ] || fail "uft ctl did not find it"
as_nobody "$UFT" ctl --list | grep_q "^$pid\b" || fail "--list: $(as_nobody "$UFT" ctl --list)"
echo ok
