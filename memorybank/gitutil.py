"""A thin wrapper over the git command line (subprocess, never GitPython).

Every call runs `git -c core.quotepath=off` with `GIT_OPTIONAL_LOCKS=0` (a read-only tool must not
take the index lock another git process may want) and a C locale (stable messages). Paths git
prints are parsed from `-z` output only. GitPython is not used: it spawns the same processes and its
import alone costs ~66 ms on the CLI path (notes/python-stack.md §3).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import BankError
from .regexes import compiled

if TYPE_CHECKING:
    pass

_OPTIONS = ("-c", "core.quotepath=off")
_CHUNK = 1 << 16
# A ref that walks back from a base: HEAD~20, main^^, v1~3^2. `base` is what must exist.
# A first-parent walk (`~N`, `^`, `^1`): it may run out of history. `^2`, `^3` name another parent,
# and a parent that does not exist is a bad ref, not a walk past the first commit.
_WALK = compiled(r"^(?P<base>[^~^:\s]+)(?P<walk>(?:~\d*|\^1?(?!\d))+)$")


class GitFailure(Exception):
    """A git command exited non-zero. Internal: capabilities turn it into a BankError or a fallback."""

    def __init__(self, args: tuple[str, ...], code: int, stderr: str) -> None:
        super().__init__(f"git {' '.join(args)} failed ({code}): {stderr.strip()}")
        self.args_ = args
        self.code = code
        self.stderr = stderr.strip()


def _env() -> dict[str, str]:
    env = dict(os.environ)  # read per call: tests and embedders may change the environment
    env.update({"GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "LANGUAGE": "C", "GIT_TERMINAL_PROMPT": "0"})
    return env


def git_available() -> bool:
    """Whether a `git` executable is on PATH (`git_executable`)."""
    return git_executable() is not None


def git_executable() -> str | None:
    """The `git` every spawn runs: the first in PATH's absolute folders, None when there is none.

    attack-lean: exec resolves an empty or relative PATH entry (`PATH=:/usr/bin`, `.`) in the child's
    working folder, and git runs in the bank — a clone anyone can commit an executable `git` to — so those
    entries are never searched. Windows keeps its own search (`git`)."""
    if os.name == "nt":
        return "git"
    for folder in os.get_exec_path():  # read per call, as exec would: a git installed later is found
        candidate = os.path.join(folder, "git")
        if os.path.isabs(folder) and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def git_command(*args: str) -> list[str]:
    """`git -c core.quotepath=off ARGS` with the executable found (`git_executable`); OSError without one."""
    found = git_executable()
    if found is None:
        raise FileNotFoundError("git is not installed (no git in PATH's absolute folders)")
    return [found, *_OPTIONS, *args]


def decode(raw: bytes) -> str:
    """Decode a path or message git printed (UTF-8; undecodable bytes replaced)."""
    return raw.decode("utf-8", errors="replace")


def run_git(cwd: str | os.PathLike[str], *args: str, timeout: float | None = None) -> bytes:
    """Run one git command in `cwd` and return its stdout bytes; raises GitFailure on a non-zero exit."""
    try:
        proc = subprocess.run(git_command(*args), cwd=cwd, env=_env(), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as exc:  # git missing, cwd gone, or too slow
        raise GitFailure(args, -1, str(exc)) from exc
    if proc.returncode != 0:
        raise GitFailure(args, proc.returncode, decode(proc.stderr))
    return proc.stdout


def split_z(raw: bytes) -> list[str]:
    """Split `-z` output into decoded fields (the trailing empty field dropped)."""
    if not raw:
        return []
    parts = raw.split(b"\0")
    if parts and parts[-1] == b"":
        parts.pop()
    return [decode(p) for p in parts]


@contextmanager
def stream_git(cwd: str | os.PathLike[str], *args: str) -> Iterator[Iterator[bytes]]:
    """Run git and yield an iterator over its stdout in chunks; the process is killed on exit.

    Leaving the `with` block early (the caller has seen enough) kills git at once, so a long
    `git log` costs only what was read. A non-zero exit after a complete read raises GitFailure.
    `GIT_FLUSH=0` makes git write in full buffers instead of flushing after every commit: ~60×
    fewer pipe reads, which saved ~20 % of a 6,000-commit walk.
    """
    env = _env()
    env["GIT_FLUSH"] = "0"
    try:
        proc = subprocess.Popen(git_command(*args), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    except OSError as exc:
        raise GitFailure(args, -1, str(exc)) from exc
    finished = False

    def chunks() -> Iterator[bytes]:
        nonlocal finished
        assert proc.stdout is not None
        read = proc.stdout.read
        while True:
            chunk = read(_CHUNK)
            if not chunk:
                finished = True
                return
            yield chunk

    try:
        yield chunks()
    finally:
        if not finished:
            proc.kill()
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        err = proc.stderr.read() if finished else b""
        proc.stderr.close()
        code = proc.wait()
    if finished and code != 0:
        raise GitFailure(args, code, decode(err))


# Set only while one call runs (`same_call`): `repo_top`'s answer per folder, as git gave it
_TOPS: dict[str, bytes | GitFailure] | None = None
# With either set, git finds the repository from the environment, not from the folders above
_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE")


def may_be_in_git(path: str | os.PathLike[str]) -> bool:
    """False when git could find no repository from `path`: no folder from it up to `/` holds a `.git`
    (file or folder) or looks like a bare repository (`HEAD`), and neither GIT_DIR nor GIT_WORK_TREE is
    set. A few `lstat`s instead of spawning git (~6 ms CPU, more in wall) to hear "not a repository"."""
    if any(name in os.environ for name in _GIT_ENV):
        return True
    for start in {os.path.abspath(path), os.path.realpath(path)}:  # as given and with symlinks resolved
        folder = start
        while True:
            if os.path.lexists(os.path.join(folder, ".git")) or os.path.lexists(os.path.join(folder, "HEAD")):
                return True
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return False


@contextmanager
def same_call() -> Iterator[None]:
    """Within the block, `repo_top` asks git once per folder (a call that resolves the project, the
    repository and the anchors asked `rev-parse --show-toplevel` three times). Not across calls: a
    server's next call must see a `git init` made in between."""
    global _TOPS
    outer = _TOPS
    if outer is None:
        _TOPS = {}
    try:
        yield
    finally:
        _TOPS = outer


