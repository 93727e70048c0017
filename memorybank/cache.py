"""A disposable parse cache (issue 15): the index of a bank kept between processes, like `__pycache__`.

One file per bank, never inside the bank: `$MEMORYBANK_CACHE_DIR`, else the user cache folder
(`$XDG_CACHE_HOME/memorybank`, `~/.cache/memorybank`; `~/Library/Caches/memorybank` on macOS;
`%LOCALAPPDATA%/memorybank` on Windows). The file name is a hash of the bank's real path.

It holds what a cold process would otherwise rebuild: the parsed `Doc` records (plain tuples via
`marshal`), each file's stamp `(mtime_ns, size, inode, ctime_ns)`, the dna/ texts, and the routing and
body-search indexes as they stood at that stamp. It is never trusted as state: every call still stats
every file (`Bank.refresh`), and a file whose stamp differs from the cached one is parsed and indexed
again exactly as without the cache (`Bank.seed`, `DerivedIndex.of`), so answers cannot differ.

A load restores only what a call reads first (issue 15: a server ready at the SDK floor): the body
postings come back as flat arrays straight from bytes (`search.PackedPostings`), each document's
routing fields stay bytes until a route reads them (`LazyRows`), and the `Doc` records are filled a
field at a time in C (`rows_docs`).

A file of another format or package version (or other source files: `_code_mark`), another Python,
another bank, or one that is truncated or corrupt is ignored (and replaced at the next save), never an
error. Writes go to a temporary file in
the cache folder, then `os.replace`: concurrent processes each see a whole file, the last writer wins.
Bounds: a bank whose cache would exceed MAX_FILE_BYTES is not cached; after a save, the oldest files in
the folder are removed while the folder holds more than MAX_DIR_BYTES. `MEMORYBANK_CACHE=off` turns
it off.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import stat
import sys
import time
import zlib
from array import array
from collections import deque
from contextlib import suppress
from functools import partial
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

from . import __version__
from .gcpause import bulk
from .records import Doc, Edge, Link, RuleRef, key_row

if TYPE_CHECKING:
    from collections.abc import Callable

    from .bank import Bank

FORMAT = 6  # 2: compact layouts (Slots, 'H' counts, term sets); 3: the body's CRC-32 before it;
#            4: frontmatter, key lines and sections as tuples; 5: packed body postings, routing fields per document,
#            the prose titles (a restored plain bank ranked its H1 titles as declared ones); 6: each document's
#            cold fields one blob, decoded on first read (`ColdDoc`), and the bank's maps beside them
MAGIC = b"MBCACHE\n"
MAX_FILE_BYTES = 256 << 20
MAX_DIR_BYTES = 1 << 30
SUFFIX = ".mbc"
TEMP_SUFFIXES = (SUFFIX, ".mbre")  # what `replace_private` writes here: bank caches and the pattern store
STALE_TEMP_NS = 600 * 10**9  # a temporary file this old is a killed writer's (`_prune`)
_FIELDS = Doc.__slots__
_NESTED = {"derived_from": Edge, "links": Link, "rule_refs": RuleRef}
_NESTED_AT = tuple((_FIELDS.index(name), partial(tuple.__new__, kind), {len(kind._fields)})
                   for name, kind in _NESTED.items())


def enabled() -> bool:
    return os.environ.get("MEMORYBANK_CACHE", "").strip().lower() not in ("off", "0", "no", "false")


def cache_dir() -> str:
    """The per-user cache folder (not created here)."""
    explicit = os.environ.get("MEMORYBANK_CACHE_DIR", "").strip()
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "memorybank")
    if os.name == "nt":
        return os.path.join(os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"), "memorybank")
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = xdg if os.path.isabs(xdg) else os.path.join(home, ".cache")  # XDG: a relative value is ignored
    return os.path.join(base, "memorybank")


def cache_file(root: str) -> str | None:
    """The cache file of the bank at `root`, or None when caching is off or the folder lies in the bank."""
    if not enabled():
        return None
    real = os.path.realpath(root)
    folder = os.path.realpath(cache_dir())
    if folder == real or folder.startswith(real.rstrip(os.sep) + os.sep):
        return None  # never write inside the bank
    name = hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(folder, name + SUFFIX)


@functools.cache
def _code_mark() -> str:
    """The package's own source files by name and content: a checkout on another commit (same version
    number, other parser or tokeniser) never reads this one's cache, while two copies of the same code
    (an installed wheel and the source tree a test imports) share it. Hashing ~80 files costs ~1.5 ms."""
    package = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, package).encode("utf-8", "surrogatepass") + b"\0")
                with open(path, "rb") as handle:
                    digest.update(handle.read() + b"\0")
    return digest.hexdigest()


def _header(root: str) -> tuple:
    return (FORMAT, __version__, sys.hexversion, _code_mark(), os.path.realpath(root))


# -- documents as tuples ----------------------------------------------------------------------

# A document's fields in two parts (issue 15: ready at 10,000 documents). The hot ones are those a start
# reads of every document (the refresh's maps, route's per-document factors and statistics, names);
# the cold ones (frontmatter, sections, links, key lines, counts, ...: most of a document's bytes and
# more than half of the load's CPU) stay one marshal blob per document until something reads one of
# them (`ColdDoc`): a first route at 10,000 documents decodes those of about ten.
HOT = ("path", "title", "doc_kind", "doc_function", "status", "delivery_status", "derived_from", "canonical_for",
       "layer")
COLD = tuple(name for name in _FIELDS if name not in HOT)
_HOT_NESTED = tuple((HOT.index(name), make, width) for name, (_, make, width) in
                    zip(_NESTED, _NESTED_AT) if name in HOT)
_COLD_NESTED = tuple((COLD.index(name), make, width) for name, (_, make, width) in
                     zip(_NESTED, _NESTED_AT) if name in COLD)


def _plain(values: tuple, nested: tuple) -> tuple:
    row = list(values)
    for at, _, _ in nested:
        row[at] = tuple(map(tuple, row[at]))  # named tuples as plain ones (marshal writes exact tuples only)
    return tuple(row)


def doc_row(doc: Doc) -> tuple:
    """A document as its hot fields and, last, its cold ones as one marshal blob (kept as read when
    the document was restored and no cold field was read since)."""
    blob = _blob_of(doc)
    if blob is None:
        blob = marshal.dumps(_plain(tuple(getattr(doc, name) for name in COLD), _COLD_NESTED))
    return (*_plain(tuple(getattr(doc, name) for name in HOT), _HOT_NESTED), blob)


def row_doc(row: tuple) -> Doc:
    return rows_docs({row[0]: row})[row[0]]


_SLOT = {name: Doc.__dict__[name] for name in _FIELDS}  # the slots' own descriptors (C setters)
_HOT_SLOTS = tuple(_SLOT[name] for name in HOT)
_COLD_SLOTS = tuple(_SLOT[name] for name in COLD)


class ColdDoc(Doc):
    """A `Doc` restored from the cache whose cold fields are still the blob they were saved as.

    Reading any cold field decodes them all (`_ColdField`) and drops the blob; every other field is a
    plain slot, read at a slot's speed. It is a `Doc` in every other way: compared by identity,
    `replace` and `repr` read every field (so decode them), and `doc_row` writes an undecoded blob back
    unchanged. Two threads decoding one document at once set the same values.
    """

    __slots__ = ("_cold",)


class _ColdField:
    """A cold field of `ColdDoc`: the slot's value, after decoding the document's blob if it is still one."""

    __slots__ = ("slot",)

    def __init__(self, slot: Any) -> None:
        self.slot = slot

    def __get__(self, doc: Any, kind: Any = None) -> Any:
        if doc is None:
            return self
        try:
            return self.slot.__get__(doc)
        except AttributeError:
            pass
        try:
            blob = _BLOB.__get__(doc)
        except AttributeError:  # decoded meanwhile by another thread (the slots are set before the blob goes)
            return self.slot.__get__(doc)
        for slot, value in zip(_COLD_SLOTS, _cold_values(blob)):
            slot.__set__(doc, value)
        with suppress(AttributeError):  # another thread's decode dropped it first
            _BLOB.__delete__(doc)
        return self.slot.__get__(doc)

    def __set__(self, doc: Any, value: Any) -> None:  # `frozen.assign` (`__init__`, `replace`, a copy) only
        self.slot.__set__(doc, value)


_BLOB = ColdDoc.__dict__["_cold"]
for _name in COLD:
    setattr(ColdDoc, _name, _ColdField(_SLOT[_name]))
ColdDoc.__slots__ = Doc.__slots__  # what `Frozen` reads as the fields (repr, replace, pickle): Doc's own


def _blob_of(doc: Doc) -> bytes | None:
    if type(doc) is not ColdDoc:
        return None
    try:
        return _BLOB.__get__(doc)
    except AttributeError:
        return None


def _cold_values(blob: bytes) -> list:
    values = marshal.loads(blob)
    if type(values) is not tuple or len(values) != len(COLD):
        raise ValueError("a cached document's cold fields of the wrong width")
    values = list(values)
    for at, make, width in _COLD_NESTED:
        items = values[at]
        if items:
            if not set(map(len, items)) <= width:
                raise ValueError("a nested record of the wrong width")
            values[at] = tuple(map(make, items))
    keys, front = COLD.index("key_rows"), COLD.index("front")
    for at in (keys, front):  # the key tuples shared across documents again, as the parse shares them
        row = values[at]
        if row and row[0]:
            values[at] = (key_row(row[0]), *row[1:])
    return values


def rows_docs(rows: dict[str, tuple]) -> dict[str, Doc]:
    """The `Doc` records of cached rows, built a field at a time across all documents (issue 15: ready).

    A record's `__init__` only assigns its fields (`frozen.py`); here each hot field's slot is set on
    every record by one C-level `map`, and the nested records are made by `tuple.__new__`, so 10,000
    documents take ~20 ms instead of ~100 (one Python `__init__` call and 31 assignments each). The
    cold fields stay bytes (`ColdDoc`).
    """
    values = list(rows.values())
    if not values:
        return {}
    if set(map(len, values)) != {len(HOT) + 1}:
        raise ValueError("a cached document of the wrong width")
    columns = list(zip(*values))
    for at, make, width in _HOT_NESTED:
        column = columns[at]
        # a row of another width would make a record whose fields do not line up, so it is refused
        if not set(map(len, chain.from_iterable(column))) <= width:
            raise ValueError("a nested record of the wrong width")
        columns[at] = tuple(tuple(map(make, items)) if items else items for items in column)
    if not all(map(bytes.__instancecheck__, columns[-1])):
        raise ValueError("a cached document's cold fields of the wrong shape")
    docs = list(map(ColdDoc.__new__, repeat(ColdDoc, len(values))))
    for slot, column in zip((*_HOT_SLOTS, _BLOB), columns):
        deque(map(slot.__set__, docs, column), maxlen=0)
    return dict(zip(rows, docs))


def _marshallable(value: Any) -> bool:
    try:
        marshal.dumps(value)
    except ValueError:  # e.g. a YAML date in the frontmatter
        return False
    return True


# -- derived indexes --------------------------------------------------------------------------

_POSTING_FIELDS = ("purpose", "title", "keys", "key_ids", "sections")  # the order `_restore_route` unpacks


def _route_state(index: Any) -> tuple:
    # Each document's fields as its own bytes, decoded on first use (`LazyRows`); their (term, surface,
    # language) triples, shared by every document as the lexicon hands them out, are one table the
    # rows point into by number, so a decoded document shares them again (not one copy per document).
    # An index restored from the cache keeps its table's numbering: the rows no route decoded are
    # written back as they were read (issue 15: a save after an in-place update re-encoded all of them,
    # ~0.9 s at 10,000 documents), and the table grows only by the triples of documents derived since.
    rows = index.fields
    raw: dict[int, bytes] = rows.raw if isinstance(rows, LazyRows) else {}
    kept = rows.table if raw else ()
    table: dict[tuple, int] = dict(zip(kept, range(len(kept))))
    number = table.setdefault

    def refs(terms: tuple) -> tuple:
        return tuple(number(triple, len(table)) for triple in terms)

    dumps = marshal.dumps
    fields = {ident: dumps((tuple((key, refs(terms)) for key, terms in f.keys), refs(f.purpose), refs(f.title),
                            tuple((title, refs(terms)) for title, terms in f.sections)))
              for ident, f in dict.items(rows)}  # the decoded rows only (a LazyRows' `items` decodes all)
    fields.update(raw)
    postings = {term: tuple(getattr(p, name).tobytes() for name in _POSTING_FIELDS)
                for term, p in index.postings.items()}
    return (index.ids, index.paths, (list(table), fields), postings, tuple(index.prose_titles))


def _restore_route(index: Any, state: tuple) -> None:
    from .route import Postings, RouteFields, Slots
    ids, paths, (table, fields), postings, prose_titles = state
    index.ids, index.paths = ids, paths
    index.prose_titles = set(prose_titles)  # titles taken from the H1 weigh as prose: a plain bank's all do
    if not isinstance(fields, dict) or not all(map(bytes.__instancecheck__, fields.values())):
        raise ValueError("routing fields of the wrong shape")
    loads, triple = marshal.loads, table.__getitem__

    def decode(blob: bytes) -> Any:
        keys, purpose, title, sections = loads(blob)
        return RouteFields(tuple((key, tuple(map(triple, terms))) for key, terms in keys),
                           tuple(map(triple, purpose)), tuple(map(triple, title)),
                           tuple((name, tuple(map(triple, terms))) for name, terms in sections))

    index.fields = LazyRows(fields, decode, table)
    out = {}
    new = Postings.__new__
    make = partial(array.__new__, Slots, "i")  # in C: bytes become the array's items (`frombytes`)
    for term, parts in postings.items():
        entry = out[term] = new(Postings)
        entry.purpose, entry.title, entry.keys, entry.key_ids, entry.sections = map(make, parts)
    index.postings = out


def _search_state(index: Any) -> tuple:
    postings = index.postings.state()
    meta = [(tuple(title), tuple(purpose)) for title, purpose in index.meta]  # marshal writes exact tuples only
    headings = {term: (found.ids.tobytes(), found.counts.tobytes()) for term, found in index.headings.items()}
    return (index.ids, index.paths, index.lengths, index.unique, headings, meta, list(map(tuple, index.keys)),
            postings, index.live, index.total_length, index.dead_postings, index.total_postings)


def _restore_search(index: Any, state: tuple) -> None:
    from .search import NO_TERMS, HeadCounts, PackedPostings, TermSet
    (index.ids, index.paths, index.lengths, index.unique, headings, meta, keys,
     postings, index.live, index.total_length, index.dead_postings, index.total_postings) = state
    index.headings = {term: HeadCounts(array("i", ids), array("i", counts)) for term, (ids, counts) in headings.items()}
    make = partial(tuple.__new__, TermSet)
    index.meta = [(make(title) if title else NO_TERMS, make(purpose) if purpose else NO_TERMS)
                  for title, purpose in meta]
    index.keys = [make(terms) if terms else NO_TERMS for terms in keys]
    index.postings = PackedPostings.restore(postings)  # flat arrays from bytes, in C: no object per term


class LazyRows(dict):
    """A dict `id → record` whose records the cache holds as bytes until first read (issue 15: ready).

    The routing fields of 10,000 documents took ~100 ms to unmarshal and build at start, and a route
    reads those of its few candidates only: each is decoded on first use (`__missing__`, so a read of a
    decoded one is a plain dict lookup) and stays. Every way the routing index uses its fields (`[]`,
    `get`, `in`, `len`, `pop`, iteration, assignment) sees all of them, decoded or not.
    """

    __slots__ = ("raw", "decode", "table")

    def __init__(self, raw: dict[Any, bytes], decode: Any, table: list | tuple = ()) -> None:
        super().__init__()
        self.raw = raw
        self.decode = decode
        self.table = table  # what the bytes' numbers point at (`_route_state` writes undecoded rows back as read)

    def __missing__(self, key: Any) -> Any:
        value = self.decode(self.raw.pop(key))  # KeyError when it is not there either, as a dict's
        dict.__setitem__(self, key, value)
        return value

    def _every(self) -> None:
        for key in list(self.raw):
            self[key]  # noqa: B018 - decodes it

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if key in self else default

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.raw

    def __len__(self) -> int:
        return dict.__len__(self) + len(self.raw)

    def __iter__(self) -> Any:
        self._every()
        return dict.__iter__(self)

    def keys(self) -> Any:
        self._every()
        return dict.keys(self)

    def values(self) -> Any:
        self._every()
        return dict.values(self)

    def items(self) -> Any:
        self._every()
        return dict.items(self)

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self.raw:
            self[key]  # noqa: B018 - decodes it
        return dict.pop(self, key, *default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.raw.pop(key, None)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        if self.raw.pop(key, None) is None:
            dict.__delitem__(self, key)


KINDS = {"route.index": (_route_state, _restore_route), "search.index": (_search_state, _restore_search)}
# Other per-bank state saved beside the indexes (issue 19: doctime's git dates, keyed by HEAD). Each holds
# an object in `bank.cache` with `cache_state()` (None: nothing new) and `fresh`; the owner reads it back
# from `bank.snapshot["indexes"][key]` as `(mark, state)` and checks its own validity.
EXTRAS = ("doc.times", "succession")  # prime-lean: succession's links (`succession.Successors`)


def vocabulary_mark(bank: Bank) -> str:
    """What the derived indexes depend on besides the documents: the bank's vocabulary rows."""
    from .lang import VOCABULARY_PATH
    text = bank.dna_texts.get(VOCABULARY_PATH) or ""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def restore(index: Any, bank: Bank) -> bool:
    """Fill a fresh derived index from the bank's loaded snapshot; the documents changed since it was saved
    are then re-derived in place by the index's next `sync` (issue 15: an edit between two calls cost a
    full build, 12.7 s at 10,000 documents against 0.7 s untouched).

    An index updated in place answers as a fresh build of the same documents does: its statistics
    (idf, average length, document frequencies, "is this word held") count live documents only, and
    wherever ids could order a tie the order is by path (`route._strongest`, search's `_leading`, route's
    and search's final sorts), the order a fresh build numbers documents in, so a changed document numbered
    last ranks as it would in place. Refused (the index is built in full from the cached documents) when
    a dna/ file changed (the vocabulary and layers every document is derived with), when more than half
    of the documents changed (a full build is cheaper), or when the ids numbered after the update would
    exceed twice the documents plus `SLACK_IDS` (a full build numbers from 0 again: replaced documents'
    ids and postings do not pile up across calls).
    """
    snapshot = bank.snapshot
    if snapshot is None or bank.since_seed is None:
        return False
    found = snapshot["indexes"].get(index.cache_key)
    kind = KINDS.get(index.cache_key)
    if found is None or kind is None:
        return False
    snapshot["indexes"][index.cache_key] = None  # restored at most once; the state now lives in the index
    changed = bank.since_seed
    if len(found) > 2 and found[2]:  # + the paths changed before the call that carried this state saved (`save`)
        changed = changed.union(found[2])
        snapshot["generation"] = None  # updated in place since the file was written: worth saving
    if (found[0] != vocabulary_mark(bank) or 2 * len(changed) > len(bank.docs)
            or any(path.startswith("dna/") for path in changed)):
        return False
    from .lang import lexicon_for
    index.lexicon = lexicon_for(bank)
    index._reset()
    try:
        with bulk():
            kind[1](index, found[1])
    except Exception:  # noqa: BLE001 - a state of the wrong shape is rebuilt, never an error
        index._reset()
        return False
    if len(index.paths) + len(changed) > 2 * len(index.ids) + SLACK_IDS:
        index._reset()
        return False
    index.pending = set(changed)  # re-derived by `sync`: removed, then added again under new ids
    return True


