#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real programs end to end: SQLite (a database engine, from the npm package
# better-sqlite3), zlib (a compressor) and Lua (an interpreter), both from
# Debian's source packages, each built twice (-fpatchable-function-entry=5
# for uft, -pg for uftrace) and run on the same workload untraced, under
# `uftrace record --no-libcall` and under `uft record -p function_graph`
# (defaults, then --compression zstd, then a larger -b). Prints the breakdown
# (program time, drain time after the program ended, peak memory, events,
# bytes per event, events lost) and one row per target with its ratio.
#
#   bench/real/run.sh BUILD_DIR
#
# Knobs (environment): REAL_REPS (runs per row, the fastest kept, default 3),
# REAL_SQLITE_N (rows, default 20000), REAL_ZLIB_MB (MiB, default 16),
# REAL_LUA_N (default 20), REAL_BIG_KB (the larger -b, default 16384),
# REAL_PROGRAMS (default "sqlite zlib lua"), TMPDIR (where the traces go),
# REAL_HUGE_KB (adds a row with a ring that holds the whole run, e.g.
# 1048576, the largest: nothing lost, at the price of its memory; off by
# default, it takes long).
# Sources are downloaded once into .cache in bench/real/. Timings are printed,
# never checked: this is not a test.
set -u

BUILD=$(cd "${1:-build}" && pwd) || exit 1
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=$HERE/.cache
OUT=$BUILD/bench/real
UFT=$BUILD/bin/uft
REPS=${REAL_REPS:-3}
BIG_KB=${REAL_BIG_KB:-16384}
PROGRAMS=${REAL_PROGRAMS:-sqlite zlib lua}
CC=${CC:-gcc}
CFLAGS_R="-O2 -g -w"
SQLITE_TGZ=better-sqlite3-12.11.1.tgz

