# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests that drive a running traced process (sourced, not run):
# the build's programs, a private run directory, the processes to stop at the
# end, fail(), and start_server. The sourcing test may add to `pids` and may
# define `on_exit` for more clean-up.
set -uo pipefail
# grep -q for the end of a pipeline: it reads all its input, so the command
# before it never dies of SIGPIPE and fails the pipeline under pipefail.
grep_q() { grep "$@" >/dev/null; }
cd "$(dirname "${BASH_SOURCE[1]}")/../.." || exit 1
B=${UFT_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
UFT=$B/bin/uft
SERVER=$B/bin/server
[ -x "$UFT" ] && [ -x "$SERVER" ] || {
	echo "skip: build $B first"
	exit 77
}
tmp=$(mktemp -d)
export UFT_RUNDIR=$tmp/run
pids=()
live_cleanup() {
	declare -F on_exit >/dev/null && on_exit
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	declare -F after_exit >/dev/null && after_exit
	rm -rf "$tmp"
}
trap live_cleanup EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

# Waits for process $1's control socket (slow under sanitizers).
wait_socket() {
	for _ in $(seq 200); do
		[ -S "$UFT_RUNDIR/$1.sock" ] && return 0
		sleep 0.05
	done
	fail "no control socket $UFT_RUNDIR/$1.sock"
}

# Starts a traced test program, `start_live OUT PROG ARGS...` (its stdout in
# OUT; a skip when PROG is not built), waits for its control socket and
# defines ctl() on it; its pid is in $pid.
start_live() {
	local out=$1
	shift
	[ -x "$1" ] || {
		echo "skip: build $1 first (make tests-bin)"
		exit 77
	}
	"$@" >"$out" &
	pid=$!
	pids+=("$pid")
	wait_socket "$pid"
	ctl() { "$UFT" ctl -p "$pid" "$@"; }
}

# Starts the example server (an event every 2 ms) and waits for its control
# socket; its pid is in $pid.
start_server() {
	"$SERVER" 2 &
	pid=$!
	pids+=("$pid")
	wait_socket "$pid"
}

# Starts the example server (an event every INTERVAL ms) under
# `uft record -e 'server:*' -o $tmp/x.dat` (summary in $tmp/rec.out) and waits
# for the server's control socket: the recorder's pid is in $rec, the
# server's in $pid.
start_recorded_server() {
	"$UFT" record -e 'server:*' -o "$tmp/x.dat" -- "$SERVER" "$1" >"$tmp/rec.out" 2>&1 &
	rec=$!
	pids+=("$rec")
	pid=
	for _ in $(seq 200); do
		pid=$(pgrep -P "$rec" -x server) && [ -S "$UFT_RUNDIR/$pid.sock" ] && return 0
		sleep 0.05
	done
	fail "no recorded server: $(cat "$tmp/rec.out")"
}

# Skips the test (exit 77) unless `uft ns` can run here: root, FUSE and
# mount namespaces.
need_uft_ns() {
	[ "$(id -u)" = 0 ] || {
		echo "skip: uft ns needs root here"
		exit 77
	}
	[ -c /dev/fuse ] && command -v fusermount3 >/dev/null || {
		echo "skip: no /dev/fuse or fusermount3"
		exit 77
	}
	unshare -m true 2>/dev/null || {
		echo "skip: no mount namespaces here (unshare -m fails)"
		exit 77
	}
}
