"""bank_move: rename a document; every derived_from edge and index entry that points at it follows.

One transaction: the document at its new path (its own relative links and edges re-aimed), the old
path deleted, each index entry, body link and upstream edge elsewhere rewritten — all land or none do.
"""

from __future__ import annotations

import posixpath
from typing import Any

from ..bank import Bank
from ..paths import resolve_from
from .files import Text, Transaction
from .frontmatter import read_block
from .frontmatter import set_list as write_list
from .gates import new_path, refuse
from .registry import retarget_links, rewrite_links
from .session import editing, load, result


def _destination(bank: Bank, old: str, raw: Any) -> str:
    """The new path: a `.md` path, or a folder (`adr/`) where the document keeps its file name.

    Collisions are refused by `new_path`: an existing file, or a name differing only by case or
    Unicode form from an existing one other than the document itself (`ignore`).
    """
    text = str(raw or "").strip().replace("\\", "/")
    if text and not text.endswith(".md") and (text.endswith("/") or (bank.root / text.rstrip("/")).is_dir()):
        text = text.rstrip("/") + "/" + posixpath.basename(old)
    return new_path(bank, text, ignore=old)


def _edge_path(item: Any) -> str:
    return str(item.get("path") if isinstance(item, dict) else item or "")


def _with_path(item: Any, path: str) -> Any:
    return {**item, "path": path} if isinstance(item, dict) else path


def _rel(target: str, from_doc: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(from_doc) or ".")


def _reaim_edges(text: Text, items: list[Any], fix: Any) -> bool:
    """Rewrite `derived_from` items through `fix(item) -> item`; True when any changed."""
    new = [fix(item) for item in items]
    if new == items:
        return False
    write_list(text, "derived_from", new)
    return True


def _edges(text: Text) -> list[Any]:
    raw = read_block(text).get("derived_from")
    return [] if raw is None else (list(raw) if isinstance(raw, list) else [raw])


def _body_start(text: Text) -> int:
    close = text.frontmatter_close()
    return close + 1 if close is not None else 0


def _relines(text: Text, lines: list[str]) -> bool:
    contents = text.contents()
    changed = False
    for index, line in enumerate(lines):
        if line != contents[index]:
            text.set_content(index, line)
            changed = True
    return changed


def _moved_document(tx: Transaction, old: str, new: str) -> bytes:
    text = load(tx, old)
    start = _body_start(text)
    _relines(text, rewrite_links(text.contents(), start, old, new))

    def fix(item: Any) -> Any:
        raw = _edge_path(item)
        target, external = resolve_from(old, raw)
        if external or raw.startswith("/") or resolve_from(new, raw)[0] == target:
            return item
        return _with_path(item, _rel(target, new))
    if text.frontmatter_close() is not None:
        _reaim_edges(text, _edges(text), fix)
    return text.encode()


def move(bank: Bank, path: str, new_path: str, dry_run: bool = False,
         base_version: str | None = None) -> dict[str, Any]:
    """Rename a document to `new_path`; edges and index entries pointing at it are rewritten in the same commit.

    Refused when something exists at the new path or a name differing from it only by case or Unicode
    form (a case-only rename of the document itself is fine), when `base_version` is given and the
    document changed since that read, for templates, and for `_inbox/` notes (promote
    those). Returns `{path, from, indexes, links, edges}`: the indexes whose entries, the other documents
    whose body links, and the documents whose derived_from were rewritten. Reads every document's
    links once (linear in the bank).
    """
    warnings: list[str] = []
    with editing(bank, path, dry_run, base_version, inbox=("path", "is an _inbox note.", "Promote it instead.",
                                                             ("promote",))) as (tx, doc):
        target = _destination(bank, doc.path, new_path)
        if target.startswith("_inbox/"):
            raise refuse("new_path", f"{target} is inside _inbox/.", "Move it to a folder outside the inbox.")
        tx.write(target, _moved_document(tx, doc.path, target))
        tx.delete(doc.path)
        indexes: list[str] = []
        links: list[str] = []
        linking = [p for p in bank.paths if p != doc.path and any(
            link.target == doc.path and not link.external for link in bank.docs[p].links)]
        for other in linking:  # index entries, and any other body link to it
            text = load(tx, other)
            if _relines(text, retarget_links(text.contents(), _body_start(text), other, doc.path, target)):
                tx.write(other, text.encode())
                (indexes if bank.docs[other].is_index else links).append(other)
        edges: list[str] = []
        for other in bank.incoming.get(doc.path, []):
            if other == doc.path:
                continue
            text = load(tx, other)

            def fix(item: Any, other: str = other) -> Any:
                raw = _edge_path(item)
                if resolve_from(other, raw)[0] != doc.path:
                    return item
                return _with_path(item, "/" + target if raw.startswith("/") else _rel(target, other))
            if _reaim_edges(text, _edges(text), fix):
                tx.write(other, text.encode())
                edges.append(other)
        return result(tx, dry_run, warnings, path=target, **{"from": doc.path}, indexes=indexes, links=links,
                      edges=edges)
