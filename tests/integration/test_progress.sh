#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Progress on a terminal: uft record's line (elapsed, events/s, bytes
# written, lost so far) and uft report's, under script(1)'s terminal, erased
# before the summary; none of it without a terminal, nor for uft report when
# its output is the terminal. The loss summary's share and remedies after a
# forced loss (a tiny overwriting ring). UFT_PROGRESS_DELAY=0 shows the first
# line at once. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

command -v script >/dev/null || {
	echo "skip: no script(1) (bsdutils; scripts/deps.sh installs it)"
	exit 77
}
BW=$B/tests/block_writer
[ -x "$BW" ] || {
	echo "skip: build $B/tests/block_writer first (make tests-bin)"
	exit 77
}
export UFT_PROGRESS_DELAY=0
# Runs "$@" on a terminal (script's); its output in $tmp/tty.
on_tty() {
	local cmd
	printf -v cmd '%q ' "$@"
	# script runs the command with $SHELL: bash's quoting needs bash.
	SHELL=/bin/bash script -qec "$cmd" "$tmp/tty.log" >/dev/null 2>&1
	local rc=$?
	# script's own first and last lines out.
	grep -av '^Script \(started\|done\) on ' "$tmp/tty.log" >"$tmp/tty"
	return $rc
}
# The server recorded until SIGINT 1.5 s later (uft record passes it on).
rec_server() { timeout -s INT 1.5 "$UFT" record -e 'server:*' -o "$1" -- "$SERVER" 2; }

# 1. uft record on a terminal: the line, redrawn in place, erased before
# the summary.
on_tty bash -c "$(declare -f rec_server); UFT=$UFT SERVER=$SERVER; rec_server $tmp/a.dat"
grep -aq $'\ruft record: [0-9.]* s, [0-9]* events ([0-9]*/s), [0-9.]* [KMG]*i*B written, 0 lost\033\[K' \
	"$tmp/tty" || fail "no progress line on a terminal: $(cat -A "$tmp/tty" | head -5)"
grep -aq $'\r\033\[KCPU0: ' "$tmp/tty" || fail "the line was not erased before the summary: $(cat -A "$tmp/tty")"
[ -s "$tmp/a.dat" ] || fail "no file recorded on a terminal"

# 2. Without a terminal: no progress, no terminal codes.
rec_server "$tmp/b.dat" >"$tmp/b.out" 2>"$tmp/b.err"
grep -aq 'events (' "$tmp/b.err" && fail "progress without a terminal: $(cat -A "$tmp/b.err")"
grep -aq $'[\r\033]' "$tmp/b.out" "$tmp/b.err" && fail "terminal codes without a terminal"
grep -q '^total: ' "$tmp/b.out" || fail "no summary: $(cat "$tmp/b.out")"

# 3. The loss line and its remedies: a 4 KiB overwriting ring (8 KiB, its
# least) against 250000 events and more written as fast as they can be.
"$UFT" record -M overwrite -b 4 -e 'blk:*' -o "$tmp/l.dat" -- "$BW" 200000 >"$tmp/l.out" 2>"$tmp/l.err" ||
	fail "record with loss: $(cat "$tmp/l.err")"
grep -q '^uft record: lost [1-9][0-9]* of [1-9][0-9]* events ([0-9.]*%); [1-9][0-9]* overwritten before they were read$' \
	"$tmp/l.err" || fail "no loss line: $(cat "$tmp/l.err")"
grep -q '^uft record: to keep them: a larger buffer per thread (-b [0-9]*; it was 4 KiB), fewer events (-e, -f; -l, -n or --max-graph-depth for the function tracers), -M block to have a thread wait for the recorder on a full buffer, or -M discard to keep the first events instead of the last$' \
	"$tmp/l.err" || fail "no remedy line: $(cat "$tmp/l.err")"
# The same loss on a terminal: the progress line is gone before it.
on_tty "$UFT" record -M overwrite -b 4 -e 'blk:*' -o "$tmp/l2.dat" -- "$BW" 200000
grep -aq 'uft record: lost [1-9][0-9]* of [1-9][0-9]* events' "$tmp/tty" ||
	fail "no loss line on a terminal: $(cat -A "$tmp/tty")"

# 4. uft report: progress on a terminal when its output goes elsewhere.
on_tty bash -c "$UFT report -i $tmp/a.dat >$tmp/r.txt"
grep -aq $'\ruft report: [0-9.]* s, [0-9]*% of [0-9.]* [KMG]*i*B\033\[K' "$tmp/tty" ||
	fail "no report progress: $(cat -A "$tmp/tty")"
grep -aq $'\r\033\[K$' "$tmp/tty" || fail "report progress not erased: $(cat -A "$tmp/tty")"
grep -q ' reply: ' "$tmp/r.txt" || fail "report output"
on_tty "$UFT" report -i "$tmp/a.dat" --format chrome-json -o "$tmp/r.json"
grep -aq $'\ruft report: ' "$tmp/tty" || fail "no export progress: $(cat -A "$tmp/tty")"
# ... and none when its output is the terminal, or without a terminal.
on_tty "$UFT" report -i "$tmp/a.dat"
grep -aq 'uft report: ' "$tmp/tty" && fail "progress mixed into the report on the terminal"
grep -aq ' reply: ' "$tmp/tty" || fail "no report on the terminal"
"$UFT" report -i "$tmp/a.dat" >"$tmp/r2.txt" 2>"$tmp/r2.err" || fail "report"
[ -s "$tmp/r2.err" ] && fail "report wrote to stderr without a terminal: $(cat -A "$tmp/r2.err")"
cmp -s "$tmp/r.txt" "$tmp/r2.txt" || fail "the report differs on a terminal"
echo "PASS"
