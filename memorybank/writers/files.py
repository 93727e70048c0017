"""File-level safety for every writer: text that re-encodes byte-for-byte, the bank lock, atomic
multi-file transactions, stale temp-file cleanup, and capped reading of caller-supplied files."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import posixpath
import re
import secrets
import stat
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import TEMP_PREFIX, fsync_dir
from ..confined import (
    CLOEXEC,
    DIR_FLAGS,
    NOFOLLOW,
    Snapshot,
    collision_refusal,
    exchange,
    lstat_at,
    name_collision,
    open_folder,
    place_new,
    read_at,
    read_file,
    split,
    version_of,
)
from ..errors import BankError
from ..leftovers import JOURNAL_NAME, STALE_SECONDS, needs_repair, stale_temps  # noqa: F401 - the writers' names too
from ..limits import INPUT_LIMIT
from ..remote import REMOTE

LOCK_NAME = ".memorybank.lock"
SET_ASIDE_NAME = ".memorybank-journal.set-aside"  # a journal recovery refused to trust (hidden: never indexed)
JOURNAL_VERSION = 2
JOURNAL_MAX = 8 << 20  # bytes; a real journal names each file of one commit (a few hundred bytes each)
_BOM = b"\xef\xbb\xbf"


class Text:
    """A file's text as lines that keep their own endings, plus its BOM.

    Untouched lines re-encode to exactly their original bytes, whatever mix of LF and CRLF the
    file has; lines the writers add use the file's dominant ending (`newline`).
    """

    __slots__ = ("bom", "lines", "newline")

    def __init__(self, lines: list[str], bom: str = "", newline: str = "\n") -> None:
        self.lines = lines
        self.bom = bom
        self.newline = newline

    @classmethod
    def decode(cls, data: bytes, path: str) -> Text:
        """Decode file bytes; refuses invalid UTF-8 (a writer must never re-encode replacement characters)."""
        bom = ""
        if data.startswith(_BOM):
            bom, data = "\ufeff", data[len(_BOM):]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BankError(f"Refused (encoding): {path} is not valid UTF-8 (byte {exc.start}). "
                            f"Fix or re-save the file as UTF-8 by hand before writing to it.") from None
        return cls.from_text(text, bom)

    @classmethod
    def from_text(cls, text: str, bom: str = "", newline: str | None = None) -> Text:
        pieces = text.split("\n")
        lines = [piece + "\n" for piece in pieces[:-1]]
        if pieces[-1]:
            lines.append(pieces[-1])
        if newline is None:
            newline = "\r\n" if "\r\n" in text[:4096] else "\n"
        return cls(lines, bom, newline)

    def encode(self) -> bytes:
        return (self.bom + "".join(self.lines)).encode("utf-8")

    def text(self) -> str:
        return "".join(self.lines)

    def content(self, index: int) -> str:
        line = self.lines[index]
        if line.endswith("\n"):
            line = line[:-1]
            if line.endswith("\r"):
                line = line[:-1]
        return line

    def contents(self) -> list[str]:
        return [self.content(i) for i in range(len(self.lines))]

    def ending(self, index: int) -> str:
        line = self.lines[index]
        if line.endswith("\r\n"):
            return "\r\n"
        return "\n" if line.endswith("\n") else ""

    def set_content(self, index: int, content: str) -> None:
        """Replace one line's text, keeping its own line ending."""
        self.lines[index] = content + self.ending(index)

    def insert(self, index: int, contents: list[str]) -> None:
        """Insert whole lines before `index` (may be `len(lines)`), ending each with `newline`."""
        if index == len(self.lines) and self.lines and not self.ending(index - 1):
            self.lines[index - 1] += self.newline
        self.lines[index:index] = [c + self.newline for c in contents]

    def delete(self, start: int, end: int) -> None:
        """Delete lines `start` to `end` (exclusive)."""
        del self.lines[start:end]

    def frontmatter_close(self) -> int | None:
        """Index of the closing `---` line, or None when the file has no (closed) frontmatter."""
        if not self.lines or self.content(0).rstrip() != "---":
            return None
        for index in range(1, len(self.lines)):
            if self.content(index).rstrip() == "---":
                return index
        return None