SLACK_IDS = 64  # ids of replaced documents a restored index may carry beyond twice its documents


# -- load and save ----------------------------------------------------------------------------

def load(bank: Bank) -> bool:
    """Seed `bank` from its cache file; False (and nothing changed) when there is none usable."""
    path = cache_file(str(bank.root))
    if path is None:
        return False
    data = _read_own(path)
    if data is None:
        return False
    try:
        with bulk():
            return _seed(bank, data)
    except Exception:  # noqa: BLE001 - a corrupt or foreign cache is rebuilt, never an error
        return False


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
HEADER_SLACK = 1 << 16  # magic, length and header around a body of at most MAX_FILE_BYTES


def _read_own(path: str, seen: list[os.stat_result] | None = None) -> bytes | None:
    """The bytes of the cache file at `path` when it is one this user wrote; None for anything else.

    Never followed (a planted symlink), never waited on (a FIFO), never read past the bound (a sparse
    1 GB file, /dev/zero), and only trusted when owned by this user and writable by no one else: the
    file is turned back into documents with `marshal`, which is not safe against hostile bytes, and a
    forged cache with matching stamps would otherwise answer with its own text. Nor is a file read from a
    folder others may write in without the sticky bit (`trusted_folder`): there anyone can rename a file of
    this user's in or out under the name read. `seen` gets the file's stat.
    """
    if not trusted_folder(os.path.dirname(path)):
        return None
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES + HEADER_SLACK
                or info.st_mode & 0o022 or (hasattr(os, "geteuid") and info.st_uid != os.geteuid())):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_FILE_BYTES + HEADER_SLACK + 1)
        if seen is not None:
            seen.append(info)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= MAX_FILE_BYTES + HEADER_SLACK else None


