"""Atomic file replacement: temp file in the same folder, fsync, `os.replace` (§10, §16).

The one place files are written. Standard library only, because the stop hook uses it too. The
writers' multi-file transactions (`writers/files.py`) are built from `write_temp` and `fsync_dir`.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

TEMP_PREFIX = ".memorybank-tmp-"  # hidden, so the index never sees a half-written temp


def fsync_dir(folder: Path) -> None:
    """Make renames in `folder` durable (ignored where the filesystem refuses a directory fsync)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)


def write_temp(target: Path, data: bytes, like: os.stat_result | None) -> Path:
    """Write `data` to a fresh temp file beside `target`, fsynced, with the original's mode.

    When the original's mtime would equal the new file's (coarse clocks, same-size edits), the
    temp gets a later mtime so every index sees the change on its next stat.
    """
    name = target.name
    while len(name.encode("utf-8", "surrogateescape")) > 200:  # the temp name must stay within 255 bytes
        name = name[1:]
    temp = target.with_name(f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}-{name}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if like is not None:
            os.fchmod(fd, stat.S_IMODE(like.st_mode))
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        temp.unlink(missing_ok=True)
        raise
    os.close(fd)
    if like is not None:
        mtime = temp.stat().st_mtime_ns
        if mtime <= like.st_mtime_ns:
            os.utime(temp, ns=(like.st_atime_ns, like.st_mtime_ns + 1_000_000))
    return temp


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace one file so readers see the old bytes or the new, never a partial file.

    Keeps the old file's permission bits and writes through a symlink to its target instead of
    replacing the link. The temp file is removed on any failure.
    """
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        like = target.stat()
    except FileNotFoundError:
        like = None
    temp = write_temp(target, data, like)
    try:
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)


class ReplaceFailed(Exception):
    """A `replace_files` call that failed and was undone; `path` is the file it could not write."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _missing_folders(target: Path) -> list[Path]:
    """The folders to create for `target`, outermost first; refuses an ancestor that is not a folder."""
    missing = []
    parent = target.parent
    while not parent.is_dir():
        if os.path.lexists(parent):
            raise ReplaceFailed(target, f"{parent} is not a folder")
        missing.append(parent)
        parent = parent.parent
    return missing[::-1]


CHANGED = "changed on disk since it was read"


def _now(target: Path) -> bytes | None:
    try:
        return target.read_bytes()
    except FileNotFoundError:
        return None


def replace_files(writes: dict[Path, bytes], removes: list[Path] | tuple[Path, ...] = (),
                  expected: dict[Path, bytes | None] | None = None) -> None:
    """Write and remove several files all-or-nothing, as far as the OS allows (§16).

    Every check runs first (parents must be folders, targets regular files or absent); then the
    missing folders are made and every temp file is written and fsynced beside its target; only
    when all temps exist are the targets replaced, then `removes` unlinked. A failure before the
    first replace removes the temps and the folders made; a failure after it also puts back the
    original bytes of every file already replaced or removed. Either way `ReplaceFailed` names the
    file and the OS reason. Like `write_atomic`, a symlinked target is written through to its file.

    `expected` holds what the caller read of some targets (None: absent): right before the first
    replace each is read again, and one that differs (a person saved meanwhile) fails the whole
    call with `ReplaceFailed(path, CHANGED)`, nothing replaced.
    """
    base = {Path(os.path.realpath(path)): data for path, data in (expected or {}).items()}
    targets = {Path(os.path.realpath(path)): data for path, data in writes.items()}
    made: list[Path] = []
    temps: dict[Path, Path] = {}
    originals: dict[Path, tuple[bytes, os.stat_result] | None] = {}
    done: list[Path] = []
    current = next(iter(targets), None)
    try:
        folders: list[Path] = []
        for target in [*targets, *removes]:
            current = target
            for folder in _missing_folders(target):
                if folder not in folders:
                    folders.append(folder)
            if os.path.lexists(target) and not stat.S_ISREG(os.lstat(target).st_mode):
                raise ReplaceFailed(target, "not a regular file")
        for folder in folders:
            current = folder
            try:
                folder.mkdir()
            except FileExistsError:  # another writer made it meanwhile: use it, and never remove it
                if not folder.is_dir():
                    raise
                continue
            made.append(folder)
        for target, data in targets.items():
            current = target
            try:
                like = target.stat()
                originals[target] = (target.read_bytes(), like)
            except FileNotFoundError:
                like, originals[target] = None, None
            temps[target] = write_temp(target, data, like)
        for target in removes:
            current = target
            originals[target] = (target.read_bytes(), target.stat()) if target.exists() else None
        for target, data in base.items():  # the final check: nothing saved since the caller's read
            current = target
            if _now(target) != data:
                raise ReplaceFailed(target, CHANGED)
        for target in targets:
            current = target
            os.replace(temps.pop(target), target)
            done.append(target)
        for target in removes:
            current = target
            target.unlink(missing_ok=True)
            done.append(target)
        for folder in dict.fromkeys(t.parent for t in done):
            fsync_dir(folder)
    except BaseException as exc:
        for target in reversed(done):
            _put_back(target, originals.get(target))
        clean_up(temps.values(), made)
        if isinstance(exc, OSError):
            raise ReplaceFailed(current if current is not None else Path("."), _reason(exc)) from exc
        raise


def clean_up(temps: Iterable[Path], made: list[Path]) -> None:
    """After a failed multi-file write: remove its temp files, then the folders it made (newest first)."""
    for temp in temps:
        temp.unlink(missing_ok=True)
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            pass


def _put_back(target: Path, original: tuple[bytes, os.stat_result] | None) -> None:
    """Best-effort undo of one replace or removal (a failure here leaves the new bytes, never a torn file)."""
    try:
        if original is None:
            target.unlink(missing_ok=True)
        else:
            os.replace(write_temp(target, original[0], original[1]), target)
    except OSError:
        pass
