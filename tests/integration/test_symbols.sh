#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Stack frames in libc (docs/design/symbols.md): the demo's worker threads
# return into libc's start_thread, a local symbol Debian strips from
# libc.so.6. uft record --func-stack names it from libc6-dbg's debug file
# when installed, else prints "[libc.so.6+0xOFFSET]"; never the exported
# symbol below it (pthread_condattr_setpshared). trace-cmd reads the same
# name from the file's kallsyms. The live trace file names it in the
# process (libuft) the same way. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
FLOOD=$B/bin/flood
need "$DEMO" "$FLOOD"
export UFT_RUNDIR=$tmp/run
flood_pid=
trap '[ -n "$flood_pid" ] && kill "$flood_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

libc=$(ldd "$DEMO" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
[ -n "$libc" ] || {
	echo "skip: the demo does not link libc.so.6"
	exit 77
}
id=$(readelf -n "$libc" 2>/dev/null | sed -n 's/.*Build ID: //p')
dbg=no
[ -n "$id" ] && [ -r "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] && dbg=yes

# check FILE LABEL: the frame below worker in each stack of FILE (uft's
# " => NAME" lines) is start_thread, or the address form without debug info.
frame_below_worker() { awk '/^ => worker$/ { getline; print; exit }' "$1"; }
record() { # FILE [ENV...]
	local out=$1
	shift
	env "$@" "$UFT" record -q -p function -l 'work*' --func-stack -o "$out" -- "$DEMO" \
		>/dev/null 2>"$tmp/err" || fail "uft record --func-stack: $(cat "$tmp/err")"
	"$UFT" report -i "$out" >"$out.txt" || fail "uft report -i $out"
	grep_q ': <stack trace>$' "$out.txt" || fail "no stack trace in $out.txt"
	! grep -q 'pthread_condattr_setpshared' "$out.txt" || fail "a frame named pthread_condattr_setpshared"
}

# live FILE [ENV...]: a flood thread's stack from the stacktrace trigger,
# as the process's trace file prints it (the filter keeps the events out).
live() {
	local out=$1
	shift
	env "$@" "$FLOOD" 2000000000 1 >/dev/null &
	flood_pid=$!
	for _ in $(seq 100); do
		"$UFT" ctl -p "$flood_pid" write events/flood/seq/filter 'n == 0' 2>/dev/null && break
		sleep 0.05
	done
	"$UFT" ctl -p "$flood_pid" write events/flood/seq/trigger 'stacktrace:1' &&
		"$UFT" ctl -p "$flood_pid" write events/flood/seq/enable 1 || fail "live trigger"
	for _ in $(seq 100); do
		"$UFT" ctl -p "$flood_pid" cat trace >"$out"
		grep -q '^ => flood$' "$out" && break
		sleep 0.05
	done
	kill "$flood_pid"
	wait "$flood_pid" 2>/dev/null
	flood_pid=
	grep_q '^ => flood$' "$out" || fail "no live stack: $(tail -3 "$out")"
	! grep -q 'pthread_condattr_setpshared' "$out" || fail "live: pthread_condattr_setpshared"
}
frame_below_flood() { awk '/^ => flood$/ { getline; print; exit }' "$1"; }

# Without debug files (UFT_DEBUG_ROOT names an empty root): the address.
mkdir -p "$tmp/empty"
live "$tmp/n.live" UFT_DEBUG_ROOT="$tmp/empty"
f=$(frame_below_flood "$tmp/n.live")
[[ $f =~ ^\ =\>\ \[libc\.so\.6\+0x[0-9a-f]+\]$ ]] || fail "live, without debug info: '$f'"
record "$tmp/n.dat" UFT_DEBUG_ROOT="$tmp/empty"
f=$(frame_below_worker "$tmp/n.dat.txt")
[[ $f =~ ^\ =\>\ \[libc\.so\.6\+0x[0-9a-f]+\]$ ]] || fail "without debug info: '$f'"
grep -q -E ': worker <-\[libc\.so\.6\+0x[0-9a-f]+\]$' "$tmp/n.dat.txt" ||
	fail "no 'worker <-[libc.so.6+0x...]' line"
# The kallsyms end markers keep trace-cmd from naming the frame by the
# symbol below: it prints the marker where the unnamed code begins.
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$tmp/n.dat" 2>/dev/null >"$tmp/n.tc" || fail "trace-cmd report"
	! grep -q pthread_condattr_setpshared "$tmp/n.tc" || fail "trace-cmd: pthread_condattr_setpshared"
	grep -A1 '^=> worker ' "$tmp/n.tc" | grep_q -E '^=> \[libc\.so\.6\+0x[0-9a-f]+\] \(' ||
		fail "trace-cmd: no [libc.so.6+0x...] frame: $(grep -m1 -A1 '^=> worker ' "$tmp/n.tc")"
fi

if [ $dbg = no ]; then
	echo "skip: no libc debug file (libc6-dbg) for $libc; the address form passed"
	exit 77
fi
live "$tmp/d.live"
[ "$(frame_below_flood "$tmp/d.live")" = " => start_thread" ] ||
	fail "live, with libc6-dbg: '$(frame_below_flood "$tmp/d.live")'"
record "$tmp/d.dat"
[ "$(frame_below_worker "$tmp/d.dat.txt")" = " => start_thread" ] ||
	fail "with libc6-dbg: '$(frame_below_worker "$tmp/d.dat.txt")'"
grep_q -E ': worker <-start_thread$' "$tmp/d.dat.txt" || fail "no 'worker <-start_thread' line"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$tmp/d.dat" 2>/dev/null >"$tmp/d.tc" || fail "trace-cmd report"
	# trace-cmd's frames are "=> NAME (ADDRESS)": the same names as uft's.
	diff <(grep '^ => ' "$tmp/d.dat.txt") \
		<(grep -E '^=> [^0]' "$tmp/d.tc" | sed -E 's/^=> (.*) \([0-9a-f]+\)$/ => \1/') \
		>"$tmp/diff" || fail "uft and trace-cmd frames differ: $(head -6 "$tmp/diff")"
fi
echo "ok"
