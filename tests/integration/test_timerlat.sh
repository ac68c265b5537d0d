#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft timerlat and uft osnoise, top and hist, on one CPU for a second: the
# rtla table layouts, counts that add up (hist rows + over = count, min <=
# avg <= max), a stop threshold that agrees with the max it printed, SIGINT
# ending the run with the table, and bad arguments refused (exit 2, nothing
# run). Never a timing. Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need

# The first CPU this shell may run on.
CPU=$(awk '/^Cpus_allowed_list:/ { split($2, a, "[,-]"); print a[1] }' /proc/self/status)
[ -n "$CPU" ] || fail "no allowed CPU read"
CCC=$(printf %03d "$CPU")

# check_mma FILE LABEL MIN AVG MAX: min <= avg <= max.
check_mma() {
	[ "$3" -le "$4" ] && [ "$4" -le "$5" ] || fail "$2: min $3 avg $4 max $5 in $(cat "$1")"
}

# ---- timerlat top ----
"$UFT" timerlat top -c "$CPU" -d 1s -q >"$tmp/top" 2>"$tmp/err" || fail "timerlat top: $(cat "$tmp/err")"
sed -n 1p "$tmp/top" | grep_q -xE ' {37}Timer Latency' || fail "top title: $(cat "$tmp/top")"
sed -n 2p "$tmp/top" | grep_q -xE '  [0-9] 00:00:0[0-9]   \|          IRQ Timer Latency \(us\)        \|         Thread Timer Latency \(us\)' ||
	fail "top header: $(sed -n 2p "$tmp/top")"
sed -n 3p "$tmp/top" | grep_q -x 'CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max' ||
	fail "top columns: $(sed -n 3p "$tmp/top")"
line=$(sed -n 4p "$tmp/top")
read -r cpu count bar i1 i2 i3 i4 bar2 cur min avg max rest <<<"$(echo "$line" | tr -d '#')"
[ "$cpu" = "$CPU" ] && [ "$bar" = "|" ] && [ "$bar2" = "|" ] && [ -z "$rest" ] || fail "top line: '$line'"
[ "$i1$i2$i3$i4" = "----" ] || fail "IRQ columns are not '-': '$line'"
[ "$count" -gt 0 ] || fail "no sample in a second: '$line'"
check_mma "$tmp/top" "timerlat top" "$min" "$avg" "$max"
[ "$(wc -l <"$tmp/top")" = 4 ] || fail "top has more lines: $(cat "$tmp/top")"
"$UFT" timerlat top -c "$CPU" -d 1 -q -n >"$tmp/topn" || fail "timerlat top -n"
grep_q 'Thread Timer Latency (ns)' "$tmp/topn" || fail "no ns header: $(cat "$tmp/topn")"

# ---- timerlat hist: the rows and the overflow add up to the count ----
"$UFT" timerlat hist -c "$CPU" -d 1 -b 2 -E 500 >"$tmp/hist" 2>"$tmp/err" || fail "timerlat hist: $(cat "$tmp/err")"
head -4 "$tmp/hist" >"$tmp/head"
printf '# RTLA timerlat histogram\n# Time unit is microseconds (us)\n' >"$tmp/want"
head -2 "$tmp/head" | cmp -s - "$tmp/want" || fail "hist header: $(cat "$tmp/head")"
sed -n 3p "$tmp/head" | grep_q -xE '# Duration:   [0-9] 00:00:0[0-9]' || fail "hist duration: $(sed -n 3p "$tmp/head")"
sed -n 4p "$tmp/head" | grep_q -x "Index   Thr-$CCC" || fail "hist index line: $(sed -n 4p "$tmp/head")"
# hist_check FILE: every index a multiple of the bucket width, rows + over = count.
hist_check() {
	awk -v bw="$2" '
		NR <= 4 { next }
		/^over:/ { over = $2; next }
		/^count:/ { count = $2; next }
		/^(min|avg|max):/ { v[$1] = $2; next }
		{ if ($1 % bw) bad = "index " $1; rows += $2 }
		END {
			if (bad) { print bad; exit 1 }
			if (count == "" || rows + over != count) { print "rows " rows " over " over " count " count; exit 1 }
			print count, v["min:"], v["avg:"], v["max:"]
		}' "$1"
}
sums=$(hist_check "$tmp/hist" 2) || fail "timerlat hist: $sums in $(cat "$tmp/hist")"
read -r count min avg max <<<"$sums"
[ "$count" -gt 0 ] || fail "timerlat hist counted nothing"
check_mma "$tmp/hist" "timerlat hist" "$min" "$avg" "$max"

# --with-zeros prints every bucket, --no-header leaves the four # and Index lines out.
"$UFT" timerlat hist -c "$CPU" -d 1 -b 5 -E 10 --with-zeros --no-header >"$tmp/hz" || fail "hist --with-zeros"
[ "$(wc -l <"$tmp/hz")" = 15 ] || fail "10 rows and 5 summary lines expected: $(cat "$tmp/hz")"
[ "$(awk 'NR <= 10 { printf "%s,", $1 }' "$tmp/hz")" = "0,5,10,15,20,25,30,35,40,45," ] ||
	fail "bucket indexes: $(cat "$tmp/hz")"
"$UFT" timerlat hist -c "$CPU" -d 1 --no-summary --no-index >"$tmp/hn" || fail "hist --no-summary"
grep_q -E '^(over|count|min|avg|max):' "$tmp/hn" && fail "--no-summary printed a summary: $(cat "$tmp/hn")"
sed -n 4p "$tmp/hn" | grep_q -x "   Thr-$CCC" || fail "--no-index header: $(sed -n 4p "$tmp/hn")"

