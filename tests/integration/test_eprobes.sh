#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Eprobes on a running process through its tree (uft ctl): on a static event
# and on a kprobe, their records made from the source's fields, the source
# in soft mode while only the eprobe is enabled, the eprobe's own filter and
# hist, the kernel's error_log lines, and deletion (EBUSY for an enabled
# eprobe and for a source an eprobe uses). Then `uft record --probe`: a
# kprobe and an eprobe defined before main() and recorded, `-e eprobes:X`,
# trace-cmd reading the file alike, and a refused definition stopping the
# program before main with the kernel's message. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

PR=$B/tests/probe_rounds
start_live "$tmp/live.out" "$PR" 0 loop
# Waits until `trace` has a line matching $1.
wait_trace() {
	for _ in $(seq 200); do
		ctl cat trace | grep_q -E "$1" && return 0
		sleep 0.05
	done
	fail "trace never showed '$1': $(ctl cat trace | tail -5)"
}

# On the static event pr:request, with a string field and a dereference.
ctl write -a dynamic_events 'e:slim pr.request id=$id:u32 path=$path:string first=+0($path):char' ||
	fail "define on a static event"
[ "$(ctl cat dynamic_events)" = 'e:eprobes/slim pr.request id=$id:u32 path=$path:string first=+0($path):char' ] ||
	fail "listing: $(ctl cat dynamic_events)"
ctl cat events/eprobes/slim/format | grep_q 'print fmt: " id=%u path=\\"%s\\" first=' ||
	fail "format: $(ctl cat events/eprobes/slim/format)"
ctl write events/eprobes/slim/enable 1 || fail "enable"
[ "$(ctl cat events/pr/request/enable)" = "0*" ] ||
	fail "source not in soft mode: $(ctl cat events/pr/request/enable)"
wait_trace "slim: \\(pr\\.request\\) id=[0-9]+ path=\"/api/users\" first='/'$"
ctl cat trace | grep_q ' request: ' && fail "the source's records kept while it is disabled"

# Its own filter and a hist on its args.
ctl write events/eprobes/slim/filter 'first == 0x2f && id > 0' || fail "filter"
ctl write events/eprobes/slim/trigger 'hist:keys=path' || fail "hist"
ctl write trace '' || fail "clear"
# A record the filter keeps was in the hist before it was committed.
wait_trace 'slim: .*path="/api/users"'
ctl cat events/eprobes/slim/hist | grep_q '{ path: /api/users *} hitcount: *[1-9]' ||
	fail "hist: $(ctl cat events/eprobes/slim/hist)"

# On a kprobe: the probe's pointer arg read as a string.
ctl write -a dynamic_events 'p:req pr_request p=%di len=%si:u32' || fail "kprobe"
ctl write -a dynamic_events 'e:fromkp kprobes.req path=+0($p):string n=$len:u32' ||
	fail "define on a kprobe"
ctl write events/eprobes/fromkp/enable 1 || fail "enable on a kprobe"
wait_trace 'fromkp: \(kprobes\.req\) path="/static/app.js" n=14$'
ctl cat trace | grep_q ' req: ' && fail "the kprobe's records kept while it is disabled"

# Busy: an enabled eprobe, a source an eprobe uses (enabled or not).
ctl write -a dynamic_events '-:slim' 2>/dev/null && fail "deleted an enabled eprobe"
ctl write events/eprobes/fromkp/enable 0 || fail "disable fromkp"
ctl write -a dynamic_events '-:req' 2>/dev/null && fail "deleted a kprobe an eprobe uses"
ctl write -a dynamic_events '-:fromkp' || fail "delete fromkp"
ctl write -a dynamic_events '-:req' || fail "delete the kprobe"

# The kernel's error_log lines, byte for byte.
ctl write error_log '' || fail "clear error_log"
ctl write -a dynamic_events 'e:bad pr.request $nosuch' 2>/dev/null && fail "bad field taken"
ctl write -a dynamic_events 'e:bad pr.nosuch $id' 2>/dev/null && fail "bad event taken"
ctl cat error_log | sed 's/^\[[ 0-9.]*\] //' >"$tmp/log"
cat >"$tmp/log.want" <<'EOF'
event_probe: error: Invalid $-valiable specified
  Command: e:bad pr.request $nosuch
                            ^
event_probe: error: Attached event does not exist
  Command: e:bad pr.nosuch $id
                 ^
EOF
cmp -s "$tmp/log" "$tmp/log.want" || fail "error_log: $(cat "$tmp/log")"

