#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks that every source file carries the SPDX line LICENSE assigns to its
# folder: the first line (after a `#!` line) must be exactly what
# scripts/add_spdx.py would write. Names each file that lacks it and exits 1;
# `python3 scripts/add_spdx.py` fixes them all.
# Usage: scripts/check_spdx.sh [ROOT]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${1:-$here/..}" && pwd)

list=$(python3 "$here/add_spdx.py" --list "$root")
rc=$?
bad=0
while read -r path kind lic; do
	[ -n "$path" ] || continue
	if [ "$kind" = c ]; then
		want="/* SPDX-License-Identifier: $lic */"
	else
		want="# SPDX-License-Identifier: $lic"
	fi
	line=$(head -n 2 "$root/$path" | {
		IFS= read -r first
		if [ "${first#\#!}" != "$first" ]; then
			IFS= read -r first
		fi
		printf '%s' "$first"
	})
	if [ "$line" != "$want" ]; then
		echo "$path: missing '$want'"
		bad=$((bad + 1))
	fi
done <<<"$list"

if [ $bad -gt 0 ] || [ $rc -ne 0 ]; then
	echo "spdx: $bad file(s) without the right SPDX line" >&2
	exit 1
fi
exit 0
