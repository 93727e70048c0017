"""Gates shared by the writers (§10): inputs, paths, edges, ownership, the contract, near-duplicates.

Each gate either returns quietly, appends to `warnings`, or raises `BankError` naming the gate and
the fix. Writers call them in the order §10.1 lists.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..bank import SKIP_NAMES, Bank
from ..confined import collision_refusal, name_collision
from ..drift import repo_path
from ..errors import BankError
from ..lang import Lexicon, lexicon_for
from ..limits import KEY_MAX, LIST_MAX, VALUE_MAX
from ..paths import PATH_MAX, resolve_from
from ..project import bank_top
from ..records import Doc

LIST_FIELDS = ("derived_from", "canonical_for", "must_not_define", "anchors")
SIMILAR = 0.9
_UNSAFE_NAME = re.compile(r"[\s()\[\]<>|]")
_KEY = re.compile(r"[A-Za-z_][\w-]*")
_BREAKS = {"\u0085": "U+0085 (NEXT LINE)", "\u2028": "U+2028 (LINE SEPARATOR)",
           "\u2029": "U+2029 (PARAGRAPH SEPARATOR)"}


def refuse(gate: str, reason: str, fix: str, see: str | tuple[str, ...] = (), param: str | None = None,
           names: tuple[str, ...] = ()) -> BankError:
    """A writer's refusal: the gate, the reason and the fix; `see`, `param` and `names` as in `BankError`."""
    return BankError(f"Refused ({gate}): {reason} {fix}", see=see, param=param, names=names)


def no_nul(name: str, text: str, gate: str | None = None) -> str:
    """Refuse text holding a NUL character: every reader would take the file for binary (a parse error)."""
    if "\x00" in text:
        raise refuse(gate or name, f"`{name}` contains a NUL character, which would make the file read as binary.",
                     "Remove the NUL character.")
    return text


def one_line(name: str, value: Any, gate: str | None = None, limit: int = VALUE_MAX) -> str:
    """A required single-line text input, trimmed; refuses blank, multi-line and over-long values and NUL.

    The value may reach a markdown body (index entries repeat titles and purposes), where YAML
    escaping does not protect it. U+0085, U+2028 and U+2029 count as line breaks (YAML's own).
    `limit` caps its length in characters (every one-line field has a bound, see limits.py).
    """
    text = "" if value is None else str(value).strip()
    if not text:
        raise refuse(gate or name, f"`{name}` is empty.", f"Give a one-line {name}.")
    if len(text) > limit:
        raise refuse(gate or name, f"`{name}` is {len(text):,} characters, over the {limit:,}-character limit.",
                     f"Shorten `{name}` to at most {limit:,} characters; put details in the body.")
    if "\n" in text or "\r" in text:
        raise refuse(gate or name, f"`{name}` spans several lines.", f"Give `{name}` as one line.")
    for char, label in _BREAKS.items():
        if char in text:
            raise refuse(gate or name, f"`{name}` contains {label}, which YAML and editors read as a line break.",
                         f"Replace it with a space to give `{name}` as one line.")
    return no_nul(name, text, gate)


def frontmatter_key(name: str, key: Any) -> str:
    """A frontmatter key the caller names: letters, digits, `_` or `-`, an ASCII letter or `_` first.

    Anything else (`---`, `a: b`, `#x`) would break or reshape the YAML block when written as
    `key: value`. The first character is ASCII because the header line editor finds keys that way.
    """
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise refuse(name, f"{key!r} is not a plain frontmatter key.",
                     "Use letters, digits, `_` or `-`, starting with a letter or `_` (e.g. `owner`).")
    return key


def as_list(value: Any, name: str) -> list[Any]:
    """A list parameter: None → [], a string → one item (the CLI may pass `a,b` already split).

    More than `LIST_MAX` items are refused before any item is looked at.
    """
    if value is None:
        return []
    if isinstance(value, (str, dict)):
        return [value]
    if isinstance(value, (list, tuple)):
        list_cap(name, len(value))
        return list(value)
    raise refuse(name, f"`{name}` must be a list.", f"Pass `{name}` as a list of strings.")


def list_cap(name: str, count: int) -> None:
    """Refuse a governed list (or a list parameter) of more than `LIST_MAX` items (named by `name`)."""
    if count > LIST_MAX:
        raise refuse(name, f"`{name}` has {count:,} items, over the {LIST_MAX:,}-item limit of a list.",
                     f"Keep a list to at most {LIST_MAX:,} items; split the document if it needs more.")


