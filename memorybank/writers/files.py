"""File-level safety for every writer: text that re-encodes byte-for-byte, the bank lock, atomic
multi-file transactions, stale temp-file cleanup, and capped reading of caller-supplied files."""

from __future__ import annotations

import fcntl
import json
import os
import posixpath
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..atomic import TEMP_PREFIX, clean_up, fsync_dir, write_atomic, write_temp
from ..errors import BankError
from ..limits import INPUT_LIMIT

LOCK_NAME = ".memorybank.lock"
JOURNAL_NAME = ".memorybank-journal"  # hidden like the temps; exists only while a multi-file commit runs
STALE_SECONDS = 3600
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

    def copy(self) -> Text:
        return Text(list(self.lines), self.bom, self.newline)

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
            raise BankError(f"No bank at {root}: the folder does not exist. Create one with --init NAME.")
        fd = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
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


# -- atomic replace and transactions -----------------------------------------------------------

class Transaction:
    """Staged file changes that land all together or not at all.

    `write` and `delete` only stage; `commit` writes every new file to a temp beside its target,
    then replaces the targets one by one. If anything fails after the first replace, every target
    gets its original bytes back (a created file is removed, a deleted one restored), so a reader
    sees either the old bank or the new one. Paths are root-relative POSIX.

    A process killed between two replaces cannot roll back, so a commit touching several files
    first records its plan in `<root>/.memorybank-journal` (written atomically, after every temp
    is complete and fsynced). The next writer, under the lock, finds the journal and rolls the
    commit forward (`recover`): a kill anywhere leaves the bank at the old state (no journal yet)
    or, once recovered, at the new one — never a document without its index entry.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ops: dict[str, bytes | None] = {}

    def write(self, path: str, data: bytes) -> None:
        self.ops[path] = data

    def delete(self, path: str) -> None:
        self.ops[path] = None

    def staged(self, path: str) -> bool:
        return path in self.ops

    def read(self, path: str) -> bytes | None:
        """The bytes this transaction will leave at `path` (staged or on disk); None if absent."""
        if path in self.ops:
            return self.ops[path]
        try:
            return (self.root / path).read_bytes()
        except FileNotFoundError:
            return None

    def files(self) -> list[dict[str, str]]:
        """What the commit does, in order: `[{path, action: create|update|delete}]`."""
        out = []
        for path, data in self.ops.items():
            exists = os.path.lexists(self.root / path)
            action = "delete" if data is None else ("update" if exists else "create")
            out.append({"path": path, "action": action})
        return out

    def commit(self) -> None:
        originals: dict[str, bytes | None] = {}
        stats: dict[str, os.stat_result | None] = {}
        for path in self.ops:
            target = self.root / path
            try:
                stats[path] = target.stat(follow_symlinks=False)
                originals[path] = target.read_bytes()
            except FileNotFoundError:
                stats[path], originals[path] = None, None
        made_dirs: list[Path] = []
        temps: dict[str, Path] = {}
        done: list[str] = []
        journaled = False
        try:
            for path, data in self.ops.items():
                if data is None:
                    continue
                target = self.root / path
                missing = []
                parent = target.parent
                while not parent.exists():
                    missing.append(parent)
                    parent = parent.parent
                for folder in reversed(missing):
                    folder.mkdir()
                    made_dirs.append(folder)
                temps[path] = write_temp(target, data, stats[path])
            if len(self.ops) > 1:
                journaled = True
                _write_journal(self.root, self.ops, temps)
            folders: list[Path] = []
            for path, data in self.ops.items():
                target = self.root / path
                if data is None:
                    if originals[path] is not None:
                        os.unlink(target)
                else:
                    os.replace(temps[path], target)
                    del temps[path]
                done.append(path)
                if target.parent not in folders:
                    folders.append(target.parent)
            for folder in folders:  # make the renames durable; once per folder
                fsync_dir(folder)
            if journaled:
                os.unlink(self.root / JOURNAL_NAME)
                fsync_dir(self.root)
        except BaseException:
            if journaled:  # forget the plan first: a kill during the roll back must not roll forward
                (self.root / JOURNAL_NAME).unlink(missing_ok=True)
            self._roll_back(done, originals, stats)
            clean_up(temps.values(), made_dirs)
            raise

    def _roll_back(self, done: list[str], originals: dict[str, bytes | None],
                   stats: dict[str, os.stat_result | None]) -> None:
        for path in reversed(done):
            target = self.root / path
            original = originals[path]
            if original is None:
                target.unlink(missing_ok=True)
            else:
                os.replace(write_temp(target, original, stats[path]), target)
            fsync_dir(target.parent)


def _write_journal(root: Path, ops: dict[str, bytes | None], temps: dict[str, Path]) -> None:
    plan = [{"path": path, "delete": True} if data is None else
            {"path": path, "temp": temps[path].relative_to(root).as_posix()} for path, data in ops.items()]
    write_atomic(root / JOURNAL_NAME, json.dumps({"version": 1, "ops": plan}).encode("utf-8"))


def _inside(root: Path, rel: object) -> Path | None:
    """A journal path as a path under root, or None when it is not a plain relative path."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel:
        return None
    norm = posixpath.normpath(rel)
    if norm != rel or norm.startswith("../") or norm == "..":
        return None
    return root / rel


