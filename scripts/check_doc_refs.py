#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks that every reference in the docs and in code comments resolves.

Usage: scripts/check_doc_refs.py [ROOT]

Read: the Markdown pages and manual pages under docs/, README.md and LICENSE
in full; the comments of C, C++ and assembly files and the '#' comments of
shell, Python, Makefile and CMake files everywhere in the tree.

A reference is
  - a repository path (src/, include/, docs/, tests/, scripts/, bench/,
    fuzz/, examples/, cmake/, with or without a leading ./), possibly a
    glob: it must name an existing file or folder, a glob at least one;
  - a relative path with a directory and a source or document suffix
    (runtime/core/registry.c, uft/fastpath.h): it must be the end of the path
    of an existing file;
  - a bare file name with such a suffix (registry.c, BENCHMARKS.md): it must
    be the name of exactly one file, a glob of at least one; "NAME.md §N"
    also needs a heading numbered N in that page;
  - a Markdown link target in a page: relative to the page, it must exist;
  - a manual page of the project, uft(1) or uft-events(3): docs/NAME.N.
The kernel's documentation (Documentation/...rst or .txt), kernel sources
(kernel/..., include/linux/..., arch/..., or any path right after the word
"kernel") and system headers (sys/..., asm/..., linux/...) are accepted by
their shape. Exits 1 naming FILE:LINE of each reference that does not
resolve, 0 when all do.
"""
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tree import tree_files  # noqa: E402

REPO_DIRS = ("src", "include", "docs", "tests", "scripts", "bench", "fuzz", "examples", "cmake")
CHECKED_SUFFIXES = (".c", ".h", ".S", ".cc", ".md", ".sh", ".py", ".cmake")
C_SUFFIXES = (".c", ".h", ".S", ".cc", ".cpp", ".hpp")
HASH_SUFFIXES = (".sh", ".py", ".cmake", ".mk")
HASH_NAMES = ("Makefile",)

# Names that look like files but are not files of this tree.
NOT_FILES = {
    "cmocka.h",
    "stdatomic.h",
    "CMakeLists.txt",
    "uft/version.h",  # generated into the build folder from VERSION
    "version.h",
    "uftConfig.cmake",  # written by `make install` from its template
    "uftConfigVersion.cmake",
}

KERNEL = re.compile(
    r"^(Documentation/.+\.(rst|txt)"
    r"|kernel/.+"
    r"|include/(linux|uapi|trace|asm-generic|net)/.*"
    r"|arch/.+"
    r"|tools/(lib|tracing|perf|testing)/.+)$"
)
SYSTEM_HEADER = re.compile(r"^(sys|asm|linux|bits|netinet|arpa|gnu|elfutils|fuse3|tracefs|traceevent|trace-cmd|cmocka)/[\w/.-]+\.h$")
URL = re.compile(r"[a-zA-Z][\w+.-]*://\S+")
TOKEN = re.compile(r"[\w./*?\[\]-]+")
MAN = re.compile(r"(?<![\w-])((?:lib)?uft[\w-]*)\((\d)\)")
SECTION = re.compile(r"([\w./-]+\.md)\s*§\s*(\d+)")
MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
GLOB_CHARS = re.compile(r"[*?\[]")
PLACEHOLDER = re.compile(r"(?<![A-Za-z])[A-Z][A-Z0-9]+(?![a-z])")


def c_comments(text):
    """Yields (line, text) of the comments of C-like source."""
    i, n, line = 0, len(text), 1
    out = {}
    state = None  # None, "line", "block", '"', "'"
    while i < n:
        ch = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if state is None:
            if ch == "/" and nxt == "/":
                state, i = "line", i + 2
                continue
            if ch == "/" and nxt == "*":
                state, i = "block", i + 2
                continue
            if ch in "\"'":
                state = ch
        elif state == "line":
            if ch == "\n":
                state = None
            else:
                out.setdefault(line, []).append(ch)
        elif state == "block":
            if ch == "*" and nxt == "/":
                state, i = None, i + 2
                continue
            if ch != "\n":
                out.setdefault(line, []).append(ch)
            else:
                out.setdefault(line, []).append(" ")
        else:
            if ch == "\\":
                i += 2
                continue
            if ch == state or ch == "\n":
                state = None
        if ch == "\n":
            line += 1
        i += 1
    for ln in sorted(out):
        yield ln, "".join(out[ln])


def hash_comments(text):
    for ln, raw in enumerate(text.split("\n"), 1):
        if raw.startswith("#!"):
            continue
        m = re.search(r"(^|\s)#(\s|$)", raw)
        if m and "$#" not in raw[: m.end()]:
            yield ln, raw[m.end():]


def whole(text):
    for ln, raw in enumerate(text.split("\n"), 1):
        yield ln, re.sub(r"\\f[BIRP]|\\-", lambda m: "-" if m.group(0) == "\\-" else "", raw)


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = tree_files(root)
        self.fileset = set(self.files)
        self.dirs = set()
        for f in self.files:
            parts = f.split("/")
            for k in range(1, len(parts)):
                self.dirs.add("/".join(parts[:k]))
        self.by_name = {}
        for f in self.files:
            self.by_name.setdefault(f.rsplit("/", 1)[-1], []).append(f)

    def exists(self, path):
        path = path.rstrip("/")
        return path in self.fileset or path in self.dirs or path == ""

    def glob(self, pattern):
        pattern = pattern.rstrip("/")
        return [f for f in self.files if fnmatch.fnmatchcase(f, pattern)] + [
            d for d in self.dirs if fnmatch.fnmatchcase(d, pattern)
        ]

    def suffix(self, tail):
        if GLOB_CHARS.search(tail):
            return [f for f in self.files if fnmatch.fnmatchcase(f, tail) or fnmatch.fnmatchcase(f, "*/" + tail)]
        return [f for f in self.files if f == tail or f.endswith("/" + tail)]

    def names(self, name):
        if GLOB_CHARS.search(name):
            return [f for n, fs in self.by_name.items() if fnmatch.fnmatchcase(n, name) for f in fs]
        return self.by_name.get(name, [])

    def has_section(self, path, num):
        try:
            with open(os.path.join(self.root, path), encoding="utf-8") as f:
                for line in f:
                    if re.match(r"#+\s*(§\s*)?%s[.\s]" % num, line):
                        return True
        except OSError:
            pass
        return False


def clean(tok):
    while tok.startswith("[") and tok.count("[") > tok.count("]"):
        tok = tok[1:]
    while tok.endswith("]") and tok.count("]") > tok.count("["):
        tok = tok[:-1]
    tok = tok.rstrip(".-,")
    while tok.startswith("./"):
        tok = tok[2:]
    while tok.startswith("../"):
        tok = tok[3:]
    return tok


def check_token(tree, tok, before):
    """None when tok resolves or is no reference, else the reason."""
    if tok in NOT_FILES:
        return None
    if "/" in tok:
        if tok.startswith("/") or before[-1:] in ("$", "~", ">", "}", ")", "%"):
            return None
        if KERNEL.match(tok) or SYSTEM_HEADER.match(tok):
            return None
        if re.search(r"kernel'?s?\s*$|Linux'?s?\s*$", before):
            return None
        first = tok.split("/", 1)[0]
        if not tree.exists(tok) and not tree.suffix(tok):
            # an upper-case word is a placeholder for any name (NAME, N)
            tok = PLACEHOLDER.sub("*", tok)
        if first in REPO_DIRS:
            if GLOB_CHARS.search(tok):
                return None if tree.glob(tok) else "matches no file"
            return None if tree.exists(tok) else "no such file or folder"
        if tok.endswith(CHECKED_SUFFIXES):
            if tree.suffix(tok):
                return None
            return "no file has this path"
        return None
    if not tok.endswith(CHECKED_SUFFIXES) or tok in NOT_FILES:
        return None
    if not re.match(r"^[\w*?\[\]-]", tok) or before[-1:] in (".", "$", "%"):
        return None
    if re.search(r"kernel's\s*$", before):
        return None
    found = tree.names(tok)
    if not found and PLACEHOLDER.search(tok):
        tok = PLACEHOLDER.sub("*", tok)
        found = tree.names(tok)
    if not found:
        return "no file of that name"
    if len(found) > 1 and not GLOB_CHARS.search(tok):
        return "ambiguous: " + ", ".join(found)
    return None


def check_text(tree, path, lines, is_markdown):
    problems = []
    for ln, text in lines:
        text = URL.sub(" ", text)
        if is_markdown:
            base = os.path.dirname(path)
            for m in MD_LINK.finditer(text):
                target = m.group(1).split("#", 1)[0]
                if not target or re.match(r"^[a-z]+:", target):
                    continue
                full = os.path.normpath(os.path.join(base, target))
                if not tree.exists(full):
                    problems.append((ln, target, "link to a missing file"))
        for m in MAN.finditer(text):
            name = "docs/%s.%s" % (m.group(1), m.group(2))
            if name not in tree.fileset:
                problems.append((ln, m.group(0), "no manual page " + name))
        for m in SECTION.finditer(text):
            found = tree.suffix(clean(m.group(1))) or tree.names(clean(m.group(1)))
            if len(found) == 1 and not tree.has_section(found[0], m.group(2)):
                problems.append((ln, m.group(0), "%s has no section %s" % (found[0], m.group(2))))
        for m in TOKEN.finditer(text):
            tok = clean(m.group(0))
            if not tok or tok.startswith("-"):
                continue
            why = check_token(tree, tok, text[: m.start()])
            if why:
                problems.append((ln, tok, why))
    return problems


def scanned(tree):
    for f in tree.files:
        name = f.rsplit("/", 1)[-1]
        if "/corpus/" in f:
            continue
        if f.startswith("docs/") and (f.endswith(".md") or re.search(r"\.\d$", f)):
            yield f, whole, f.endswith(".md")
        elif f in ("README.md", "LICENSE"):
            yield f, whole, f.endswith(".md")
        elif f.endswith(C_SUFFIXES):
            yield f, c_comments, False
        elif f.endswith(HASH_SUFFIXES) or name in HASH_NAMES:
            yield f, hash_comments, False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    tree = Tree(os.path.abspath(root))
    bad = 0
    for f, extract, md in scanned(tree):
        try:
            with open(os.path.join(tree.root, f), encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        for ln, tok, why in check_text(tree, f, extract(text), md):
            print("%s:%d: %s: %s" % (f, ln, tok, why))
            bad += 1
    if bad:
        print("doc-refs: %d reference(s) do not resolve" % bad, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
