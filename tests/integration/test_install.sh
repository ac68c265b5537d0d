#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install` and `make uninstall`: a staged install (DESTDIR, PREFIX=/usr,
# a multiarch LIBDIR) lays out the GNU directories with the installed paths in
# uft.pc; the demo example, copied out of the checkout, builds against an
# installed tree with pkg-config and with CMake's find_package(uft) and
# records its events with the installed uft; the bash completion parses and
# completes every subcommand of the command table; a broken installation or
# build folder stops CMake with a message; uninstall leaves nothing behind.
# Exit 0 pass, 77 skip, else fail.
source "$(dirname "$0")/lib/file.sh"
need "$B/lib/libuft.so"
# A sanitizer build's libuft needs its runtime in every program that links
# it: what a user installs is a plain build.
need_plain_build "the install test runs on the plain builds"
for t in cmake pkg-config cc; do
	command -v $t >/dev/null || {
		echo "skip: no $t (scripts/deps.sh installs it)"
		exit 77
	}
done
VERSION=$(cat VERSION)
MAJOR=${VERSION%%.*}
SRC=$PWD
minst() { make -s --no-print-directory BUILD="$B" "$@" >"$tmp/make.out" 2>&1 ||
	fail "make $*: $(cat "$tmp/make.out")"; }

