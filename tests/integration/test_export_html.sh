#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft report --html opened in a real headless Chromium (Debian's chromium):
# the page loads without a script error (its own error counter and the
# browser's console), and the tracks, calls, events, flame graph frames and
# hist table rows read back from the DOM after its script ran are the ones
# of the file; a screenshot of each page is taken (kept in
# $UFT_SCREENSHOT_DIR when that is set). Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
GEN=$B/tests/graph_dat
need "$GEN" "$DEMO"
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	echo "skip: no chromium (Debian package chromium; make deps installs it as root)"
	exit 77
fi

# chrome URL OUT: the DOM once the page's scripts ran; the browser's log
# beside it.
chrome() {
	local url=$1 out=$2
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
		--dump-dom "$url" >"$out" 2>"$out.log" || fail "chromium --dump-dom $url: $(tail -3 "$out.log")"
	# Console messages (script errors among them) are logged as CONSOLE.
	! grep -q 'CONSOLE' "$out.log" || fail "console messages: $(grep CONSOLE "$out.log" | head -3)"
}
shot() { # URL PNG
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size=1280,1000 --screenshot="$2" "$1" \
		>/dev/null 2>&1 || fail "chromium --screenshot $1"
	[ -s "$2" ] && [ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "no PNG in $2"
	if [ -n "${UFT_SCREENSHOT_DIR:-}" ]; then
		cp "$2" "$UFT_SCREENSHOT_DIR"/ || fail "copy to $UFT_SCREENSHOT_DIR"
	fi
}
attr() { # FILE ELEMENT-REGEX ATTR: the attribute's value on the first such element
	grep -o "<$2[^>]*>" "$1" | head -1 | sed -n "s/.* $3=\"\\([^\"]*\\)\".*/\\1/p"
}
count() { # FILE STRING: occurrences
	grep -o -- "$2" "$1" | wc -l
}

# The generated function_graph file: 2 threads, 16 calls (the lost entries
# and exits among them), 4 other events, 9 flame frames, a hist of 2 rows.
"$GEN" -x -n 2 "$tmp/g.dat" || fail "graph_dat"
"$UFT" report -i "$tmp/g.dat" --html --hist 'demo:level:keys=value' -o "$tmp/g.html" || fail "--html"
! grep -q -E '(src|href)="(https?:)?//' "$tmp/g.html" || fail "the page refers to the network"
chrome "file://$tmp/g.html" "$tmp/g.dom"
[ "$(attr "$tmp/g.dom" body data-errors)" = 0 ] || fail "script errors: $(attr "$tmp/g.dom" body data-errors)"
[ "$(attr "$tmp/g.dom" body data-ready)" = 1 ] || fail "the page script did not finish"
s='p id="summary"'
[ "$(attr "$tmp/g.dom" "$s" data-tracks)" = 2 ] || fail "tracks: $(attr "$tmp/g.dom" "$s" data-tracks)"
[ "$(attr "$tmp/g.dom" "$s" data-slices)" = 16 ] || fail "calls: $(attr "$tmp/g.dom" "$s" data-slices)"
[ "$(attr "$tmp/g.dom" "$s" data-instants)" = 4 ] || fail "events: $(attr "$tmp/g.dom" "$s" data-instants)"
[ "$(count "$tmp/g.dom" 'class="track"')" = 2 ] || fail "track rows: $(count "$tmp/g.dom" 'class="track"')"
grep -o '<div class="track"[^>]*>' "$tmp/g.dom" | sed 's/.*data-pid="\([0-9]*\)" data-slices="\([0-9]*\)" data-instants="\([0-9]*\)".*/\1 \2 \3/' |
	diff -u - <(printf '100 12 4\n101 4 0\n') || fail "per-track counts"
[ "$(count "$tmp/g.dom" '<g class="f"')" = 9 ] || fail "flame frames: $(count "$tmp/g.dom" '<g class="f"')"
[ "$(count "$tmp/g.dom" 'class="entry"')" = 2 ] || fail "hist rows: $(count "$tmp/g.dom" 'class="entry"')"
shot "file://$tmp/g.html" "$tmp/report-graph.png"

# The flame graph's script at work: zoom on main (all, main and its three
# callees stay, the other four frames hide), then search for lex (three
# frames match, 11000 of 61000 ns).
sed 's|</body>|<script>var f=document.getElementById("flame");f.flameZoom("main");f.flameSearch("^lex$");</script></body>|' \
	"$tmp/g.html" >"$tmp/gz.html"
chrome "file://$tmp/gz.html" "$tmp/gz.dom"
[ "$(count "$tmp/gz.dom" '<g class="f" style="display: none;">')" = 4 ] ||
	fail "zoom on main: $(count "$tmp/gz.dom" '<g class="f" style="display: none;">') frames hidden, not 4"
[ "$(attr "$tmp/gz.dom" 'svg id="flame"' data-matched)" = 3 ] || fail "search for lex: not 3 frames"
grep -q 'id="matched"[^>]*>Matched: 18.0%<' "$tmp/gz.dom" || fail "search share: $(grep -o 'id="matched"[^<]*' "$tmp/gz.dom")"
[ "$(attr "$tmp/gz.dom" body data-errors)" = 0 ] || fail "zoom and search: script errors"

# The standalone SVG of --flame runs the same script in Chromium.
"$UFT" report -i "$tmp/g.dat" --flame -o "$tmp/g.svg" || fail "--flame"
chrome "file://$tmp/g.svg" "$tmp/svg.dom"
grep -q '<text x="[0-9.]*" y="[0-9]*">main</text>' "$tmp/svg.dom" || fail "the SVG's script did not label main"
shot "file://$tmp/g.svg" "$tmp/flame.png"

# The demo's recording with two histograms: a track per thread, every
# event, a table row per hist entry.
"$UFT" record -q -o "$tmp/demo.dat" -- "$DEMO" >/dev/null 2>"$tmp/rec.err" || fail "record: $(cat "$tmp/rec.err")"
H=(--hist 'demo:request:keys=path:vals=latency' --hist 'demo:tick:keys=worker')
"$UFT" report -i "$tmp/demo.dat" --html "${H[@]}" -o "$tmp/demo.html" || fail "--html demo"
n=$("$UFT" report -i "$tmp/demo.dat" | grep -vc '^#')
threads=$("$UFT" report -i "$tmp/demo.dat" | grep -v '^#' | sed -E 's/^ *.*-([0-9]+) +\[.*/\1/' | sort -u | wc -l)
rows=$("$UFT" report -i "$tmp/demo.dat" "${H[@]}" | grep -c '^{')
chrome "file://$tmp/demo.html" "$tmp/demo.dom"
[ "$(attr "$tmp/demo.dom" body data-errors)" = 0 ] || fail "demo: script errors"
[ "$(attr "$tmp/demo.dom" "$s" data-instants)" = "$n" ] || fail "demo: events are not the $n of uft report"
[ "$(attr "$tmp/demo.dom" "$s" data-tracks)" = "$threads" ] || fail "demo: tracks are not the $threads threads"
[ "$(count "$tmp/demo.dom" 'class="entry"')" = "$rows" ] || fail "demo: hist rows are not the $rows entries"
shot "file://$tmp/demo.html" "$tmp/report-demo.png"

# A refused trigger: exit 2, no page left.
"$UFT" report -i "$tmp/demo.dat" --html --hist 'demo:request:keys=nope' -o "$tmp/bad.html" 2>"$tmp/err"
[ $? = 2 ] && [ ! -e "$tmp/bad.html" ] || fail "a refused --hist: $(cat "$tmp/err")"
exit 0
