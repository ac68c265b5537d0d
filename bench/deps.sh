#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the peers the benchmarks compare against (LTTng-UST, uftrace,
# rt-tests for cyclictest and oslat) when
# run as root, or says what is missing. Never fails: a missing peer only skips its rows.
PKGS="liblttng-ust-dev lttng-tools uftrace rt-tests"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "bench: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null; then
		exit 0
	fi
	echo "bench: could not install$missing; their rows will be skipped" >&2
else
	echo "bench: missing Debian packages:$missing; their rows will be skipped" >&2
	echo "bench: install them with: sudo apt-get install$missing" >&2
fi
exit 0
