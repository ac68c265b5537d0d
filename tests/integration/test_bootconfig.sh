#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# UFT_BOOTCONFIG and `uft record --bootconfig`: a bootconfig file set up
# before main() (events with a filter, an instance with its own events and
# clock, a synthetic event fed by an onmatch hist and read live; kernel.*
# keys down to function_graph from main()), so the program's first events
# are traced as configured; a file that does not
# parse and one the tree refuses leave the program running untraced, with the
# key, its line and the tree's error. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/live.sh"

BCW=$B/tests/bc_wait
[ -x "$BCW" ] || {
	echo "skip: build $B tests-bin first"
	exit 77
}
u() { "$UFT" "$@"; }

# Starts bc_wait (5 rounds of bc:wake id=I, bc:run seq=I, then waits) with
# the bootconfig file $1; its pid in $pid, its stderr in $tmp/err.
start_bc() {
	UFT_BOOTCONFIG=$1 "$BCW" 5 2>"$tmp/err" &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 200); do
		[ -S "$UFT_RUNDIR/$pid.sock" ] && return 0
		sleep 0.05
	done
	fail "no control socket for bc_wait: $(cat "$tmp/err")"
}
stop_bc() {
	kill "$pid" && wait "$pid"
}
# Waits until `uft ctl cat $1` has a line matching $2.
wait_for() {
	for _ in $(seq 200); do
		u ctl -p "$pid" cat "$1" 2>/dev/null | grep_q -e "$2" && return 0
		sleep 0.05
	done
	fail "$1 never showed '$2': $(u ctl -p "$pid" cat "$1")"
}
events_of() { u ctl -p "$pid" cat "$1" | grep -o -E '(wake|run): .*'; }

good=$tmp/good.conf
cat >"$good" <<'EOF'
# wake -> run latency per round, as a synthetic event with its own hist
kernel.trace_buf_size = 256K
kernel.tp_printk
ftrace {
	options = noirq-info
	event {
		synthetic.bc_lat {
			fields = "u64 lat", "unsigned int seq"
			hist { keys = seq; values = lat }
		}
		synthetic.enable
		bc.wake {
			filter = "id < 3"
			enable
			hist { keys = id; var.t0 = common_timestamp.usecs }
		}
		kprobes.bc_probe {
			probes = "bc_round n=%di:u32"
			enable
		}
		bc.run.hist {
			keys = seq
			var.lat = common_timestamp.usecs - $t0
			onmatch { event = bc.wake; trace = bc_lat, $lat, seq }
		}
	}
	instance.other {
		events = "bc:run"
		trace_clock = global
		buffer_size = 2MB
		event.kprobes.win_on { probes = "bc_round%return"; actions = "traceon" }
		event.uprobes.nosuch { probes = "x" }
	}
	bogus = 1
}
EOF

# ---- UFT_BOOTCONFIG: the first events already traced as configured ----
start_bc "$good"
wait_for events/synthetic/bc_lat/hist 'Hits: 5'
events_of trace >"$tmp/top"
[ "$(u ctl -p "$pid" cat trace | grep -c -E ' bc_lat: lat=[0-9]+ seq=[0-4]$')" = 5 ] ||
	fail "synthetic events not traced: $(u ctl -p "$pid" cat trace)"
printf 'wake: id=%s\n' 0 1 2 | cmp -s - "$tmp/top" || fail "top trace: $(cat "$tmp/top")"
events_of instances/other/trace >"$tmp/other"
printf 'run: seq=%s\n' 0 1 2 3 4 | cmp -s - "$tmp/other" || fail "instance: $(cat "$tmp/other")"
u ctl -p "$pid" cat events/synthetic/bc_lat/hist >"$tmp/hist"
for s in 0 1 2 3 4; do
	grep_q -E "^\{ seq: +$s \} hitcount: +1  lat: +[0-9]+$" "$tmp/hist" ||
		fail "no seq $s in the synthetic hist: $(cat "$tmp/hist")"
done
want='hist:keys=seq:vals=hitcount:lat=common_timestamp.usecs-$t0:sort=hitcount:size=2048:clock=global:onmatch(bc.wake).trace(bc_lat,$lat,seq) [active]'
[ "$(u ctl -p "$pid" cat events/bc/run/trigger)" = "$want" ] ||
	fail "run trigger: $(u ctl -p "$pid" cat events/bc/run/trigger)"
