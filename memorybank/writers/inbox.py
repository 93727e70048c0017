"""The inbox (§10.7): promote a note into the bank, discard it with a recorded reason, list notes."""

from __future__ import annotations

import posixpath
import time
from typing import Any

from ..bank import Bank
from ..headings import scan_headings
from ..limits import PURPOSE_MAX, TITLE_MAX
from ..records import Doc
from .create import DISCARD_LOG, GOVERNED, INBOX
from .files import Text
from .frontmatter import render_frontmatter
from .gates import (
    anchors_list,
    as_list,
    at_version,
    enum_warnings,
    keys,
    near_duplicates,
    new_path,
    not_forbidden,
    one_line,
    owned_elsewhere,
    refuse,
    requires_edges,
    resolve_edges,
)
from .markdown import heading
from .registry import escape_inline, register, rewrite_links
from .session import load, result, writing
from .templates import today


def _note(bank: Bank, path: str, action: str) -> Doc:
    note = bank.doc(path)
    if not note.in_inbox:
        raise refuse(action, f"{note.path} is not in _inbox/; {action} only works on inbox notes.",
                     "Change documents outside the inbox with the other writers.")
    if note.path == DISCARD_LOG:
        raise refuse(action, f"{DISCARD_LOG} is the discard log, not a note.",
                     "Pick a note from the inbox list.", see="inbox")
    return note


def _destination(bank: Bank, note: Doc, to: str) -> str:
    raw = str(to or "").strip().replace("\\", "/")
    if raw and not raw.endswith(".md") and (raw.endswith("/") or (bank.root / raw.rstrip("/")).is_dir()):
        raw = raw.rstrip("/") + "/" + posixpath.basename(note.path)
    target = new_path(bank, raw)
    if target.startswith(INBOX):
        raise refuse("to", f"{target} is inside _inbox/.", "Promote to a folder outside the inbox, e.g. `adr/`.")
    return target


def promote(bank: Bank, path: str, to: str, doc_kind: str | None = None, title: str | None = None,
            purpose: str | None = None, derived_from: Any = None, canonical_for: Any = None,
            status: str | None = None, dry_run: bool = False, base_version: str | None = None) -> dict[str, Any]:
    """Move an inbox note to `to`, rebuilding its frontmatter per the contract; all-or-nothing.

    Parameters override the note's own values; status defaults to active, so the derived_from
    gate applies. The note's edges and relative links are re-aimed for the new folder; its own
    canonical keys do not conflict with itself. The new document is registered in its nearest
    index and the note deleted in the same transaction. `to` may name a folder (`adr/`): the
    note keeps its file name. Returns `{path, from, registered_in, created_index, …}`.
    """
    warnings: list[str] = []
    with writing(bank, dry_run) as tx:
        note = _note(bank, path, "promote")
        at_version(note, base_version)
        target = _destination(bank, note, to)
        title = one_line("title", title if title is not None else note.title, limit=TITLE_MAX)
        purpose = one_line("purpose", purpose if purpose is not None else note.purpose, limit=PURPOSE_MAX)
        doc_kind = one_line("doc_kind", doc_kind if doc_kind is not None else note.doc_kind)
        status = one_line("status", status or "active")
        if derived_from is not None:
            items = as_list(derived_from, "derived_from")
        else:
            items = []
            for edge in note.derived_from:
                moved = posixpath.relpath(edge.target, posixpath.dirname(target) or ".")
                items.append({"path": moved, "fit": edge.fit} if edge.fit else moved)
        edges, _ = resolve_edges(bank, target, items, warnings)
        canonical = keys("canonical_for", as_list(canonical_for, "canonical_for")) if canonical_for is not None \
            else list(note.canonical_for)
        must_not = list(note.must_not_define)
        owned_elsewhere(bank, canonical, mine=[note.path])
        not_forbidden(canonical, must_not)
        requires_edges(bank, target, status, edges, warnings)
        enum_warnings(bank, {"doc_kind": doc_kind, "status": status}, warnings)
        for other in near_duplicates(bank, title, purpose, exclude=[note.path]):
            warnings.append(f"near-duplicate: {other} has nearly the same title or purpose. "
                            "Fold the note into that document's section and discard the note instead?")
        for index in bank.registered_in.get(note.path, []):
            warnings.append(f"{index} links the note at its old path; update that link.")
        for other in bank.incoming.get(note.path, []):
            warnings.append(f"{other} derives from the note at its old path; update its derived_from.")

        meta: dict[str, Any] = {"title": title, "doc_kind": doc_kind}
        function = note.doc_function
        meta["doc_function"] = function if function and function not in ("template", "log", "index") else "canonical"
        meta["purpose"] = purpose
        anchors = anchors_list(bank, list(note.anchors), warnings)
        for name, value in (("derived_from", edges), ("canonical_for", canonical), ("must_not_define", must_not),
                            ("anchors", anchors)):
            if value:
                meta[name] = value
        meta["status"] = status
        for key, value in note.frontmatter.items():
            if key not in GOVERNED and value is not None:
                meta[key] = value
        enum_warnings(bank, {k: meta.get(k) for k in ("delivery_status", "decision_status")}, warnings)

        text = load(tx, note.path)
        close = text.frontmatter_close()
        start = close + 1 if close is not None else 0
        contents = text.contents()
        moved = rewrite_links(contents, start, note.path, target)
        body = Text(list(text.lines[start:]), "", text.newline)
        for offset, line in enumerate(moved[start:]):
            if line != contents[start + offset]:
                body.set_content(offset, line)
        h1 = next(((t, i) for level, t, i in scan_headings(body.contents()) if level == 1), None)
        if h1 is None:
            body.insert(0, [heading(title), ""])
        elif h1[0] in (note.title, escape_inline(note.title)) and title != note.title:
            body.set_content(h1[1], heading(title))
        while body.lines and not body.content(0).strip():
            body.delete(0, 1)
        head = text.newline.join(["---", *render_frontmatter(meta), "---", ""]) + text.newline
        tx.write(target, text.bom.encode("utf-8") + head.encode("utf-8") + body.encode())
        registered = register(bank, tx, target, title, purpose, doc_kind, text.newline)
        tx.delete(note.path)
        return result(tx, dry_run, warnings, path=target, **{"from": note.path}, **registered)


