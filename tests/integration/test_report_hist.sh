#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft report --hist on a recording of the demo program: the totals agree with
# the events in the plain report, entries carry the kernel's layout, several
# --hist options print in order, variables and onmatch generate a
# synthetic event shown by --trace, and bad specifications fail with the
# kernel's message and caret. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"

"$UFT" record -o "$tmp/t.dat" -- "$DEMO" >/dev/null 2>"$tmp/rec.err" || fail "record: $(cat "$tmp/rec.err")"
"$UFT" report -i "$tmp/t.dat" >"$tmp/plain.txt" || fail "plain report"
nreq=$(grep -c ' request: ' "$tmp/plain.txt")
[ "$nreq" -gt 0 ] || fail "no request events recorded"
npaths=$(grep ' request: ' "$tmp/plain.txt" | sed 's/.*path=\([^ ]*\).*/\1/' | sort -u | wc -l)
idx=$(grep -c ' request: path=/index.html ' "$tmp/plain.txt")

"$UFT" report -i "$tmp/t.dat" --hist 'demo:request:keys=path:vals=latency:sort=latency' \
	>"$tmp/h1.txt" || fail "report --hist"
head -5 "$tmp/h1.txt" >"$tmp/head.txt"
printf '# event histogram\n#\n# trigger info: hist:keys=path:vals=hitcount,latency:sort=latency:size=2048 [active]\n#\n\n' |
	cmp -s - "$tmp/head.txt" || fail "header: $(cat "$tmp/head.txt")"
tail -4 "$tmp/h1.txt" >"$tmp/tot.txt"
printf 'Totals:\n    Hits: %d\n    Entries: %d\n    Dropped: 0\n' "$nreq" "$npaths" |
	cmp -s - "$tmp/tot.txt" || fail "totals: $(cat "$tmp/tot.txt") (want $nreq hits, $npaths entries)"
grep -q "^{ path: /index.html  *} hitcount: *$idx  latency: *[0-9]*\$" "$tmp/h1.txt" ||
	fail "index.html entry: $(grep index "$tmp/h1.txt")"
[ "$(grep -c '^{ path: ' "$tmp/h1.txt")" = "$npaths" ] || fail "entry lines"
# sorted by latency, ascending
grep '^{ path: ' "$tmp/h1.txt" | sed 's/.*latency: *//' | sort -n -c || fail "not sorted by latency"
# a key line is exactly "{ path: %-50s }" wide
awk '/^\{ path: / { if (index($0, "} hitcount:") != 60) bad = 1 } END { exit bad }' "$tmp/h1.txt" ||
	fail "key column width"

# several options, event given without its system, modifiers, filter
"$UFT" report -i "$tmp/t.dat" \
	--hist 'request:hist:keys=common_pid.execname:vals=hitcount.percent:nohitcount:sort=common_pid' \
	--hist 'demo:request:keys=status:vals=latency.hex if status == 404' >"$tmp/h2.txt" ||
	fail "two --hist"
[ "$(grep -c '^# event histogram$' "$tmp/h2.txt")" = 2 ] || fail "two histograms"
grep -q '^# trigger info: hist:keys=common_pid.execname:vals=hitcount.percent:sort=common_pid.execname:size=2048:nohitcount \[active\]$' \
	"$tmp/h2.txt" || fail "execname trigger info"
grep -q '^{ common_pid: worker-0        \[ *[0-9]*\] }  hitcount (%): ' "$tmp/h2.txt" ||
	fail "execname entry: $(grep common_pid "$tmp/h2.txt")"
n404=$(grep -c ' request: .*status=404 ' "$tmp/plain.txt")
grep -q "^{ status:        404 } hitcount: *$n404  latency: *[0-9a-f]*\$" "$tmp/h2.txt" ||
	[ "$n404" = 0 ] || fail "status 404 entry"
grep -q '^{ status:        200 }' "$tmp/h2.txt" && fail "filter let status 200 in"
! grep -q ' request: ' "$tmp/h2.txt" || fail "event lines printed with --hist"

# variables across events, onmatch generating a synthetic event defined
# with --synth, and --trace printing each generated record right after the
# record that generated it (same task, CPU, time; status passed on)
SY=(--synth 'req_lat u64 lat; int status'
	--hist 'demo:tick:keys=common_pid:t=common_timestamp.usecs'
	--hist 'demo:request:keys=common_pid:lat=common_timestamp.usecs-$t:onmatch(demo.tick).trace(req_lat,$lat,status)')
"$UFT" report -i "$tmp/t.dat" "${SY[@]}" >"$tmp/s.txt" || fail "--synth hist"
hits=$(grep '^    Hits: ' "$tmp/s.txt" | sed -n 2p | tr -dc 0-9)
"$UFT" report -i "$tmp/t.dat" "${SY[@]}" --trace >"$tmp/st.txt" || fail "--trace"
[ "$hits" -gt 0 ] && [ "$(grep -c ' req_lat: lat=' "$tmp/st.txt")" = "$hits" ] ||
	fail "req_lat lines: $(grep -c ' req_lat: ' "$tmp/st.txt"), hits $hits"
awk '/ request: / { prev = $0; next }
     / req_lat: / { split(prev, p, ": request: "); split($0, q, ": req_lat: ");
		    st = prev; sub(/.*status=/, "", st); sub(/ .*/, "", st);
		    if (p[1] != q[1] || q[2] !~ ("^lat=[0-9]+ status=" st "$")) bad = 1 }
     { prev = $0 } END { exit bad }' "$tmp/st.txt" || fail "req_lat placement"
[ "$(grep -c ': request: ' "$tmp/st.txt")" = "$nreq" ] || fail "--trace lost request lines"

# errors: kernel message and caret under the token, nothing on stdout
"$UFT" report -i "$tmp/t.dat" --hist 'demo:request:keys=path:vals=latency.log2' >"$tmp/e.out" 2>"$tmp/e.err" &&
	fail "bad modifier accepted"
[ -s "$tmp/e.out" ] && fail "output despite an error"
printf 'uft report: hist:demo:request: error: Invalid field modifier\n  Command: hist:keys=path:vals=latency.log2\n                               ^\n' |
	cmp -s - "$tmp/e.err" || fail "error text: $(cat "$tmp/e.err")"
"$UFT" report -i "$tmp/t.dat" --hist 'demo:nosuch:keys=x' 2>/dev/null && fail "unknown event accepted"
exit 0
