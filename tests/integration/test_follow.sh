#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record follows the program's children: through fork (the demo's child),
# through exec (a shell that runs traced programs), and through a program that
# replaces itself; each process image gets its own buffers.
set -euo pipefail
B=${UFT_BUILD:-build}
UFT=$B/bin/uft
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a shell (libuft preloaded, nothing of its own traced) starting two traced
# programs, the second by exec: five process images (four from a sanitizer
# build, which preloads nothing)
images=5
if nm -D "$B/lib/libuft.so" | grep -E ' U __(asan|tsan)_init$' >/dev/null; then images=4; fi
$UFT record -e 'demo:done' -e 'demo:child' -o "$tmp/f.dat" \
	-- sh -c "'$B/bin/demo' 1 >/dev/null; exec '$B/bin/demo' 2 >/dev/null" >"$tmp/sum.txt"
grep -q ", $images processes\$" "$tmp/sum.txt" || { cat "$tmp/sum.txt"; exit 1; }
$UFT report -i "$tmp/f.dat" | grep -v '^#' >"$tmp/r.txt"
cat "$tmp/r.txt"
[ "$(grep -c ' done: ' "$tmp/r.txt")" -eq 2 ]
[ "$(grep -c ' child: ' "$tmp/r.txt")" -eq 2 ]
# four distinct pids: two demos, each with its forked child
[ "$(sed -E 's/^ *[^ ]+-([0-9]+) .*/\1/' "$tmp/r.txt" | sort -u | wc -l)" -eq 4 ]
grep -q 'done: workers=1 ' "$tmp/r.txt"
grep -q 'done: workers=2 ' "$tmp/r.txt"
echo ok