# -- the lock ----------------------------------------------------------------------------------

_THREAD_LOCKS: dict[str, threading.RLock] = {}
_HELD: dict[str, int] = {}
_GUARD = threading.Lock()


@contextmanager
def bank_lock(root: Path) -> Iterator[None]:
    """Exclusive advisory lock on `<root>/.memorybank.lock` (flock), re-entrant within a process.

    flock locks belong to the open file, so two processes (or two Bank objects in one process)
    exclude each other; a thread lock keyed by root keeps threads of one process in order too.
    """
    key = str(root)
    with _GUARD:
        thread_lock = _THREAD_LOCKS.setdefault(key, threading.RLock())
    with thread_lock:
        if _HELD.get(key):
            _HELD[key] += 1
            try:
                yield
            finally:
                _HELD[key] -= 1
            return
        if not root.is_dir():
            raise BankError(f"No bank at {root}: the folder does not exist. Create one first.", see="init")
        fd = _open_lock(root)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            _HELD[key] = 1
            try:
                yield
            finally:
                _HELD[key] = 0
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def _open_lock(root: Path) -> int:
    """The lock file, opened (made if missing) in the bank and never through a symlink: a clone can
    bring `.memorybank.lock -> <anywhere>`, and following it would make or open a file outside."""
    try:
        fd = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT | NOFOLLOW | CLOEXEC | getattr(os, "O_NONBLOCK", 0),
                     0o644)
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.EMLINK, errno.EISDIR, errno.ENXIO):
            raise
        fd = -1
    if fd >= 0 and stat.S_ISREG(os.fstat(fd).st_mode):
        return fd
    if fd >= 0:
        os.close(fd)
    raise BankError(f"Refused (path): {LOCK_NAME} in {root} is a symlink or not a regular file; writers never "
                    "follow one. Delete it (it holds nothing) and retry.")


# -- atomic replace and transactions -----------------------------------------------------------

class Changed(BankError):
    """A file that changed on disk between a writer's read and its replace: nothing was written."""


def changed(path: str) -> Changed:
    return Changed(f"Refused (changed): {path} changed on disk since it was read; nothing was written; retry "
                   "(read it again and redo the change).")


def _temp_name(name: str) -> str:
    while len(name.encode("utf-8", "surrogateescape")) > 200:  # the temp name must stay within 255 bytes
        name = name[1:]
    return f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}-{name}"


def write_temp_at(folder: int, name: str, data: bytes, like: Snapshot | None) -> tuple[str, int]:
    """Write `data` to a fresh temp beside `name` in the open folder, fsynced, with the original's mode.

    Returns `(temp name, inode)`. The temp gets an mtime later than the original's, so every index
    sees the change on its next stat even on a coarse clock.
    """
    temp = _temp_name(name)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC, 0o666, dir_fd=folder)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if like is not None:
            os.fchmod(fd, like.mode)
            info = os.fstat(fd)
            if info.st_mtime_ns <= like.stamp[2]:
                os.utime(fd, ns=(info.st_atime_ns, like.stamp[2] + 1_000_000))
        os.fsync(fd)
        inode = os.fstat(fd).st_ino
    except BaseException:
        os.close(fd)
        os.unlink(temp, dir_fd=folder)
        raise
    os.close(fd)
    return temp, inode


def _same(info: os.stat_result | None, base: Snapshot | None) -> bool:
    """Whether a file's lstat still shows the state a writer read (renames change ctime: not compared)."""
    if info is None or base is None:
        return info is None and base is None
    return (info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size) == (base.stamp[0], base.stamp[1],
                                                                          base.stamp[2], base.stamp[4])


@dataclass
class _Op:
    path: str
    data: bytes | None
    base: Snapshot | None
    folder: int = -1
    name: str = ""
    temp: str = ""
    temp_ino: int = 0
    how: str = ""  # after applying: exchanged | replaced | created | deleted
    checked: int = 0  # perf_counter_ns of its final check


