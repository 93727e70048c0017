"""The index (§2): walk, stat, re-parse only what changed, and the maps derived from it."""

from __future__ import annotations

import bisect
import errno
import os
import stat as stat_module
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from .confined import VERSION_CHARS, read_file, stamp_of, version_of
from .contract import Contract, LayerTable, build_contract, build_layers
from .errors import BankError
from .frozen import Value, assign
from .gcpause import bulk
from .gitutil import ignored
from .limits import BODY_INDEX_MAX, FRONTMATTER_MAX
from .parse import drop_memos, parse_document
from .paths import layer_for, normalize_path
from .records import Doc

BULK = 200  # a refresh parsing more files than this pauses the garbage collector (gcpause)
SKIP_NAMES = frozenset({"node_modules", "__pycache__", "dist", "site-packages"})
VENV_MARKER = "pyvenv.cfg"  # a virtualenv under any name (venv/, env/, .tox/x) is never bank content
PROJECT_MARKERS = ("pyproject.toml", "setup.py", "package.json", "Cargo.toml", "go.mod", "pom.xml", "Gemfile")
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a file swapped for a FIFO must not hang the open
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _read_as_walked(fd: int, stamp: tuple[int, int, int, int]) -> bytes | None:
    """The bytes of an open file under 1 MB when it is still the file the walk stat'ed, else None.

    One `pread` of one byte more than the walk's size (a short read of a regular file is its end) and
    one `fstat` after it, which must show the walk's inode, mtime, size and ctime: nothing moved the
    file from the walk to the end of the read, a wider window than `_read_settled`'s `fstat` before
    and after the read, one system call fewer (issue 15: a cold build reads every file). `pread`
    leaves the offset at 0, so on None the caller reads the file as before; a FIFO, device or folder
    swapped in fails the size or the stamp (or `pread` itself) and goes that way too.
    """
    size = stamp[1]
    if size >= (1 << 20):
        return None
    try:
        data = os.pread(fd, size + 1, 0)
    except OSError:
        return None
    if len(data) != size:
        return None
    after = os.fstat(fd)
    if (after.st_mtime_ns, after.st_size, after.st_ino, after.st_ctime_ns) != stamp:
        return None
    return data


def _read_settled(fd: int, info: os.stat_result | None = None) -> bytes:
    """All bytes of an open file, re-read (up to 5 times) while its stamp moves during the read.

    `info`, when given, is the file's `fstat` taken just now on the fresh descriptor (at offset 0): a
    file under 1 MB is then read by one `read` of one byte more than its size (a short read of a regular
    file is its end) and one `fstat` after it, three system calls fewer than the loop (issue 15: a
    cold build reads every file); anything unusual falls back to the loop.
    """
    if info is not None and info.st_size < (1 << 20):
        data = os.read(fd, info.st_size + 1)
        if len(data) == info.st_size:
            after = os.fstat(fd)
            if stamp_of(info) == stamp_of(after) and len(data) == after.st_size:
                return data
    data = b""
    for _ in range(5):
        before = os.fstat(fd)
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        data = b"".join(chunks)
        after = os.fstat(fd)
        if stamp_of(before) == stamp_of(after) and len(data) == after.st_size:
            break
    return data


# Bytes of a file over BODY_INDEX_MAX that are kept for parsing: a frontmatter at its character cap
# (4 bytes a character at most) and its closing line always fit.
HEAD_BYTES = 4 * FRONTMATTER_MAX + 4096