def trusted_folder(folder: str) -> bool:
    """Whether the cache folder is one only this user (or root) can change: not writable by group or others,
    unless sticky (as /tmp: each user may only rename or remove their own files there). A folder others can
    write in (a shared MEMORYBANK_CACHE_DIR, a group-writable home) is neither read nor written: each
    process rebuilds in memory, as with the cache off. Where modes mean nothing (Windows) it is trusted."""
    if not hasattr(os, "geteuid"):
        return True
    try:
        info = os.stat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and not (info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX)


def _seed(bank: Bank, data: bytes) -> bool:
    if not data.startswith(MAGIC):
        return False
    size = int.from_bytes(data[len(MAGIC):len(MAGIC) + 4], "little")
    start = len(MAGIC) + 4
    header = marshal.loads(data[start:start + size])
    if header != _header(str(bank.root)):
        return False
    body = data[start + size + 4:]
    if zlib.crc32(body) != int.from_bytes(data[start + size:start + size + 4], "little"):
        return False  # damaged bytes that still unmarshal would answer wrongly or fail in a call
    stamps, rows, dna_texts, indexes, maps = marshal.loads(body)
    docs = rows_docs(rows)
    if docs.keys() != stamps.keys() or not isinstance(dna_texts, dict) or not isinstance(indexes, dict):
        return False
    if maps is not None and not (type(maps) is tuple and len(maps) == 3 and all(
            type(found) is dict and all(map(list.__instancecheck__, found.values())) for found in maps)):
        return False
    bank.seed(docs, stamps, dna_texts, {"indexes": indexes, "generation": None, "maps": maps})
    return True