def _show_toplevel(path: str | os.PathLike[str], timeout: float | None) -> bytes:
    memo = _TOPS
    if memo is None:
        return run_git(path, "rev-parse", "--show-toplevel", timeout=timeout)
    key = os.path.realpath(path)
    known = memo.get(key)
    if known is None:
        try:
            known = run_git(path, "rev-parse", "--show-toplevel", timeout=timeout)
        except GitFailure as exc:
            if exc.code == -1:  # git missing or too slow: not an answer to remember
                raise
            known = exc
        memo[key] = known
    if isinstance(known, GitFailure):
        raise known
    return known


def repo_top(path: str | os.PathLike[str], timeout: float | None = None, strict: bool = True) -> Path | None:
    """The top-level folder of the git work tree containing `path`, or None (not in git, or no git).

    The result is git's own (symlink-resolved) path; compare it with `os.path.realpath` of a path.
    A bare repository or a `.git` folder has no work tree and gives None. A repository git refuses
    because another user owns it is a refusal when `strict` (capabilities), None otherwise (the hook).
    """
    if not os.path.isdir(path) or not may_be_in_git(path) or not git_available():
        return None
    try:
        out = _show_toplevel(path, timeout)
    except GitFailure as exc:
        if strict and "dubious ownership" in exc.stderr:
            raise BankError(f"git refuses the repository containing {path}: it belongs to another user. If you "
                            "trust it, run `git config --global --add safe.directory <repository folder>`.") from None
        return None
    text = decode(out).strip()
    return Path(text) if text else None