[ -x "$UFT" ] || { echo "bench-real: $UFT is missing; run 'make all'" >&2; exit 1; }
mkdir -p "$CACHE" "$OUT"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uft-bench-real.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# ---- sources, downloaded once -------------------------------------------
APT_OPTS=(-o "Dir::Etc::SourceList=$CACHE/apt/src.sources" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$CACHE/apt/lists" -o "Dir::Cache=$CACHE/apt/cache")
apt_ready=""
# Downloads Debian source package $1 (bookworm) into the cache: a private
# deb-src list, so the system's apt configuration is left as it is.
fetch_deb() {
	if [ -z "$apt_ready" ]; then
		mkdir -p "$CACHE/apt/lists/partial" "$CACHE/apt/cache/archives/partial"
		printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
			'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
			>"$CACHE/apt/src.sources"
		apt-get -qq "${APT_OPTS[@]}" update >/dev/null || return 1
		apt_ready=1
	fi
	(cd "$CACHE" && apt-get -qq "${APT_OPTS[@]}" source --download-only "$1" >/dev/null 2>&1)
}

# Prints the one cached file matching glob $1 (none: fetches with $2...).
cached() {
	local glob=$1 f
	shift
	f=$(compgen -G "$CACHE/$glob" | head -1)
	if [ -z "$f" ]; then
		"$@" >&2 || return 1
		f=$(compgen -G "$CACHE/$glob" | head -1)
	fi
	[ -n "$f" ] && echo "$f"
}

# ---- builds -------------------------------------------------------------
# Builds $OUT/NAME_pe and $OUT/NAME_pg from the C files given (plus
# real_stat.c, built for neither tracer); LIBS after --. An object is
# compiled again only when its source is newer.
build_pair() {
	local name=$1 inc=$2
	shift 2
	local srcs=() libs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do srcs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	libs=("$@")
	local stat_o=$OUT/obj/real_stat.o
	mkdir -p "$OUT/obj"
	if [ ! "$stat_o" -nt "$HERE/real_stat.c" ]; then
		$CC -O2 -c "$HERE/real_stat.c" -o "$stat_o" || return 1
	fi
	local v flags objs rc=0 s o said=""
	for v in pe pg; do
		[ $v = pe ] && flags=-fpatchable-function-entry=5 || flags=-pg
		mkdir -p "$OUT/obj/$name/$v"
		objs=()
		for s in "${srcs[@]}"; do
			o=$OUT/obj/$name/$v/$(basename "${s%.c}").o
			objs+=("$o")
			[ "$o" -nt "$s" ] && continue
			[ -n "$said" ] || echo "bench-real: building $name"
			said=1
			$CC $CFLAGS_R $flags -I"$inc" ${REAL_DEFS:-} -c "$s" -o "$o" &
			# Two compilers at a time at most.
			[ "$(jobs -rp | wc -l)" -ge 2 ] && wait -n
		done
		wait || rc=1
		local bin=$OUT/${name}_$v newer=0
		for o in "${objs[@]}" "$stat_o"; do [ "$o" -nt "$bin" ] && newer=1; done
		[ $newer = 0 ] && continue
		[ $v = pg ] && flags=-pg || flags=
		$CC $flags -o "$bin" "${objs[@]}" "$stat_o" "${libs[@]}" || rc=1
	done
	return $rc
}

prepare_sqlite() {
	local tgz
	tgz=$(cached "$SQLITE_TGZ" sh -c "cd '$CACHE' && npm pack -q better-sqlite3@12.11.1 >/dev/null") || return 1
	local d=$OUT/src/sqlite
	if [ ! -f "$d/package/deps/sqlite3/sqlite3.c" ]; then
		mkdir -p "$d" && tar -xzf "$tgz" -C "$d" package/deps/sqlite3 || return 1
	fi
	REAL_DEFS="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION" \
		build_pair sqlite "$d/package/deps/sqlite3" "$d/package/deps/sqlite3/sqlite3.c" \
		"$HERE/sqlite_driver.c" -- -lm
}

prepare_zlib() {
	local tb
	tb=$(cached 'zlib_*.orig.tar.*' fetch_deb zlib) || return 1
	local d=$OUT/src/zlib
	if [ -z "$(compgen -G "$d/zlib-*/deflate.c")" ]; then
		mkdir -p "$d" && tar -xf "$tb" -C "$d" || return 1
	fi
	local z
	z=$(compgen -G "$d/zlib-*/deflate.c" | head -1)
	z=$(dirname "$z")
	build_pair zlib "$z" "$z"/{adler32,crc32,deflate,inffast,inflate,inftrees,trees,zutil}.c \
		"$HERE/zlib_driver.c" --
}

prepare_lua() {
	local tb
	tb=$(cached 'lua5.4_*.orig.tar.*' fetch_deb lua5.4) || return 1
	local d=$OUT/src/lua
	if [ -z "$(compgen -G "$d/lua-*/src/lvm.c")" ]; then
		mkdir -p "$d" && tar -xf "$tb" -C "$d" || return 1
	fi
	local s
	s=$(compgen -G "$d/lua-*/src/lvm.c" | head -1)
	s=$(dirname "$s")
	local files=()
	for f in "$s"/*.c; do
		case $(basename "$f") in luac.c | onelua.c) ;; *) files+=("$f") ;; esac
	done
	REAL_DEFS=-DLUA_USE_POSIX build_pair lua "$s" "${files[@]}" -- -lm
}

# ---- runs ---------------------------------------------------------------
args_of() {
	case $1 in
	sqlite) echo "${REAL_SQLITE_N:-20000}" ;;
	zlib) echo "${REAL_ZLIB_MB:-16}" ;;
	lua) echo "$HERE/bench.lua ${REAL_LUA_N:-20}" ;;
	esac
}

# One run of config $2 of program $1; appends to $RES:
#   R prog config e2e_ns prog_ns drain_ns rec_kb prog_kb events lost bytes rc
one_run() {
	local p=$1 cfg=$2 a
	read -r -a a <<<"$(args_of "$p")"
	local stat=$TMP/stat log=$TMP/log data=$TMP/trace.dat udir=$TMP/uftrace.data
	rm -rf "$stat" "$data" "$udir"
	local cmd=()
	case $cfg in
	none) cmd=("$OUT/${p}_pe" "${a[@]}") ;;
	none_pg) cmd=("$OUT/${p}_pg" "${a[@]}") ;;
	uftrace) cmd=(uftrace record --no-libcall -d "$udir" "$OUT/${p}_pg" "${a[@]}") ;;
	uft) cmd=("$UFT" record -p function_graph -o "$data" -- "$OUT/${p}_pe" "${a[@]}") ;;
	uft_zstd) cmd=("$UFT" record -p function_graph --compression zstd -o "$data" --
		"$OUT/${p}_pe" "${a[@]}") ;;
	uft_big) cmd=("$UFT" record -p function_graph -b "$BIG_KB" -o "$data" --
		"$OUT/${p}_pe" "${a[@]}") ;;
	uft_big_zstd) cmd=("$UFT" record -p function_graph -b "$BIG_KB" --compression zstd
		-o "$data" -- "$OUT/${p}_pe" "${a[@]}") ;;
	uft_huge) cmd=("$UFT" record -p function_graph -b "$REAL_HUGE_KB" --compression zstd
		-o "$data" -- "$OUT/${p}_pe" "${a[@]}") ;;
	esac
	REAL_STAT=$stat "${NICE[@]}" "$OUT/realrun" "${cmd[@]}" >"$log" 2>&1
	local run prog
	run=$(grep '^RUN ' "$log" | tail -1)
	prog=$(grep '^PROG ' "$stat" 2>/dev/null | tail -1)
	local t0 t1 rkb rc ps pe pkb
	read -r _ t0 t1 rkb rc <<<"$run"
	read -r _ ps pe pkb <<<"${prog:-PROG 0 0 0}"
	local ev=0 lost=0 bytes=0
	case $cfg in
	uftrace)
		# Two records (entry and exit) per call; report sums the calls.
		ev=$(uftrace report -d "$udir" --no-pager -s call 2>/dev/null |
			awk '$NF != "" && $(NF-1) ~ /^[0-9]+$/ { n += $(NF-1) } END { print 2 * n }')
		lost=$(grep -ci 'lost\|drop' "$log")
		bytes=$(du -sb "$udir" 2>/dev/null | cut -f1)
		;;
	uft*)
		# total: W events written, R recorded, O overrun, D dropped[, L lost]
		read -r ev lost < <(awk '/^total: /{ for (i = 2; i <= NF; i++) {
			v = $i; sub(",", "", v)
			if ($(i+1) ~ /^recorded/) r = v
			if ($(i+1) ~ /^(overrun|dropped|lost)/) l += v }
			print r + 0, l + 0 }' "$log")
		bytes=$(stat -c %s "$data" 2>/dev/null || echo 0)
		;;
	esac
	[ "${rc:-1}" = 0 ] || { echo "bench-real: $p $cfg failed:" >&2; sed 's/^/  | /' "$log" >&2; }
	echo "R $p $cfg $((t1 - t0)) $((pe - ps)) $((t1 - pe)) ${rkb:-0} ${pkb:-0} ${ev:-0} ${lost:-0} ${bytes:-0} ${rc:-1}" >>"$RES"
}

NICE=()
[ "$(id -u)" = 0 ] && NICE=(nice -n -10)
CONFIGS="none none_pg uftrace uft uft_zstd uft_big uft_big_zstd"
[ "${REAL_HUGE_KB:-0}" -gt 0 ] && CONFIGS="$CONFIGS uft_huge"

$CC -O2 -Wall -Wextra -Werror -o "$OUT/realrun" "$HERE/realrun.c" || exit 1
RES=$TMP/results
: >"$RES"
echo "== uft against uftrace on real programs"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), kernel $(uname -r)"
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg); $(uftrace --version 2>/dev/null | head -1)"
command -v uftrace >/dev/null || echo "bench-real: uftrace not installed; its rows are skipped"
ran=""
for p in $PROGRAMS; do
	if ! "prepare_$p"; then
		echo "bench-real: $p skipped (sources or build failed)"
		continue
	fi
	echo "-- $p $(args_of "$p" | sed "s|$HERE/||"): $REPS runs per row, configurations interleaved"
	for _ in $(seq "$REPS"); do
		for c in $CONFIGS; do
			[ $c = uftrace ] && ! command -v uftrace >/dev/null && continue
			one_run "$p" "$c"
		done
	done
	ran="$ran $p"
done
[ -n "$ran" ] || exit 1
echo

# The fastest run of each row (end to end) is kept.
sort -k4,4n "$RES" | awk -v big="$BIG_KB" -v huge="${REAL_HUGE_KB:-0}" '
$1 == "R" && !(($2, $3) in seen) { seen[$2, $3] = 1
	e2e[$2, $3] = $4; prog[$2, $3] = $5; drain[$2, $3] = $6; rkb[$2, $3] = $7
	pkb[$2, $3] = $8; ev[$2, $3] = $9; lost[$2, $3] = $10; bytes[$2, $3] = $11; rc[$2, $3] = $12 }
function s(ns) { return sprintf("%7.2f", ns / 1e9) }
function label(c) {
	if (c == "none") return "untraced (patchable build)"
	if (c == "none_pg") return "untraced (-pg build)"
	if (c == "uftrace") return "uftrace record --no-libcall"
	if (c == "uft") return "uft record -p function_graph"
	if (c == "uft_zstd") return "  ... --compression zstd"
	if (c == "uft_big") return "  ... -b " big
	if (c == "uft_big_zstd") return "  ... -b " big " --compression zstd"
	if (c == "uft_huge") return "  ... -b " huge " --compression zstd"
}
END {
	split("'"$ran"'", progs, " ")
	split("none none_pg uftrace uft uft_zstd uft_big uft_big_zstd uft_huge", cfgs, " ")
	printf "%-8s %-40s %7s %7s %7s %8s %8s %11s %9s %11s %6s\n", "program", "recorder",
		"e2e s", "prog s", "drain s", "rec MB", "prog MB", "events", "lost", "file MB", "B/ev"
	for (i = 1; i in progs; i++) {
		p = progs[i]
		for (j = 1; j in cfgs; j++) {
			c = cfgs[j]
			if (!((p, c) in e2e)) continue
			bpe = ev[p, c] ? sprintf("%6.2f", bytes[p, c] / ev[p, c]) : "     -"
			printf "%-8s %-40s %s %s %s %8.1f %8.1f %11d %9d %11.1f %s%s\n", p, label(c),
				s(e2e[p, c]), s(prog[p, c]), c ~ /^none/ ? "      -" : s(drain[p, c]), rkb[p, c] / 1024,
				pkb[p, c] / 1024, ev[p, c], lost[p, c], bytes[p, c] / 1048576, bpe,
				rc[p, c] ? "  (exit " rc[p, c] ")" : ""
		}
	}
	print ""
	print "-- targets (uft with default settings against uftrace, same workload, same run)"
	for (i = 1; i in progs; i++) {
		p = progs[i]
		if (!((p, "uft") in e2e) || !((p, "uftrace") in e2e)) continue
		printf "%-8s %-44s %9d  [== 0]  (%.1f%%)\n", p, "events lost by uft", lost[p, "uft"],
			100 * lost[p, "uft"] / (ev[p, "uft"] + lost[p, "uft"] ? ev[p, "uft"] + lost[p, "uft"] : 1)
		printf "%-8s %-44s %9.2f  [<= 1.0]\n", p, "e2e uft/uftrace", e2e[p, "uft"] / e2e[p, "uftrace"]
		mem = rkb[p, "uft"] + pkb[p, "uft"]
		umem = rkb[p, "uftrace"] + pkb[p, "uftrace"]
		printf "%-8s %-44s %9.1f  [< 256]\n", p, "peak MB, program + recorder", mem / 1024
		# The configured rings: uft record gives 8 MiB per thread to the
		# function tracers by default, one thread.
		printf "%-8s %-44s %9.2f  [<= 4.0]\n", p, "peak (uft - 8 MiB rings)/uftrace",
			(mem - 8192) / umem
		if ((p, "uft_zstd") in e2e)
			printf "%-8s %-44s %9.2f  [<= 1.0]\n", p, "file --compression zstd / uftrace dir",
				bytes[p, "uft_zstd"] / bytes[p, "uftrace"]
		# The same per event: the zstd file keeps fewer events when it loses.
		if (((p, "uft_zstd") in e2e) && ev[p, "uft_zstd"] && ev[p, "uftrace"])
			printf "%-8s %-44s %9.2f  (the file, were nothing lost)\n", p,
				"bytes per event zstd / uftrace",
				(bytes[p, "uft_zstd"] / ev[p, "uft_zstd"]) / (bytes[p, "uftrace"] / ev[p, "uftrace"])
		printf "%-8s %-44s %9.2f  [== 1.00]\n", p, "events uft (kept + lost)/uftrace", (ev[p, "uft"] + lost[p, "uft"]) / (ev[p, "uftrace"] ? ev[p, "uftrace"] : 1)
	}
}'
echo
echo "e2e: the recorder started to its exit (program, drain, file); prog: the program's"
echo "constructors to its destructors; drain: the program's destructors to the recorder's exit;"
echo "rec MB: the recorder's peak resident memory (sampled every 5 ms); prog MB: the program's"
echo "(VmHWM at exit, a tracer's rings included); fastest of $REPS runs per row."
