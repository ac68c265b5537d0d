#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The documentation and license checks on a small synthetic tree: the map
# check (scripts/check_docs_map.py), the reference check
# (scripts/check_doc_refs.py) and the SPDX check (scripts/check_spdx.sh with
# scripts/add_spdx.py) pass on it, and each fails, naming the file, once a
# source file is missing from the map, a listed file is gone, a comment or a
# page cites something that does not exist, or a file lacks its SPDX line.
# With UFT_DOC_CHECKS_REAL=1 the map and reference checks must also pass on
# the repository itself. Exit 0 pass, else fail.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

t=$tmp/tree
mkdir -p "$t/scripts" "$t/docs/design" "$t/src/util" "$t/include/uft" "$t/tests"
for f in check_docs_map.py check_doc_refs.py doc_tree.py add_spdx.py check_spdx.sh; do
	cp "$top/scripts/$f" "$t/scripts/" || fail "copy $f"
done

cat >"$t/docs/ARCHITECTURE.md" <<'EOF'
# map

See [the design](design/part.md) and uft(1).

## Source files

- `src/util/a.c`, `src/util/a.h` — the a part.
- `include/uft/x.h` — the public header.
EOF
cat >"$t/docs/design/part.md" <<'EOF'
# part

Back to [the map](../ARCHITECTURE.md); the code is `src/util/a.[ch]` and
src/util/*.c, the header `uft/x.h`, the test tests/t_a.c (tests/t_NAME.c).
As the kernel's Documentation/trace/events.rst and kernel/trace/trace.c.
EOF
printf '.TH UFT 1\n' >"$t/docs/uft.1"
cat >"$t/src/util/a.c" <<'EOF'
/* The a part (a.h, docs/design/part.md, the kernel's lib/glob.c). */
#include "util/a.h"
int a(void) { return "lib/registry.c not a comment"[0]; }
EOF
printf '/* a.c, uft(1) */\nint a(void);\n' >"$t/src/util/a.h"
printf '/* Public. See docs/ARCHITECTURE.md. */\n' >"$t/include/uft/x.h"
printf '/* tests a.c */\n' >"$t/tests/t_a.c"

map() { python3 "$t/scripts/check_docs_map.py" "$t" >"$tmp/out" 2>&1; }
refs() { python3 "$t/scripts/check_doc_refs.py" "$t" >"$tmp/out" 2>&1; }
expect_pass() {
	"$1" || fail "$1 fails on a good tree: $(cat "$tmp/out")"
}
expect_fail() { # check, text the output must contain
	"$1" && fail "$1 passes: $2"
	grep -qF -- "$2" "$tmp/out" || fail "$1 does not name '$2': $(cat "$tmp/out")"
}

for mode in plain git; do
	if [ $mode = git ]; then
		git -C "$t" init -q || fail "git init"
		git -C "$t" add docs src/util/a.c || fail "git add"
	fi
	expect_pass map
	expect_pass refs

	# a source file the map does not list
	printf 'int b;\n' >"$t/src/util/b.c"
	expect_fail map "src/util/b.c: not listed"
	rm "$t/src/util/b.c"
	expect_pass map

	# a listed file that does not exist
	echo '- `src/util/gone.h` — gone.' >>"$t/docs/ARCHITECTURE.md"
	expect_fail map "lists src/util/gone.h"
	sed -i '/gone.h/d' "$t/docs/ARCHITECTURE.md"
	expect_pass map

	# dangling references in a comment: an old path, a missing spec, a man page
	cp "$t/src/util/a.h" "$tmp/a.h"
	printf '/* see lib/registry.c,\n * histograms.md \xc2\xa74 and uft-nope(3) */\n' >>"$t/src/util/a.h"
	expect_fail refs "src/util/a.h:3: lib/registry.c"
	expect_fail refs "src/util/a.h:4: histograms.md"
	expect_fail refs "src/util/a.h:4: uft-nope(3)"
	cp "$tmp/a.h" "$t/src/util/a.h"
	expect_pass refs

	# a bare name that matches no file, a glob that matches none, a dead link
	printf '/* gone.c */\n' >>"$t/src/util/a.c"
	expect_fail refs "src/util/a.c:4: gone.c"
	sed -i '$d' "$t/src/util/a.c"
	echo 'And src/engine/*/x_*.c, [a link](nowhere.md).' >>"$t/docs/design/part.md"
	expect_fail refs "docs/design/part.md:6: src/engine/*/x_*.c"
	expect_fail refs "docs/design/part.md:6: nowhere.md"
	sed -i '$d' "$t/docs/design/part.md"
	expect_pass refs
done

# SPDX lines: missing, then added by folder, and adding again changes nothing
printf '#!/bin/bash\necho hi\n' >"$t/scripts/t_run.sh"
bash "$t/scripts/check_spdx.sh" "$t" >"$tmp/out" 2>&1 && fail "check_spdx passes without SPDX lines"
grep -qF "src/util/a.c: missing '/* SPDX-License-Identifier: LGPL-2.1-or-later */'" "$tmp/out" ||
	fail "check_spdx does not name src/util/a.c: $(cat "$tmp/out")"
grep -qF "tests/t_a.c: missing '/* SPDX-License-Identifier: GPL-2.0-or-later */'" "$tmp/out" ||
	fail "check_spdx does not name tests/t_a.c: $(cat "$tmp/out")"
python3 "$t/scripts/add_spdx.py" "$t" >/dev/null || fail "add_spdx"
bash "$t/scripts/check_spdx.sh" "$t" >"$tmp/out" 2>&1 || fail "check_spdx after add_spdx: $(cat "$tmp/out")"
[ -z "$(python3 "$t/scripts/add_spdx.py" "$t")" ] || fail "add_spdx is not idempotent"
[ "$(sed -n 1p "$t/scripts/t_run.sh")" = "#!/bin/bash" ] &&
	[ "$(sed -n 2p "$t/scripts/t_run.sh")" = "# SPDX-License-Identifier: GPL-2.0-or-later" ] &&
	[ "$(sed -n 3p "$t/scripts/t_run.sh")" = "echo hi" ] ||
	fail "SPDX line not right after the #! line: $(head -3 "$t/scripts/t_run.sh")"
expect_pass map
expect_pass refs

if [ "${UFT_DOC_CHECKS_REAL:-0}" = 1 ]; then
	python3 "$top/scripts/check_docs_map.py" "$top" || fail "map check on the repository"
	python3 "$top/scripts/check_doc_refs.py" "$top" || fail "reference check on the repository"
fi
exit 0
