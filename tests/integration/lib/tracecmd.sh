# SPDX-License-Identifier: GPL-2.0-or-later
# Comparing uft report with trace-cmd report (sourced after file.sh, not run).
# Event lines become "[INSTANCE:] COMM-PID [CPU] TS: EVENT: BODY", single
# spaced: uft's flags column (the kernel's latency format) is dropped, which
# trace-cmd has none of, and trace-cmd's "print: " before a trace_marker
# text, which the kernel's trace file (and so uft) does not print.
norm_uft() { grep -v '^#' "$@" | sed -E 's/(\[[0-9]+\]) [^ ]+ /\1 /; s/ +/ /g; s/^ //'; }
norm_tc() { grep -E ' \[[0-9]+\] ' "$@" | sed -E 's/ +/ /g; s/^ //; s/(: )print: (0x[0-9a-f]+: )/\1\2/'; }

# same_as_tc FILE NORMALIZED-UFT-REPORT: trace-cmd report -N (no plugins: the
# formats' own print fmts, as uft prints them) gives the same lines, in any
# order among equal timestamps.
same_as_tc() {
	trace-cmd report -N -i "$1" 2>/dev/null >"$tmp/tc.txt" || fail "trace-cmd report -i $1"
	norm_tc "$tmp/tc.txt" | LC_ALL=C sort >"$tmp/tc.norm"
	LC_ALL=C sort "$2" >"$tmp/uft.sorted"
	diff "$tmp/uft.sorted" "$tmp/tc.norm" >"$tmp/tc.diff" ||
		fail "trace-cmd and uft report differ on $1: $(head -10 "$tmp/tc.diff")"
}

# hist_vs_tc FILE SYSTEM:EVENT FIELD TC-REPORT: uft's hist keyed on FIELD
# counts what FIELD=VALUE occurrences in trace-cmd's text of EVENT count.
hist_vs_tc() {
	local file=$1 ev=$2 field=$3 txt=$4 name=${2#*:}
	"$UFT" report -i "$file" --hist "$ev:keys=$field" >"$tmp/hist.txt" ||
		fail "uft report --hist $ev:keys=$field exited $?"
	awk -v f="$field" '$1 == "{" && $2 == f ":" { print $3, $(NF) }' "$tmp/hist.txt" |
		LC_ALL=C sort >"$tmp/hist.uft"
	grep -F " $name: " "$txt" | grep -oE "(^| )$field=[^ ]+" | sed -E "s/^ ?$field=//" |
		LC_ALL=C sort | uniq -c | awk '{ print $2, $1 }' | LC_ALL=C sort >"$tmp/hist.tc"
	[ -s "$tmp/hist.tc" ] || fail "no $ev $field in trace-cmd's text"
	diff "$tmp/hist.uft" "$tmp/hist.tc" >"$tmp/hist.diff" ||
		fail "$ev keys=$field: uft hist and trace-cmd counts differ: $(head -6 "$tmp/hist.diff")"
}
