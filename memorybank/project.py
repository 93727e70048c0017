"""Which repository, which project folder: the one resolver every capability and the hook use.

The repository is the git top-level containing a path (or its nearest existing ancestor); the
project folder is an explicit one, else the repository holding the bank, else the bank's parent.
Standard library only, because the stop hook imports it and must start fast.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import BankError
from .gitutil import repo_top

if TYPE_CHECKING:
    from .bank import Bank


def git_toplevel(path: str | os.PathLike[str], strict: bool = False) -> Path | None:
    """The git work-tree top-level containing `path` (or its nearest existing ancestor), or None.

    `strict` refuses a repository git distrusts (another user's) instead of answering None.
    """
    folder = Path(os.path.abspath(path))
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    return repo_top(folder, timeout=None if strict else 10, strict=strict)


def bank_top(bank: Bank) -> Path | None:
    """`repo_top` of a bank's root, remembered in `bank.cache` while the repository's `.git` still exists.

    Saves a `git rev-parse` (~3 ms) per call in a long-running server; "not in git" is never
    remembered, so a later `git init` is picked up at once.
    """
    key = "gitutil.top"
    cached = bank.cache.get(key)
    if isinstance(cached, Path) and os.path.lexists(cached / ".git"):
        return cached
    top = git_toplevel(bank.root, strict=True)
    if top is not None:
        bank.cache[key] = top
    return top


def project_folder(root: str | os.PathLike[str], project: str | os.PathLike[str] | None = None) -> Path:
    """The project folder, resolved: `project` (which must exist), else `project_dir(root)`."""
    if project is not None and str(project).strip():
        path = Path(os.path.realpath(project))
        if not path.is_dir():
            raise BankError(f"No project folder at {path}: it does not exist. Give an existing project folder.")
        return path
    return Path(os.path.realpath(project_dir(root)))


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
