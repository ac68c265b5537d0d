#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record -p function|function_graph on the demo program: option checks,
# the kallsyms section naming the program's and its libraries' functions,
# then (where the function tracer runtime accepts the tracer) the report in
# the kernel's function and function_graph text and trace-cmd reading the
# same calls. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$DEMO"

# Bad combinations are refused before anything runs.
expect_usage() { # MESSAGE ARGS...
	local want=$1
	shift
	"$UFT" record -o "$tmp/x.dat" "$@" -- true >"$tmp/out" 2>&1
	[ $? = 2 ] || fail "uft record $* should exit 2"
	grep -q -- "$want" "$tmp/out" || fail "uft record $*: no '$want' in: $(cat "$tmp/out")"
	[ ! -e "$tmp/x.dat" ] || fail "uft record $* wrote a file"
}
expect_usage "-l and -n need -p" -l main
expect_usage "-l and -n need -p" -n main
expect_usage "unknown tracer 'bogus'" -p bogus
expect_usage "need -p function_graph" -p function -g main
expect_usage "need -p function_graph" -p function --max-graph-depth 2
expect_usage "bad graph depth" -p function_graph --max-graph-depth x
expect_usage "bad function pattern" -p function -l ''
expect_usage "--func-stack needs -p function" --func-stack
expect_usage "--func-stack needs -p function" -p function_graph --func-stack

# The symbols of the program and of its libraries, as kallsyms lines.
"$UFT" record -q -p function_graph -g main -o "$tmp/g.dat" -- "$DEMO" >"$tmp/g.out" 2>"$tmp/g.err" ||
	fail "uft record -p function_graph: $(cat "$tmp/g.err")"
grep -a -q -E '^[0-9a-f]{16} T main$' "$tmp/g.dat" || fail "no 'T main' kallsyms line"
grep -a -q -E '^[0-9a-f]{16} [tT] worker$' "$tmp/g.dat" || fail "no static 'worker' kallsyms line"
grep -a -q -E '^[0-9a-f]{16} [TW] malloc	\[libc\.so\.6\]$' "$tmp/g.dat" ||
	fail "no 'malloc [libc.so.6]' kallsyms line"
grep -a -q -E '0000000000001000 T tracing_mark_write$' "$tmp/g.dat" || fail "no marker symbol"

if grep -q "current_tracer: cannot set\|cannot add" "$tmp/g.err"; then
	echo "skip: the function tracer runtime does not accept current_tracer function_graph here ($(head -1 "$tmp/g.err"))"
	exit 77
fi

# function_graph: the kernel's graph text, and trace-cmd's graph of the calls.
"$UFT" report -i "$tmp/g.dat" >"$tmp/g.txt" || fail "uft report (graph)"
head -4 "$tmp/g.txt" | diff - <(printf '%s\n' "# tracer: function_graph" "#" \
	"# CPU  DURATION                  FUNCTION CALLS" \
	"# |     |   |                     |   |   |   |") >/dev/null || fail "graph header: $(head -4 "$tmp/g.txt")"
# main calls no traced function of its own thread (the workers run in
# theirs): a leaf, or an entry with its closing brace.
grep -q -E '^ +[0-9]+\) .*\|  main\(\)( \{|;)$' "$tmp/g.txt" || fail "no 'main()' line"
if grep -q -E '\|  main\(\) \{$' "$tmp/g.txt"; then
	grep -q -E '[|] +}( /[*] [a-z_0-9.]+ [*]/)?$' "$tmp/g.txt" || fail "no closing brace"
fi
# funcgraph-retval: main's exit holds what it returned (the demo's 0).
"$UFT" report -i "$tmp/g.dat" -O funcgraph-retval >"$tmp/gr.txt" || fail "uft report (retval)"
grep -q -E '\|  (main\(\); /[*] = 0x0 [*]/|} /[*] main = 0x0 [*]/)$' "$tmp/gr.txt" ||
	fail "no return value of main: $(grep main "$tmp/gr.txt" | head -2)"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$tmp/g.dat" >"$tmp/g.tc" 2>/dev/null || fail "trace-cmd report (graph)"
	grep -q -E 'funcgraph_entry: .*\|  main\(\)( \{|;)$' "$tmp/g.tc" || fail "trace-cmd has no 'main()'"
	calls() { sed -n 's/.*|  *\([a-zA-Z_0-9.]*()\)[;{ ].*/\1/p' "$1"; }
	diff <(calls "$tmp/g.txt") <(calls "$tmp/g.tc") >/dev/null || fail "uft and trace-cmd show other calls"
	# The exit's fields by name, retval among them, as the kernel's 6.5+ format.
	trace-cmd report -R -i "$tmp/g.dat" 2>/dev/null >"$tmp/g.raw" || fail "trace-cmd report -R"
	grep -q -E 'funcgraph_exit: +func=main retval=0 depth=0 ' "$tmp/g.raw" ||
		fail "trace-cmd reads no retval: $(grep -m1 funcgraph_exit "$tmp/g.raw")"
fi

# function: "func <-parent" lines under the function tracer's header.
"$UFT" record -q -p function -l main -l 'work*' -o "$tmp/f.dat" -- "$DEMO" >/dev/null 2>"$tmp/f.err" ||
	fail "uft record -p function: $(cat "$tmp/f.err")"
"$UFT" report -i "$tmp/f.dat" >"$tmp/f.txt" || fail "uft report (function)"
head -1 "$tmp/f.txt" | grep_q '^# tracer: function$' || fail "function header: $(head -1 "$tmp/f.txt")"
grep -q -E '\] \.\.\.\.\. +[0-9]+\.[0-9]{6}: main <-' "$tmp/f.txt" || fail "no 'main <-' line"
grep -q -E ': worker <-' "$tmp/f.txt" || fail "no 'worker <-' line"

# --func-stack: each function line is followed by its stack, as the kernel's
# trace file prints a kernel_stack record; trace-cmd reads the same stacks.
"$UFT" record -q -p function -l 'work*' --func-stack -o "$tmp/s.dat" -- "$DEMO" >/dev/null \
	2>"$tmp/s.err" || fail "uft record --func-stack: $(cat "$tmp/s.err")"
"$UFT" report -i "$tmp/s.dat" >"$tmp/s.txt" || fail "uft report (func-stack)"
fns=$(grep -c -E ': worker <-' "$tmp/s.txt")
stacks=$(grep -c -E '[0-9]: <stack trace>$' "$tmp/s.txt")
[ "$fns" -gt 0 ] && [ "$fns" = "$stacks" ] || fail "$fns worker lines, $stacks stacks"
grep -A1 -E ': <stack trace>$' "$tmp/s.txt" | grep_q '^ => worker$' || fail "no ' => worker' frame"
if command -v trace-cmd >/dev/null; then
	tc=$(trace-cmd report -i "$tmp/s.dat" 2>/dev/null | grep -c 'kernel_stack:') ||
		fail "trace-cmd report (func-stack)"
	[ "$tc" = "$stacks" ] || fail "trace-cmd shows $tc stacks, uft $stacks"
fi
echo "ok"