[ "$(u ctl -p "$pid" cat buffer_size_kb)" = 256 ] || fail "kernel.trace_buf_size"
[ "$(u ctl -p "$pid" cat instances/other/buffer_size_kb)" = 2048 ] || fail "buffer_size = 2MB"
u ctl -p "$pid" cat instances/other/trace_clock | grep_q '\[global\]' || fail "instance clock"
[ "$(u ctl -p "$pid" cat options/irq-info)" = 0 ] || fail "options = noirq-info"
for w in "$good:3: kernel.tp_printk: no meaning in uft, ignored" \
	"$good:32: ftrace.instance.other.event.uprobes.nosuch.probes: not available in this uft" \
	"$good:34: ftrace.bogus: unknown key, ignored"; do
	grep_q -F "uft: bootconfig $w" "$tmp/err" || fail "no notice '$w': $(cat "$tmp/err")"
done
[ "$(wc -l <"$tmp/err")" = 3 ] || fail "stderr: $(cat "$tmp/err")"
# event.kprobes: defined before main(), enabled, one hit per round; the
# instance's return probe defined and its trigger set.
[ "$(u ctl -p "$pid" cat trace | grep -c -E ' bc_probe: \(bc_round\+0x0/0x[0-9a-f]+\) n=[0-4]$')" = 5 ] ||
	fail "kprobe not traced: $(u ctl -p "$pid" cat trace)"
u ctl -p "$pid" cat dynamic_events >"$tmp/dyn"
grep -E '^[pr]:' "$tmp/dyn" | cmp -s - <(printf '%s\n' 'p:kprobes/bc_probe bc_round n=%di:u32' \
	'r:kprobes/win_on bc_round') || fail "dynamic_events: $(cat "$tmp/dyn")"
u ctl -p "$pid" cat instances/other/events/kprobes/win_on/trigger | grep_q '^traceon' ||
	fail "win_on trigger: $(u ctl -p "$pid" cat instances/other/events/kprobes/win_on/trigger)"
stop_bc

# Untraced: no event enabled, no trigger, no synthetic event, no instance.
untraced() {
	[ -z "$(u ctl -p "$pid" cat set_event)" ] || fail "$1: events enabled: $(u ctl -p "$pid" cat set_event)"
	[ -z "$(u ctl -p "$pid" cat synthetic_events)" ] || fail "$1: synthetic events left"
	[ -z "$(u ctl -p "$pid" cat dynamic_events)" ] || fail "$1: probes left: $(u ctl -p "$pid" cat dynamic_events)"
	[ -z "$(u ctl -p "$pid" ls instances)" ] || fail "$1: instances left"
	[ "$(u ctl -p "$pid" cat events/bc/wake/filter)" = none ] || fail "$1: filter left"
	u ctl -p "$pid" cat events/bc/wake/trigger | grep_q '^hist' && fail "$1: trigger left"
	[ "$(u ctl -p "$pid" cat buffer_size_kb)" = 1024 ] || fail "$1: buffer size left"
	[ "$(u ctl -p "$pid" cat options/irq-info)" = 1 ] || fail "$1: option left"
	events_of trace | grep_q . && fail "$1: events traced"
	return 0
}

# ---- a file that does not parse: nothing applied, the program runs ----
bad=$tmp/bad.conf
printf 'ftrace.event.bc.wake.enable\nftrace.options = noirq-info\n  ftrace.options = x\n' >"$bad"
start_bc "$bad"
grep_q -x -F "uft: bootconfig $bad:3:18: Value is redefined" "$tmp/err" ||
	fail "parse error: $(cat "$tmp/err")"
untraced "parse error"
stop_bc

# ---- a setting the tree refuses: the key, its line, error_log; all undone ----
refused=$tmp/refused.conf
sed 's/^\t\t\tkeys = seq$/\t\t\tkeys = nosuch/' "$good" >"$refused"
start_bc "$refused"
grep_q -F "uft: bootconfig $refused:21: ftrace.event.bc.run.hist: events/bc/run/trigger: cannot write 'hist:keys=nosuch:" "$tmp/err" ||
	fail "apply error: $(cat "$tmp/err")"
grep_q -F 'error: Couldn'"'"'t find field' "$tmp/err" || fail "no error_log text: $(cat "$tmp/err")"
grep_q -x -F "uft: bootconfig $refused: nothing applied, the program runs untraced" "$tmp/err" ||
	fail "no untraced line: $(cat "$tmp/err")"
untraced "refused setting"
stop_bc