def _read_head(fd: int) -> tuple[bytes, str, int, int]:
    """`(head, version, line count, size)` of an open file over the body limit, read in one streamed pass.

    Only the first HEAD_BYTES (cut back to a whole line) are kept: the body of such a file is not
    indexed, so its bytes are hashed (for `version`, the same hash `version_of` gives) and their
    lines counted as they stream past. Re-read like `_read_settled` while the file moves.
    """
    import hashlib
    result = (b"", "", 0, 0)
    for _ in range(5):
        before = os.fstat(fd)
        os.lseek(fd, 0, os.SEEK_SET)
        digest = hashlib.blake2b(digest_size=VERSION_CHARS // 2)
        head: list[bytes] = []
        kept = newlines = size = 0
        last = b""
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
            newlines += chunk.count(b"\n")
            size += len(chunk)
            last = chunk[-1:]
            if kept < HEAD_BYTES:
                head.append(chunk[:HEAD_BYTES - kept])
                kept += len(head[-1])
        data = b"".join(head)
        if size > len(data):  # cut inside the file: drop a UTF-8 character the cut split
            data = data[:_char_boundary(data)]
        lines = newlines + (1 if size and last != b"\n" else 0)
        result = (data, digest.hexdigest(), lines, size)
        after = os.fstat(fd)
        if stamp_of(before) == stamp_of(after) and size == after.st_size:
            break
    return result


def _char_boundary(data: bytes) -> int:
    """The length of `data` without a trailing UTF-8 sequence that a cut left incomplete."""
    end = len(data)
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte < 0x80:
            return end
        if byte >= 0xC0:  # a lead byte: is its sequence whole?
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return end if back >= need else end - back
    return end


def _under(path: str, folders: set[str]) -> bool:
    """Whether `path` lies in one of `folders` (prefixes ending in `/`)."""
    slash = path.find("/")
    while slash > 0:
        if path[:slash + 1] in folders:
            return True
        slash = path.find("/", slash + 1)
    return False


def _is_venv(name: str, fd: int) -> bool:
    """Whether the folder `name` (in the open folder `fd`) is a Python virtualenv."""
    try:
        os.stat(f"{name}/{VENV_MARKER}", dir_fd=fd, follow_symlinks=False)
    except OSError:
        return False
    return True


def _is_dir_at(name: str, fd: int) -> bool:
    """Whether a symlink inside the folder `fd` points at a directory (for the skip report)."""
    try:
        return stat_module.S_ISDIR(os.stat(name, dir_fd=fd).st_mode)
    except OSError:
        return False


class Refresh(Value):
    """What one refresh found. `ms` is its wall time."""

    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]
    ms: float

    __slots__ = ("added", "changed", "removed", "ms")

    def __init__(self, added: tuple[str, ...], changed: tuple[str, ...], removed: tuple[str, ...], ms: float) -> None:
        assign(self, "added", added)
        assign(self, "changed", changed)
        assign(self, "removed", removed)
        assign(self, "ms", ms)

    @property
    def any(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def as_dict(self) -> dict:
        return {"added": len(self.added), "changed": len(self.changed), "removed": len(self.removed),
                "ms": round(self.ms, 2)}


Listener = Callable[["Bank", Refresh], None]


class Bank:
    """An in-memory index over one bank folder, kept true to the disk by `refresh()`.

    There is no watcher: every capability calls `refresh()` first, which stats every `.md` file and
    re-parses only those whose `(mtime_ns, size)` changed. Derived maps are rebuilt only when
    something changed. Other modules keep their own per-bank state (search index, routing fields)
    by subscribing with `subscribe()` or by caching on `generation`.
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(os.path.abspath(root))
        self._root = str(self.root)
        self.docs: dict[str, Doc] = {}
        self._stamps: dict[str, tuple[int, int, int, int]] = {}
        self.skipped: list[dict[str, str]] = []
        self.generation = 0
        self.dna_generation = 0
        self.parse_count = 0
        self.dna_texts: dict[str, str] = {}
        self.contract: Contract | None = None
        self.layers = LayerTable()
        self.incoming: dict[str, list[str]] = {}
        self.owners: dict[str, list[str]] = {}
        self.registered_in: dict[str, list[str]] = {}
        self.paths: list[str] = []
        self.last_refresh = Refresh((), (), (), 0.0)
        self.cold_ms = 0.0  # wall time of the first build
        self._listeners: list[Listener] = []
        self.cache: dict[str, object] = {}
        self._ignored: dict[str, bool] = {}  # folder prefix `a/b/` -> git ignores it (asked once per folder)
        self.snapshot: dict | None = None  # what `cache.load` seeded (derived index states), see `seed`
        self.since_seed: set[str] | None = None  # paths any refresh reported since the seed

    # -- walking -------------------------------------------------------------------------------

    def _walk(self) -> dict[str, tuple[int, int, int, int]]:
        """Return `{path: (mtime_ns, size, inode, ctime_ns)}` for regular `.md` files; one `lstat` per file.

        A root that is no folder gives `{}` and leaves `skipped` as it was.

        The hot path of every call, so it avoids per-entry work it can skip: directory entries are
        not sorted here (`paths` is sorted once after a change) and file-type checks use the
        entry's cached type. Symlinks are never followed; they are reported in `skipped`. Folders
        git ignores (asked once per new folder, then remembered), virtualenvs (`pyvenv.cfg`) and
        the SKIP_NAMES folders are not walked. The ctime is in the stamp because nothing can set it
        back: a same-size rewrite that restores the mtime (`cp -p`, `rsync -t`) is still seen. Each
        folder is opened with `O_NOFOLLOW` and must be the folder its parent listed (same inode), so
        one swapped for a symlink between the listing and the open is never walked.
        """
        found: dict[str, tuple[int, int, int, int]] = {}
        skipped: list[dict[str, str]] = []
        stack: list[tuple[str, str, tuple[int, int] | None]] = [(str(self.root), "", None)]
        skip = SKIP_NAMES
        stat = os.stat
        ignored_dirs = self._ignored
        unknown: list[str] = []
        while stack:
            folder, prefix, identity = stack.pop()
            try:
                fd = os.open(folder, _DIR_FLAGS | (_NOFOLLOW if identity else 0))
                if identity is not None:
                    info = os.fstat(fd)
                    if (info.st_dev, info.st_ino) != identity:
                        os.close(fd)
                        skipped.append({"path": prefix.rstrip("/"), "reason": "changed while read (not followed)"})
                        continue
            except OSError as exc:
                if prefix:
                    skipped.append({"path": prefix.rstrip("/"), "reason": f"unreadable folder: {exc.strerror}"})
                elif not self.root.is_dir():  # asked only here: the open already told a folder from anything else
                    return {}
                continue
            try:
                with os.scandir(fd) as it:
                    for entry in it:
                        name = entry.name
                        if name[0] == ".":
                            continue
                        try:
                            if name.endswith(".md") and entry.is_file(follow_symlinks=False):
                                # fstatat on the open folder: no path walk per file
                                st = stat(name, dir_fd=fd, follow_symlinks=False)
                                found[prefix + name] = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)
                            elif entry.is_dir(follow_symlinks=False):
                                sub = prefix + name + "/"
                                known = ignored_dirs.get(sub)
                                if known or name in skip or _is_venv(name, fd):
                                    continue
                                if known is None:
                                    unknown.append(sub)
                                st = stat(name, dir_fd=fd, follow_symlinks=False)
                                stack.append((folder + "/" + name, sub, (st.st_dev, st.st_ino)))
                            elif entry.is_symlink() and (name.endswith(".md") or _is_dir_at(name, fd)):
                                skipped.append({"path": prefix + name, "reason": "symlink (not followed)"})
                        except OSError as exc:
                            skipped.append({"path": prefix + name, "reason": f"unreadable: {exc.strerror}"})
            finally:
                os.close(fd)
        if unknown:  # new folders: ask git once which it ignores (build output, vendored trees)
            dropped = ignored(self.root, [*unknown, "./"]) if self.root.is_dir() else set()
            if "./" in dropped:  # the bank itself is ignored (kept out of git on purpose): its folders all count
                dropped = set()
            for sub in unknown:
                ignored_dirs[sub] = sub in dropped
            if dropped:
                found = {p: v for p, v in found.items() if not _under(p, dropped)}
                skipped = [item for item in skipped if not _under(item["path"], dropped)]
        skipped.sort(key=lambda item: item["path"])
        self.skipped = skipped
        return found

    def ignored_folder(self, path: str) -> str | None:
        """The first folder of a bank-relative path that git ignores, so the walk would skip it; or None.

        As in the walk: nothing counts as ignored when the bank itself is (kept out of git on purpose).
        """
        parts = path.split("/")[:-1]
        folders = ["/".join(parts[:i]) + "/" for i in range(1, len(parts) + 1)]
        if not folders or not self.root.is_dir():
            return None
        dropped = ignored(self.root, [*folders, "./"])
        if "./" in dropped:
            return None
        return next((folder for folder in folders if folder in dropped), None)

    def refresh(self) -> Refresh:
        """Bring the index in line with the disk; re-parse only changed or new files."""
        start = time.perf_counter()
        stamps = self._walk()  # {} when the root is no folder (`_walk` asks only when it cannot open it)
        old = self._stamps
        seeded = self.generation == 0 and self.since_seed is not None
        if stamps == old and not seeded:  # the common case: one C-level dict comparison
            result = Refresh((), (), (), (time.perf_counter() - start) * 1000)
            self.last_refresh = result
            return result
        removed = tuple(sorted(p for p in old if p not in stamps))
        added: list[str] = []
        changed: list[str] = []
        for path, stamp in stamps.items():
            prev = old.get(path)
            if prev == stamp:
                continue
            (changed if prev is not None else added).append(path)
        previous = {path: self.docs.get(path) for path in (*removed, *changed)}
        for path in removed:
            self.docs.pop(path, None)
        failed = []
        added.sort()
        changed.sort()
        with bulk() if len(added) + len(changed) > BULK else nullcontext():
            for path in added + changed:
                doc = self._parse(path, stamps[path])
                if doc is None:
                    failed.append(path)
                    continue
                self.docs[path] = doc
        if len(added) + len(changed) > BULK:
            drop_memos()  # the parse's line and target memos are not kept beside the documents
        for path in failed:
            stamps.pop(path, None)
            self.docs.pop(path, None)
        self._stamps = stamps
        result = Refresh(tuple(added), tuple(changed), removed, 0.0)
        if self.since_seed is not None:
            self.since_seed.update(added, changed, removed, failed)
            if seeded and not (result.any or failed) and self.snapshot is not None:
                self.snapshot["generation"] = 1  # the disk is as cached: nothing to save
        if result.any or failed or seeded:
            self.generation += 1
            self._rebuild(result, previous, failed)
        result = result.replace(ms=(time.perf_counter() - start) * 1000)
        self.last_refresh = result
        if self.generation <= 1 and not self.cold_ms:
            self.cold_ms = result.ms
        if result.any:
            for listener in list(self._listeners):
                listener(self, result)
        return result

    def _parse(self, path: str, stamp: tuple[int, int, int, int]) -> Doc | None:
        """Parse one file the walk saw; None (and a `skipped` entry) when it cannot be read safely.

        The file is opened with `O_NOFOLLOW` and must be the one the walk stat'ed (same inode): a
        file or folder swapped for a symlink in between leads nowhere. A read during which the
        file moved is retried (`read_at`); one that changed since the walk is parsed as read and
        its stamp marked stale, so the next refresh parses it again.
        """
        try:
            fd = os.open(self._root + "/" + path, _FILE_FLAGS)  # a string join: no Path object per file
        except OSError as exc:
            reason = "symlink (not followed)" if exc.errno == errno.ELOOP else f"unreadable: {exc.strerror}"
            self.skipped.append({"path": path, "reason": reason})
            return None
        whole: tuple[int, int] | None = None
        version = ""
        try:
            data = _read_as_walked(fd, stamp)
            if data is None:  # moved since the walk, or large: read it as its own `fstat` says
                info = os.fstat(fd)
                if info.st_ino != stamp[2]:  # replaced since the walk (a rename-save) or reached through a swapped
                    data = None  # folder: open it again one component at a time, never through a symlink
                elif info.st_size > BODY_INDEX_MAX:  # only the head is parsed; the rest is hashed as it streams
                    data, version, lines, size = _read_head(fd)
                    whole = (size, lines)
                else:
                    data = _read_settled(fd, info)
        except OSError as exc:
            self.skipped.append({"path": path, "reason": f"unreadable: {exc.strerror}"})
            return None
        finally:
            os.close(fd)
        if data is None:
            try:
                snap = read_file(self.root, path)
            except (BankError, OSError):
                snap = None
            if snap is None:
                self.skipped.append({"path": path, "reason": "changed while read (not followed)"})
                return None
            data = snap.data
        self.parse_count += 1
        doc = parse_document(path, data, stamp[0], self.layers.layer_map, whole=whole,
                             version=version or version_of(data))
        if path.startswith("dna/"):
            self.dna_texts[path] = data.decode("utf-8", errors="replace")
        return doc

    def seed(self, docs: dict[str, Doc], stamps: dict[str, tuple[int, int, int, int]],
             dna_texts: dict[str, str], snapshot: dict) -> None:
        """Start from a cached index (`cache.load`) instead of nothing; only before the first refresh.

        The next refresh still stats every file and re-parses each one whose stamp differs from the
        cached one, then builds the derived maps in full, as the first build does; when none differs,
        it takes the maps saved with the documents (`snapshot["maps"]`, issue 15: ready), which are theirs.
        """
        if self.generation:
            return
        self.docs, self._stamps, self.dna_texts = docs, stamps, dna_texts
        self.snapshot, self.since_seed = snapshot, set()

    def forget(self, path: str) -> None:
        """Mark a document's stamp stale, so the next refresh parses it again (its bytes were seen to differ)."""
        if path in self._stamps:
            self._stamps[path] = (-1, -1, -1, -1)

    # -- derived maps --------------------------------------------------------------------------

    def _rebuild(self, result: Refresh, previous: dict[str, Doc | None], failed: list[str]) -> None:
        """Update the derived maps: in full on the first build, else only for the documents that changed."""
        touched = result.added + result.changed + result.removed
        for path in (*result.removed, *failed):
            self.dna_texts.pop(path, None)
        if self.generation == 1 or any(p.startswith("dna/") for p in touched):
            self.dna_generation += 1
            self.contract = build_contract(self.dna_texts, self.docs.keys())
            layers = build_layers(self.dna_texts)
            if layers != self.layers:
                self.layers = layers
                for path, doc in list(self.docs.items()):
                    layer = layer_for(path, layers.layer_map)
                    if layer != doc.layer:
                        self.docs[path] = doc.replace(layer=layer)
        if self.generation == 1:
            self.paths = sorted(self.docs)
            maps = self.snapshot.pop("maps", None) if self.snapshot is not None and not self.since_seed else None
            if maps is not None:  # no file changed since the cache was saved: its maps are these documents'
                self.incoming, self.owners, self.registered_in = maps
            else:
                self._contribute_all()
            return
        for path, doc in previous.items():
            if doc is not None:
                self._contribute(doc, add=False)
        gone = set(result.removed) | set(failed)
        if gone:
            self.paths = [p for p in self.paths if p not in gone]
        for path in (*result.added, *result.changed):
            doc = self.docs.get(path)
            if doc is None:
                continue
            if path in result.added:
                bisect.insort(self.paths, path)
            self._contribute(doc, add=True)

    def _contribute_all(self) -> None:
        """`_contribute` of every document, in path order: each list gets its paths ascending, so they are
        appended, not bisected in (issue 15: the first build, from the cache as from the disk)."""
        incoming: dict[str, list[str]] = {}
        owners: dict[str, list[str]] = {}
        registered_in: dict[str, list[str]] = {}
        docs = self.docs
        for path in self.paths:
            doc = docs[path]
            for mapping, names in ((incoming, {edge.target for edge in doc.derived_from}),
                                   (owners, () if doc.is_template else set(doc.canonical_for)),
                                   (registered_in, {link.target for link in doc.links if link.target != path}
                                    if doc.is_index else ())):
                for name in names:
                    bucket = mapping.get(name)
                    if bucket is None:
                        mapping[name] = [path]
                    else:
                        bucket.append(path)
        self.incoming, self.owners, self.registered_in = incoming, owners, registered_in

    def _contribute(self, doc: Doc, add: bool) -> None:
        """Add (or take back) one document's entries in `incoming`, `owners` and `registered_in`.

        Every list stays sorted by path and holds each document once, exactly as a full rebuild
        over the sorted paths would produce it.
        """
        path = doc.path
        targets = {edge.target for edge in doc.derived_from}
        keys = set() if doc.is_template else set(doc.canonical_for)  # a template's keys are examples
        linked = {link.target for link in doc.links if link.target != path} if doc.is_index else set()
        for mapping, names in ((self.incoming, targets), (self.owners, keys), (self.registered_in, linked)):
            for name in names:
                bucket = mapping.get(name)
                if add:
                    if bucket is None:
                        mapping[name] = [path]
                    else:
                        at = bisect.bisect_left(bucket, path)
                        if at == len(bucket) or bucket[at] != path:
                            bucket.insert(at, path)
                elif bucket is not None:
                    at = bisect.bisect_left(bucket, path)
                    if at < len(bucket) and bucket[at] == path:
                        del bucket[at]
                    if not bucket:
                        del mapping[name]

    # -- access --------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call `listener(bank, refresh)` after every refresh that changed something."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    @property
    def layer_weights(self) -> dict[str, float]:
        return dict(self.layers.weights)

    def normalize(self, raw: str) -> str:
        """Normalise a caller-supplied path (§2.3); refuses escapes."""
        return normalize_path(self.root, raw, lambda p: p in self.docs or (self.root / p).exists())

    def scope(self, raw: str | None) -> str:
        """A caller's `scope` as a root-relative folder or document path ('' for the whole bank).

        Refuses a scope that names nothing, so a misspelt folder never passes as "no findings".
        """
        if raw is None or not str(raw).strip():
            return ""
        path = self.normalize(raw).rstrip("/")
        if path in (".", ""):
            return ""
        if path not in self.docs and not (self.root / path).is_dir():
            raise BankError(f"Scope {path} is neither a folder nor a document in the bank. "
                            f"Give a folder or document path relative to the bank root (e.g. "
                            f"{next((p.split('/')[0] for p in self.paths if '/' in p), 'adr')}).")
        return path

    @staticmethod
    def in_scope(path: str, scope: str) -> bool:
        return not scope or path == scope or path.startswith(scope + "/")

    def doc(self, raw: str) -> Doc:
        """The document at a caller-supplied path, or a refusal naming near candidates."""
        path = self.normalize(raw)
        found = self.docs.get(path)
        if found is None:
            if (self.root / path).is_dir():
                raise BankError(f"{path} is a folder, not a document. Read {path}/README.md for its index.")
            stem = path.rpartition("/")[2].lower()
            near = [p for p in self.paths if p.rpartition("/")[2].lower() == stem][:5]
            hint = f" Did you mean: {', '.join(near)}?" if near else " Route the question to find the right path."
            raise BankError(f"No document at {path}.{hint}", see=() if near else "route")
        return found

    def read_text(self, path: str) -> str:
        """The current text of a document (BOM removed, invalid UTF-8 replaced)."""
        return self.read_version(path)[0]

    def read_version(self, path: str) -> tuple[str, str]:
        """`(text, version)` of a document as it is on disk now, read without following a symlink."""
        snap = read_file(self.root, path)
        if snap is None:
            raise BankError(f"No document at {path}: it was removed since the index was read. Retry.")
        data = snap.data
        version = version_of(data)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        return data.decode("utf-8", errors="replace"), version

    def is_root(self, path: str) -> bool:
        return self.contract is not None and path in self.contract.roots


_BANKS: dict[str, Bank] = {}


def bank_for(root: str | os.PathLike[str]) -> Bank:
    """The cached `Bank` for a root (one per process), not refreshed: every capability refreshes it.

    Raises the `project.linked_out` refusal for a bank reached through a committed symlink leading out
    of the project, whichever face asks (the CLI, the server and the hooks also check before anything)."""
    key = os.path.abspath(root)
    bank = _BANKS.get(key)
    if bank is None:
        from .project import linked_out

        escape = linked_out(key)
        if escape is not None:
            raise escape
        bank = _BANKS[key] = Bank(key)
        from .cache import load
        load(bank)
    return bank


def from_cache(bank: Bank) -> bool:
    """Whether `bank` was seeded from its parse cache file (`cache.load`)."""
    return bank.since_seed is not None


def rebuilt(root: str | os.PathLike[str]) -> Bank:
    """A `Bank` for `root` that reads every file and no cache file, from now on the cached one of this process."""
    key = os.path.abspath(root)
    bank = _BANKS[key] = Bank(key)
    return bank


def answered(root: str | os.PathLike[str], call: Callable[[Bank], Any], read_only: bool = True) -> tuple[Bank, Any]:
    """`call` on the cached bank of `root`, and the bank it ran on; a read-only call that fails on a bank seeded from
    its cache file runs once more on a bank rebuilt from the files (s8-robust).

    The load checks the file's checksum, header and outer shapes, but most of it is decoded only when a
    call first reads it (a document's cold fields, a routing row, a posting list: issue 15): a file that
    passed those checks and still holds a malformed part (written by a foreign or hostile hand; a bug)
    fails there, in the middle of a call. That call is answered from the files instead, as with the cache
    off, and the next save replaces the file. A writer is never run twice; a refusal is not a failure."""
    bank = bank_for(root)
    try:
        return bank, call(bank)
    except BankError:
        raise
    except Exception:
        if not read_only or not from_cache(bank):
            raise
    bank = rebuilt(root)
    return bank, call(bank)
