#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages uft needs to build and test (when run as root),
# or says which to install.
set -e
# libc6-dbg: libc's local symbols (start_thread) for the tests of stack frames.
# protobuf-compiler: the export tests read Perfetto files back with protoc --decode_raw;
# chromium: test_export_html.sh opens the HTML report in it, headless.
# tmux, bsdutils (script): test_top.sh and test_progress.sh run uft top and uft record on a terminal.
# kernelshark ... imagemagick: test_kernelshark.sh loads files with libkshark
# and opens them in kernelshark under Xvfb (also `make viewer-deps`).
# libcapstone-dev: the instruction decoder of probes off the sleds (dlopen()ed, headers at build).
# libdw-dev: probe args by DWARF name (libdw dlopen()ed on first use, headers at build).
# rtla: test_rtla.sh runs the kernel's rtla on a traced program's tree (uft ns).
PKGS="gcc g++ clang clang-format make pkg-config libtraceevent-dev libtracecmd-dev libtracefs-dev trace-cmd \
libcmocka-dev systemtap-sdt-dev libfuse3-dev fuse3 libelf-dev libzstd-dev zlib1g-dev cmake \
libc6-dbg protobuf-compiler chromium tmux bsdutils libcapstone-dev libdw-dev rtla \
kernelshark libkshark-dev libjson-c-dev xvfb xauth xdotool imagemagick"
[ -n "$UFT_EXTRA_PKGS" ] && PKGS="$PKGS $UFT_EXTRA_PKGS"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "uft: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# Another apt run (an unattended upgrade) holding the lock is waited for.
	apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
else
	echo "uft: missing Debian packages:$missing" >&2
	echo "uft: install them with: sudo apt-get install$missing" >&2
	exit 1
fi