def recover(root: Path) -> list[str]:
    """Roll forward a multi-file commit that a killed writer left half done; returns the paths it completed.

    Call under the bank lock. Each planned temp that still exists replaces its target (a missing
    one was already moved), each planned deletion is done, then the journal goes. Idempotent, so a
    writer killed while recovering is recovered by the next. A journal that does not read as one of
    ours (the file is hand-made or damaged) is removed without acting on it.
    """
    journal = root / JOURNAL_NAME
    try:
        data = journal.read_bytes()
    except FileNotFoundError:
        return []
    done: list[str] = []
    try:
        ops = json.loads(data.decode("utf-8"))["ops"]
        steps = []
        for op in ops:
            target = _inside(root, op["path"])
            temp = None if op.get("delete") else _inside(root, op["temp"])
            if target is None or (temp is None and not op.get("delete")):
                raise ValueError("bad path")
            if temp is not None and (temp.parent != target.parent or not temp.name.startswith(TEMP_PREFIX)):
                raise ValueError("bad temp")
            steps.append((op["path"], target, temp))
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        steps = []
    folders: list[Path] = []
    for rel, target, temp in steps:
        if temp is None:
            if os.path.lexists(target):
                os.unlink(target)
                done.append(rel)
        elif os.path.lexists(temp):
            os.replace(temp, target)
            done.append(rel)
        if target.parent not in folders:
            folders.append(target.parent)
    for folder in folders:
        fsync_dir(folder)
    journal.unlink(missing_ok=True)
    fsync_dir(root)
    return done


def stale_temps(root: Path, now: float | None = None) -> list[str]:
    """Writer temp files older than an hour (a killed writer's leftovers), without removing them."""
    cutoff = (time.time() if now is None else now) - STALE_SECONDS
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
        for name in sorted(files):
            if name.startswith(TEMP_PREFIX):
                full = os.path.join(folder, name)
                try:
                    if os.lstat(full).st_mtime < cutoff:
                        found.append(os.path.relpath(full, root).replace(os.sep, "/"))
                except OSError:
                    continue
    return found


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
        if not root.is_dir() or not ((root / JOURNAL_NAME).exists() or stale_temps(root)):
            return []
        with bank_lock(root):
            return recover(root) + clean_stale_temps(root)
    except (OSError, BankError):
        return []


def read_input_file(raw: str, what: str) -> str:
    """Read a caller-supplied `body_file`/`content_file`: a regular file ≤ 1 MB of UTF-8 text."""
    if "\x00" in str(raw):
        raise BankError(f"Refused ({what}): the file path holds a NUL character. Give a plain file path.")
    path = Path(os.path.expanduser(str(raw).strip()))
    try:
        info = os.stat(path)
    except OSError as exc:
        raise BankError(f"Refused ({what}): cannot read {raw}: {exc.strerror}. Give the path of an existing file.") \
            from None
    if not stat.S_ISREG(info.st_mode):
        raise BankError(f"Refused ({what}): {raw} is not a regular file. Give the path of a plain text file.")
    if info.st_size > INPUT_LIMIT:
        raise BankError(f"Refused ({what}): {raw} is {info.st_size} bytes, over the 1 MB limit. "
                        f"Split the content or pass a smaller file.")
    data = path.read_bytes()[:INPUT_LIMIT + 1]
    if len(data) > INPUT_LIMIT:
        raise BankError(f"Refused ({what}): {raw} is over the 1 MB limit. Split the content or pass a smaller file.")
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BankError(f"Refused ({what}): {raw} is not UTF-8 text. Re-save it as UTF-8.") from None
