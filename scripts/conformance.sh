#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make conformance: the kernel's own ftrace selftests (ftracetest, from
# Debian's linux-source-6.1, installed here when missing) run unchanged under
# `uft ns --kernel-events` against a traced program (tests/conformance/kernel_names.c), top
# level and in an instance (ftracetest does both). Each test file's result is
# compared with tests/conformance/expected.txt: the run fails when a result is
# worse than expected or the traced program crashed; better results are
# printed, to be copied into expected.txt (UFT_CONFORMANCE_UPDATE=1 rewrites
# it). Nothing of the suite is kept in the repository; its assertions are
# never changed. Exit 0 pass, 77 skip (not root, no FUSE or no namespaces),
# else fail.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
B=${UFT_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
UFT=$B/bin/uft
PROG=$B/tests/kernel_names
EXPECTED=tests/conformance/expected.txt
KVER=6.1
TARBALL=/usr/src/linux-source-$KVER.tar.xz
WORK=$B/conformance
SUITE=$WORK/linux-source-$KVER/tools/testing/selftests/ftrace

skip() {
	echo "skip: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "ftracetest and uft ns need root"
[ -c /dev/fuse ] || skip "no /dev/fuse"
unshare -m true 2>/dev/null || skip "no mount namespaces here"
[ -x "$UFT" ] && [ -x "$PROG" ] || skip "build $B first (make all tests-bin)"

# The suite, and ping, which its inter-event tests run.
need=
[ -f "$TARBALL" ] || need="linux-source-$KVER"
command -v ping >/dev/null || need="$need iputils-ping"
if [ -n "$need" ]; then
	echo "conformance: installing $need"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$need >/dev/null || skip "cannot install $need"
fi
if [ ! -x "$SUITE/ftracetest" ]; then
	mkdir -p "$WORK"
	tar -C "$WORK" -xJf "$TARBALL" --wildcards \
		"linux-source-$KVER/tools/testing/selftests/ftrace/*" || {
		echo "FAIL: cannot extract the selftests from $TARBALL"
		exit 1
	}
fi

tmp=$(mktemp -d)
export UFT_RUNDIR=$tmp/run
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
"$PROG" &
pid=$!
for _ in $(seq 200); do
	[ -S "$UFT_RUNDIR/$pid.sock" ] && break
	sleep 0.05
done
[ -S "$UFT_RUNDIR/$pid.sock" ] || {
	echo "FAIL: kernel_names has no control socket"
	exit 1
}

# The suite's own order: every test file, then those flagged for instances.
cd "$SUITE" || exit 1
mapfile -t files < <(find test.d -name '*.tc' | sort)
names=("${files[@]}")
for f in "${files[@]}"; do
	grep -q "^#[ \t]*flags:.*instance" "$f" && names+=("instance:$f")
done
rm -rf "$WORK/logs"
start=$(date +%s)
crashed= refused=
# -k: the kernel's sched events of the suite's own tasks (its shells, ping)
# on the tree, as the tests expect of a kernel.
timeout 3600 "$UFT" ns -p "$pid" -k -- ./ftracetest -l "$WORK/logs" >"$WORK/ftracetest.out" 2>&1
echo "conformance: ftracetest ran $(($(date +%s) - start)) s; output in $WORK/ftracetest.out"
# What --kernel-events handed over, took and lost (none refused is expected).
grep '^uft ns: kernel events:' "$WORK/ftracetest.out"
if grep -q '^uft ns: kernel events: .* [1-9][0-9]* refused by the program' "$WORK/ftracetest.out"; then
	refused=1
fi
cd - >/dev/null || exit 1

if ! kill -0 "$pid" 2>/dev/null; then
	crashed=1
else
	kill "$pid"
	wait "$pid" || crashed=1
fi
pid=

# "[N] description<tab>[RESULT]" lines, colours and all.
sed 's/\x1b\[[0-9;]*m//g' "$WORK/ftracetest.out" |
	sed -n 's/^\[\([0-9]*\)\].*\[\([A-Z]*\)\]$/\1 \2/p' >"$tmp/results"
declare -A got
while read -r n r; do
	[ "$n" -ge 1 ] && [ "$n" -le ${#names[@]} ] && got[${names[$((n - 1))]}]=$r
done <"$tmp/results"

rank() {
	case $1 in
	PASS | XFAIL) echo 0 ;;
	UNSUPPORTED) echo 1 ;;
	UNTESTED) echo 2 ;;
	UNRESOLVED) echo 3 ;;
	FAIL | UNDEFINED) echo 4 ;;
	*) echo 5 ;; # not run at all
	esac
}
declare -A want
if [ -f "$EXPECTED" ]; then
	while read -r name r _; do
		case $name in '' | '#'*) continue ;; esac
		want[$name]=$r
	done <"$EXPECTED"
fi
worse=0 better=0
for name in "${names[@]}"; do
	g=${got[$name]:-MISSING}
	w=${want[$name]:-PASS}
	if [ "$(rank "$g")" -gt "$(rank "$w")" ]; then
		echo "WORSE: $name: $g (expected $w)"
		worse=$((worse + 1))
	elif [ "$(rank "$g")" -lt "$(rank "$w")" ]; then
		echo "better: $name: $g (expected $w)"
		better=$((better + 1))
	fi
done
if [ "${UFT_CONFORMANCE_UPDATE:-}" = 1 ]; then
	{
		sed -n '/^#/p' "$EXPECTED" 2>/dev/null
		for name in "${names[@]}"; do
			echo "$name ${got[$name]:-MISSING}"
		done
	} >"$tmp/expected" && cp "$tmp/expected" "$EXPECTED"
	echo "conformance: $EXPECTED rewritten"
fi
for r in PASS FAIL UNRESOLVED UNTESTED UNSUPPORTED XFAIL; do
	printf '%s=%s ' "$r" "$(grep -c " $r$" "$tmp/results")"
done
echo "(of ${#names[@]}); $worse worse, $better better than expected"
[ -z "$refused" ] || {
	echo "FAIL: the traced program refused kernel records (its error_log says why)"
	exit 1
}
[ -z "$crashed" ] || {
	echo "FAIL: the traced program crashed or exited badly"
	exit 1
}
[ "$worse" = 0 ] || exit 1
echo ok
