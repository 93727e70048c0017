"""Atomic file replacement: temp file in the same folder, fsync, `os.replace` (§10, §16).

The one place files are written. Standard library only, because the stop hook uses it too. The
writers' multi-file transactions (`writers/files.py`) are built from `write_temp` and `fsync_dir`.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
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