def relative_to_top(top: Path, path: str | os.PathLike[str]) -> str:
    """`path` (anywhere under `top`) as a POSIX path relative to the top; '' for the top itself."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(top))
    rel = rel.replace(os.sep, "/")
    return "" if rel == "." else rel


def has_commits(top: Path) -> bool:
    """Whether HEAD names a commit (false in a fresh repository)."""
    return resolve_commit(top, "HEAD") is not None


def resolve_commit(top: Path, ref: str) -> str | None:
    """The commit id `ref` names, or None if it names no commit."""
    if not ref or ref.startswith("-") or "\0" in ref:
        return None
    try:
        out = run_git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    except GitFailure:
        return None
    return decode(out).strip() or None


def walking_base(ref: str) -> str | None:
    """For a walking ref like `HEAD~20` or `main^^`, the ref it walks from; None for other refs."""
    match = _WALK.match(ref.strip())
    return match.group("base") if match else None


def is_shallow(top: Path) -> bool:
    """Whether the repository is a shallow clone (its history is cut: dates and walks stop there)."""
    try:
        return decode(run_git(top, "rev-parse", "--is-shallow-repository")).strip() == "true"
    except GitFailure:
        return False


def root_commit(top: Path) -> str | None:
    """The first (oldest) root commit reachable from HEAD, or None without commits."""
    try:
        out = run_git(top, "rev-list", "--max-parents=0", "HEAD")
    except GitFailure:
        return None
    roots = decode(out).split()
    return roots[-1] if roots else None


def untracked(top: Path, *pathspec: str) -> list[str]:
    """Untracked, not ignored files (top-relative), optionally limited to a top-relative pathspec."""
    args = ["ls-files", "--others", "--exclude-standard", "-z", "--full-name"]
    if pathspec:
        args += ["--", *(f":(top,literal){p}" if p else ":(top)" for p in pathspec)]
    return split_z(run_git(top, *args))


def git_refused(exc: GitFailure) -> BankError:
    """A git command failed for a reason the caller cannot fix by changing arguments (corrupt repository…)."""
    return BankError(f"git failed: {exc.stderr or exc}. Check the repository with `git status` and `git fsck`.")


def commit_refused(ref: str, dates_too: bool = False) -> BankError:
    """The refusal for a ref that names no commit (`dates_too`: the caller also accepts ISO dates)."""
    alt = ", or an ISO date such as 2026-01-31" if dates_too else ""
    return BankError(f"Unknown git ref: {ref}. Give a branch, tag, commit id or HEAD~N that exists in this "
                     f"repository{alt}.")


def missing_branch(top: Path) -> str | None:
    """The branch HEAD names when it has no commit while other branches do (a typo'd or deleted branch)."""
    if has_commits(top):
        return None
    try:
        ref = decode(run_git(top, "symbolic-ref", "-q", "HEAD")).strip()
        others = decode(run_git(top, "for-each-ref", "--count=1", "--format=%(refname:short)", "refs/heads",
                                "refs/remotes")).strip()
    except GitFailure:
        return None
    if not ref.startswith("refs/heads/") or not others:
        return None
    return ref[len("refs/heads/"):]


def missing_branch_refused(branch: str) -> BankError:
    return BankError(f"HEAD names the branch {branch}, which does not exist (it has no commit), while the "
                     "repository has other branches. Switch to an existing branch (`git switch <branch>`), "
                     "or commit on this one first.")


def empty_tree(top: Path) -> str:
    """The id of the empty tree in this repository's hash format (a diff base before the first commit)."""
    return decode(run_git(top, "hash-object", "-t", "tree", os.devnull)).strip()


def since_base(top: Path, ref: str, dates_too: bool = False) -> tuple[str | None, str | None]:
    """`(commit, note)` to compare the working tree with for "changed since `ref`".

    A first-parent walk past the first commit (`HEAD~5` in a 2-commit history) falls back to the
    root commit, and the note says so. `(None, note)` means the repository has no commit yet and
    `ref` is HEAD or a walk from it. HEAD naming a missing branch, or any other unknown ref, is refused.
    """
    commit = resolve_commit(top, ref)
    if commit is not None:
        return commit, None
    base = walking_base(ref)
    if ref == "HEAD" or base == "HEAD":
        branch = missing_branch(top)
        if branch is not None:
            raise missing_branch_refused(branch)
        if not has_commits(top):
            return None, "The repository has no commits yet"
    if base is None or resolve_commit(top, base) is None:
        raise commit_refused(ref, dates_too=dates_too)
    root = root_commit(top)
    if root is None:  # pragma: no cover - a resolvable base implies a root commit
        raise commit_refused(ref, dates_too=dates_too)
    first = "the shallow clone's first commit" if is_shallow(top) else "the first commit"
    return root, (f"{ref} reaches past {first}; compared with the root commit {root[:12]} instead "
                  "(what the root commit itself added is not listed).")


def ignored(cwd: str | os.PathLike[str], paths: list[str]) -> set[str]:
    """Which of `paths` (relative to `cwd`) git ignores; empty outside git or when git fails.

    No `git_available` first (prime-lean): a missing git fails the spawn below, with the same empty answer,
    and every cold refresh asks this, so it would import shutil (with bz2, lzma) in each for nothing."""
    if not paths or not may_be_in_git(cwd):
        return set()
    data = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    try:
        proc = subprocess.run(git_command("check-ignore", "-z", "--stdin"), cwd=cwd, env=_env(), input=data,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return set()
    if proc.returncode not in (0, 1):  # 128: not a repository
        return set()
    return set(split_z(proc.stdout))
