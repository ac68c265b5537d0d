#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A traced program may rewrite its own shared region while `uft record` reads
# it (tests/traced/hostile_shm.c: ring geometry, offsets, counts, produced,
# commit lengths, format records, page CPUs). The recorder survives, names
# what it dropped, and writes a file uft report and trace-cmd read, with the
# events of a well-behaved process recorded at the same time. An unsealed
# memfd is refused. SIGTERM to the recorder ends the program, writes the file
# and leaves no temporary directory. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
HOSTILE=$B/tests/hostile_shm
KILLME=$B/bin/killme
need "$DEMO" "$HOSTILE" "$KILLME"

# 1. every rewrite, beside demo, plus a fake registration on an unsealed memfd
rc=0
$UFT record -b 16 -o "$tmp/h.dat" -- sh -c \
	"'$DEMO' 2 >/dev/null & '$HOSTILE' all && '$HOSTILE' unsealed; wait" \
	>"$tmp/out.txt" 2>"$tmp/err.txt" || rc=$?
cat "$tmp/out.txt" "$tmp/err.txt"
[ "$rc" -eq 0 ] || fail "uft record exited $rc"
for why in 'bad ring header' 'bad ring state' 'bad format record' 'unsealed memfd'; do
	grep_q "dropped from traced memory: [0-9]* $why\$" "$tmp/err.txt" || fail "no '$why'"
done
grep_q '^unsealed: refused$' "$tmp/out.txt" || fail "unsealed memfd accepted"
grep_q 'refused, its memfd is not sealed' "$tmp/err.txt" || fail "refusal not reported"
# no CPU beyond the machine's, whatever a page said
cpus=$(getconf _NPROCESSORS_CONF)
[ "$(grep -c '^CPU[0-9]*:' "$tmp/out.txt")" -le "$cpus" ] || fail "CPUs from traced memory"
$UFT report -i "$tmp/h.dat" >"$tmp/r.txt" || fail "uft report"
grep_q ' done: workers=2 ' "$tmp/r.txt" || fail "demo's events missing"
[ "$(grep -c ' request: ' "$tmp/r.txt")" -eq 9 ] || fail "demo's requests (9 with its child)"
grep_q 'mode=magic i=2999$' "$tmp/r.txt" || fail "the hostile program's last event (a header rewrite the recorder ignores)"
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$tmp/h.dat" >"$tmp/t.txt" 2>"$tmp/t.err" || fail "trace-cmd report"
	grep_q ' done: *workers=2 ' "$tmp/t.txt" || fail "trace-cmd: demo's events missing"
else
	echo "note: no trace-cmd, its check skipped"
fi

# 2. SIGTERM to the recorder: the program ends, the file is written, and the
# recorder's directory (where the socket was) is gone.
$UFT record -o "$tmp/k.dat" -- "$KILLME" 0 "$tmp/progress" 200000 >"$tmp/k.txt" 2>&1 &
rec=$!
for _ in $(seq 1 600); do
	[ -s "$tmp/progress" ] && break
	sleep 0.05
done
[ -s "$tmp/progress" ] || fail "killme never reported"
child=$(cut -d' ' -f1 "$tmp/progress")
sock=$(tr '\0' '\n' <"/proc/$child/environ" | sed -n 's/^UFT_RECORD=//p')
[ -n "$sock" ] && [ -d "$(dirname "$sock")" ] || fail "no recorder directory"
kill -TERM "$rec"
rc=0
wait "$rec" || rc=$?
cat "$tmp/k.txt"
[ "$rc" -eq 143 ] || fail "recorder exited $rc, not the program's 128+SIGTERM"
[ ! -e "$(dirname "$sock")" ] || fail "$(dirname "$sock") left behind"
last=$(cut -d' ' -f2 "$tmp/progress")
$UFT report -i "$tmp/k.dat" >"$tmp/kr.txt" || fail "uft report after SIGTERM"
grep_q "seq: n=$last\$" "$tmp/kr.txt" || fail "event $last missing after SIGTERM"
echo ok