class Transaction:
    """Staged file changes that land all together or not at all, and never over an unseen change.

    `write` and `delete` only stage. The first time a transaction meets a path (read, write or
    delete) it reads the file as it is (its baseline) — and, given the bank, refuses when that is
    not what the index parsed, so the gates never judge other bytes than the ones edited. `commit`
    opens every folder with `O_NOFOLLOW` below the bank root, writes each new file to a temp beside
    its target, checks every target against its baseline (stamp and bytes), and only then moves
    them: by an atomic exchange where the OS offers one, after which the file that was displaced is
    compared with the baseline again and put back if a save landed in between. Anything that
    changed is refused (`Changed`) and every file keeps its bytes.

    A process killed between two moves cannot roll back, so a commit touching several files first
    records its plan in `<root>/.memorybank-journal` (after every temp is complete and fsynced),
    with the inodes of its temps and of the files it replaces. The next writer, under the lock,
    rolls it forward (`recover`).
    """

    def __init__(self, root: Path, bank: Any = None) -> None:
        self.root = root
        self.bank = bank
        self.ops: dict[str, bytes | None] = {}
        self.base: dict[str, Snapshot | None] = {}
        self.notes: list[str] = []  # warnings for the result (e.g. a journal set aside)
        self.window_ns = 0  # longest gap between a final check and its move (the reliability figure)
        self.verify_ns = 0  # longest gap between an exchange and the comparison of what it displaced

    def baseline(self, path: str) -> Snapshot | None:
        """The file at `path` as this transaction first read it (None: absent)."""
        if path not in self.base:
            snap = read_file(self.root, path)
            if snap is not None and not snap.data and path.endswith(".md"):
                raise Changed(f"Refused (changed): {path} is empty on disk (a save in progress?); nothing was "
                              "written; retry once it is saved. If it is meant to be empty, delete it.")
            doc = self.bank.docs.get(path) if self.bank is not None else None
            if doc is not None and (snap is None or version_of(snap.data) != doc.version):
                self.bank.forget(path)
                raise changed(path)
            self.base[path] = snap
        return self.base[path]

    def write(self, path: str, data: bytes) -> None:
        self.baseline(path)
        self.ops[path] = data

    def delete(self, path: str) -> None:
        self.baseline(path)
        self.ops[path] = None

    def staged(self, path: str) -> bool:
        return path in self.ops

    def read(self, path: str) -> bytes | None:
        """The bytes this transaction will leave at `path` (staged or on disk); None if absent."""
        if path in self.ops:
            return self.ops[path]
        snap = self.baseline(path)
        return None if snap is None else snap.data

    def files(self) -> list[dict[str, str]]:
        """What the commit does, in order: `[{path, action: create|update|delete}]`."""
        out = []
        for path, data in self.ops.items():
            exists = self.base.get(path) is not None
            action = "delete" if data is None else ("update" if exists else "create")
            out.append({"path": path, "action": action})
        return out

    def commit(self) -> None:
        ops = [_Op(path, data, self.baseline(path)) for path, data in self.ops.items()]
        ops = [op for op in ops if op.data is not None or op.base is not None]  # deleting nothing: no-op
        folders: dict[tuple[str, ...], int] = {}
        made: list[tuple[int, str]] = []
        done: list[_Op] = []
        journaled = False
        moved_away = [op.path for op in ops if op.data is None]
        for op in ops:  # a new file or folder beside one that differs only in case or Unicode form
            if op.data is not None and op.base is None:
                existing = name_collision(self.root, op.path)
                if existing is not None and not any(away == existing or away.startswith(existing + "/")
                                                    for away in moved_away):  # a case-only move is fine
                    raise collision_refusal(op.path, existing)
        try:
            for op in ops:
                parts, op.name = split(op.path)
                key = tuple(parts)
                if key not in folders:
                    folders[key] = open_folder(self.root, parts, op.path, made if op.data is not None else None)
                op.folder = folders[key]
                if op.data is not None:
                    op.temp, op.temp_ino = write_temp_at(op.folder, op.name, op.data, op.base)
            for op in ops:  # every target as it was read, before anything moves (a refusal moves nothing)
                _check(op)
            if len(ops) > 1:
                journaled = True
                _write_journal(self.root, ops)
            for op in ops:
                self._apply(op)
                done.append(op)
            for fd in folders.values():  # make the moves durable; once per folder
                _fsync_fd(fd)
            if journaled:
                os.unlink(self.root / JOURNAL_NAME)
                fsync_dir(self.root)
            for op in done:  # the displaced originals go last: until here they are the undo
                if op.how in ("exchanged", "deleted"):
                    _unlink_quiet(op.folder, op.temp)
        except BaseException:
            if journaled:  # forget the plan first: a kill during the roll back must not roll forward
                (self.root / JOURNAL_NAME).unlink(missing_ok=True)
            for op in reversed(done):
                _undo(op)
            for op in ops:
                if op.temp and op not in done and op.folder >= 0:
                    _unlink_quiet(op.folder, op.temp)
            for parent, name in reversed(made):
                try:
                    os.rmdir(name, dir_fd=parent)
                except OSError:
                    pass
            raise
        finally:
            for fd in folders.values():
                os.close(fd)
            for parent, _ in made:
                os.close(parent)

    def _apply(self, op: _Op) -> None:
        """Move one op into place, refusing (and undoing) when a save landed since the final check."""
        _check(op)  # the final check, right before the move
        if op.data is None:
            if op.base is None:
                return
            op.temp = _temp_name(op.name)
            os.rename(op.name, op.temp, src_dir_fd=op.folder, dst_dir_fd=op.folder)
            self._verify(op, "deleted")
        elif op.base is None:
            try:
                place_new(op.folder, op.temp, op.name)
            except FileExistsError:
                raise changed(op.path) from None
            self._moved(op)
            op.how = "created"
        elif exchange(op.folder, op.temp, op.name):
            self._verify(op, "exchanged")
        else:  # no atomic exchange here: check once more, then replace (a window of microseconds)
            if not _same(lstat_at(op.folder, op.name), op.base):
                raise changed(op.path)
            os.replace(op.temp, op.name, src_dir_fd=op.folder, dst_dir_fd=op.folder)
            self._moved(op)
            op.how = "replaced"

    def _moved(self, op: _Op) -> int:
        now = time.perf_counter_ns()
        self.window_ns = max(self.window_ns, now - op.checked)
        return now

    def _verify(self, op: _Op, how: str) -> None:
        """After a move that kept the displaced file: it must still be the baseline, else undo and refuse."""
        moved = self._moved(op)
        op.how = how
        same = _holds(op.folder, op.temp, op.base)
        self.verify_ns = max(self.verify_ns, time.perf_counter_ns() - moved)
        if not same:  # a save landed between the check and the move: put it back
            _undo(op)
            raise changed(op.path)


