# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests that record and read files (sourced, not run): the
# build's programs, a temporary directory removed at exit, and fail(). The
# sourcing test names more programs it needs with need PATH...
set -uo pipefail
# grep -q for the end of a pipeline: it reads all its input, so the command
# before it never dies of SIGPIPE and fails the pipeline under pipefail.
grep_q() { grep "$@" >/dev/null; }
cd "$(dirname "${BASH_SOURCE[1]}")/../.." || exit 1
B=${UFT_BUILD:-build}
UFT=$B/bin/uft
DEMO=$B/bin/demo
# need PATH...: skips the test unless every PATH is an executable.
need() {
	local p
	for p in "$UFT" "$@"; do
		[ -x "$p" ] || {
			echo "skip: build $B first (make all tests-bin): no $p"
			exit 77
		}
	done
}
# Whether $B is a sanitizer build (its libuft needs its runtime in the
# program, and is never preloaded).
sanitizer_build() { nm -D "$B/lib/libuft.so" | grep_q -E ' U __(asan|tsan)_init$'; }
# need_plain_build WHY: skips the test on a sanitizer build.
need_plain_build() {
	if sanitizer_build; then
		echo "skip: $B is a sanitizer build; $1"
		exit 77
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}
