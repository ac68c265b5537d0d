# SPDX-License-Identifier: GPL-2.0-or-later
"""The files of a source tree, for the documentation checks.

In a git work tree: the tracked files plus the untracked ones git does not
ignore, that exist. Elsewhere (a copied mini-tree): every file under ROOT.
"""
import os
import subprocess


def tree_files(root):
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True,
            capture_output=True,
        ).stdout.decode()
        top = subprocess.run(
            ["git", "-C", root, "rev-parse", "--show-toplevel"], check=True, capture_output=True
        ).stdout.decode().strip()
        if os.path.realpath(top) == os.path.realpath(root):
            files = sorted({f for f in out.split("\0") if f})
            return [f for f in files if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in (".git", "build")]
        for n in names:
            files.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(files)


def source_files(root):
    """The files the map must list: src/** and include/** C, header and assembly files."""
    return [
        f
        for f in tree_files(root)
        if f.startswith(("src/", "include/")) and f.endswith((".c", ".h", ".S", ".cc"))
    ]