def _check(op: _Op) -> None:
    """Refuse when the target is no longer what the transaction read (stamp and bytes); notes the time."""
    current = read_at(op.folder, op.name, op.path)
    op.checked = time.perf_counter_ns()
    if (current is None) != (op.base is None) or (
            current is not None and op.base is not None and (current.data != op.base.data
                                                             or current.stamp != op.base.stamp)):
        raise changed(op.path)


def _holds(folder: int, name: str, base: Snapshot) -> bool:
    """Whether `name` (the file a move displaced) is still exactly the baseline: inode, mtime, size, bytes."""
    try:
        snap = read_at(folder, name)
    except BankError:
        return False
    if snap is None:
        return False
    return snap.data == base.data and snap.stamp[:3] == base.stamp[:3] and snap.stamp[4] == base.stamp[4]


def _undo(op: _Op) -> None:
    """Best-effort reversal of one applied op (the displaced original is still beside its target)."""
    try:
        if op.how == "exchanged":
            exchange(op.folder, op.temp, op.name)
            _unlink_quiet(op.folder, op.temp)
        elif op.how == "deleted":
            place_new(op.folder, op.temp, op.name)
        elif op.how == "created":
            info = lstat_at(op.folder, op.name)
            if info is not None and info.st_ino == op.temp_ino:
                os.unlink(op.name, dir_fd=op.folder)
        elif op.how == "replaced" and op.base is not None:
            temp, _ = write_temp_at(op.folder, op.name, op.base.data, op.base)
            os.replace(temp, op.name, src_dir_fd=op.folder, dst_dir_fd=op.folder)
    except OSError:
        pass
    op.how = ""


def _unlink_quiet(folder: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=folder)
    except OSError:
        pass


