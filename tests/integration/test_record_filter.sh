#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record -f: filters compiled in the traced process, evaluated before
# commit; rejected events take no buffer space and are not written. A filter
# that no event takes, or a spec that names none, stops the program before
# main with the kernel's error text and exit 2.
set -euo pipefail
source "$(dirname "$0")/lib/file.sh"
B=${UFT_BUILD:-build}
UFT=$B/bin/uft
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$UFT record -q -e demo:request -f 'status >= 400 || path ~ "*child*"' \
	-e demo:tick -f 'step == 3 && worker != 1' -o "$tmp/f.dat" -- "$B/bin/demo" >/dev/null
$UFT report -i "$tmp/f.dat" | grep -v '^#' >"$tmp/f.txt"
cat "$tmp/f.txt"
[ "$(grep -c ' request: ' "$tmp/f.txt")" -eq 3 ] # two 404s and the child's
# every request kept is a 404 or the child's ("!" pipelines do not trip set -e)
[ "$(grep ' request: ' "$tmp/f.txt" | grep -v 'status=404' | grep -cv 'path=/child' || :)" -eq 0 ]
[ "$(grep -c ' tick: ' "$tmp/f.txt")" -eq 2 ]
[ "$(grep ' tick: ' "$tmp/f.txt" | grep -cv 'step=3' || :)" -eq 0 ]
[ "$(grep -c ' tick: worker=1 ' "$tmp/f.txt" || :)" -eq 0 ]

# the flood program: a filter on one of its fields keeps exactly the matches
$UFT record -e flood:seq -f 'n & 1 && n <= 1000' -o "$tmp/n.dat" -- "$B/bin/flood" 5000 >"$tmp/n.sum"
grep -q '^total: 500 events written, 500 recorded, 0 overrun, 0 dropped' "$tmp/n.sum"

# a filter no event takes: the kernel's error text with the caret, exit 2,
# the program stopped before main (it prints nothing), no file
rc=0
$UFT record -q -e demo:request -f 'status >= 400 && nosuch == 1' -o "$tmp/b.dat" \
	-- "$B/bin/demo" 1 >"$tmp/out.txt" 2>"$tmp/err.txt" || rc=$?
[ $rc -eq 2 ] || { echo "exit $rc"; exit 1; }
printf '%s\n' "uft record: filter of 'demo:request' fits none of its events:" \
	"status >= 400 && nosuch == 1" "                        ^" \
	"parse_error: Field not found" \
	"uft record: nothing recorded: $B/bin/demo was stopped before main" >"$tmp/want.txt"
diff "$tmp/want.txt" "$tmp/err.txt"
[ ! -s "$tmp/out.txt" ] || { echo "the program ran"; exit 1; }
[ ! -e "$tmp/b.dat" ] || exit 1
! ls -A "$tmp" | grep_q '^\.b\.dat\.' || exit 1 # no temporary file left either

# a filter on several events applies to those that have its fields, the
# others are recorded unfiltered (the kernel's subsystem filter), and say so
$UFT record -q -e 'demo:*' -f 'latency > 1000' -o "$tmp/s.dat" \
	-- "$B/bin/demo" >/dev/null 2>"$tmp/err.txt"
grep_q "^uft record: warning: filter 'latency > 1000' of 'demo:\*' does not apply to demo:.* (no such field): recorded unfiltered, as the kernel does$" "$tmp/err.txt"
$UFT report -i "$tmp/s.dat" | grep ' request: ' >"$tmp/s.txt"
[ -s "$tmp/s.txt" ] || exit 1
! grep -E 'latency=[0-9]{1,3}$|latency=1000$' "$tmp/s.txt" || exit 1
[ "$($UFT report -i "$tmp/s.dat" | grep -c ' done: ')" -ge 1 ] # unfiltered

# a spec that names no event: exit 2, nothing run, no file
rc=0
$UFT record -q -e demo:nosuch -o "$tmp/e.dat" -- "$B/bin/demo" 1 >"$tmp/out.txt" \
	2>"$tmp/err.txt" || rc=$?
[ $rc -eq 2 ] || exit 1
printf '%s\n' "uft record: no event matches 'demo:nosuch'" \
	"uft record: nothing recorded: $B/bin/demo was stopped before main" >"$tmp/want.txt"
diff "$tmp/want.txt" "$tmp/err.txt"
[ ! -s "$tmp/out.txt" ] && [ ! -e "$tmp/e.dat" ] || exit 1

# -f needs an -e before it: a usage error, nothing written
rc=0
$UFT record -f 'x == 1' -o "$tmp/x.dat" -- true 2>"$tmp/f.err" || rc=$?
[ $rc -eq 2 ] || exit 1
[ "$(cat "$tmp/f.err")" = "uft record: -f must follow the -e it filters" ] || exit 1
[ ! -e "$tmp/x.dat" ] || exit 1
echo ok
