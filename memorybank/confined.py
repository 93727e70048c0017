"""Files opened inside a folder, one component at a time, never through a symlink (issue 13 §1).

Checking a path and then opening it by name leaves a gap: a folder swapped for a symlink in
between leads the open outside. Here every component below the root is opened with `O_NOFOLLOW`
relative to the descriptor of the folder above it, so what is checked is what is used. Also the
settled read (a file whose stamp moves while it is read is re-read) and the two atomic renames the
writers' final check relies on. Standard library only.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import stat
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from .errors import BankError
from .frozen import Value, assign

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | CLOEXEC
SETTLE_TRIES = 5
VERSION_CHARS = 12


def version_of(data: bytes) -> str:
    """A document's short version: 12 hex characters of a content hash (what `bank_read` reports)."""
    return hashlib.blake2b(data, digest_size=VERSION_CHARS // 2).hexdigest()


def stamp_of(info: os.stat_result) -> tuple[int, int, int, int, int]:
    """What identifies one state of a file: device, inode, mtime, ctime (which no one can set back), size."""
    return info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns, info.st_size


class Snapshot(Value):
    """A file as read: its bytes and the stamp it had before and after the read."""

    data: bytes
    stamp: tuple[int, int, int, int, int]
    mode: int

    __slots__ = ("data", "stamp", "mode")

    def __init__(self, data: bytes, stamp: tuple[int, int, int, int, int], mode: int) -> None:
        assign(self, "data", data)
        assign(self, "stamp", stamp)
        assign(self, "mode", mode)


class Unsettled(BankError):
    """A file that kept changing while it was read."""


def _escape(rel: str, part: str, exc: OSError) -> BankError:
    if exc.errno in (errno.ELOOP, errno.EMLINK):
        return BankError(f"Refused (path): {part} in {rel} is a symlink; writers and readers never follow one. "
                         "Replace the symlink with a real folder or file.")
    return BankError(f"Refused (path): {part} in {rel} is not a folder. Choose another path.")


def split(rel: str) -> tuple[list[str], str]:
    """A root-relative POSIX path as (folder parts, name); refuses empty, `.` and `..` parts."""
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts) or "\x00" in rel:
        raise BankError(f"Path must stay inside the bank: {rel}")
    return parts[:-1], parts[-1]


def open_folder(root: str | os.PathLike[str], parts: Sequence[str], rel: str = "",
                made: list[tuple[int, str]] | None = None) -> int:
    """A descriptor of `root/parts…`, each part opened with `O_NOFOLLOW` below the one before.

    The root itself is opened as given (a bank reached through a symlink is the user's choice).
    With `made`, missing folders are created and recorded as `(parent descriptor copy, name)`;
    without it a missing folder raises FileNotFoundError. A symlinked or non-folder part is a refusal.
    """
    fd = os.open(root, DIR_FLAGS)
    try:
        for part in parts:
            try:
                try:
                    child = os.open(part, DIR_FLAGS | NOFOLLOW, dir_fd=fd)
                except FileNotFoundError:
                    if made is None:
                        raise
                    try:
                        os.mkdir(part, dir_fd=fd)
                        made.append((os.dup(fd), part))
                    except FileExistsError:  # another writer made it meanwhile: opened as any part, never removed
                        pass
                    child = os.open(part, DIR_FLAGS | NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    info = lstat_at(fd, part)  # Linux says ENOTDIR for a symlink opened O_DIRECTORY|O_NOFOLLOW
                    if info is not None and stat.S_ISLNK(info.st_mode):
                        exc = OSError(errno.ELOOP, "symlink")
                    raise _escape(rel or "/".join(parts), part, exc) from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_at(folder: int, name: str, rel: str = "") -> Snapshot | None:
    """Read `name` inside the open folder, never through a symlink; None when absent.

    The file's stamp is taken before and after the read; a read during which it moved is retried,
    and one that never settles is refused. Anything but a regular file is a refusal.
    """
    rel = rel or name
    for _ in range(SETTLE_TRIES):
        try:
            fd = os.open(name, os.O_RDONLY | NOFOLLOW | CLOEXEC | getattr(os, "O_NONBLOCK", 0), dir_fd=folder)
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EMLINK):
                raise _escape(rel, name, exc) from None
            raise
        try:
            before = os.fstat(fd)
            if not stat.S_ISREG(before.st_mode):
                raise BankError(f"Refused (path): {rel} is not a regular file.")
            chunks = []
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            after = os.fstat(fd)
        finally:
            os.close(fd)
        data = b"".join(chunks)
        if stamp_of(before) == stamp_of(after) and len(data) == after.st_size:
            return Snapshot(data, stamp_of(after), stat.S_IMODE(after.st_mode))
    raise Unsettled(f"Refused (changed): {rel} kept changing while it was read (is it being saved?); nothing was "
                    "written. Retry once the file is saved.")