def _fsync_fd(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError:
        pass


def _write_journal(root: Path, ops: list[_Op]) -> None:
    plan = []
    for op in ops:
        base_ino = op.base.stamp[1] if op.base is not None else None
        if op.data is None:
            plan.append({"path": op.path, "delete": True, "base_ino": base_ino})
        else:
            plan.append({"path": op.path, "temp": op.temp, "temp_ino": op.temp_ino, "base_ino": base_ino})
    data = {"version": JOURNAL_VERSION, "pid": os.getpid(), "dev": os.stat(root).st_dev, "ops": plan}
    fd = os.open(root, DIR_FLAGS)
    try:  # a temp beside it, then a rename: the rename replaces whatever sits at the name, never follows it
        temp, _ = write_temp_at(fd, JOURNAL_NAME, json.dumps(data).encode("utf-8"), None)
        try:
            os.replace(temp, JOURNAL_NAME, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            _unlink_quiet(fd, temp)
            raise
        _fsync_fd(fd)
    finally:
        os.close(fd)


def _read_journal(root: Path) -> bytes | None:
    """The journal's bytes, or None when there is none; `_NotOurs` for a symlink, a fifo, a folder or a
    file larger than any journal this tool writes (each would block, lead outside, or cost memory)."""
    fd = os.open(root, DIR_FLAGS)
    try:
        info = lstat_at(fd, JOURNAL_NAME)
        if info is None:
            return None
        if not stat.S_ISREG(info.st_mode):
            raise _NotOurs("it is a symlink, a folder or a special file, not a journal")
        if info.st_size > JOURNAL_MAX:
            raise _NotOurs(f"it is too large ({info.st_size:,} bytes) to be a journal")
        try:
            snap = read_at(fd, JOURNAL_NAME, JOURNAL_NAME)
        except BankError as exc:
            raise _NotOurs(exc.message) from None
        if snap is None:
            return None
        if len(snap.data) > JOURNAL_MAX:
            raise _NotOurs(f"it is too large ({len(snap.data):,} bytes) to be a journal")
        return snap.data
    finally:
        os.close(fd)


class _NotOurs(Exception):
    """A journal this tool did not write, or one that no longer matches the files."""


def _plan(root: Path, data: bytes) -> tuple[list[tuple[str, dict, int]], list[int]]:
    """Check a journal against the files with the same gates a write applies; `(steps, open folders)`.

    A step is `(action, op, folder fd)`. Raises `_NotOurs` (with the reason) when any op fails a
    gate, so a journal is acted on whole or not at all.
    """
    try:
        plan = json.loads(data.decode("utf-8"))
        ops, pid = plan["ops"], plan["pid"]
        if plan.get("version") != JOURNAL_VERSION or not isinstance(ops, list) or not isinstance(pid, int):
            raise ValueError
        if plan.get("dev") != os.stat(root).st_dev:
            raise _NotOurs("it was written on another file system (copied or cloned)")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, AttributeError):
        raise _NotOurs("it is not a journal this version writes") from None
    prefix = re.compile(rf"{re.escape(TEMP_PREFIX)}{pid}-[0-9a-f]{{8}}-")
    steps: list[tuple[str, dict, int]] = []
    fds: list[int] = []
    try:
        if not any(isinstance(op, dict) and not op.get("delete") for op in ops):
            raise _NotOurs("it plans no write (every real plan has a temp file)")
        for op in ops:
            if not isinstance(op, dict) or not isinstance(op.get("path"), str):
                raise _NotOurs("an entry has no path")
            rel = op["path"]
            if rel != posixpath.normpath(rel) or rel.startswith("/") or "\\" in rel:
                raise _NotOurs(f"{rel!r} is not a plain path inside the bank")
            try:
                parts, name = split(rel)
                fd = open_folder(root, parts, rel)
            except (BankError, OSError) as exc:
                raise _NotOurs(f"{rel} does not lead to a real folder inside the bank "
                               f"({getattr(exc, 'message', None) or exc})") from None
            fds.append(fd)
            target = lstat_at(fd, name)
            if target is not None and not stat.S_ISREG(target.st_mode):
                raise _NotOurs(f"{rel} is not a regular file")
            base_ino = op.get("base_ino")
            if op.get("delete"):
                if target is None:
                    continue  # already deleted
                if target.st_ino != base_ino:
                    raise _NotOurs(f"{rel} is not the file the journal planned to delete")
                steps.append(("delete", op, fd))
                continue
            temp = op.get("temp")
            if not isinstance(temp, str) or "/" in temp or not prefix.match(temp) or \
                    not name.endswith(temp[prefix.match(temp).end():]):
                raise _NotOurs(f"the temp file for {rel} does not carry this tool's naming")
            held = lstat_at(fd, temp)
            if target is not None and target.st_ino == op.get("temp_ino"):
                if held is not None and held.st_ino == base_ino:
                    steps.append(("tidy", op, fd))  # applied; the displaced original is left
                continue
            if held is None or not stat.S_ISREG(held.st_mode) or held.st_ino != op.get("temp_ino"):
                raise _NotOurs(f"the temp file for {rel} is missing or is not the one the journal names")
            if (target.st_ino if target is not None else None) != base_ino:
                raise _NotOurs(f"{rel} changed since the journal was written (an edit after the crash); it is "
                               "left as it is")
            steps.append(("create" if target is None else "replace", op, fd))
    except _NotOurs:
        for fd in fds:
            os.close(fd)
        raise
    return steps, fds


def recover(root: Path, warnings: list[str] | None = None) -> list[str]:
    """Roll forward a multi-file commit that a killed writer left half done; returns the paths it completed.

    Call under the bank lock. A journal is never trusted because it is in the tree: every op must
    pass the gates a write passes (no symlinked folder, a plain path inside the bank, regular
    files) and match the files by inode — each pending temp exists, carries this tool's naming and
    is the one the journal names, each target is still the file that commit displaced. Then the
    temps replace their targets and the deletions are done. A journal failing any of this is set
    aside as `.memorybank-journal.set-aside` (outside the index walk) with a warning, and nothing
    is touched. Idempotent, so a writer killed while recovering is recovered by the next.
    """
    journal = root / JOURNAL_NAME
    try:
        data = _read_journal(root)
        if data is None:
            return []
        steps, fds = _plan(root, data)
    except _NotOurs as exc:
        try:
            os.replace(journal, root / SET_ASIDE_NAME)
        except OSError as failed:
            raise BankError(f"Refused (journal): {JOURNAL_NAME} in {root} is not one this tool wrote ({exc}) and "
                            f"could not be set aside ({failed.strerror}). Remove it, then retry.") from None
        fsync_dir(root)
        message = (f"a {JOURNAL_NAME} that does not match this bank's files was set aside as {SET_ASIDE_NAME} "
                   f"without acting on it: {exc}. Check the files it names, then delete it.")
        if warnings is not None:
            warnings.append(message)
        else:
            print(f"memorybank: {message}", file=sys.stderr)
        return []
    done: list[str] = []
    try:
        for action, op, fd in steps:
            name = op["path"].rpartition("/")[2]
            if action == "delete":
                os.unlink(name, dir_fd=fd)
            elif action == "create":
                place_new(fd, op["temp"], name)
            elif action == "replace":
                if exchange(fd, op["temp"], name):
                    os.unlink(op["temp"], dir_fd=fd)
                else:
                    os.replace(op["temp"], name, src_dir_fd=fd, dst_dir_fd=fd)
            else:
                _unlink_quiet(fd, op["temp"])
                continue
            done.append(op["path"])
        for fd in fds:
            _fsync_fd(fd)
    finally:
        for fd in fds:
            os.close(fd)
    journal.unlink(missing_ok=True)
    fsync_dir(root)
    return done


def clean_stale_temps(root: Path, now: float | None = None) -> list[str]:
    """Remove writer temp files older than an hour (left by a killed writer); returns their paths."""
    removed = []
    for rel in stale_temps(root, now):
        try:
            os.unlink(root / rel)
            removed.append(rel)
        except OSError:
            continue
    return removed


def repair_on_start(root: Path) -> list[str]:
    """What a starting server does first (§16): finish a killed writer's half-done commit and remove
    its stale temps; returns the paths touched.

    The lock is taken only when there is something to repair, so serving a clean (or read-only) bank
    creates no lock file. Never raises: a bank that cannot be repaired is still served, and the next
    writer repairs it under the lock anyway.
    """
    try:
        if not needs_repair(root):
            return []
        with bank_lock(root):
            return recover(root) + clean_stale_temps(root)
    except (OSError, BankError):
        return []


def _within_project(root: Path, raw: str, what: str) -> tuple[Path, str]:
    """`(project folder, path relative to it)` of a remote caller's input file, or a refusal."""
    from ..project import project_dir

    project = project_dir(root)
    given = Path(os.path.expanduser(raw))
    absolute = os.path.normpath(given if given.is_absolute() else project / given)
    for base in dict.fromkeys((os.path.abspath(project), os.path.realpath(project))):
        if absolute.startswith(base.rstrip(os.sep) + os.sep):
            rel = os.path.relpath(absolute, base).replace(os.sep, "/")
            parts = rel.split("/")
            if any(part.casefold() == ".git" for part in parts):
                raise _input_refusal(what, f"{raw} is under .git/, which is never read over MCP. "
                                "Give a file of the project itself.")
            if any(part.startswith(".") for part in parts):  # .ssh/, .aws/, .env: a bank kept in a home folder
                raise _input_refusal(what, f"{raw} is a hidden file or under a hidden folder, which is never "
                                "read over MCP (keys and tokens live there). Give a file of the project itself.")
            return Path(base), rel
    raise _input_refusal(what, f"{raw} is outside the project folder {project}; over MCP only files "
                    "inside it are read. Put the file in the project, or pass the text itself.")


def _open_input(raw: str, what: str) -> int:
    """An open descriptor of a caller's input file (confined for a remote caller)."""
    root = REMOTE.get()
    if root is None:
        path = Path(os.path.expanduser(raw))
        try:
            return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | CLOEXEC)
        except OSError as exc:
            raise _input_refusal(what, f"cannot read {raw}: {exc.strerror}. Give the path of an existing "
                            "file.") from None
    project, rel = _within_project(root, raw, what)
    parts, name = split(rel)
    try:
        folder = open_folder(project, parts, rel)
        try:
            return os.open(name, os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | CLOEXEC, dir_fd=folder)
        finally:
            os.close(folder)
    except BankError as exc:
        raise _input_refusal(what, f"{raw}: {exc.message.removeprefix('Refused (path): ')} Over MCP a "
                             "file is read only inside the project, never through a symlink.", exc.see,
                             exc.names) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _input_refusal(what, f"{raw} is a symlink; over MCP a file is read only inside the "
                                 "project, never through a symlink.") from None
        raise _input_refusal(what, f"cannot read {raw}: {exc.strerror}. Give the path of an existing "
                             "file.") from None