def new_path(bank: Bank, raw: str, ignore: str | None = None) -> str:
    """Gate for a new document's path: `.md`, inside the bank, visible to the index, nothing there yet.

    `ignore` is the document being moved: on a case-insensitive file system its case-only rename
    finds itself at the new path, which is not a collision.
    """
    text = str(raw or "").strip()
    if not text.endswith(".md"):
        raise refuse("path", f"{raw!r} does not end in `.md`.", "Give a markdown file path such as `adr/ADR-002.md`.")
    path = bank.normalize(text)
    parts = path.split("/")
    if any(p.startswith(".") or p in SKIP_NAMES for p in parts):
        raise refuse("path", f"{path} has a hidden or skipped folder, so the bank would never see it.",
                     "Choose a path without `.`-names, node_modules, __pycache__ or dist.")
    hidden = bank.ignored_folder(path)
    if hidden is not None:  # the walk skips folders git ignores (a `lib/` or `build/` line in .gitignore)
        raise refuse("path", f"git ignores the folder {hidden}, so the bank would never see {path} and git would "
                     "never commit it.", "Choose another folder, or un-ignore it in .gitignore (`!<folder>/`).")
    if _UNSAFE_NAME.search(path):
        raise refuse("path", f"{path} has spaces, brackets, parentheses or `|`, which index links cannot carry.",
                     "Use hyphens instead, e.g. `adr/ADR-002-cache-policy.md`.")
    target = bank.root / path
    if path in bank.docs or ((target.exists() or target.is_symlink()) and not _itself(bank, target, ignore)):
        raise refuse("path", f"something already exists at {path}.",
                     "Pick another path, or change the existing document instead.", see=("edit", "update_section"))
    for i in range(1, len(parts)):
        prefix = bank.root.joinpath(*parts[:i])
        if prefix.exists() and not prefix.is_dir():
            raise refuse("path", f"{'/'.join(parts[:i])} is a file, not a folder.", "Choose another folder.")
    check_name_collision(bank, path, ignore=ignore)
    return path


def _itself(bank: Bank, target: Path, ignore: str | None) -> bool:
    """True when `target` is the file `ignore` names under another spelling (a case-insensitive file system)."""
    if ignore is None or ignore == target.relative_to(bank.root).as_posix():
        return False
    try:
        return os.path.samefile(target, bank.root / ignore)
    except OSError:
        return False


def check_name_collision(bank: Bank, rel_path: str, ignore: str | None = None) -> None:
    """Refuse a new path that names an existing file or folder differently only by Unicode form or case.

    `domain/café.md` in NFD beside the NFC one, or `readme.md` beside `README.md`, are two files on
    Linux but one on macOS and Windows checkouts. `ignore` is the path being moved (a case-only rename
    is fine). Every commit checks its new files again (`Transaction`), so init and materialize too.
    """
    existing = name_collision(bank.root, rel_path, ignore)
    if existing is not None:
        raise collision_refusal(rel_path, existing)


def anchors_list(bank: Bank, items: list[Any], warnings: list[str]) -> list[str]:
    """Anchors as one-line repo-relative paths (`\\` → `/`, `./` dropped, de-duplicated in order).

    Read the way drift reads them (relative to the git top): one that climbs out of the repository
    is a warning, not a refusal (drift reports it as missing, delivery never scopes to it), and so
    is an absolute one, which delivery reports as missing. The git top is only asked for when an
    anchor is absolute.
    """
    out = []
    seen: set[str] = set()
    top: Path | None = None
    for item in items:
        anchor = one_line("anchors item", item, "anchors", limit=PATH_MAX).replace("\\", "/")
        while anchor.startswith("./"):
            anchor = anchor[2:]
        if anchor in seen:
            continue
        seen.add(anchor)
        out.append(anchor)
        if os.path.isabs(anchor):
            top = top or bank_top(bank)
            rel = repo_path(top, anchor) if top is not None else None
            if top is None:
                warnings.append(f"anchor {anchor} is absolute: delivery reports it as missing. Give it relative to "
                                "the repository top.")
            elif rel is None:
                warnings.append(f"anchor {anchor} is outside the repository: drift and delivery report it as missing. "
                                "Give a path relative to the repository top, e.g. `src/billing/`.")
            else:
                warnings.append(f"anchor {anchor} is absolute: delivery reports it as missing. Give it relative to "
                                f"the repository top: `{rel or '.'}`.")
        elif repo_path(Path("."), anchor) is None:
            warnings.append(f"anchor {anchor} leaves the repository: drift reports it as missing and delivery never "
                            "scopes to it. Give a path relative to the repository top, e.g. `src/billing/`.")
    return out


