"""Per-document derived indexes (routing fields, body search) kept in step with the bank's refreshes.

`DerivedIndex` subscribes to its bank and only *notes* the paths a refresh reports; the next
`sync()` (done by the capability that needs the index) re-derives just those documents. A change of
the bank's lexicon (its `dna/vocabulary.md` rows) re-derives everything, because every term may
have changed. `derived` counts the documents the last sync processed, so tests can assert that a
sync with nothing changed did no work.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import TypeVar

from .bank import BULK, Bank, Refresh
from .gcpause import bulk
from .lang import Lexicon, lexicon_for
from .records import Doc

T = TypeVar("T", bound="DerivedIndex")


class DerivedIndex:
    """Base class: subclasses implement `_reset`, `_add(path, doc)` and `_remove(path)`."""

    cache_key = "derived"

    def __init__(self, bank: Bank) -> None:
        self.bank = bank
        self.lexicon: Lexicon | None = None
        self.pending: set[str] | None = None  # None: rebuild everything on the next sync
        self.derived = 0
        self.derived_total = 0
        bank.subscribe(self._on_refresh)

    @classmethod
    def of(cls: type[T], bank: Bank) -> T:
        """The bank's index of this kind (created on first use), synced with the last refresh."""
        index = bank.cache.get(cls.cache_key)
        if not isinstance(index, cls):
            index = cls(bank)
            bank.cache[cls.cache_key] = index
            if bank.snapshot is not None:
                from .cache import restore
                restore(index, bank)
        index.sync()
        return index

    def _on_refresh(self, bank: Bank, refresh: Refresh) -> None:
        if self.pending is not None:
            self.pending.update(refresh.added, refresh.changed, refresh.removed)

    def sync(self) -> None:
        """Re-derive the documents changed since the last sync (all of them after a vocabulary change)."""
        lexicon = lexicon_for(self.bank)
        self.derived = 0
        if lexicon is not self.lexicon or self.pending is None or self._ids_after(len(self.pending)) > self.MAX_IDS:
            self.lexicon = lexicon
            self._reset()
            paths: list[str] = self.bank.paths
        else:
            paths = sorted(self.pending)
            for path in paths:
                self._remove(path)
        self.pending = set()
        with bulk() if len(paths) > BULK else nullcontext():
            for path in paths:
                doc = self.bank.docs.get(path)
                if doc is not None and doc.is_knowledge and self._add(path, doc):
                    self.derived += 1
        self.derived_total += self.derived

    MAX_IDS = 1 << 31  # document ids an index can number (each edit takes a new one); past it, a full rebuild

    def _ids_after(self, more: int) -> int:
        """Ids numbered once `more` documents are derived again in place (0: this index does not number them)."""
        return 0

    def _reset(self) -> None:
        raise NotImplementedError

    def _add(self, path: str, doc: Doc) -> bool:
        """Derive one document; False when it could not be (e.g. vanished before it was read)."""
        raise NotImplementedError

    def _remove(self, path: str) -> None:
        raise NotImplementedError
