#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record -f: filters compiled in the traced process, evaluated before
# commit; rejected events take no buffer space and are not written. A bad
# filter is reported with the kernel's caret text and leaves the event
# unfiltered.
set -euo pipefail
B=${UFT_BUILD:-build}
UFT=$B/bin/uft
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$UFT record -q -e demo:request -f 'status >= 400 || path ~ "*child*"' \
	-e demo:tick -f 'step == 3 && worker != 1' -o "$tmp/f.dat" -- "$B/bin/demo" >/dev/null
$UFT report -i "$tmp/f.dat" | grep -v '^#' >"$tmp/f.txt"
cat "$tmp/f.txt"
[ "$(grep -c ' request: ' "$tmp/f.txt")" -eq 3 ] # two 404s and the child's
! grep ' request: ' "$tmp/f.txt" | grep -v 'status=404' | grep -vq 'path=/child'
[ "$(grep -c ' tick: ' "$tmp/f.txt")" -eq 2 ]
! grep ' tick: ' "$tmp/f.txt" | grep -vq 'step=3'
! grep -q ' tick: worker=1 ' "$tmp/f.txt"

# the flood program: a filter on one of its fields keeps exactly the matches
$UFT record -e flood:seq -f 'n & 1 && n <= 1000' -o "$tmp/n.dat" -- "$B/bin/flood" 5000 >"$tmp/n.sum"
grep -q '^total: 500 events written, 500 recorded, 0 overrun, 0 dropped' "$tmp/n.sum"

# a bad filter: the kernel's error text, and the event is recorded unfiltered
$UFT record -q -e demo:request -f 'status >= 400 && nosuch == 1' -o "$tmp/b.dat" \
	-- "$B/bin/demo" 1 >/dev/null 2>"$tmp/err.txt"
printf '%s\n' "uft: filter of demo:request:" "status >= 400 && nosuch == 1" \
	"                        ^" "parse_error: Field not found" >"$tmp/want.txt"
diff "$tmp/want.txt" "$tmp/err.txt"
[ "$($UFT report -i "$tmp/b.dat" | grep -c ' request: ')" -eq 5 ]

# -f needs an -e before it: a usage error, nothing written
rc=0
$UFT record -f 'x == 1' -o "$tmp/x.dat" -- true 2>"$tmp/f.err" || rc=$?
[ $rc -eq 2 ] || exit 1
[ "$(cat "$tmp/f.err")" = "uft record: -f must follow the -e it filters" ] || exit 1
[ ! -e "$tmp/x.dat" ] || exit 1
echo ok
