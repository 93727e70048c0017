"""Where a bank's project lives: the git top-level that contains the bank, else the bank's parent.

Standard library only, because the stop hook imports it and must start fast.
"""

from __future__ import annotations

import os
from pathlib import Path

from .gitutil import repo_top


def git_toplevel(path: str | os.PathLike[str]) -> Path | None:
    """The git work-tree top-level containing `path` (or its nearest existing ancestor), or None."""
    folder = Path(os.path.abspath(path))
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    return repo_top(folder, timeout=10, strict=False)


def project_dir(root: str | os.PathLike[str]) -> Path:
    """The project folder of a bank: the git top-level containing it, else the bank's parent folder."""
    root = Path(os.path.abspath(root))
    return git_toplevel(root) or root.parent


def bank_relpath(root: str | os.PathLike[str], project: str | os.PathLike[str]) -> str:
    """The bank's path relative to the project, POSIX (`memory_bank`, `docs/bank`, `../bank`).

    Both sides are resolved first, because git reports its top-level with symlinks resolved.
    """
    try:
        rel = os.path.relpath(os.path.realpath(root), os.path.realpath(project))
    except ValueError:  # another drive on Windows
        return Path(os.path.realpath(root)).as_posix()
    return rel.replace(os.sep, "/")