def resolve_edge(bank: Bank, doc_path: str, item: Any, warnings: list[str]) -> tuple[Any, str]:
    """Check one derived_from item for a document at `doc_path`; returns `(item to store, target)`.

    The path is read relative to the document's folder (how the bank stores it); if nothing is
    there but a document exists at it as a bank-root path, it is rewritten relative to the folder.
    An edge leaving the bank is external (a warning, stored as given). An edge to an `_inbox/`
    note is refused, from notes too: the note's promote or discard would break it.
    """
    fit = None
    if isinstance(item, dict):
        raw, fit = item.get("path"), item.get("fit")
    else:
        raw = item
    raw = str(raw or "").strip().replace("\\", "/")
    if not raw:
        raise refuse("derived_from", "an item is empty.", "Give each upstream as a path to an existing document.")
    folder = posixpath.dirname(doc_path)
    target, external = resolve_from(doc_path, raw)
    stored = raw
    if external:
        warnings.append(f"derived_from {raw} leaves the bank (external); it is not checked.")
    elif raw.startswith("/") and target in bank.docs:
        stored = posixpath.relpath(target, folder or ".")  # a root-relative `/x.md` is stored like every edge
    elif target not in bank.docs:
        try:
            rooted = bank.normalize(raw)
        except BankError:
            rooted = None
        if rooted in bank.docs:
            target = rooted
            stored = posixpath.relpath(rooted, folder or ".")
        else:
            raise refuse("derived_from", f"{raw} does not resolve to a document (looked for {target} relative to "
                         f"{doc_path}, and for {rooted or raw} from the bank root).",
                         "Create the upstream document first, or fix the path (routing finds documents).", see="route")
    if target == doc_path:
        raise refuse("derived_from", f"{doc_path} cannot derive from itself.", "Name its upstream documents instead.")
    if target.startswith("_inbox/"):  # a note is promoted (moved) or discarded (deleted): the edge would break
        raise refuse("derived_from", f"{target} is an inbox note, and notes are quarantined: promoting or discarding "
                     f"it would leave the edge pointing nowhere.", "Promote the note first, then derive from its new "
                     "path.", see="promote")
    if fit is not None and str(fit).strip():
        return {"path": stored, "fit": str(fit).strip()}, target
    return stored, target


def resolve_edges(bank: Bank, doc_path: str, items: Iterable[Any], warnings: list[str]) -> tuple[list[Any], list[str]]:
    """Check every derived_from item; duplicates (same target) are dropped with a warning."""
    stored: list[Any] = []
    targets: list[str] = []
    for item in items:
        value, target = resolve_edge(bank, doc_path, item, warnings)
        if target in targets:
            warnings.append(f"derived_from lists {target} twice; kept once.")
            continue
        stored.append(value)
        targets.append(target)
    return stored, targets


def keys(name: str, items: Iterable[Any]) -> list[str]:
    """Canonical / must-not-define keys: one-line strings, de-duplicated in order."""
    out: list[str] = []
    seen: set[str] = set()
    for item in items:
        key = one_line(f"{name} item", item, name, limit=KEY_MAX)
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


def owned_elsewhere(bank: Bank, canonical: Sequence[str], mine: Iterable[str] = ()) -> None:
    """Refuse a canonical_for key another document owns (documents in `mine` are not others)."""
    mine = set(mine)
    for key in canonical:
        others = [p for p in bank.owners.get(key, []) if p not in mine]
        if others:
            raise refuse("canonical_for", f'key "{key}" is already owned by {others[0]}. One fact, one home.',
                         f"Derive from {others[0]} instead, or move the key there first.", see="set_list")


def not_forbidden(canonical: Sequence[str], must_not: Sequence[str]) -> None:
    both = [k for k in canonical if k in must_not]
    if both:
        raise refuse("must_not_define", f'key "{both[0]}" is both in canonical_for and must_not_define.',
                     "Keep it in one of the two lists.")


def requires_edges(bank: Bank, doc_path: str, status: str, edges: Sequence[Any], warnings: list[str]) -> None:
    """The contract's derived_from rule: active without edges is refused; otherwise a warning."""
    contract = bank.contract
    if contract is None or not contract.requires_derived_from or edges or bank.is_root(doc_path):
        return
    if status == "active":
        raise refuse("derived_from", f"the bank's contract says every active document must define derived_from, "
                     f"and {doc_path} has none.", "Pass derived_from (its upstream documents), or use status draft.")
    warnings.append(f"{doc_path} has no derived_from; the contract requires it before the document becomes active.")


def enum_warnings(bank: Bank, values: dict[str, Any], warnings: list[str]) -> None:
    """Undeclared enum values are warnings (the contract is open); degraded banks skip the check."""
    contract = bank.contract
    if contract is None:
        return
    for name, value in values.items():
        allowed = contract.allowed(name)
        if value is not None and allowed and str(value) not in allowed:
            warnings.append(f"{name} `{value}` is not declared in dna/ (declared: {', '.join(sorted(allowed))}).")


