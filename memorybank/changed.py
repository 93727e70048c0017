"""`bank_changed` (§8.3): which documents were added, modified, deleted or renamed since a ref or date.

Choices the SPEC leaves open:
- `since` that looks like an ISO date (`YYYY-MM-DD`, optionally with a time) is a date, even if a
  branch has that name. A date without a zone is local time. Inside git a date means history: the
  diff from the last commit made before it; outside git (or before any commit) file mtimes.
- Git mode compares the ref with the working tree (`git diff --raw -M REF -- <bank>`), so uncommitted
  and staged edits count, plus untracked, not-ignored files as added. A document moved with a plain
  `mv` (old path deleted, new path untracked) is still reported as renamed when its content is
  unchanged (same blob id).
- Only paths the index would hold count: `.md` files, not under hidden folders, `node_modules`,
  `__pycache__` or `dist`.
- Outside git any ref is refused with the fix (a date, or `git init`); HEAD naming a branch that
  does not exist is refused too, instead of listing everything as added.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

from .bank import SKIP_NAMES, Bank
from .errors import BankError
from .gitutil import (
    GitFailure,
    decode,
    empty_tree,
    git_refused,
    has_commits,
    relative_to_top,
    run_git,
    since_base,
    untracked,
)
from .project import bank_top
from .regexes import compiled

_DATE = compiled(r"^\d{4}-\d{2}-\d{2}(?:[T ].+)?$")
_KINDS = {"A": "added", "M": "modified", "T": "modified", "U": "modified", "D": "deleted", "R": "renamed",
          "C": "added"}


def changed(bank: Bank, since: str) -> dict:
    """What changed in the bank since a git ref or an ISO date (§8.3)."""
    bank.refresh()
    if not isinstance(since, str) or not since.strip():
        raise BankError("`{since}` is empty: give a git ref (HEAD~5, main, v1.2.0) or an ISO date (2026-01-31).",
                        names=("since",))
    since = since.strip()
    top = bank_top(bank)
    if _DATE.match(since):
        if top is None or not has_commits(top):
            return _by_mtime(bank, since)
        return _by_history(bank, top, since)
    # -- issue 19: time words ("last week", "с марта", "上个月", "since v1.2"): timechanged.py --
    from .timewords import HOW, expression
    window = expression(since)
    if window is not None and window.tag != since:
        from .timechanged import changed_in
        return changed_in(bank, window)
    if any(ch.isspace() for ch in since):  # no git ref holds a space
        raise BankError(f"Cannot read since {since[:80]!r} as a git ref or a time. {HOW} A git ref: HEAD~5, main.")
    # -- end issue 19 --
    if top is None:
        raise BankError(f"Cannot compare with {since}: the bank is not inside a git repository, so git refs name "
                        "nothing here. Give an ISO date (e.g. 2026-01-31) to list documents by modification time, "
                        "or put the project under git (`git init`, then commit) to compare with refs.")
    commit, note = since_base(top, since, dates_too=True)
    if commit is None:
        return _everything(bank, since, "git", f"{note}; every document is listed as added.")
    try:
        changes = _git_changes(bank, top, commit)
    except GitFailure as exc:
        raise git_refused(exc) from None
    result: dict = {"since": since, "mode": "git", "changes": changes}
    if note:
        result["note"] = note
    return result


def _entry(bank: Bank, path: str, kind: str, source: str | None = None) -> dict:
    out: dict = {"path": path, "change_kind": kind}
    if source is not None:
        out["from"] = source
    doc = bank.docs.get(path)
    if doc is not None:
        out.update({"title": doc.title, "doc_kind": doc.doc_kind, "layer": doc.layer, "status": doc.status})
    return out


def _moment(since: str) -> _dt.datetime:
    try:
        return _dt.datetime.fromisoformat(since)
    except ValueError:
        raise BankError(f"Not a valid ISO date: {since}. Use YYYY-MM-DD, optionally with a time "
                        "(2026-01-31T14:00:00+00:00).") from None


def _by_history(bank: Bank, top: Path, since: str) -> dict:
    """Inside git a date means history: the changes since the last commit made before it (plus the working tree)."""
    moment = _moment(since).astimezone()  # naive → local time
    try:
        before = decode(run_git(top, "rev-list", "-1", f"--before={moment.isoformat()}", "HEAD")).strip()
        base = before or empty_tree(top)
        changes = _git_changes(bank, top, base)
    except GitFailure as exc:
        raise git_refused(exc) from None
    note = (f"compared with {before[:12]}, the last commit before {since}, plus uncommitted changes." if before
            else f"{since} is before the first commit: everything is listed as added.")
    return {"since": since, "mode": "git", "changes": changes, "note": note}


def _by_mtime(bank: Bank, since: str) -> dict:
    moment = _moment(since)
    threshold_ns = int(moment.timestamp() * 1_000_000_000)  # naive → local time
    changes = [_entry(bank, p, "modified") for p in bank.paths if bank.docs[p].mtime_ns >= threshold_ns]
    return {"since": since, "mode": "mtime", "changes": changes,
            "note": "Date mode compares file modification times: it cannot see deleted documents, and a new "
                    "document shows as modified. Give a git ref for the full picture."}


def _everything(bank: Bank, since: str, mode: str, note: str) -> dict:
    return {"since": since, "mode": mode, "changes": [_entry(bank, p, "added") for p in bank.paths], "note": note}


def _indexable(path: str) -> bool:
    """Whether the index would hold a document at this bank-relative path (§2.1 walk rules)."""
    if not path.endswith(".md"):
        return False
    return not any(part.startswith(".") or part in SKIP_NAMES for part in path.split("/"))


def _git_changes(bank: Bank, top: Path, commit: str) -> list[dict]:
    bank_rel = relative_to_top(top, bank.root)
    prefix = bank_rel + "/" if bank_rel else ""
    spec = f":(top,literal){bank_rel}" if bank_rel else ":(top)"
    raw = run_git(top, "diff", "--raw", "-z", "-M", "--no-abbrev", "--no-relative", "--no-color", "--no-ext-diff",
                  commit, "--", spec)

    def local(path: str) -> str | None:
        if prefix and not path.startswith(prefix):
            return None
        rel = path[len(prefix):]
        return rel if _indexable(rel) else None

    found: dict[str, dict] = {}
    deleted_blobs: dict[str, str] = {}  # blob id -> deleted path
    fields = raw.split(b"\0")
    i = 0
    while i < len(fields) - 1:
        header = decode(fields[i])
        if not header.startswith(":"):
            i += 1
            continue
        parts = header[1:].split()
        status = parts[4][:1] if len(parts) >= 5 else "M"
        if status in ("R", "C"):
            old, new = local(decode(fields[i + 1])), local(decode(fields[i + 2]))
            i += 3
            if status == "R" and old and new:
                found[new] = _entry(bank, new, "renamed", old)
                continue
            if old and status == "R":
                found[old] = _entry(bank, old, "deleted")
            if new:
                found[new] = _entry(bank, new, "added")
            continue
        path = local(decode(fields[i + 1]))
        i += 2
        if path is None:
            continue
        kind = _KINDS.get(status, "modified")
        found[path] = _entry(bank, path, kind)
        if kind == "deleted":
            deleted_blobs.setdefault(parts[2], path)

    try:
        fresh = [p for p in (local(u) for u in untracked(top, bank_rel)) if p and p not in found]
    except GitFailure:
        fresh = []
    moved = _match_moves(top, prefix, fresh, deleted_blobs) if deleted_blobs and fresh else {}
    for path in fresh:
        source = moved.get(path)
        if source is not None:
            found.pop(source, None)
            found[path] = _entry(bank, path, "renamed", source)
        else:
            found[path] = _entry(bank, path, "added")
    return [found[p] for p in sorted(found)]


def _match_moves(top: Path, prefix: str, fresh: list[str], deleted_blobs: dict[str, str]) -> dict[str, str]:
    """Pair untracked files with deleted ones of identical content: `{new path: old path}`."""
    try:
        out = run_git(top, "hash-object", "--", *(prefix + p for p in fresh))
    except GitFailure:
        return {}
    moved: dict[str, str] = {}
    for path, blob in zip(fresh, decode(out).split()):
        source = deleted_blobs.pop(blob, None)
        if source is not None:
            moved[path] = source
    return moved
