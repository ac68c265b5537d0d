#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fail early and loudly: a refused argument of report, start, stop, restart,
# show, extract, ctl, mount or sqlhist exits 2 with its message (the
# kernel's, caret included, where it has one) before anything is printed,
# written or changed in the process's tree; start applies a filter given to
# several events to those that take it, as the kernel's subsystem filter
# does. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"
DEMO=$B/bin/demo
[ -x "$DEMO" ] || {
	echo "skip: build $B first: no $DEMO"
	exit 77
}
u() { "$UFT" "$@"; }
# expect STATUS WHAT CMD...: runs CMD, stdout in $tmp/o, stderr in $tmp/e.
expect() {
	local want=$1 what=$2
	shift 2
	"$@" >"$tmp/o" 2>"$tmp/e"
	local rc=$?
	[ $rc = "$want" ] || fail "$what: exit $rc, want $want: $(cat "$tmp/e")"
}
# err_is TEXT: stderr is exactly TEXT (printf format) and stdout empty.
err_is() {
	printf "$1" | cmp -s - "$tmp/e" || fail "stderr: '$(cat "$tmp/e")', want '$(printf "$1")'"
	[ -s "$tmp/o" ] && fail "output despite the error: $(head -3 "$tmp/o")"
	return 0
}

# ---- report ----
u record -o "$tmp/t.dat" -- "$DEMO" >/dev/null 2>"$tmp/rec.err" || fail "record: $(cat "$tmp/rec.err")"
expect 2 "a --hist on a missing field" u report --hist 'demo:request:keys=nosuch' "$tmp/t.dat"
err_is 'uft report: hist:demo:request: error: Couldn'"'"'t find field\n  Command: hist:keys=nosuch\n                     ^\n'
expect 2 "a bad --hist after a good one" u report --hist 'demo:request:keys=path' \
	--hist 'demo:request:keys=nosuch' "$tmp/t.dat"
err_is 'uft report: hist:demo:request: error: Couldn'"'"'t find field\n  Command: hist:keys=nosuch\n                     ^\n'
expect 2 "a bad --synth" u report --synth 'bad' --hist 'demo:request:keys=path' "$tmp/t.dat"
[ -s "$tmp/o" ] && fail "--synth: output despite the error"
expect 2 "--trace with a bad --hist" u report --trace --hist 'demo:request:keys=nosuch' "$tmp/t.dat"
[ -s "$tmp/o" ] && fail "--trace: output despite the error"
ncpu=$(u report "$tmp/t.dat" | sed -n 's/.*#P:\([0-9]*\).*/\1/p')
[ -n "$ncpu" ] || fail "no #P in the report header"
expect 2 "--cpu the file lacks" u report --cpu 99 "$tmp/t.dat"
err_is "uft report: --cpu 99: $tmp/t.dat has CPUs 0..$((ncpu - 1))\n"
expect 0 "--cpu 0" u report --cpu 0 "$tmp/t.dat"
expect 2 "a missing input" u report "$tmp/nosuch.dat"
err_is "uft report: $tmp/nosuch.dat: No such file or directory\n"
echo hello >"$tmp/bad.dat"
expect 2 "not a trace.dat" u report -i "$tmp/bad.dat"
err_is "uft report: $tmp/bad.dat: not a trace.dat file (too short)\n"
expect 2 "sqlhist on a missing file" u sqlhist -i "$tmp/nosuch.dat" -e 'SELECT path FROM request'
grep_q "nosuch.dat: No such file or directory" "$tmp/e" || fail "sqlhist: $(cat "$tmp/e")"

expect 2 "list -i on a file that is not a trace.dat" u list -e -i "$tmp/bad.dat"
err_is "uft list: $tmp/bad.dat: not a trace.dat file (too short)\n"
# a bad regular expression is refused before the program runs
expect 2 "list with a bad regular expression" u list -e'(' touch "$tmp/ran"
err_is "uft list: bad regular expression '('\n"
[ -e "$tmp/ran" ] && fail "list ran the program despite a bad regular expression"
expect 2 "list of a program that does not exist" u list -e "$tmp/nosuch"
err_is "uft list: cannot run $tmp/nosuch: No such file or directory\n"