def save(bank: Bank) -> bool:
    """Write the bank's index to its cache file when it changed since it was loaded; True if written."""
    if bank.generation == 0 or not bank.root.is_dir():
        return False
    path = cache_file(str(bank.root))
    if path is None:
        return False
    indexes = {}
    mark = vocabulary_mark(bank)
    for key, (state, _) in KINDS.items():
        index = bank.cache.get(key)
        if index is not None and index.pending == set() and index.lexicon is not None:
            indexes[key] = (index, state)
    extras = {key: state for key in EXTRAS if (state := _extra_state(bank, key)) is not None}  # issue 19
    snapshot = bank.snapshot
    if (snapshot is not None and snapshot.get("generation") == bank.generation
            and set(indexes) <= set(snapshot["indexes"]) and not extras):
        return False  # nothing new since the load
    stamps = {}
    rows = {}
    for p, stamp in bank._stamps.items():
        doc = bank.docs.get(p)
        if doc is not None:
            try:
                rows[p] = doc_row(doc)
            except ValueError:  # a cold value marshal cannot write (a YAML date): that document is left out
                continue
            stamps[p] = stamp
    states = {key: (mark, state(index)) for key, (index, state) in indexes.items()}
    # attack-inplace: an index this call never loaded (a validate, a read, an edit after a change) keeps its saved
    # state, with the paths changed since it was derived, for the next call to update in place; dropped, the
    # next route after an edit and a read built both indexes in full (12.7 s at 10,000 documents)
    carried = {key: found for key in KINDS if key not in states and snapshot is not None
               and (found := snapshot["indexes"].get(key)) is not None}
    for key, found in carried.items():
        stale = (bank.since_seed or set()).union(found[2] if len(found) > 2 else ())
        states[key] = (found[0], found[1], tuple(sorted(stale)))
    states.update({key: (mark, state) for key, state in extras.items()})
    dna = {p: t for p, t in bank.dna_texts.items() if p in stamps}
    try:
        body = marshal.dumps((stamps, rows, dna, states, _maps(bank, rows)))
    except ValueError:  # a value marshal cannot write (a YAML date): leave those documents out
        for p in [p for p, row in rows.items() if not _marshallable(row)]:
            del rows[p], stamps[p]
            dna.pop(p, None)
        try:
            body = marshal.dumps((stamps, rows, dna, states, None))
        except ValueError:
            return False
    if len(body) > MAX_FILE_BYTES:
        return False
    header = marshal.dumps(_header(str(bank.root)))
    folder = os.path.dirname(path)
    try:
        replace_private(path, SUFFIX, lambda _: MAGIC + len(header).to_bytes(4, "little") + header
                        + zlib.crc32(body).to_bytes(4, "little") + body)
    except OSError:
        return False
    bank.snapshot = {"indexes": {key: carried.get(key) for key in states}, "generation": bank.generation}
    for key in extras:
        bank.cache[key].fresh = False  # type: ignore[attr-defined]
    _prune(folder, keep=path)
    return True


