#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks that docs/ARCHITECTURE.md lists every source file and only those.

Usage: scripts/check_docs_map.py [ROOT]

The listing is the section of docs/ARCHITECTURE.md headed "## Source files",
up to the next "## " heading: every `src/...` or `include/...` path written
in backquotes there is a listed file. Every .c, .h, .S or .cc file under src/
and include/ (tracked, or present and not ignored) must be listed; every
listed file must exist. Exits 1 naming each problem, 0 when the map is right.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tree import source_files  # noqa: E402

MAP = "docs/ARCHITECTURE.md"
HEADING = "## Source files"
PATH = re.compile(r"`((?:src|include)/[^`\s]+\.(?:c|h|S|cc))`")


def listed(root):
    entries = {}
    inside = False
    with open(os.path.join(root, MAP), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("## "):
                inside = line.rstrip() == HEADING
                continue
            if inside:
                for m in PATH.finditer(line):
                    entries.setdefault(m.group(1), n)
    return entries


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(root)
    if not os.path.isfile(os.path.join(root, MAP)):
        print(f"{MAP}: missing", file=sys.stderr)
        return 1
    entries = listed(root)
    if not entries:
        print(f"{MAP}: no '{HEADING}' section with file paths", file=sys.stderr)
        return 1
    bad = 0
    for f in source_files(root):
        if f not in entries:
            print(f"{f}: not listed in {MAP} ({HEADING})")
            bad += 1
    for f, n in sorted(entries.items()):
        if not os.path.isfile(os.path.join(root, f)):
            print(f"{MAP}:{n}: lists {f}, which does not exist")
            bad += 1
    if bad:
        print(f"docs-map: {bad} problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