# ---- the live commands ----
start_server
ctl() { "$UFT" ctl -p "$pid" "$@"; }
ctl write synthetic_events 'alpha u64 lat' || fail "synthetic alpha"
ctl write -a synthetic_events 'beta int x' || fail "synthetic beta"
ctl write -a synthetic_events 'bravo u64 lat' || fail "synthetic bravo"
ctl write events/synthetic/beta/filter 'x == 1' || fail "beta's filter"
ctl write trace_options noirq-info || fail "irq-info off"
ctl write set_event server:reply || fail "set_event"
# The state a refused command must leave as it was.
snap() {
	local f
	for f in tracing_on buffer_size_kb trace_clock trace_options set_event error_log \
		events/synthetic/alpha/filter events/synthetic/beta/filter \
		events/synthetic/bravo/filter events/server/reply/filter; do
		echo "== $f"
		ctl cat "$f"
	done
}
# unchanged: the tree as before the refused command.
unchanged() { snap | cmp -s - "$tmp/before" || fail "$1 changed the tree: $(snap | diff "$tmp/before" -)"; }
snap >"$tmp/before"

# start: every argument checked first; -b, -C and -O come before the events
# in the writes, so a refused event shows that nothing was written.
GOOD=(-p "$pid" -b 64 -C global -O irq-info)
expect 2 "start: no event matches" u start "${GOOD[@]}" -e server:reply -e nosuch
err_is "uft: no event matches 'nosuch'\n"
unchanged "start -e nosuch"
expect 2 "start: no event takes the filter" u start "${GOOD[@]}" -e 'synthetic:*' -f 'latency > 5'
err_is "uft start: synthetic:alpha: event filter parse error: error: Field not found\n  Command: latency > 5\n                   ^\n"
unchanged "start -f 'latency > 5'"
# the same text as the tree's error_log after the same write
cp "$tmp/e" "$tmp/start.err"
ctl write events/synthetic/alpha/filter 'latency > 5' 2>/dev/null && fail "the tree took latency > 5"
ctl cat error_log | tail -3 | sed 's/^\[[ 0-9.]*\] /uft start: synthetic:alpha: /' | cmp -s - "$tmp/start.err" ||
	fail "start's message is not the tree's: $(ctl cat error_log | tail -3)"
ctl write error_log '' || fail "clear error_log"
expect 2 "start: a filter that does not parse" u start "${GOOD[@]}" -e synthetic:alpha -f 'lat >'
grep_q -x '  Command: lat >' "$tmp/e" || fail "start -f 'lat >': $(cat "$tmp/e")"
unchanged "start -f 'lat >'"
expect 2 "start: an unknown clock" u start "${GOOD[@]}" -C nosuch -e server:reply
grep_q "^uft start: -C nosuch: no such clock (trace_clock: " "$tmp/e" || fail "clock: $(cat "$tmp/e")"
unchanged "start -C nosuch"
expect 2 "start: an unknown option" u start "${GOOD[@]}" -O nosuch -e server:reply
err_is "uft start: -O nosuch: no such option (trace_options)\n"
unchanged "start -O nosuch"
expect 2 "start: a bad size" u start -p "$pid" -b 12x -e server:reply
err_is "uft start: -b 12x: not a size in KiB\n"
expect 2 "start: an instance that does not exist" u start -p "$pid" -B nosuch -e server:reply
err_is "uft: instance nosuch does not exist\n"
unchanged "start -B nosuch"
expect 2 "start: a process that does not exist" u start -p 999999 -e server:reply
err_is "uft: process 999999: No such process\n"
expect 2 "start: a process not traced" u start -p $$ -e server:reply
err_is "uft: process $$: not traced by uft (no control socket)\n"

# A filter on several events goes to those that take it: one by one for a
# part of a system (the others' refusal logged in error_log)...
ctl write error_log '' || fail "clear error_log"
u start -p "$pid" -e 'synthetic:b*' -f 'lat > 5' || fail "start -e 'synthetic:b*' -f 'lat > 5'"
[ "$(ctl cat events/synthetic/bravo/filter)" = 'lat > 5' ] || fail "bravo did not take it"
[ "$(ctl cat events/synthetic/beta/filter)" = 'x == 1' ] || fail "beta's filter changed"
[ "$(ctl cat events/synthetic/alpha/filter)" = none ] || fail "alpha, not selected, got a filter"
printf 'synthetic:beta\nsynthetic:bravo\n' | cmp -s - <(ctl cat set_event) ||
	fail "set_event: $(ctl cat set_event)"
