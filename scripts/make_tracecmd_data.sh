#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes tests/data/tc_instances_zstd.dat: a small kernel recording written by
# the real trace-cmd (`trace-cmd extract`, version 7, zstd), with two
# instances: uftA (sched_switch and trace_marker prints) and uftB
# (sched_wakeup, sched_process_exec). Needs root, the kernel's tracefs and
# trace-cmd. To stay a few KB, trace-cmd runs in a private mount namespace
# where /proc/kallsyms, printk_formats and every event system but sched and
# ftrace look empty; a writable stand-in for /proc/sys/kernel/ftrace_enabled
# lets it run where that sysctl is read-only (containers).
# Usage: scripts/make_tracecmd_data.sh OUT.dat [PREFIX]  (instances PREFIXA
# and PREFIXB; default prefix "uft")
set -eu
out=$(realpath -m "${1:?usage: $0 OUT.dat [PREFIX]}")
A=${2:-uft}A B=${2:-uft}B
T=/sys/kernel/tracing
[ -d $T/instances ] || { echo "no tracefs at $T" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "no trace-cmd" >&2; exit 1; }
work=$(mktemp -d)
trap 'rmdir $T/instances/$A $T/instances/$B 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir $T/instances/$A $T/instances/$B
echo 1 >$T/instances/$A/events/sched/sched_switch/enable
echo 1 >$T/instances/$B/events/sched/sched_wakeup/enable
echo 1 >$T/instances/$B/events/sched/sched_process_exec/enable
echo "uft test marker" >$T/instances/$A/trace_marker
sleep 0.02
/bin/true
echo 0 >$T/instances/$A/events/enable
echo 0 >$T/instances/$B/events/enable
echo 1 >"$work/one"
: >"$work/empty"
mkdir "$work/none"
unshare -m bash -c '
	set -e
	T='$T' w='"$work"'
	mount --bind "$w/one" /proc/sys/kernel/ftrace_enabled
	mount --bind "$w/empty" /proc/kallsyms
	mount --bind "$w/empty" "$T/printk_formats"
	for d in "$T"/events/*/; do
		case $d in */sched/ | */ftrace/) ;; *) mount --bind "$w/none" "$d" ;; esac
	done
	trace-cmd extract -a -o "'"$out"'" >/dev/null'
ls -l "$out"
