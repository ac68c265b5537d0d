#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# uft record -N HOST:PORT against a real `trace-cmd listen` on the loopback
# address: the collector's file reads the same as the local recording of the
# same run (uft report and trace-cmd report), with protocol v3 and v1, for
# events and for function_graph; nothing is left locally without -o; and a
# missing collector, a peer that is not one, and a collector lost during the
# run each end with a non-zero status and a message. Exit 0 pass, 77 skip.
source "$(dirname "$0")/lib/file.sh"
source "$(dirname "$0")/lib/tracecmd.sh"
need "$DEMO"
command -v trace-cmd >/dev/null || {
	echo "skip: no trace-cmd (apt-get install trace-cmd)"
	exit 77
}
command -v python3 >/dev/null || {
	echo "skip: no python3"
	exit 77
}
UFT=$(realpath "$UFT")
DEMO=$(realpath "$DEMO")

# A TCP port nobody listens on now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Whether something listens on TCP port $1.
listening() { awk -v p="$(printf '%04X' "$1")" '$2 ~ ":"p"$" && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6; }

lpid=""
start_listener() { # DIR: trace-cmd listen in its own process group, on $port
	mkdir -p "$1"
	port=$(free_port)
	setsid trace-cmd listen -p "$port" -d "$1" -l "$tmp/listen.log" </dev/null >/dev/null 2>&1 &
	lpid=$!
	for _ in $(seq 100); do
		listening "$port" && return 0
		sleep 0.05
	done
	fail "trace-cmd listen did not listen on $port: $(cat "$tmp/listen.log")"
}
stop_listener() {
	[ -n "$lpid" ] && kill -KILL -- -"$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	lpid=""
}
trap 'stop_listener; [ -n "${UFT_KEEP_LOG:-}" ] && cp "$tmp/listen.log" "$UFT_KEEP_LOG"; rm -rf "$tmp"' EXIT

# The one file the collector wrote in DIR since it was emptied.
collected() {
	local f=("$1"/trace.*.dat)
	[ ${#f[@]} = 1 ] && [ -s "${f[0]}" ] || fail "collector files: $(ls -l "$1")"
	echo "${f[0]}"
}

# same_reports A B: uft report and trace-cmd report print the same for both.
same_reports() {
	"$UFT" report -i "$1" >"$tmp/a.uft" 2>&1 || fail "uft report $1: $(cat "$tmp/a.uft")"
	"$UFT" report -i "$2" >"$tmp/b.uft" 2>&1 || fail "uft report $2: $(cat "$tmp/b.uft"); listener: $(tr -s " " <"$tmp/listen.log" | tail -5)"
	diff "$tmp/a.uft" "$tmp/b.uft" >"$tmp/d" || fail "uft report differs: $(head "$tmp/d")"
	trace-cmd report -i "$1" >"$tmp/a.tc" 2>&1 || fail "trace-cmd report $1: $(tail -3 "$tmp/a.tc")"
	trace-cmd report -i "$2" >"$tmp/b.tc" 2>&1 || fail "trace-cmd report $2: $(tail -3 "$tmp/b.tc")"
	diff "$tmp/a.tc" "$tmp/b.tc" >"$tmp/d" || fail "trace-cmd report differs: $(head "$tmp/d")"
}

start_listener "$tmp/col"

# ---- events, protocol v3 (what trace-cmd 3 offers), a local copy kept ----
"$UFT" record -N "127.0.0.1:$port" -o "$tmp/local.dat" -- "$DEMO" >"$tmp/rec.out" 2>"$tmp/rec.err" ||
	fail "uft record -N exited $?: $(cat "$tmp/rec.err")"
grep_q -x "sent to trace-cmd listen at 127.0.0.1:$port (protocol v3)" "$tmp/rec.out" ||
	fail "no sent line: $(cat "$tmp/rec.out")"
got=$(collected "$tmp/col")
same_reports "$tmp/local.dat" "$got"
[ "$(grep -c ' \[[0-9]*\] ' "$tmp/b.tc")" = 37 ] || fail "trace-cmd reads $(grep -c ' \[[0-9]*\] ' "$tmp/b.tc") events, want 37"
norm_uft "$tmp/b.uft" >"$tmp/b.norm"
same_as_tc "$got" "$tmp/b.norm"
rm -f "$tmp/col"/*

# ---- without -o nothing is written where uft runs ----
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$UFT" record -q -N "localhost:$port" -- "$DEMO" >/dev/null 2>"$tmp/rec.err") ||
	fail "uft record -N (no -o) exited $?: $(cat "$tmp/rec.err")"
[ -z "$(ls -A "$tmp/cwd")" ] || fail "files left locally: $(ls -A "$tmp/cwd")"
got=$(collected "$tmp/col")
"$UFT" report -i "$got" | grep -c ' \[[0-9]*\] ' | grep_q -x 37 || fail "collector file: not 37 events"
rm -f "$tmp/col"/*

# ---- function_graph ----
"$UFT" record -q -p function_graph -N "127.0.0.1:$port" -o "$tmp/fg.dat" -- "$DEMO" >/dev/null \
	2>"$tmp/rec.err" || fail "uft record -p function_graph -N exited $?: $(cat "$tmp/rec.err")"
got=$(collected "$tmp/col")
same_reports "$tmp/fg.dat" "$got"
grep_q 'funcgraph_entry' "$tmp/b.tc" || fail "no function_graph events read by trace-cmd"
rm -f "$tmp/col"/*

# ---- protocol v1, as with an older listener ----
UFT_TRACECMD_PROTO=1 "$UFT" record -N "127.0.0.1:$port" -o "$tmp/v1.dat" -- "$DEMO" \
	>"$tmp/rec.out" 2>"$tmp/rec.err" || fail "uft record -N (v1) exited $?: $(cat "$tmp/rec.err")"
grep_q "(protocol v1)" "$tmp/rec.out" || fail "not v1: $(cat "$tmp/rec.out")"
same_reports "$tmp/v1.dat" "$(collected "$tmp/col")"
rm -f "$tmp/col"/*

# ---- errors: nothing runs or is kept, the status says so ----
expect_fail() { # PATTERN ARGS...: uft record fails, says PATTERN, leaves no file
	local pat=$1
	shift
	rm -rf "$tmp/cwd" && mkdir "$tmp/cwd"
	(cd "$tmp/cwd" && "$UFT" record "$@" >"$tmp/err.out" 2>"$tmp/err.txt")
	local rc=$?
	[ $rc != 0 ] || fail "uft record $* succeeded"
	grep_q -- "$pat" "$tmp/err.txt" || fail "uft record $*: message $(cat "$tmp/err.txt"), want $pat"
	[ -z "$(ls -A "$tmp/cwd")" ] || fail "uft record $*: files left: $(ls -A "$tmp/cwd")"
}
closed=$(free_port)
expect_fail "uft record: -N 127.0.0.1:$closed: cannot connect: Connection refused" \
	-N "127.0.0.1:$closed" -- "$DEMO"
grep_q "demo: served" "$tmp/err.out" && fail "the program ran without a collector"
expect_fail "bad -N 'nohost'" -N nohost -- "$DEMO"
expect_fail "drop --compression" --compression zstd -N "127.0.0.1:$port" -- "$DEMO"

# A peer that is not trace-cmd listen: it greets with something else.
python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept(); c.sendall(b"SSH-2.0-x\r\n")
try: c.recv(100)
except OSError: pass
' >"$tmp/fake.port" &
fake=$!
for _ in $(seq 100); do [ -s "$tmp/fake.port" ] && break; sleep 0.05; done
expect_fail "not a trace-cmd listener" -N "127.0.0.1:$(cat "$tmp/fake.port")" -- "$DEMO"
kill $fake 2>/dev/null
wait $fake 2>/dev/null

# The collector goes away while the program runs: once it has logged the
# connection, which uft record makes before it starts the program.
rm -rf "$tmp/cwd" && mkdir "$tmp/cwd"
: >"$tmp/listen.log"
(cd "$tmp/cwd" && exec "$UFT" record -N "127.0.0.1:$port" -- sh -c "sleep 2; exec $DEMO" \
	>"$tmp/err.out" 2>"$tmp/err.txt") &
rec=$!
for _ in $(seq 200); do
	grep_q "Connected with" "$tmp/listen.log" && break
	sleep 0.05
done
stop_listener
wait $rec
rc=$?
[ $rc != 0 ] || fail "uft record succeeded with its collector gone"
grep_q "connection lost during the recording (nothing kept)" "$tmp/err.txt" ||
	fail "lost collector: $(cat "$tmp/err.txt")"
[ -z "$(ls -A "$tmp/cwd")" ] || fail "files left: $(ls -A "$tmp/cwd")"
echo "PASS"