# ---- a stop threshold: the run stops exactly when the max crossed it ----
"$UFT" timerlat top -c "$CPU" -d 20 -q -T 1 >"$tmp/stop" || fail "timerlat top -T"
max=$(awk 'NR == 4 { print $NF }' "$tmp/stop")
if grep_q "^uft timerlat hit stop tracing: thread latency above 1 us on CPU $CPU\$" "$tmp/stop"; then
	[ "$max" -ge 1 ] || fail "stopped with max $max us"
else
	[ "$max" -le 1 ] || fail "max $max us above -T 1 without a stop: $(cat "$tmp/stop")"
fi

# ---- SIGINT ends the run and prints the table ----
"$UFT" timerlat top -c "$CPU" -q >"$tmp/int" 2>&1 &
upid=$!
sleep 1
kill -INT $upid
wait $upid
rc=$?
[ $rc = 0 ] || fail "timerlat after SIGINT exited $rc"
grep_q -E "^ *$CPU #[0-9]+ " "$tmp/int" || fail "no table after SIGINT: $(cat "$tmp/int")"

# ---- osnoise top: 10 periods of 100 ms, 20 ms busy each ----
"$UFT" osnoise top -c "$CPU" -d 1 -p 100000 -r 20000 -q >"$tmp/ntop" 2>"$tmp/err" ||
	fail "osnoise top: $(cat "$tmp/err")"
sed -n 1p "$tmp/ntop" | grep_q -xE ' {42}Operating System Noise' || fail "osnoise title: $(cat "$tmp/ntop")"
sed -n 2p "$tmp/ntop" | grep_q -xE 'duration:   [0-9] 00:00:0[0-9] \| time is in us' ||
	fail "osnoise duration: $(sed -n 2p "$tmp/ntop")"
sed -n 3p "$tmp/ntop" | grep_q -E '^CPU Period +Runtime +Noise +% CPU Aval +Max Noise +Max Single +HW +NMI +IRQ +Softirq +Thread$' ||
	fail "osnoise columns: $(sed -n 3p "$tmp/ntop")"
line=$(sed -n 4p "$tmp/ntop")
read -r cpu periods runtime noise avail maxn maxs hw nmi irq sirq thr rest <<<"$(echo "$line" | tr -d '#')"
[ "$cpu" = "$CPU" ] && [ -z "$rest" ] && [ -n "$thr" ] || fail "osnoise line: '$line'"
[ "$periods" -gt 0 ] || fail "no period ended: '$line'"
[[ $avail =~ ^[0-9]{1,3}\.[0-9]{5}$ ]] || fail "% available '$avail'"
[ "$hw" = - ] || fail "HW column '$hw'"
# Each period's runtime is its busy window: periods x 20000 us at least.
[ "$runtime" -ge $((periods * 20000)) ] || fail "runtime $runtime us for $periods periods"
[ "$noise" -le "$runtime" ] && [ "$maxs" -le "$maxn" ] && [ "$maxn" -le "$noise" ] ||
	fail "noise sums disagree: '$line'"

# A single-noise stop: stopped exactly when the largest single sample crossed it.
"$UFT" osnoise top -c "$CPU" -d 5 -p 100000 -r 20000 -T 1 -s 2 -q >"$tmp/nstop" || fail "osnoise top -s"
maxs=$(awk 'NR == 4 { print $7 }' "$tmp/nstop")
if grep_q "^uft osnoise hit stop tracing on CPU $CPU\$" "$tmp/nstop"; then
	[ "$maxs" -ge 2 ] || fail "stopped with max single $maxs us: $(cat "$tmp/nstop")"
else
	[ "$maxs" -le 2 ] || fail "max single $maxs us above -s 2 without a stop: $(cat "$tmp/nstop")"
fi

# ---- osnoise hist ----
"$UFT" osnoise hist -c "$CPU" -d 1 -p 100000 -r 20000 -T 1 >"$tmp/nhist" 2>"$tmp/err" ||
	fail "osnoise hist: $(cat "$tmp/err")"
sed -n 1p "$tmp/nhist" | grep_q -x '# RTLA osnoise histogram' || fail "osnoise hist header: $(head -1 "$tmp/nhist")"
sed -n 4p "$tmp/nhist" | grep_q -x "Index   CPU-$CCC" || fail "osnoise index line: $(sed -n 4p "$tmp/nhist")"
sums=$(hist_check "$tmp/nhist" 1) || fail "osnoise hist: $sums in $(cat "$tmp/nhist")"
read -r count min avg max <<<"$sums"
[ "$count" = 0 ] || check_mma "$tmp/nhist" "osnoise hist" "$min" "$avg" "$max"

# ---- bad arguments: exit 2, a message, nothing run (nothing on stdout) ----
bad() {
	"$UFT" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 2 ] || fail "'$*' exited $rc"
	[ ! -s "$tmp/out" ] || fail "'$*' printed: $(cat "$tmp/out")"
	[ -s "$tmp/err" ] || fail "'$*' said nothing"
}
bad timerlat
bad timerlat sideways
bad timerlat top -d 0
bad timerlat top -d 5x
bad timerlat top -d 1ms
bad timerlat top -p 10
bad timerlat top -P d:100us:1ms
bad timerlat top -P f:100
bad timerlat top -c 100000
bad timerlat top -c x
bad timerlat top -i 10
bad timerlat top -T 0
bad timerlat top extra
bad timerlat top -b 2
bad timerlat hist -E 5
bad timerlat hist -b 0
bad osnoise top -r 2000000 -p 1000000
bad osnoise top -T 0
bad osnoise hist -p 50
bad osnoise top --nosuch
grep_q "kernel's timerlat tracer" <("$UFT" timerlat top -i 10 2>&1) || fail "-i message"
echo "ok"