ctl write events/eprobes/slim/trigger '!hist:keys=path' || fail "hist off"
ctl write events/eprobes/slim/enable 0 || fail "disable"
[ "$(ctl cat events/pr/request/enable)" = "0" ] || fail "source still in soft mode"
ctl write -a dynamic_events '-:slim' || fail "delete"
[ -z "$(ctl cat dynamic_events)" ] || fail "listing after delete: $(ctl cat dynamic_events)"
kill "$pid"

# ---- uft record --probe: defined before main() and recorded ----
"$UFT" record --probe 'p:myprobe pr_request path=+0(%di):string len=%si:u32' \
	--probe 'e:short pr.request id=$id:u32 p=$path:string' -o "$tmp/rec.dat" -- "$PR" 3 \
	>"$tmp/rec.out" 2>&1 || fail "record --probe: $(cat "$tmp/rec.out")"
"$UFT" report -i "$tmp/rec.dat" | grep -o -E '(myprobe|short|request): .*' >"$tmp/rec.txt"
cat >"$tmp/rec.want" <<'EOF'
short:  id=0 p="/"
short:  id=1 p="/api/users"
short:  id=2 p="/static/app.js"
EOF
grep '^short' "$tmp/rec.txt" | cmp -s - "$tmp/rec.want" || fail "recorded eprobe: $(cat "$tmp/rec.txt")"
[ "$(grep -c -E '^myprobe: \([0-9a-f]+\) path="[/a-z.]*" len=[0-9]+$' "$tmp/rec.txt")" = 3 ] ||
	fail "recorded kprobe: $(cat "$tmp/rec.txt")"
grep_q '^request' "$tmp/rec.txt" && fail "the source recorded without -e"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$tmp/rec.dat" 2>/dev/null | grep -o -E '(myprobe|short|request): .*' |
		sed -E 's/^([a-z]+): +/\1: /' >"$tmp/tc.txt"
	sed -E 's/^([a-z]+): +/\1: /' "$tmp/rec.txt" | cmp -s - "$tmp/tc.txt" ||
		fail "trace-cmd reads the probes otherwise: $(cat "$tmp/tc.txt")"
fi

# -e names the eprobe (and the source, recorded beside it).
"$UFT" record --probe 'e:short pr.request id=$id:u32' -e eprobes:short -e pr:request \
	-o "$tmp/rec2.dat" -- "$PR" 2 >"$tmp/rec.out" 2>&1 || fail "record -e: $(cat "$tmp/rec.out")"
"$UFT" report -i "$tmp/rec2.dat" | grep -o -E '(short|request): .*' >"$tmp/rec2.txt"
printf '%s\n' 'request: id=0 path=/' 'request: id=1 path=/api/users' 'short:  id=0' 'short:  id=1' |
	cmp -s - <(LC_ALL=C sort "$tmp/rec2.txt") || fail "record -e eprobes:short: $(cat "$tmp/rec2.txt")"

# A refused definition: the program stops before main, exit 2, the kernel's
# message, no file.
rc=0
"$UFT" record --probe 'p:ok pr_request' --probe 'p:bad nosuch_function x=%di' \
	-o "$tmp/bad.dat" -- "$PR" 1 >"$tmp/bad.out" 2>&1 || rc=$?
[ $rc = 2 ] || fail "record of a refused probe exited $rc: $(cat "$tmp/bad.out")"
grep -A2 'trace_kprobe: error' "$tmp/bad.out" | sed 's/^\[[ 0-9.]*\] //' >"$tmp/bad.log"
printf '%s\n' 'trace_kprobe: error: Invalid probed address or symbol' \
	'  Command: p:bad nosuch_function x=%di' '                 ^' | cmp -s - "$tmp/bad.log" ||
	fail "refused probe's message: $(cat "$tmp/bad.out")"
grep_q -x -F "uft record: nothing recorded: $PR was stopped before main" "$tmp/bad.out" ||
	fail "not stopped before main: $(cat "$tmp/bad.out")"
[ ! -e "$tmp/bad.dat" ] || fail "a refused probe wrote a file"
# A definition that does not parse fails before anything runs.
rc=0
"$UFT" record --probe 'p:bad pr_request x=%zz' -o "$tmp/syn.dat" -- "$PR" 1 >"$tmp/syn.out" 2>&1 ||
	rc=$?
[ $rc = 2 ] || fail "record of a bad definition exited $rc: $(cat "$tmp/syn.out")"
printf '%s\n' 'uft record: --probe: trace_kprobe: error: Invalid register name' \
	'  Command: p:bad pr_request x=%zz' '                              ^' | cmp -s - "$tmp/syn.out" ||
	fail "bad definition's message: $(cat "$tmp/syn.out")"
[ ! -e "$tmp/syn.dat" ] || fail "a bad definition wrote a file"
echo "ok: eprobes live and recorded, uft record --probe"
