#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# libuft.so as programs link it: it exports only its API (versioned UFT_0)
# and the libc/unwinder functions it stands in front of (unversioned), carries
# the soname libuft.so.MAJOR behind the usual links, the tool and uft.pc carry
# VERSION, and a program that defines symbols named like libuft's internals
# (tfs_lock, tfs_unlock, uft_init, uft_tsc) still traces correctly with them.
# Exit 0 pass, 77 skip, else fail.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
B=${UFT_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
UFT=$B/bin/uft
LIB=$B/lib
[ -x "$UFT" ] && [ -e "$LIB/libuft.so" ] || {
	echo "skip: build $B first"
	exit 77
}
for tool in nm readelf; do
	command -v $tool >/dev/null || {
		echo "skip: no $tool"
		exit 77
	}
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

VERSION=$(cat VERSION)
MAJOR=${VERSION%%.*}

# ---- the file, its soname and the links ----
real=$LIB/libuft.so.$VERSION
[ -f "$real" ] && [ ! -L "$real" ] || fail "$real is not a regular file"
for link in libuft.so libuft.so.$MAJOR; do
	[ -L "$LIB/$link" ] || fail "$LIB/$link is not a symbolic link"
	[ "$(readlink "$LIB/$link")" = "libuft.so.$VERSION" ] ||
		fail "$link points to $(readlink "$LIB/$link"), want libuft.so.$VERSION"
done
soname=$(readelf -d "$real" | sed -nE 's/.*\(SONAME\).*\[(.*)\]/\1/p')
[ "$soname" = "libuft.so.$MAJOR" ] || fail "soname '$soname', want libuft.so.$MAJOR"

# ---- the exported symbols ----
# The API: the global list of the version script; the wrappers: interpose.h.
sed -nE 's/^[[:space:]]+([A-Za-z_][A-Za-z0-9_]*);$/\1/p' src/runtime/libuft.map |
	sort >"$tmp/api"
sed -nE 's/^UFT_EXPORT [^(]*[ *]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' src/runtime/core/interpose.h |
	sort >"$tmp/wrappers"
[ -s "$tmp/api" ] && [ -s "$tmp/wrappers" ] || fail "no API or wrapper list read"
# Sanitizer builds export their runtime's interceptors too: only the uft
# part is compared there.
nm -D --defined-only "$real" | awk '$2 != "A" { print $3 }' >"$tmp/nm"
if nm -D --undefined-only "$real" | grep ' __[at]san_' >/dev/null; then
	grep -E '^uft' "$tmp/nm" >"$tmp/nm.uft"
	grep -E '^uft' "$tmp/api" >"$tmp/api.uft"
	grep -vxFf "$tmp/api.uft" <(sed 's/@.*//' "$tmp/nm.uft") >"$tmp/extra" &&
		fail "exported beyond the API: $(tr '\n' ' ' <"$tmp/extra")"
else
	sed 's/@.*//' "$tmp/nm" | sort >"$tmp/exported"
	sort "$tmp/api" "$tmp/wrappers" >"$tmp/want"
	diff "$tmp/want" "$tmp/exported" >"$tmp/diff" ||
		fail "exported symbols differ from the API and wrappers (< missing, > extra):
$(cat "$tmp/diff")"
fi
grep -E '^(tfs_|sql_|hist_)' "$tmp/nm" && fail "internal names exported"
while read -r s; do
	grep -qx "$s@@UFT_0" "$tmp/nm" || fail "$s is not exported as $s@@UFT_0"
done <"$tmp/api"
while read -r s; do
	grep -qx "$s" "$tmp/nm" || fail "wrapper $s is not exported unversioned"
done <"$tmp/wrappers"

# ---- one version ----
"$UFT" --version | grep -F "uft version $VERSION" >/dev/null ||
	fail "uft --version: $("$UFT" --version)"
grep -qx "Version: $VERSION" "$LIB/pkgconfig/uft.pc" ||
	fail "uft.pc: $(grep Version "$LIB/pkgconfig/uft.pc")"
# The manual pages name the version in their title line.
for m in docs/uft.1 docs/uft-events.3; do
	head -1 "$m" | grep -F "\"uft $VERSION\"" >/dev/null || fail "$m: $(head -1 "$m")"
done
grep -F "libuft.so.$VERSION" README.md >/dev/null || fail "README names another libuft.so version"

# ---- a program with libuft's former internal names ----
cat >"$tmp/bnd_events.h" <<'EOF'
#undef UFT_SYSTEM
#define UFT_SYSTEM bnd
#if !defined(BND_EVENTS_H) || defined(UFT_HEADER_MULTI_READ)
#define BND_EVENTS_H
#include <uft/trace_event.h>
UFT_EVENT(step, UFT_PROTO(int n), UFT_ARGS(n), UFT_STRUCT(__field(int, n)),
	  UFT_ASSIGN(__entry->n = n;), UFT_PRINT("n=%d", __entry->n))
#endif
#undef UFT_INCLUDE_FILE
#define UFT_INCLUDE_FILE "bnd_events.h"
#include <uft/define_events.h>
EOF
cat >"$tmp/bnd.c" <<'EOF'
#define UFT_CREATE_EVENTS
#include "bnd_events.h"
#include <stdio.h>
#include <stdlib.h>
#include <uft/uft.h>

/* Named like libuft's internals: libuft must keep using its own. */
unsigned char tfs_lock[256];
unsigned char uft_tsc[64];
void tfs_unlock(void) { abort(); }
void uft_init(void) { abort(); }

int main(void)
{
	for (unsigned i = 0; i < sizeof(tfs_lock); i++)
		tfs_lock[i] = 0xa5;
	for (unsigned i = 0; i < sizeof(uft_tsc); i++)
		uft_tsc[i] = 0x5a;
	for (int n = 1; n <= 10; n++) {
		trace_step(n);
		UFT_TRACE(bnd, line, "n=%d", n);
	}
	for (unsigned i = 0; i < sizeof(tfs_lock); i++)
		if (tfs_lock[i] != 0xa5)
			return 3;
	for (unsigned i = 0; i < sizeof(uft_tsc); i++)
		if (uft_tsc[i] != 0x5a)
			return 4;
	puts("bnd done");
	return 0;
}
EOF
cc=gcc
sanflags=()
# (not `nm | grep -q`: under pipefail grep's early exit fails nm)
if nm -D --undefined-only "$real" | grep ' __asan_' >/dev/null; then
	cc=clang
	sanflags=(-fsanitize=address,undefined)
fi
command -v $cc >/dev/null || cc=cc
$cc -std=gnu11 -O2 -Wall -Werror "${sanflags[@]}" -Iinclude -I"$tmp" -o "$tmp/bnd" "$tmp/bnd.c" \
	-L"$LIB" -luft -Wl,-rpath,"$LIB" -lpthread -ldl 2>"$tmp/cc.err" ||
	fail "building the program: $(cat "$tmp/cc.err")"
readelf -d "$tmp/bnd" | grep "NEEDED.*\[libuft.so.$MAJOR\]" >/dev/null ||
	fail "the program does not need libuft.so.$MAJOR"
"$UFT" record -o "$tmp/b.dat" -- "$tmp/bnd" >"$tmp/rec.out" 2>&1 ||
	fail "uft record exited $?: $(cat "$tmp/rec.out")"
grep -q '^bnd done' "$tmp/rec.out" || fail "the program's own symbols changed: $(cat "$tmp/rec.out")"
grep -q '^total: 20 events written, 20 recorded, 0 overrun, 0 dropped' "$tmp/rec.out" ||
	fail "recording: $(grep '^total' "$tmp/rec.out")"
"$UFT" report -i "$tmp/b.dat" >"$tmp/report.txt" || fail "uft report failed"
for ev in step line; do
	got=$(grep -cE " $ev: n=([1-9]|10)$" "$tmp/report.txt")
	[ "$got" = 10 ] || fail "$got $ev events, want 10: $(head -20 "$tmp/report.txt")"
done
# Timestamps come from libuft's clock, not the program's uft_tsc: the
# events' times are after boot and within a minute of each other.
awk '/ (step|line): / { t = $4; sub(/:$/, "", t); t += 0; if (!n++ || t < lo) lo = t; if (t > hi) hi = t }
	END { exit !(n == 20 && lo > 0 && hi - lo < 60) }' "$tmp/report.txt" ||
	fail "event timestamps out of range: $(grep -E ' (step|line): ' "$tmp/report.txt" | head -3)"
echo "ok: $(wc -l <"$tmp/api") API symbols, $(wc -l <"$tmp/wrappers") wrappers, soname $soname"