ctl cat error_log | sed 's/^\[[ 0-9.]*\] //' >"$tmp/log"
printf 'event filter parse error: error: Field not found\n  Command: lat > 5\n               ^\n' |
	cmp -s - "$tmp/log" || fail "error_log: $(cat "$tmp/log")"
# ...through the system's own filter file for a whole system, as writing it
# does: the same texts as the tree's after the same write.
ctl write error_log '' || fail "clear error_log"
u start -p "$pid" -e synthetic -f 'lat > 7' || fail "start -e synthetic -f 'lat > 7'"
for e in alpha bravo; do
	[ "$(ctl cat events/synthetic/$e/filter)" = 'lat > 7' ] || fail "$e did not take it"
done
[ "$(ctl cat events/synthetic/beta/filter)" = 'x == 1' ] || fail "beta's filter changed"
ctl cat error_log | sed 's/^\[[ 0-9.]*\] //' >"$tmp/log"
printf "event filter parse error: error: Couldn't find or set field in one of a subsystem's events\n  Command: lat > 7\n           ^\n" |
	cmp -s - "$tmp/log" || fail "error_log after a system filter: $(cat "$tmp/log")"
u start -p "$pid" -e server:reply || fail "start -e server:reply"
snap >"$tmp/before"

# stop, restart, show, stat, reset: a refused pid or instance exits 2.
for c in stop restart stat reset show; do
	expect 2 "$c -p 999999" u $c -p 999999
	err_is "uft: process 999999: No such process\n"
	expect 2 "$c -B nosuch" u $c -p "$pid" -B nosuch
	err_is "uft: instance nosuch does not exist\n"
done
expect 2 "show -c 99" u show -p "$pid" -c 99
err_is "uft show: -c 99: the process has no CPU 99\n"
expect 2 "show -c x" u show -p "$pid" -c x
unchanged "stop, restart, show, stat or reset refused"

# ctl: a path the tree lacks, a value it refuses.
expect 2 "ctl cat nosuch" ctl cat nosuch
err_is "uft: nosuch: No such file or directory\n"
expect 2 "ctl write nosuch" ctl write nosuch 1
err_is "uft: nosuch: No such file or directory\n"
expect 2 "ctl write tracing_on bogus" ctl write tracing_on bogus
err_is "uft: tracing_on: Invalid argument\n"
expect 2 "ctl ls nosuch" ctl ls nosuch
expect 2 "ctl -p 999999" u ctl -p 999999 cat tracing_on
err_is "uft: process 999999: No such process\n"
unchanged "ctl refused"

# extract: an output that cannot be written is refused before the buffer
# is read (and consumed); a failure leaves no file.
expect 2 "extract into a missing directory" u extract -p "$pid" -o "$tmp/nodir/x.dat"
err_is "uft extract: $tmp/nodir/x.dat: No such file or directory\n"
mkdir "$tmp/isdir"
expect 2 "extract onto a directory" u extract -p "$pid" -o "$tmp/isdir"
err_is "uft extract: $tmp/isdir: Is a directory\n"
mkdir "$tmp/out"
expect 2 "extract from a missing process" u extract -p 999999 -o "$tmp/out/x.dat"
err_is "uft: process 999999: No such process\n"
[ -z "$(ls -A "$tmp/out")" ] || fail "a refused extract left files: $(ls -A "$tmp/out")"
expect 0 "extract" u extract -p "$pid" -o "$tmp/out/x.dat"
[ "$(ls -A "$tmp/out")" = x.dat ] || fail "extract left: $(ls -A "$tmp/out")"
u report "$tmp/out/x.dat" >/dev/null || fail "the extracted file does not read"

# mount: the directory is checked before the process is reached.
expect 2 "mount on a missing directory" u mount -p 999999 "$tmp/nodir"
err_is "uft: $tmp/nodir: No such file or directory\n"
expect 2 "mount of a missing process" u mount -p 999999 "$tmp/out"
err_is "uft: process 999999: No such process\n"
exit 0