# --- staged: DESTDIR, PREFIX=/usr, LIBDIR in the multiarch folder ---
S=$tmp/stage
ARCHLIB=/usr/lib/x86_64-linux-gnu
minst install DESTDIR="$S" PREFIX=/usr LIBDIR=$ARCHLIB
for f in usr/bin/uft ${ARCHLIB#/}/libuft.so.$VERSION ${ARCHLIB#/}/libuft.a ${ARCHLIB#/}/libuft_fuse.so \
	usr/include/uft/uft.h usr/include/uft/trace_event.h usr/include/uft/version.h \
	usr/share/man/man1/uft.1 usr/share/man/man3/uft-events.3 ${ARCHLIB#/}/pkgconfig/uft.pc \
	${ARCHLIB#/}/cmake/uft/uftConfig.cmake ${ARCHLIB#/}/cmake/uft/uftConfigVersion.cmake \
	usr/share/bash-completion/completions/uft; do
	[ -f "$S/$f" ] || fail "make install did not write /$f"
done
[ "$(readlink "$S$ARCHLIB/libuft.so.$MAJOR")" = "libuft.so.$VERSION" ] || fail "libuft.so.$MAJOR link"
[ "$(readlink "$S$ARCHLIB/libuft.so")" = "libuft.so.$MAJOR" ] || fail "libuft.so link"
readelf -d "$S$ARCHLIB/libuft.so.$VERSION" | grep_q "SONAME.*\[libuft.so.$MAJOR\]" || fail "soname"
pc=$S$ARCHLIB/pkgconfig/uft.pc
grep -qx 'prefix=/usr' "$pc" || fail "uft.pc: $(grep prefix= "$pc")"
grep -qx 'libdir=${prefix}/lib/x86_64-linux-gnu' "$pc" || fail "uft.pc: $(grep libdir= "$pc")"
grep -qx 'includedir=${prefix}/include' "$pc" || fail "uft.pc: $(grep includedir= "$pc")"
grep -qx "Version: $VERSION" "$pc" || fail "uft.pc: $(grep Version "$pc")"
# Nothing installed points back into the checkout or the staging folder.
! grep -rIl -e "$SRC" -e "$S" "$S" >"$tmp/leak" || fail "paths of the build in: $(cat "$tmp/leak")"

# The example, outside the checkout: only the installed headers are found.
mkdir -p "$tmp/ex"
cp examples/demo.c examples/demo_events.h "$tmp/ex/"
cat >"$tmp/ex/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(uftdemo C)
find_package(uft ${WANT} REQUIRED)
add_executable(demo demo.c)
# The event header includes itself by name (UFT_INCLUDE_FILE).
target_include_directories(demo PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(demo PRIVATE uft::uft)
uft_target_traceable(demo)
EOF
# cmake_demo NAME ARGS...: configure and build the example into $tmp/NAME.
cmake_demo() {
	local name=$1
	shift
	cmake -S "$tmp/ex" -B "$tmp/build-$name" -DWANT="$VERSION" "$@" >"$tmp/$name.out" 2>&1 &&
		cmake --build "$tmp/build-$name" -- VERBOSE=1 >>"$tmp/$name.out" 2>&1
}
# records LIBDIR BIN PROGRAM: the installed uft records PROGRAM's events.
records() {
	LD_LIBRARY_PATH=$1 "$2/uft" record -q -o "$tmp/r.dat" -- "$3" >"$tmp/r.out" 2>&1 ||
		fail "uft record $3: $(cat "$tmp/r.out")"
	"$2/uft" report -i "$tmp/r.dat" >"$tmp/r.txt" || fail "uft report of $3"
	grep_q -E ' request: path=/[a-z]' "$tmp/r.txt" || fail "$3 recorded no request event: $(head -20 "$tmp/r.txt")"
	LD_LIBRARY_PATH=$1 ldd "$3" | grep_q "libuft.so.$MAJOR => $1/libuft.so.$MAJOR" ||
		fail "$3 does not load the installed libuft: $(LD_LIBRARY_PATH=$1 ldd "$3")"
}

# CMake finds the staged tree where it lies (the package is relocatable).
cmake_demo stage -DCMAKE_PREFIX_PATH="$S/usr" || fail "cmake (staged): $(tail -20 "$tmp/stage.out")"
grep_q -- '-fpatchable-function-entry=5' "$tmp/stage.out" || fail "uft_target_traceable added no flag"
records "$S$ARCHLIB" "$S/usr/bin" "$tmp/build-stage/demo"

# Completion, from the installed script and command.
comp=$S/usr/share/bash-completion/completions/uft
bash -n "$comp" || fail "the completion script does not parse"
complete_words() { # WORDS...: what the completion offers for the last word
	PATH=$S/usr/bin:$PATH LD_LIBRARY_PATH=$S$ARCHLIB bash -c 'source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _uft; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@"
}
complete_words uft rec | grep_q -x record || fail "'uft rec' does not complete to record"
complete_words uft record --max | grep_q -x -- --max-graph-depth || fail "uft record --max"
complete_words uft record -p function_g | grep_q -x function_graph || fail "uft record -p function_g"
complete_words uft ctl -p 1 ca | grep_q -x cat || fail "uft ctl -p 1 ca"
# Every command of the command table, and nothing else.
grep -oE '\{"[a-z]+", cmd_' src/cmd/main.c | cut -d'"' -f2 | sort >"$tmp/table"
[ -s "$tmp/table" ] || fail "no command table in src/cmd/main.c"
complete_words uft "" | grep -vx version | sort >"$tmp/offered"
diff "$tmp/table" "$tmp/offered" >"$tmp/diff" || fail "completion and command table differ: $(cat "$tmp/diff")"

minst uninstall DESTDIR="$S" PREFIX=/usr LIBDIR=$ARCHLIB
left=$(find "$S" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"

# --- a prefix of its own: pkg-config and CMake ---
P=$tmp/prefix
minst install PREFIX="$P"
export PKG_CONFIG_PATH=$P/lib/pkgconfig
[ "$(pkg-config --modversion uft)" = "$VERSION" ] || fail "pkg-config --modversion uft"
[ "$(pkg-config --variable=libdir uft)" = "$P/lib" ] || fail "pkg-config libdir"
cflags=$(pkg-config --cflags uft) && libs=$(pkg-config --libs uft) || fail "pkg-config uft"
trace=$(pkg-config --variable=uft_trace_cflags uft)
# shellcheck disable=SC2086
cc $cflags $trace -I"$tmp/ex" -o "$tmp/demo_pc" "$tmp/ex/demo.c" $libs 2>"$tmp/cc.err" ||
	fail "cc with pkg-config: $(cat "$tmp/cc.err")"
records "$P/lib" "$P/bin" "$tmp/demo_pc"
cmake_demo prefix -DCMAKE_PREFIX_PATH="$P" || fail "cmake (prefix): $(tail -20 "$tmp/prefix.out")"
records "$P/lib" "$P/bin" "$tmp/build-prefix/demo"

# Too new a version, or a missing library, is refused with a message.
cmake_demo newer -DCMAKE_PREFIX_PATH="$P" -DWANT=$((MAJOR + 1)).0 && fail "find_package(uft $((MAJOR + 1)).0) passed"
grep_q 'uftConfig.cmake, version: ' "$tmp/newer.out" || fail "no version message: $(cat "$tmp/newer.out")"
cp -a "$P" "$tmp/broken"
rm "$tmp/broken/lib/libuft.so.$VERSION"
cmake_demo broken -DCMAKE_PREFIX_PATH="$tmp/broken" && fail "find_package passed without libuft"
grep_q "lacks" "$tmp/broken.out" && grep_q "broken/lib/libuft.so.$VERSION" "$tmp/broken.out" || fail "no clear message: $(cat "$tmp/broken.out")"

# The checkout's helper: a build folder without libuft stops CMake too.
cat >"$tmp/ex/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(uftdemo C)
include("$SRC/cmake/uft.cmake")
add_executable(demo demo.c)
# The event header includes itself by name (UFT_INCLUDE_FILE).
target_include_directories(demo PRIVATE \${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(demo PRIVATE uft::uft)
EOF
cmake_demo nobuild -DUFT_BUILD_DIR="$tmp/nowhere" && fail "cmake/uft.cmake passed without a build"
grep_q "nowhere/lib/libuft.so.$VERSION does not exist" "$tmp/nobuild.out" || fail "cmake/uft.cmake: $(cat "$tmp/nobuild.out")"
case $B in /*) BABS=$B ;; *) BABS=$SRC/$B ;; esac
cmake_demo checkout -DUFT_BUILD_DIR="$BABS" || fail "cmake/uft.cmake: $(tail -20 "$tmp/checkout.out")"
[ -x "$tmp/build-checkout/demo" ] || fail "no demo built with cmake/uft.cmake"

minst uninstall PREFIX="$P"
left=$(find "$P" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "ok"
