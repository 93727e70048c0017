"""The frame every writer runs in: lock, refresh, stale-temp cleanup, one transaction, result shape."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..bank import Bank
from ..confined import version_of
from ..errors import BankError
from ..records import Doc
from .files import Text, Transaction, bank_lock, clean_stale_temps, recover

_CLEANED = "write.temps_cleaned"


@contextmanager
def writing(bank: Bank, dry_run: bool = False) -> Iterator[Transaction]:
    """Run a writer's gates and staging under the bank lock, then commit (unless a dry run).

    The refresh happens after the lock is taken, so every gate sees what other processes wrote, and
    after `recover`, so it never sees a multi-file commit half done by a killed writer.
    A dry run takes no lock and writes nothing (readers never lock). A gate that raises leaves the
    transaction uncommitted: nothing is written. The in-memory index is not refreshed after the
    commit: the next call's refresh picks the changes up (one parse instead of two when another
    process wrote too).
    """
    if dry_run:
        bank.refresh()
        yield Transaction(bank.root, bank)
        return
    with bank_lock(bank.root):
        notes: list[str] = []
        recover(bank.root, notes)  # a commit a killed writer left half done is finished before anything is read
        if not bank.cache.get(_CLEANED):
            clean_stale_temps(bank.root)
            bank.cache[_CLEANED] = True
        bank.refresh()
        tx = Transaction(bank.root, bank)
        tx.notes.extend(notes)
        yield tx
        if tx.ops:
            tx.commit()


@contextmanager
def editing(bank: Bank, path: str, dry_run: bool = False, base_version: str | None = None,
            inbox: tuple[str, str, str, tuple[str, ...]] | None = None) -> Iterator[tuple[Transaction, Doc]]:
    """`writing`, opened on an existing document: yields the transaction and the document.

    Every writer of an existing document refuses the same way first: a document that is no longer
    `base_version` (the conditional write), a template, and, when `inbox` gives the refusal's gate,
    reason (after the path), fix and `see`, an `_inbox/` note.
    """
    from .gates import at_version, refuse, template_guard

    with writing(bank, dry_run) as tx:
        doc = bank.doc(path)
        at_version(doc, base_version)
        template_guard(doc)
        if inbox is not None and doc.in_inbox:
            gate, reason, fix, see = inbox
            raise refuse(gate, f"{doc.path} {reason}", fix, see=see)
        yield tx, doc


def result(tx: Transaction, dry_run: bool, warnings: list[str], **fields: Any) -> dict[str, Any]:
    """The common result shape: writer fields, then `files` (what was or would be written), `dry_run`, `warnings`."""
    path = fields.get("path")
    data = tx.ops.get(path) if path in tx.ops else (tx.base[path].data if tx.base.get(path) else None)
    if data is not None:  # the version the document has after this write, for a next base_version
        fields = {**fields, "version": version_of(data)}
    return {**fields, "files": tx.files(), "dry_run": dry_run, "warnings": [*tx.notes, *warnings]}


def load(tx: Transaction, path: str) -> Text:
    data = tx.read(path)
    if data is None:
        raise BankError(f"No document at {path}.")
    return Text.decode(data, path)


def existing(bank: Bank, raw: str) -> Doc:
    """The document a writer is asked to change (refuses unknown paths with near candidates)."""
    return bank.doc(raw)