def _log_header(bank: Bank, newline: str) -> bytes:
    """The discard log's header and preamble.

    `doc_function: log` only when dna/ declares `log` or no doc_function at all: a writer never
    writes a value the contract does not know, so otherwise the key is left out.
    """
    meta: dict[str, Any] = {"title": "Discarded inbox notes"}
    allowed = bank.contract.allowed("doc_function") if bank.contract is not None else frozenset()
    if not allowed or "log" in allowed:
        meta["doc_function"] = "log"
    meta["purpose"] = "Read when you need to know which inbox notes were dropped, when, and why."
    lines = ["---", *render_frontmatter(meta), "---", "", "# Discarded inbox notes", "",
             "One line per note discarded from the inbox: date (UTC), note, title, reason.", ""]
    return (newline.join(lines) + newline).encode("utf-8")


def discard(bank: Bank, path: str, reason: str, dry_run: bool = False,
            base_version: str | None = None) -> dict[str, Any]:
    """Delete an inbox note and append the reason as one line to `_inbox/DISCARDED.md` (created on first use).

    The log is created with `doc_function: log` (§10.7) unless dna/ declares doc_function values
    without `log`; then the key is left out, so the log adds no unknown-enum-value finding.

    Returns `{path, reason, log, …}`.
    """
    warnings: list[str] = []
    with writing(bank, dry_run) as tx:
        note = _note(bank, path, "discard")
        at_version(note, base_version)
        reason = one_line("reason", reason)
        data = tx.read(DISCARD_LOG)
        if data is None:
            data = _log_header(bank, load(tx, note.path).newline)
        log = Text.decode(data, DISCARD_LOG)
        title = note.title.replace("`", "'")
        log.insert(len(log.lines), [f"- {today()} `{note.path}` ({title}): {reason}"])
        tx.write(DISCARD_LOG, log.encode())
        tx.delete(note.path)
        return result(tx, dry_run, warnings, path=note.path, reason=reason, log=DISCARD_LOG)


def list_inbox(bank: Bank) -> dict[str, Any]:
    """Inbox notes, oldest first (by modification time, then path), with their age in whole days."""
    bank.refresh()
    now = time.time_ns()
    notes = sorted((d for d in bank.docs.values() if d.in_inbox and d.path != DISCARD_LOG),
                   key=lambda d: (d.mtime_ns, d.path))
    return {"notes": [{"path": d.path, "title": d.title, "purpose": d.purpose, "doc_kind": d.doc_kind,
                       "age_days": max(0, (now - d.mtime_ns) // 86_400_000_000_000)} for d in notes],
            "count": len(notes)}