# ---- kernel.* command-line keys, an instance's options ----
kern=$tmp/kernel.conf
cat >"$kern" <<'EOF'
kernel {
	trace_options = nosym-offset
	trace_event = "bc:wake"
	trace_clock = mono
	fgraph_max_depth = 2
	ftrace_filter = main, on_signal
	ftrace = function_graph
	trace_instance = "inst1^traceoff,bc:run"
	console = ttyS0
}
init.foo = 1
ftrace.instance.x { cpumask = 1; tracing_on = 0; alloc_snapshot; options = nooverwrite }
EOF
start_bc "$kern"
wait_for trace 'wake: id=4'
check() {
	[ "$(u ctl -p "$pid" cat "$1" | grep -v '^#' | tr '\n' ' ')" = "$2" ] ||
		fail "$1: $(u ctl -p "$pid" cat "$1")"
}
check current_tracer 'function_graph '
check max_graph_depth '2 '
check set_ftrace_filter 'main on_signal '
check set_event 'bc:wake '
check options/sym-offset '0 '
check instances/inst1/tracing_on '0 '
check instances/inst1/set_event 'bc:run '
check instances/x/tracing_cpumask '1 '
check instances/x/tracing_on '0 '
check instances/x/options/overwrite '0 '
u ctl -p "$pid" cat trace_clock | grep_q '\[mono\]' || fail "kernel.trace_clock"
u ctl -p "$pid" cat trace | grep_q -E '^ *[0-9]+\) +\| +main\(\) \{$' ||
	fail "main() not graphed: $(u ctl -p "$pid" cat trace)"
[ "$(cat "$tmp/err")" = "uft: bootconfig $kern:9: kernel.console: no meaning in uft, ignored" ] ||
	fail "kernel keys: $(cat "$tmp/err")"
stop_bc

# ---- uft record --bootconfig: the same start, recorded ----
"$UFT" record --bootconfig "$good" -o "$tmp/rec.dat" -- "$BCW" 5 >"$tmp/rec.out" 2>&1 &
rec=$!
pids+=("$rec")
pid=
for _ in $(seq 200); do
	pid=$(pgrep -P "$rec" -x bc_wait) && [ -S "$UFT_RUNDIR/$pid.sock" ] && break
	sleep 0.05
done
[ -n "$pid" ] || fail "no recorded bc_wait: $(cat "$tmp/rec.out")"
wait_for events/synthetic/bc_lat/hist 'Hits: 5'
kill "$pid"
wait "$rec" || fail "uft record: $(cat "$tmp/rec.out")"
u report -i "$tmp/rec.dat" >"$tmp/rec.txt"
grep -o -E '(wake|run): .*' "$tmp/rec.txt" >"$tmp/rec.ev"
printf 'wake: id=%s\n' 0 1 2 | cmp -s - "$tmp/rec.ev" ||
	fail "recorded: $(cat "$tmp/rec.txt")"
[ "$(grep -c -E ' bc_lat: lat=[0-9]+ seq=[0-4]$' "$tmp/rec.txt")" = 5 ] ||
	fail "recorded synthetic events: $(cat "$tmp/rec.txt")"
# The kprobe the file defines is recorded too, and trace-cmd reads it alike.
grep -o -E 'bc_probe: .*' "$tmp/rec.txt" >"$tmp/rec.kp"
[ "$(grep -c -E '^bc_probe: \([0-9a-f]+\) n=[0-4]$' "$tmp/rec.kp")" = 5 ] ||
	fail "recorded kprobe: $(cat "$tmp/rec.txt")"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$tmp/rec.dat" 2>/dev/null | grep -o -E 'bc_probe: .*' | tr -s ' ' |
		cmp -s - "$tmp/rec.kp" || fail "trace-cmd reads the kprobe otherwise"
fi
# Under uft record a file that cannot be applied is a refused argument: the
# program stops before main, exit 2, no file.
rc=0
"$UFT" record --bootconfig "$refused" -o "$tmp/refused.dat" -- "$BCW" 1 >"$tmp/rec.out" \
	2>"$tmp/rec.err" || rc=$?
[ $rc = 2 ] || fail "record --bootconfig of a refused file exited $rc: $(cat "$tmp/rec.err")"
grep_q -F "bootconfig $refused:21: ftrace.event.bc.run.hist: events/bc/run/trigger: cannot write 'hist:keys=nosuch:" "$tmp/rec.err" ||
	fail "record --bootconfig error: $(cat "$tmp/rec.err")"
grep_q -x -F "uft record: nothing recorded: $BCW was stopped before main" "$tmp/rec.err" ||
	fail "record --bootconfig: not stopped: $(cat "$tmp/rec.err")"
[ ! -e "$tmp/refused.dat" ] || fail "record --bootconfig of a refused file wrote a file"
echo "ok: bootconfig applied before main, errors leave the program untraced"