def declared(bank: Bank, name: str, value: str) -> None:
    """Refuse an enum value dna/ does not declare (when it declares any)."""
    contract = bank.contract
    allowed = contract.allowed(name) if contract is not None else frozenset()
    if allowed and value not in allowed:
        raise refuse(name, f"`{value}` is not a declared {name}.", f"Use one of: {', '.join(sorted(allowed))}.",
                     param=name)


def reaches(bank: Bank, start: Iterable[str], goal: str) -> list[str] | None:
    """A derived_from path from any of `start` to `goal` (the cycle a new edge would close), or None."""
    parents: dict[str, str | None] = {s: None for s in start}
    queue = list(parents)
    while queue:
        node = queue.pop(0)
        if node == goal:
            chain = [node]
            while parents[chain[-1]] is not None:
                chain.append(parents[chain[-1]])  # type: ignore[arg-type]
            return list(reversed(chain))
        doc = bank.docs.get(node)
        if doc is None:
            continue
        for edge in doc.derived_from:
            if not edge.external and edge.target not in parents:
                parents[edge.target] = node
                queue.append(edge.target)
    return None


def no_cycle(bank: Bank, doc_path: str, targets: Sequence[str]) -> None:
    """When the contract forbids cycles, refuse edges that lead back to the document."""
    contract = bank.contract
    if contract is None or not contract.forbids_cycles:
        return
    for target in targets:
        chain = reaches(bank, [target], doc_path)
        if chain:
            loop = " -> ".join([doc_path, *chain])
            raise refuse("derived_from", f"adding {target} would close a cycle: {loop}. Cycles are forbidden.",
                         "Derive from a document further upstream instead.")


def at_version(doc: Doc, given: str | None) -> None:
    """The conditional write (like HTTP If-Match): refuse when the document is no longer the version read."""
    if given is None:
        return
    want = str(given).strip()
    if not re.fullmatch(r"[0-9a-f]{12}", want):
        shown = repr(want[:40] + ("…" if len(want) > 40 else ""))
        raise refuse("base_version", f"{shown} is not a version: a version is the 12 hex characters a read "
                     f"gives; nothing was written.", f"Pass {doc.path}'s version from a read (now {doc.version}), "
                     "or leave `{base_version}` out.", see="read", names=("base_version",))
    if want != doc.version:
        raise refuse("base_version", f"{doc.path} is now version {doc.version}, not {want}: it changed since that "
                     "read; nothing was written.", f"Read it again, redo the change on the new text and "
                     f"pass `{{base_version}}` {doc.version}.", see="read", names=("base_version",))


def template_guard(doc: Doc) -> None:
    if doc.is_template:
        raise refuse("template", f"{doc.path} is a template; templates are never edited through the writers.",
                     "Edit the template file by hand, or create a document from it.", see="create")


def _tokens(lexicon: Lexicon, text: str | None) -> frozenset[str]:
    """Content terms of a title or purpose, by the same tokenizer routing uses (stems, segmentation)."""
    return frozenset(term for term, _, _ in lexicon.route_terms(text)) if text else frozenset()


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return False
    return len(a & b) / len(a | b) >= SIMILAR


def near_duplicates(bank: Bank, title: str, purpose: str, exclude: Iterable[str] = ()) -> list[str]:
    """Non-archived documents whose title or purpose is nearly the same (token-set Jaccard ≥ 0.9).

    Token sets are cached per document and refreshed only for documents whose file changed.
    """
    lexicon = lexicon_for(bank)
    held = bank.cache.get("write.tokens")
    if not isinstance(held, tuple) or held[0] is not lexicon:  # a vocabulary change re-tokenises
        held = bank.cache["write.tokens"] = (lexicon, {})
    cache: dict[str, tuple[int, frozenset[str], frozenset[str]]] = held[1]
    for gone in [p for p in cache if p not in bank.docs]:
        del cache[gone]
    skip = set(exclude)
    want_title, want_purpose = _tokens(lexicon, title), _tokens(lexicon, purpose)
    found = []
    for path in bank.paths:
        doc = bank.docs[path]
        if path in skip or doc.is_template or doc.in_inbox or doc.status == "archived":
            continue
        entry = cache.get(path)
        if entry is None or entry[0] != doc.mtime_ns:
            entry = cache[path] = (doc.mtime_ns, _tokens(lexicon, doc.title), _tokens(lexicon, doc.purpose))
        if _similar(want_title, entry[1]) or _similar(want_purpose, entry[2]):
            found.append(path)
    return found