def replace_private(path: str, suffix: str, content: Callable[[os.stat_result], bytes]) -> None:
    """Write a file of the cache folder whole or not at all: `content` (given the new file's own stat, for
    a file that records where it was written) goes to a temporary file beside `path`, renamed over it, so
    processes running at once each read a whole file. The folder is made private (0700) if missing.
    Raises OSError; the temporary file never stays behind."""
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    if not trusted_folder(folder):
        raise OSError(f"{folder}: writable by others without the sticky bit; never read, so not written")
    import tempfile  # only a call that writes pays for it (and shutil, random)

    fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=suffix, dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content(os.fstat(handle.fileno())))
        os.replace(temp, path)
    except BaseException:
        with _quiet():
            os.unlink(temp)
        raise


def _maps(bank: Bank, rows: dict) -> tuple | None:
    """The bank's maps derived from its documents (`Bank._contribute_all`), when every document is saved:
    a start that finds no file changed takes them instead of reading every document again."""
    if rows.keys() != bank.docs.keys():
        return None
    return (bank.incoming, bank.owners, bank.registered_in)


def _extra_state(bank: Bank, key: str) -> Any:
    found = bank.cache.get(key)
    state = getattr(found, "cache_state", None)
    return state() if callable(state) else None


def _prune(folder: str, keep: str) -> None:
    """Remove the oldest cache files while the folder holds more than MAX_DIR_BYTES, and the temporary
    files of writers killed before their rename (`replace_private`'s `.tmp-*`, the parse cache's and
    the pattern store's, older than STALE_TEMP_NS: a live writer renames its own within seconds)."""
    stale_before = time.time_ns() - STALE_TEMP_NS
    try:
        entries = []
        with os.scandir(folder) as it:
            for entry in it:
                if not entry.name.endswith(TEMP_SUFFIXES) or not entry.is_file(follow_symlinks=False):
                    continue
                info = entry.stat(follow_symlinks=False)
                if entry.name.startswith(".tmp-") and info.st_mtime_ns < stale_before:
                    with _quiet():
                        os.unlink(entry.path)
                elif entry.name.endswith(SUFFIX):
                    entries.append((info.st_mtime_ns, info.st_size, entry.path))
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    for _, size, name in sorted(entries):
        if total <= MAX_DIR_BYTES:
            break
        if name == keep:
            continue
        with _quiet():
            os.unlink(name)
        total -= size


class _quiet:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        return kind is not None and issubclass(kind, OSError)
