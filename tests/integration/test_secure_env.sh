#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Secure mode: a setuid program linked with libuft, started by an unprivileged
# user, ignores that user's UFT_* settings (UFT_FUSE_LIB is not loaded,
# UFT_TRACEFS not made, UFT_RECORD not reached, UFT_RUNDIR not made,
# UFT_BOOTCONFIG not read) and says
# so in one line on stderr; the same program without the setuid bit obeys
# them, which shows that the bit is what switches them off.
# Needs root (to make the program setuid). Exit 0 pass, 77 skip, else fail.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
B=${UFT_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
LIB=$B/lib
skip() {
	echo "skip: $*"
	exit 77
}
[ -e "$LIB/libuft.so" ] || skip "build $B first"
[ "$(id -u)" = 0 ] || skip "needs root to make a setuid program"
command -v setpriv >/dev/null || skip "no setpriv"
getent passwd nobody >/dev/null || skip "no user nobody"
group=$(id -gn nobody 2>/dev/null) || skip "no group for nobody"
fail() {
	echo "FAIL: $*"
	exit 1
}

tmp=$(mktemp -d)
had_rootdir=false
[ -e /tmp/uft-0 ] && had_rootdir=true
cleanup() {
	rm -rf "$tmp"
	# The setuid run's control socket went to root's default directory.
	$had_rootdir || rmdir /tmp/uft-0 2>/dev/null
}
trap cleanup EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/lib" "$tmp/plugin" "$tmp/bin" "$tmp/out"
chmod 755 "$tmp/lib" "$tmp/plugin" "$tmp/bin"
chmod 777 "$tmp/out"

# libuft alone in its folder: no libuft_fuse.so next to it, so that
# UFT_TRACEFS falls back to $UFT_FUSE_LIB.
cp -a "$LIB"/libuft.so* "$tmp/lib/" || fail "copying libuft"

cc=gcc
sanflags=()
# (not `nm | grep -q`: under pipefail grep's early exit fails nm)
if nm -D --undefined-only "$LIB/libuft.so" | grep ' U __asan_' >/dev/null; then
	cc=clang
	sanflags=(-fsanitize=address,undefined)
elif nm -D --undefined-only "$LIB/libuft.so" | grep ' U __tsan_' >/dev/null; then
	cc=clang
	sanflags=(-fsanitize=thread)
fi
command -v $cc >/dev/null || cc=cc

cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <uft/uft.h>

int main(void)
{
	printf("euid=%d secure=%lu\n", (int)geteuid(), getauxval(AT_SECURE));
	UFT_TRACE(sec, step, "n=%d", 1);
	usleep(300 * 1000); /* time for the control socket's thread */
	puts("prog done");
	return 0;
}
EOF
$cc -std=gnu11 -O2 -Wall -Werror "${sanflags[@]}" -Iinclude -o "$tmp/bin/prog" "$tmp/prog.c" \
	-L"$LIB" -luft -Wl,-rpath,"$tmp/lib" -lpthread -ldl 2>"$tmp/cc.err" ||
	fail "building the program: $(cat "$tmp/cc.err")"

# The user's library: loading it at all leaves a marker.
marker=$tmp/out/marker
cat >"$tmp/mark.c" <<EOF
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void mark(void)
{
	int fd = open("$marker", O_WRONLY | O_CREAT, 0666);
	if (fd >= 0)
		close(fd);
}
EOF
$cc -O2 -Wall -Werror -shared -fPIC -o "$tmp/plugin/libmark.so" "$tmp/mark.c" 2>"$tmp/cc.err" ||
	fail "building the library: $(cat "$tmp/cc.err")"

# A bootconfig file whose one key libuft names when it reads the file.
echo 'ftrace.not_a_key = 1' >"$tmp/bootconfig"
chmod 644 "$tmp/bootconfig"

# Runs a program as nobody with the user's settings.
as_user() {
	env -i PATH=/usr/bin:/bin \
		UFT_FUSE_LIB="$tmp/plugin/libmark.so" UFT_TRACEFS="$tmp/out/mnt" \
		UFT_RECORD="$tmp/out/rec.sock" UFT_RUNDIR="$tmp/out/rundir" \
		UFT_BOOTCONFIG="$tmp/bootconfig" \
		setpriv --reuid=nobody --regid="$group" --clear-groups -- "$@"
}

# ---- a probe: does the setuid bit take effect here? ----
cp "$tmp/bin/prog" "$tmp/bin/prog-suid"
chown root "$tmp/bin/prog-suid"
chmod 4755 "$tmp/bin/prog-suid"
probe=$(env -i UFT_CTL=0 setpriv --reuid=nobody --regid="$group" --clear-groups -- \
	"$tmp/bin/prog-suid" 2>/dev/null | head -1)
[ "$probe" = "euid=0 secure=1" ] ||
	skip "a setuid program does not run setuid here ($probe): $tmp is nosuid or no_new_privs is set"

# ---- without the setuid bit: every setting obeyed ----
as_user "$tmp/bin/prog" >"$tmp/plain.out" 2>"$tmp/plain.err" ||
	fail "the plain program exited $?: $(cat "$tmp/plain.err")"
grep -x 'prog done' "$tmp/plain.out" >/dev/null || fail "plain: no 'prog done': $(cat "$tmp/plain.out")"
grep -x 'euid=65534 secure=0' "$tmp/plain.out" >/dev/null ||
	fail "plain: $(head -1 "$tmp/plain.out")"
[ -e "$marker" ] || fail "plain: UFT_FUSE_LIB was not loaded: $(cat "$tmp/plain.err")"
[ -d "$tmp/out/mnt" ] || fail "plain: UFT_TRACEFS directory not made"
grep -F "cannot reach the recorder at $tmp/out/rec.sock" "$tmp/plain.err" >/dev/null ||
	fail "plain: UFT_RECORD not tried: $(cat "$tmp/plain.err")"
[ -d "$tmp/out/rundir" ] || fail "plain: UFT_RUNDIR not made: $(cat "$tmp/plain.err")"
grep -F "bootconfig $tmp/bootconfig:1: ftrace.not_a_key: unknown key" "$tmp/plain.err" \
	>/dev/null || fail "plain: UFT_BOOTCONFIG not read: $(cat "$tmp/plain.err")"
grep -F 'ignoring' "$tmp/plain.err" >/dev/null && fail "plain: $(cat "$tmp/plain.err")"
rm -rf "${tmp:?}/out/"*

# ---- setuid root: every setting ignored, said once ----
as_user "$tmp/bin/prog-suid" >"$tmp/suid.out" 2>"$tmp/suid.err" ||
	fail "the setuid program exited $?: $(cat "$tmp/suid.err")"
grep -x 'prog done' "$tmp/suid.out" >/dev/null || fail "setuid: no 'prog done': $(cat "$tmp/suid.out")"
[ -e "$marker" ] && fail "setuid: UFT_FUSE_LIB was loaded"
[ -e "$tmp/out/mnt" ] && fail "setuid: UFT_TRACEFS directory made"
[ -e "$tmp/out/rundir" ] && fail "setuid: UFT_RUNDIR made"
grep -F 'recorder' "$tmp/suid.err" >/dev/null && fail "setuid: UFT_RECORD tried: $(cat "$tmp/suid.err")"
want='uft: setuid/capability program: ignoring UFT_FUSE_LIB, UFT_TRACEFS, UFT_RECORD, UFT_RUNDIR, UFT_BOOTCONFIG'
[ "$(cat "$tmp/suid.err")" = "$want" ] ||
	fail "setuid: stderr is not the one line
want: $want
got:  $(cat "$tmp/suid.err")"

# ---- nothing set: nothing said ----
env -i setpriv --reuid=nobody --regid="$group" --clear-groups -- "$tmp/bin/prog-suid" \
	>/dev/null 2>"$tmp/quiet.err" || fail "the setuid program without settings failed"
[ -s "$tmp/quiet.err" ] && fail "setuid without settings: $(cat "$tmp/quiet.err")"
echo "ok: setuid program ignored UFT_FUSE_LIB, UFT_TRACEFS, UFT_RECORD, UFT_RUNDIR, UFT_BOOTCONFIG"
