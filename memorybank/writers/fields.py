"""bank_set_status (§10.4), bank_set_field (§10.5) and bank_set_list (§10.6): frontmatter changes
with the create gates applied at the moment of change."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..bank import Bank
from ..errors import BankError
from ..headings import scan_headings
from ..limits import PURPOSE_MAX, TITLE_MAX, VALUE_MAX
from ..parse import text_of
from ..paths import resolve_from
from ..rules import refuse_incomplete
from .frontmatter import read_block, remove_key, set_scalar
from .frontmatter import set_list as write_list
from .gates import (
    LIST_FIELDS,
    anchors_list,
    as_list,
    declared,
    frontmatter_key,
    keys,
    list_cap,
    no_cycle,
    not_forbidden,
    one_line,
    owned_elsewhere,
    refuse,
    resolve_edge,
)
from .markdown import heading
from .registry import escape_inline, update_entries
from .session import editing, load, result

ENUM_SCALARS = ("delivery_status", "decision_status")


def set_status(bank: Bank, path: str, status: str, release_canonical: bool = False,
               dry_run: bool = False, base_version: str | None = None) -> dict[str, Any]:
    """Move a document to another lifecycle status, running the gates of that transition.

    To `active`: derived_from when the contract requires it (roots exempt), every edge resolves,
    and no canonical_for key is shared. To `archived`: refused while the document owns keys,
    unless `release_canonical` drops its canonical_for in the same write. The value must be one
    dna/ declares (when it declares any) — a choice the spec leaves open: a typo would otherwise
    skip every gate. Returns `{path, status, previous, changed, released}`.
    """
    warnings: list[str] = []
    no_lifecycle = ("status", "is an inbox note; inbox notes have no lifecycle.", "Promote it or discard it.",
                    ("promote", "discard"))
    with editing(bank, path, dry_run, base_version, inbox=no_lifecycle) as (tx, doc):
        status = one_line("status", status)
        declared(bank, "status", status)
        previous = doc.status
        raw = doc.frontmatter.get("status")
        if previous == status and isinstance(raw, str) and raw == status:
            return result(tx, dry_run, warnings, path=doc.path, status=status, previous=previous, changed=False,
                          released=[])
        contract = bank.contract
        if status == "active":
            if contract is not None and contract.requires_derived_from and not doc.derived_from \
                    and not bank.is_root(doc.path):
                raise refuse("derived_from", f"{doc.path} has no derived_from, and the contract requires it for "
                             f"active documents.", "Add upstreams to derived_from first.", see="set_list")
            broken = [e.raw for e in doc.derived_from if not e.external and e.target not in bank.docs]
            if broken:
                raise refuse("derived_from", f"{doc.path} derives from {', '.join(broken)}, which does not exist.",
                             "Fix or remove the edge before activating.", see="set_list")
            owned_elsewhere(bank, doc.canonical_for, mine=[doc.path])
            not_forbidden(doc.canonical_for, doc.must_not_define)
            if doc.is_knowledge and not doc.is_index:
                refuse_incomplete(doc.path, doc.doc_kind, doc.frontmatter)
        released: list[str] = []
        if status == "archived" and doc.canonical_for:
            if not release_canonical:
                raise refuse("canonical_for", f"{doc.path} still owns {', '.join(doc.canonical_for)}.",
                             "Move the keys to their new home first, or pass release_canonical: true to drop them "
                             "in the same write.")
            released = list(doc.canonical_for)
        text = load(tx, doc.path)
        set_scalar(text, "status", status)
        if released:
            remove_key(text, "canonical_for")
        tx.write(doc.path, text.encode())
        return result(tx, dry_run, warnings, path=doc.path, status=status, previous=previous, changed=True,
                      released=released)


def set_field(bank: Bank, path: str, field: str, value: Any, dry_run: bool = False,
              base_version: str | None = None) -> dict[str, Any]:
    """Set one scalar frontmatter value, changing one line (plus index entries and the H1 for title/purpose).

    The line keeps its quoting when YAML reads the new value back unchanged, else the simplest
    quoting that does; a date stays a date. `title` and `purpose` also update the document's
    entries in the indexes listing it where they repeat the old text, and `title` renames the
    `# ` heading when it equals the old title. Returns `{path, field, value, previous, changed, indexes}`.
    """
    warnings: list[str] = []
    with editing(bank, path, dry_run, base_version) as (tx, doc):
        field = frontmatter_key("field", one_line("field", field))
        if field == "status":
            raise refuse("field", "status has its own gates.", "Change it through its own writer.", see="set_status")
        if field in ("doc_kind", "doc_function"):
            raise refuse("field", f"{field} decides what the document is; it is not changed in place.",
                         "Create a new document of the right kind and move the content.")
        if field in LIST_FIELDS:
            raise refuse("field", f"{field} is a list.", "Add or remove items through the list writer.", see="set_list")
        if field in ("template_for", "template_target_path"):
            raise refuse("field", f"{field} belongs to templates.", "Edit the template by hand.")
        if value is None or isinstance(value, (list, dict)):
            raise refuse("value", f"`{field}` needs a scalar value.", "Pass one line of text.")
        limit = {"title": TITLE_MAX, "purpose": PURPOSE_MAX}.get(field, VALUE_MAX)
        value = one_line("value", value if not isinstance(value, bool) else str(value).lower(), limit=limit)
        if field in ENUM_SCALARS:
            declared(bank, field, value)
        current = doc.frontmatter.get(field)
        if isinstance(current, (list, dict)):
            raise refuse("field", f"`{field}` holds a list or mapping in {doc.path}, not a scalar.",
                         "Edit it through the list writer or by hand.", see="set_list")
        previous = text_of(current)
        if previous == value and current is not None:
            return result(tx, dry_run, warnings, path=doc.path, field=field, value=value, previous=previous,
                          changed=False, indexes=[])
        text = load(tx, doc.path)
        stored = set_scalar(text, field, value)
        old_title = doc.title
        if field == "title" and doc.h1 in (old_title, escape_inline(old_title)):
            close = text.frontmatter_close()
            contents = text.contents()
            for level, title, index in scan_headings(contents, close + 1 if close is not None else 0):
                if level == 1:
                    if title in (old_title, escape_inline(old_title)):
                        line = contents[index]
                        lead = line[:len(line) - len(line.lstrip(" "))]
                        text.set_content(index, lead + heading(value))
                    break
        tx.write(doc.path, text.encode())
        indexes: list[str] = []
        if field == "title":
            indexes = update_entries(bank, tx, doc.path, old_title, value, "title")
        elif field == "purpose" and doc.purpose:
            indexes = update_entries(bank, tx, doc.path, doc.purpose, value)
        return result(tx, dry_run, warnings, path=doc.path, field=field, value=text_of(stored), previous=previous,
                      changed=True, indexes=indexes)


def _edge_target(doc_path: str, item: Any) -> str:
    raw = item.get("path") if isinstance(item, dict) else item
    return resolve_from(doc_path, str(raw or ""))[0]


def _remove_items(bank: Bank, doc_path: str, field: str, current: list[Any],
                  removes: list[Any]) -> tuple[list[Any], list[Any]]:
    """`(items left, items removed)`: each wanted item takes the first unremoved match, by lookup.

    derived_from items match as written or by the bank path they resolve to; others by text.
    Lookups keep a large list linear (scanning the list per wanted item was quadratic).
    """
    if not removes:
        return list(current), []
    by_text: dict[str, list[int]] = {}
    by_target: dict[str, list[int]] = {}
    for index, item in enumerate(current):
        if field == "derived_from":
            raw = str(item.get("path") if isinstance(item, dict) else item).strip()
            by_text.setdefault(raw, []).append(index)
            by_target.setdefault(_edge_target(doc_path, item), []).append(index)
        elif text_of(item) is not None:
            by_text.setdefault(text_of(item) or "", []).append(index)
    gone: set[int] = set()
    removed: list[Any] = []
    for wanted in removes:
        wanted_text = str(wanted.get("path") if isinstance(wanted, dict) else wanted)
        candidates = list(by_text.get(wanted_text.strip(), ()))
        if field == "derived_from":
            targets = {resolve_from(doc_path, wanted_text)[0]}
            try:
                targets.add(bank.normalize(wanted_text))
            except BankError:  # an escaping name simply matches nothing
                pass
            for target in targets:
                candidates.extend(by_target.get(target, ()))
        hit = min((i for i in candidates if i not in gone), default=None)
        if hit is None:
            shown = ", ".join(str(i.get("path") if isinstance(i, dict) else i) for i in current[:50]) or "(empty)"
            more = f" and {len(current) - 50:,} more" if len(current) > 50 else ""
            raise refuse(field, f"{wanted_text} is not in {field} of {doc_path} (it holds: {shown}{more}).",
                         "Name an item exactly as listed.")
        gone.add(hit)
        removed.append(current[hit])
    return [item for index, item in enumerate(current) if index not in gone], removed


def _append_new(items: list[Any], candidates: Iterable[tuple[Any, Any]], have: set[Any], warnings: list[str],
                already: str) -> list[tuple[Any, Any]]:
    """Append each candidate `(key, value)` whose key is not in `have` yet; returns those appended.

    A repeat is skipped with a warning (`already` takes the key: "{} is already in derived_from.").
    """
    appended = []
    for key, value in candidates:
        if key in have:
            warnings.append(already.format(key))
            continue
        have.add(key)
        items.append(value)
        appended.append((key, value))
    return appended


def set_list(bank: Bank, path: str, field: str, add: Any = None, remove: Any = None,
             dry_run: bool = False, base_version: str | None = None) -> dict[str, Any]:
    """Add or remove items of derived_from, canonical_for, must_not_define or anchors, gated like create.

    Added edges must resolve (and may not close a cycle when cycles are forbidden); added keys may
    not be owned by another document nor sit in both canonical_for and must_not_define. Removing
    an item that is not there is refused; adding one that is there is a warning. An active
    document may not lose its last edge when the contract requires derived_from.
    Returns `{path, field, items, added, removed, changed}`.
    """
    warnings: list[str] = []
    with editing(bank, path, dry_run, base_version) as (tx, doc):
        field = one_line("field", field)
        if field not in LIST_FIELDS:
            raise refuse("field", f"`{field}` is not a governed list.", f"Use one of: {', '.join(LIST_FIELDS)}.",
                         param="field")
        adds, removes = as_list(add, "add"), as_list(remove, "remove")
        if not adds and not removes:
            raise refuse("items", "nothing to add or remove.", "Pass `{add}` and/or `{remove}` items.",
                         names=("add", "remove"))
        text = load(tx, doc.path)
        raw = read_block(text).get(field)
        current: list[Any] = [] if raw is None else (list(raw) if isinstance(raw, list) else [raw])
        items, removed = _remove_items(bank, doc.path, field, current, removes)
        if field == "derived_from":
            edges = (resolve_edge(bank, doc.path, item, warnings) for item in adds)
            new = _append_new(items, ((target, value) for value, target in edges),
                              {_edge_target(doc.path, i) for i in items}, warnings, "{} is already in derived_from.")
            added = [value for _, value in new]
            no_cycle(bank, doc.path, [target for target, _ in new])
            contract = bank.contract
            if not items and doc.status == "active" and contract is not None and contract.requires_derived_from \
                    and not bank.is_root(doc.path):
                raise refuse("derived_from", f"{doc.path} is active and would have no derived_from left.",
                             "Add its new upstream in the same call, or set it to draft first.")
        else:
            fresh = anchors_list(bank, adds, warnings) if field == "anchors" else keys(field, adds)
            added = [value for _, value in _append_new(items, ((item, item) for item in fresh),
                                                       {text_of(i) for i in items}, warnings,
                                                       f"`{{}}` is already in {field}.")]
            if field == "canonical_for":
                owned_elsewhere(bank, [a for a in added], mine=[doc.path])
                not_forbidden([text_of(i) or "" for i in items], list(doc.must_not_define))
            elif field == "must_not_define":
                not_forbidden(list(doc.canonical_for), [text_of(i) or "" for i in items])
        if added:
            list_cap(field, len(items))
        changed = bool(added or removed)
        if changed:
            write_list(text, field, items)
            tx.write(doc.path, text.encode())
        shown = [i if isinstance(i, dict) else text_of(i) for i in items]
        return result(tx, dry_run, warnings, path=doc.path, field=field, items=shown, added=added,
                      removed=[i if isinstance(i, dict) else text_of(i) for i in removed], changed=changed)


def review(bank: Bank, path: str, dry_run: bool = False, base_version: str | None = None) -> dict[str, Any]:
    """Stamp `reviewed: <today, UTC>` on a document: it was checked against its code and is current.

    One frontmatter line changes (added or replaced); every other byte stays. Drift counts the
    document as current from the later of its last commit and this date, so a reviewed document is
    cleared without inventing a content edit. Returns `{path, reviewed, previous, changed}`.
    """
    from .templates import today

    warnings: list[str] = []
    not_reviewed = ("path", "is an inbox note; it is not reviewed against code.", "Promote it first.", ("promote",))
    with editing(bank, path, dry_run, base_version, inbox=not_reviewed) as (tx, doc):
        current = doc.frontmatter.get("reviewed")
        if isinstance(current, (list, dict)):
            raise refuse("reviewed", f"`reviewed` holds a list or mapping in {doc.path}, not a date.",
                         "Make it one YYYY-MM-DD line by hand, then review again.")
        stamp = today()
        previous = text_of(current)
        if previous == stamp:
            return result(tx, dry_run, warnings, path=doc.path, reviewed=stamp, previous=previous, changed=False)
        if not doc.anchors:
            warnings.append(f"{doc.path} has no anchors, so drift never judges it; the stamp only records the review.")
        text = load(tx, doc.path)
        set_scalar(text, "reviewed", stamp)
        tx.write(doc.path, text.encode())
        return result(tx, dry_run, warnings, path=doc.path, reviewed=stamp, previous=previous, changed=True)