def _input_refusal(what: str, text: str, see: tuple[str, ...] = (), names: tuple[str, ...] = ()) -> BankError:
    """A refusal of an input file, naming its parameter as each face spells it (`--body-file`, `body_file`)."""
    return BankError(f"Refused ({{{what}}}): {text}", see=see, names=(what, *names))


def read_input_file(raw: str, what: str) -> str:
    """Read a caller-supplied `body_file`/`content_file`: a regular file ≤ 1 MB of UTF-8 text.

    For a remote caller (`remote_caller`) the file must lie inside the project folder.
    """
    if "\x00" in str(raw):
        raise _input_refusal(what, "the file path holds a NUL character. Give a plain file path.")
    raw = str(raw).strip()
    fd = _open_input(raw, what)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _input_refusal(what, f"{raw} is not a regular file. Give the path of a plain text file.")
        if info.st_size > INPUT_LIMIT:
            raise _input_refusal(what, f"{raw} is {info.st_size} bytes, over the 1 MB limit. "
                            f"Split the content or pass a smaller file.")
        data = b""
        while len(data) <= INPUT_LIMIT and (chunk := os.read(fd, INPUT_LIMIT + 1 - len(data))):
            data += chunk
    finally:
        os.close(fd)
    if len(data) > INPUT_LIMIT:
        raise _input_refusal(what, f"{raw} is over the 1 MB limit. Split the content or pass a smaller file.")
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _input_refusal(what, f"{raw} is not UTF-8 text. Re-save it as UTF-8.") from None
