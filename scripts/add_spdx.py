#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Puts the SPDX license line LICENSE assigns into every source file.

Usage: scripts/add_spdx.py [--dry-run] [--list] [ROOT]

C, C++, assembly and header files get `/* SPDX-License-Identifier: X */` as
their first line; shell (bash completion too), Python, Makefile, CMake and pkg-config files get
`# SPDX-License-Identifier: X`, after the `#!` line when there is one. X is
chosen by folder (see LICENSE). A file that has the right line is left alone,
a wrong SPDX line in that place is replaced, so running it again changes
nothing. --list prints "PATH STYLE LICENSE" for every source file instead
(scripts/check_spdx.sh reads it); --dry-run names the files it would change.
Exits 1 when a source file lies in a folder LICENSE does not cover.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tree import tree_files  # noqa: E402

LGPL = "LGPL-2.1-or-later"
GPL = "GPL-2.0-or-later"

# First match wins; a prefix ending in "/" is a folder.
RULES = [
    ("include/", LGPL),
    ("src/util/", LGPL),
    ("src/wire/", LGPL),
    ("src/engine/", LGPL),
    ("src/runtime/", LGPL),
    ("src/arch/", LGPL),
    ("src/latency/", LGPL),
    ("src/fuse/", LGPL),
    ("src/tracedat/", GPL),
    ("src/recorder/", GPL),
    ("src/report/", GPL),
    ("src/export/", GPL),
    ("src/client/", GPL),
    ("src/attach/", GPL),
    ("src/proctrace/", GPL),
    ("src/cmd/", GPL),
    ("cmake/", LGPL),
    ("uft.pc.in", LGPL),
    ("examples/", LGPL),
    ("python/", LGPL),
    ("tests/", GPL),
    ("fuzz/", GPL),
    ("bench/", GPL),
    ("scripts/", GPL),
    ("completions/", GPL),
    (".ci/", GPL),
    ("Makefile", GPL),
]

C_SUFFIXES = (".c", ".h", ".S", ".cc", ".cpp", ".hpp")
HASH_SUFFIXES = (".sh", ".bash", ".py", ".cmake", ".cmake.in", ".mk", ".pc.in")
SPDX = re.compile(r"SPDX-License-Identifier:")


def style(root, path):
    """'c', 'hash' or None (not a source file)."""
    name = path.rsplit("/", 1)[-1]
    if "/corpus/" in path or path.startswith("LICENSES/"):
        return None
    if path.endswith(C_SUFFIXES):
        return "c"
    if path.endswith(HASH_SUFFIXES) or name == "Makefile":
        return "hash"
    if "." not in name:
        try:
            with open(os.path.join(root, path), "rb") as f:
                first = f.readline()
        except OSError:
            return None
        if first.startswith(b"#!") and re.search(rb"\b(ba)?sh\b|python", first):
            return "hash"
    return None


def license_for(path):
    for prefix, lic in RULES:
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
            return lic
    return None


def spdx_line(kind, lic):
    if kind == "c":
        return "/* SPDX-License-Identifier: %s */" % lic
    return "# SPDX-License-Identifier: %s" % lic


def where(lines):
    """Index of the line that holds (or will hold) the SPDX line."""
    return 1 if lines and lines[0].startswith("#!") else 0


def fixed(text, kind, lic):
    """The text with its SPDX line right, and whether that changed anything."""
    want = spdx_line(kind, lic)
    lines = text.split("\n")
    i = where(lines)
    if i < len(lines) and lines[i] == want:
        return text, False
    if i < len(lines) and SPDX.search(lines[i]):
        lines[i] = want
    else:
        lines.insert(i, want)
    return "\n".join(lines), True


def sources(root):
    """(path, style, license or None) of every source file."""
    for f in tree_files(root):
        kind = style(root, f)
        if kind:
            yield f, kind, license_for(f)


def main():
    args = sys.argv[1:]
    dry = "--dry-run" in args
    listing = "--list" in args
    rest = [a for a in args if not a.startswith("--")]
    root = os.path.abspath(rest[0] if rest else os.path.join(os.path.dirname(__file__), ".."))
    bad = 0
    for f, kind, lic in sources(root):
        if lic is None:
            print("%s: no license assigned to its folder (scripts/add_spdx.py RULES)" % f,
                  file=sys.stderr)
            bad += 1
            continue
        if listing:
            print(f, kind, lic)
            continue
        p = os.path.join(root, f)
        with open(p, encoding="utf-8", newline="") as fh:
            text = fh.read()
        new, changed = fixed(text, kind, lic)
        if changed:
            print(("would add to " if dry else "added to ") + f)
            if not dry:
                with open(p, "w", encoding="utf-8", newline="") as fh:
                    fh.write(new)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
