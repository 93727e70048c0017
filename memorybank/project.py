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


def linked_out(root: str | os.PathLike[str]) -> BankError | None:
    """The refusal for a bank folder reached through a symlink the repository holds that leads outside it.

    A clone brings symlinks as committed (`memory_bank -> ../../`), and the server, the CLI and the
    hooks would read and write wherever one points. So when the path to the bank passes a symlink
    below its repository's top (the nearest folder above holding `.git`, found without following
    the link) and the bank then resolves outside that top, the link must be one git does not track
    (a link the user made is their choice); a tracked one is refused. A link that stays inside the
    project is followed: the bank is confined to its target. Outside git there is nothing a clone
    brought, so nothing is refused. None when the bank may be used.
    """
    given = Path(os.path.abspath(root))
    top = next((folder for folder in given.parents if os.path.lexists(folder / ".git")), None)
    if top is None:
        return None
    real, real_top = os.path.realpath(given), os.path.realpath(top)
    if os.path.commonpath([real, real_top]) == real_top:
        return None
    link = top
    for part in given.relative_to(top).parts:
        link = link / part
        if os.path.islink(link):
            break
    else:
        return None
    rel = link.relative_to(top).as_posix()
    if not _tracked(top, rel):
        return None
    return BankError(f"Refused (path): the bank folder {given} is reached through {rel}, a symlink committed to the "
                     f"repository that leads outside the project, to {real}; a clone can point one anywhere, so "
                     "nothing was read or written. Replace the symlink with the folder itself, or give that folder's "
                     f"own path ({real}) as the bank root to use it on purpose.")


def _tracked(top: Path, rel: str) -> bool:
    """Whether git tracks `rel` in the repository at `top`; an unanswered question counts as yes (refuse)."""
    import subprocess

    from .gitutil import git_executable
    try:
        proc = subprocess.run([git_executable() or "", "--no-optional-locks", "-C", str(top), "ls-files", "-z",
                               "--", ":(literal)" + rel], capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return True
    return proc.returncode != 0 or bool(proc.stdout.strip(b"\0"))


def link_out_of(project: str | os.PathLike[str], rel: str) -> str | None:
    """The symlink on the way from `project` to `rel` (the file itself included) that leads outside it, or None.

    Returned as `a/b -> target` for a refusal. A symlink that stays inside the project is followed
    (`AGENTS.md -> CLAUDE.md`); one that leaves it would let a cloned `.cursor -> ~/.config/...`
    make install, deliver or uninstall edit, or import read, a file outside the project.
    """
    top = Path(project)
    real_top = os.path.realpath(top)
    path = top
    for part in rel.split("/"):
        path = path / part
        if os.path.islink(path):
            target = os.path.realpath(path)
            if os.path.commonpath([target, real_top]) != real_top:
                return f"{path.relative_to(top).as_posix()} -> {os.readlink(path)}"
    return None


def outside_refusal(verb: str, rel: str, link: str) -> BankError:
    """The refusal for a project file reached through a symlink leading outside the project."""
    return BankError(f"Refusing to {verb} {rel}: it is reached through the symlink {link}, which leads outside the "
                     "project, so the file is not the project's. Replace the symlink with a real file or folder, "
                     "then re-run; nothing was written.")
