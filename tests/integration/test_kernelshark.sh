#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft's trace.dat opened by KernelShark (Debian's kernelshark, libkshark-dev;
# `make viewer-deps` installs them): the demo's recording and a
# function_graph recording load through KernelShark's own library with as
# many entries as the file has records, the same pids and events as
# trace-cmd reads; and the kernelshark program itself, under Xvfb, opens
# each with no dialog and nothing on stderr but its plugins' notes that a
# trace has no scheduler (sched_events) or KVM (kvm_combo) events. A
# screenshot of each is taken (kept in $UFT_SCREENSHOT_DIR when that is
# set). Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"
for p in kernelshark xvfb-run xdotool import trace-cmd pkg-config cc; do
	command -v $p >/dev/null || {
		echo "skip: no $p (make viewer-deps installs kernelshark, libkshark-dev, xvfb, xdotool, imagemagick)"
		exit 77
	}
done
pkg-config --exists libkshark || {
	echo "skip: no libkshark (make viewer-deps installs libkshark-dev and libjson-c-dev)"
	exit 77
}
UFT=$(realpath "$UFT")
DEMO=$(realpath "$DEMO")

# The loader: KernelShark's library, as the program loads a file.
cc -o "$tmp/kshark_load" tests/integration/lib/kshark_load.c $(pkg-config --cflags --libs libkshark) \
	2>"$tmp/cc.err" || fail "building the libkshark loader: $(grep error "$tmp/cc.err")"

# The program runs as nobody when the test runs as root: as root it opens
# with a warning dialog. Its files and home are then made readable to it.
chmod 711 "$tmp"
mkdir -m 777 "$tmp/ks" "$tmp/ks/home"
as_user=()
[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)

"$UFT" record -q -o "$tmp/ks/demo.dat" -- "$DEMO" >/dev/null 2>"$tmp/rec.err" ||
	fail "uft record: $(cat "$tmp/rec.err")"
"$UFT" record -q -p function_graph -o "$tmp/ks/fg.dat" -- "$DEMO" >/dev/null 2>"$tmp/rec.err" ||
	fail "uft record -p function_graph: $(cat "$tmp/rec.err")"
chmod 644 "$tmp"/ks/*.dat

# load FILE: libkshark's entries are the file's records: their count, and
# "pid event" for each, as trace-cmd report -R (raw: one line per record).
load() {
	"$tmp/kshark_load" "$1" >"$tmp/ks.txt" 2>"$tmp/ks.err" || fail "libkshark refused $1: $(cat "$tmp/ks.err")"
	trace-cmd report -R -i "$1" 2>/dev/null | grep -E ' \[[0-9]+\] ' >"$tmp/tc.txt"
	local want
	want=$(wc -l <"$tmp/tc.txt")
	[ "$want" -gt 0 ] || fail "trace-cmd reads no record in $1"
	head -1 "$tmp/ks.txt" | grep_q -x "entries: $want" ||
		fail "libkshark loads $(head -1 "$tmp/ks.txt") from $1, trace-cmd reads $want records"
	tail -n +2 "$tmp/ks.txt" | awk '{ sub(/^[^\/]*\//, "", $4); print $2, $4 }' | LC_ALL=C sort >"$tmp/ks.pairs"
	sed -E 's/^ *[^ ]+-([0-9]+) +\[[0-9]+\] +[0-9.]+: +([^: ]+):.*/\1 \2/' "$tmp/tc.txt" |
		LC_ALL=C sort >"$tmp/tc.pairs"
	diff "$tmp/ks.pairs" "$tmp/tc.pairs" >"$tmp/d" || fail "libkshark and trace-cmd differ on $1: $(head "$tmp/d")"
}
load "$tmp/ks/demo.dat"
grep_q 'demo/request path=/api/users status=200' "$tmp/ks.txt" || fail "libkshark: no request's fields"
load "$tmp/ks/fg.dat"
grep_q 'ftrace/funcgraph_entry' "$tmp/ks.txt" || fail "libkshark: no funcgraph_entry"

# The program under Xvfb: its window up and alone (a dialog would be a
# second one), still running, then a screenshot of the window.
cat >"$tmp/ks/show.sh" <<'SH'
f=$1 out=$2
kernelshark "$f" >"$f.out" 2>"$f.err" &
k=$!
w=""
for _ in $(seq 150); do
	w=$(xdotool search --onlyvisible --name "^Kernel Shark \\(" 2>/dev/null | head -1)
	[ -n "$w" ] && break
	sleep 0.2
done
[ -n "$w" ] || { echo "no KernelShark window"; kill $k; exit 1; }
xdotool windowsize "$w" 1280 760
sleep 3
for x in $(xdotool search --onlyvisible --name ""); do
	g=$(xdotool getwindowgeometry "$x" | awk '/Geometry/ { print $2 }')
	echo "window $x $g $(xdotool getwindowname "$x")"
done >"$f.windows"
kill -0 $k || { echo "kernelshark exited"; exit 1; }
import -window "$w" "$out"
kill $k
wait $k 2>/dev/null
exit 0
SH
show() { # FILE PNG
	# xvfb-run -a may pick a display whose server is still going away (the
	# previous run's): a program that cannot connect to it gets one more try.
	local ok=0
	for _ in 1 2; do
		"${as_user[@]}" env HOME="$tmp/ks/home" timeout 90 xvfb-run -a -s "-screen 0 1280x800x24" \
			bash "$tmp/ks/show.sh" "$1" "$2" >"$tmp/show.out" 2>&1 && ok=1 && break
		grep_q 'could not connect to display' "$1.err" 2>/dev/null || break
	done
	[ $ok = 1 ] || fail "kernelshark $1: $(cat "$tmp/show.out") $(cat "$1.err" 2>/dev/null)"
	# Only the root window (the screen's size) and KernelShark's own.
	grep -v ' 1280x800 $' "$1.windows" >"$tmp/w"
	[ "$(wc -l <"$tmp/w")" = 1 ] && grep_q "Kernel Shark ($1)" "$tmp/w" ||
		fail "kernelshark $1: windows $(cat "$1.windows")"
	grep -Ev '^(QStandardPaths: |Loading  ")|^plugin "(sched_events|kvm_combo)" failed to initialize on stream ' \
		"$1.err" >"$tmp/err" || true
	[ ! -s "$tmp/err" ] || fail "kernelshark $1 says: $(cat "$tmp/err")"
	[ -s "$2" ] || fail "no screenshot of $1"
}
show "$tmp/ks/demo.dat" "$tmp/ks/kernelshark-demo.png"
show "$tmp/ks/fg.dat" "$tmp/ks/kernelshark-function-graph.png"
if [ -n "${UFT_SCREENSHOT_DIR:-}" ]; then
	cp "$tmp"/ks/*.png "$UFT_SCREENSHOT_DIR"/ || fail "copying the screenshots"
fi
echo PASS