def read_file(root: str | os.PathLike[str], rel: str) -> Snapshot | None:
    """Read a root-relative file through `open_folder` + `read_at`; None when it (or a folder) is absent."""
    parts, name = split(rel)
    try:
        folder = open_folder(root, parts, rel)
    except FileNotFoundError:
        return None
    try:
        return read_at(folder, name, rel)
    finally:
        os.close(folder)


def lstat_at(folder: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None


# -- renames that let the final check see what they replaced --------------------------------------

RENAME_NOREPLACE = 1
RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@functools.cache
def _load_rename():
    """libc's renameat2 (Linux) or renameatx_np (macOS) as `f(dirfd, a, dirfd, b, flags) -> int`, or None.

    Loaded on the first flagged rename: ctypes and libc cost a cold read-only call ~4 ms for nothing."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None, {}
    if sys.platform.startswith("linux"):
        func, flags = getattr(libc, "renameat2", None), {RENAME_NOREPLACE: 1, RENAME_EXCHANGE: 2}
    elif sys.platform == "darwin":
        func, flags = getattr(libc, "renameatx_np", None), {RENAME_NOREPLACE: 4, RENAME_EXCHANGE: 2}
    else:
        func, flags = None, {}
    if func is None:
        return None, {}
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int
    return func, flags


_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, getattr(errno, "ENOTSUP", errno.EINVAL),
                getattr(errno, "EOPNOTSUPP", errno.EINVAL)}


def rename_flagged(folder: int, source: str, target: str, flag: int) -> bool:
    """renameat2 with `flag` inside one folder; False when the OS or file system does not offer it."""
    rename, flags = _load_rename()
    if rename is None:
        return False
    code = rename(folder, os.fsencode(source), folder, os.fsencode(target), flags[flag])
    if code == 0:
        return True
    import ctypes

    err = ctypes.get_errno()
    if err in _UNSUPPORTED:
        return False
    raise OSError(err, os.strerror(err), target)


def exchange(folder: int, a: str, b: str) -> bool:
    """Swap two names atomically (both must exist); False when unsupported."""
    return rename_flagged(folder, a, b, RENAME_EXCHANGE)


def place_new(folder: int, temp: str, name: str) -> None:
    """Move `temp` to `name` only if nothing is at `name` (FileExistsError otherwise), atomically."""
    if rename_flagged(folder, temp, name, RENAME_NOREPLACE):
        return
    try:
        os.link(temp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # no hard links here either: check, then rename (a window of microseconds)
        if lstat_at(folder, name) is not None:
            raise FileExistsError(errno.EEXIST, "exists", name) from None
        os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
        return
    os.unlink(temp, dir_fd=folder)


def folder_path(root: Path, parts: Sequence[str]) -> Path:
    return root.joinpath(*parts) if parts else root


# -- names that collide on case-insensitive, normalising file systems -------------------------------

def folded(name: str) -> str:
    """A name as case-insensitive, normalising file systems see it: NFC, case-folded, NFC again."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def name_collision(root: str | os.PathLike[str], rel: str, ignore: str | None = None) -> str | None:
    """The existing root-relative path a new `rel` collides with (same name after NFC and case folding,
    different bytes), or None. Each component is compared with the folder above it; `ignore` is a path
    being moved away (a case-only rename of that file is fine). A folder is never ignored: the moved
    document's old folder keeps its other files, so `Product/` beside `product/` collides."""
    parts = rel.split("/")
    folder = Path(root)
    for index, part in enumerate(parts):
        try:
            names = os.listdir(folder)
        except OSError:
            return None
        if part in names:
            folder = folder / part
            continue
        key = folded(part)
        for other in sorted(names):
            existing = "/".join([*parts[:index], other])
            if folded(other) != key or ignore == existing:  # the document itself, renamed in case only
                continue
            return existing
        return None
    return None


def collision_refusal(rel: str, existing: str) -> BankError:
    return BankError(f"Refused (path): {rel} collides with the existing {existing}: they differ only in case or "
                     f"Unicode form, so macOS and Windows checkouts see one name. Use the existing name ({existing}) "
                     "or choose a different one; nothing was written.")
