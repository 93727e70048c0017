"""`bank_drift` (§8.2): has the code a document describes moved on since the document was last committed?

Dates come from one streamed `git log --name-only --no-renames` over the whole history with no
pathspec (a long pathspec makes git test every path of every commit against every spec — ~40×
slower); paths are filtered in Python and git is killed as soon as every wanted path has been
seen. Only paths present in HEAD are waited for, so a never-committed path cannot force a walk of
the whole history.

Choices the SPEC leaves open:
- Dates are committer dates (when a change landed), reported as UTC ISO dates; `ahead_days` is the
  whole number of days the code's last commit is ahead of the document's, and a document drifts when
  `ahead_days > threshold_days`.
- Committed history dates both sides, and the change being made counts too: an anchored file that
  is staged, modified or untracked counts as changed now, so a pre-commit check fails on the commit
  that causes the drift (naming the files in `uncommitted`); a document edited in the working tree
  counts as current now. A document is current from the later of its last commit and its
  `reviewed: YYYY-MM-DD` date (the end of that day, UTC): `review` clears drift without a content
  edit. A document that has never been committed is not judged, and the note says how many were
  skipped for that reason.
- One drift entry per document, naming the anchor with the newest code; one `missing` entry per
  anchor that no longer exists (including anchors that leave the repository).
- Templates and `_inbox/` notes are not judged (their anchors are placeholders or unreviewed).
- Anchors are relative to the git top-level. Globs are not expanded: an anchor is a file or a folder.
"""

from __future__ import annotations

import datetime as _dt
import os
import posixpath
from pathlib import Path

from .bank import Bank
from .errors import BankError
from .gitutil import (
    GitFailure,
    git_available,
    git_refused,
    has_commits,
    is_shallow,
    relative_to_top,
    run_git,
    since_base,
    split_z,
    stream_git,
    untracked,
)
from .project import bank_top
from .records import Doc

HOW_TO_ANCHOR = ("Add `anchors:` to a document's frontmatter: a list of code paths relative to the repository "
                 "top, files or folders, e.g. `anchors: [src/billing/, src/api/invoice.py]`.")
_DAY = 86400


def drift(bank: Bank, threshold_days: int = 90, scope: str | None = None, files: list[str] | None = None,
          changed_since: str | None = None) -> dict:
    """Compare each anchored document's last commit with its code's last commit (§8.2).

    With `files` (code paths, repo-relative) or `changed_since` (a git ref: the files of
    `git diff --name-only REF` plus untracked ones) it runs in reverse: the documents whose anchors
    cover those files. `scope` keeps documents under one bank folder.
    """
    bank.refresh()
    if isinstance(threshold_days, bool) or not isinstance(threshold_days, int) or threshold_days < 0:
        raise BankError(f"threshold_days must be a whole number of days, 0 or more (got {threshold_days!r}).")
    scope_path = bank.scope(scope)
    docs = [d for d in (bank.docs[p] for p in bank.paths) if d.is_knowledge and bank.in_scope(d.path, scope_path)]
    anchored = [d for d in docs if d.anchors]
    top = bank_top(bank)
    if files is not None or changed_since is not None:
        return _reverse(bank, top, anchored, len(docs) - len(anchored), files, changed_since)

    result: dict = {"mode": "none", "threshold_days": threshold_days, "anchored": len(anchored),
                    "unanchored": len(docs) - len(anchored), "drifted": [], "missing": []}
    if top is None:
        why = "The bank is not inside a git repository" if git_available() else "git is not installed"
        result["note"] = f"{why}, so there is no history to compare: drift needs git history." + (
            "" if anchored else " It also needs documents with anchors. " + HOW_TO_ANCHOR)
        return result
    if not anchored:
        where = f" under {scope_path}" if scope_path else ""
        result["note"] = f"No document{where} lists code in `anchors:`, so nothing can drift. " + HOW_TO_ANCHOR
        return result
    result["mode"] = "git"

    bank_rel = relative_to_top(top, bank.root)
    doc_key = {d.path: posixpath.join(bank_rel, d.path) if bank_rel else d.path for d in anchored}
    anchors: dict[str, str | None] = {}  # anchor as written -> repo-relative path, None if it leaves the repo
    kinds: dict[str, str] = {}  # repo-relative anchor -> "file" | "dir" | "missing"
    for doc in anchored:
        for raw in doc.anchors:
            if raw in anchors:
                continue
            rel = repo_path(top, raw)
            anchors[raw] = rel
            if rel is not None and rel not in kinds:
                full = top / rel
                kinds[rel] = "dir" if full.is_dir() else "file" if os.path.lexists(full) else "missing"

    files_wanted = set(doc_key.values()) | {p for p, k in kinds.items() if k == "file"}
    dirs_wanted = {p for p, k in kinds.items() if k == "dir"}
    try:
        dates = _last_commits(top, files_wanted, dirs_wanted)
        pending = working_changes(top)
    except GitFailure as exc:
        raise git_refused(exc) from None
    now = int(_dt.datetime.now(_dt.timezone.utc).timestamp())

    drifted, missing, uncommitted = [], [], 0
    for doc in anchored:
        doc_time = dates.get(doc_key[doc.path])
        if doc_time is not None and doc_key[doc.path] in pending:
            doc_time = now  # the document is being edited along with the code
        elif doc_time is not None:
            doc_time = max(doc_time, reviewed_time(doc) or 0)
        best: tuple[int, str, int, list[str]] | None = None  # (code time, anchor, gap, files changed now)
        for raw in doc.anchors:
            rel = anchors[raw]
            if rel is None or kinds[rel] == "missing":
                missing.append({"path": doc.path, "title": doc.title, "anchor": raw})
                continue
            touched = sorted(p for p in pending if _covers(rel, p) and p != doc_key[doc.path])
            code_time = now if touched else dates.get(rel)
            if code_time is None or doc_time is None:
                continue
            if best is None or code_time > best[0]:
                best = (code_time, raw, code_time - doc_time, touched)
        if doc_time is None:
            uncommitted += 1
            continue
        if best is not None and best[2] // _DAY > threshold_days:
            entry = {"path": doc.path, "title": doc.title, "status": doc.status, "anchor": best[1],
                     "doc_touched": _iso(doc_time), "code_touched": _iso(best[0]), "ahead_days": best[2] // _DAY}
            if best[3]:
                entry["uncommitted"] = best[3][:20]
            drifted.append(entry)
    drifted.sort(key=lambda d: (-d["ahead_days"], d["path"], d["anchor"]))
    missing.sort(key=lambda m: (m["path"], m["anchor"]))
    result["drifted"], result["missing"] = drifted, missing
    notes = []
    if uncommitted:
        notes.append(f"{uncommitted} anchored document(s) have no commit yet and were not judged; "
                     "drift compares committed dates only.")
    if is_shallow(top):
        notes.append("This clone is shallow: history before its cut is missing, so older code changes cannot "
                     "be dated and drift may be missed. Run `git fetch --unshallow` for a full answer.")
    if notes:
        result["note"] = " ".join(notes)
    return result


def working_changes(top: Path) -> set[str]:
    """Files (repo-relative) staged, modified or untracked now: the change being made counts as changed now."""
    if not has_commits(top):
        return set(untracked(top))
    changed = split_z(run_git(top, "diff", "--name-only", "--no-relative", "--no-color", "--no-ext-diff", "-z",
                              "HEAD", "--"))
    return set(changed) | set(untracked(top))


def reviewed_time(doc: Doc) -> int | None:
    """The end (UTC) of the day in the document's `reviewed:` field, or None when it has no valid one.

    A date after today is not valid: nobody reviewed in the future, and `reviewed: 2099-01-01` (a
    typo for 2019, or a way to mute the check) would otherwise keep the document current for ever.
    """
    value = doc.frontmatter.get("reviewed")
    if isinstance(value, _dt.datetime):
        value = value.date()
    if isinstance(value, str):
        try:
            value = _dt.date.fromisoformat(value.strip())
        except ValueError:
            return None
    if not isinstance(value, _dt.date) or value > _dt.datetime.now(_dt.timezone.utc).date():
        return None
    end = _dt.datetime.combine(value, _dt.time(23, 59, 59), _dt.timezone.utc)
    return int(end.timestamp())


def repo_path(top: Path, raw: str) -> str | None:
    """An anchor as a repo-relative POSIX path (trailing `/` dropped), or None if it leaves the repo."""
    text = raw.strip().replace("\\", "/")
    if os.path.isabs(text):
        real_top = os.path.realpath(top)
        text = os.path.normpath(text)
        if text != real_top and not text.startswith(real_top.rstrip("/") + "/"):
            return None
        text = os.path.relpath(text, real_top).replace(os.sep, "/")
    while text.startswith("./"):
        text = text[2:]
    norm = posixpath.normpath(text) if text else "."
    if norm == ".." or norm.startswith("../"):
        return None
    return "" if norm == "." else norm


def _tracked(top: Path) -> set[str] | None:
    """Every file in HEAD (repo-relative), or None when there is no commit yet."""
    try:
        return set(split_z(run_git(top, "ls-tree", "-r", "--name-only", "-z", "--full-tree", "HEAD")))
    except GitFailure:
        if not has_commits(top):
            return None
        raise


def _last_commits(top: Path, files: set[str], dirs: set[str]) -> dict[str, int]:
    """Last commit time (unix seconds) of each wanted file and folder, from one early-stopping log walk.

    Only paths present in HEAD are looked for (and so get a date): each must appear in history, so
    the walk stops as soon as the newest commit of every one has been seen, and a never-committed
    path cannot force a walk of the whole history. A folder takes its newest file; `""` is the whole
    repository. git starts streaming while HEAD's file list is read, and paths are matched as bytes
    so nothing is decoded per line.
    """
    found: dict[str, int] = {}
    # the --no-* flags keep user config (colour, signatures, external diff) from changing the stream
    args = ("log", "-z", "--format=%x1e%ct", "--name-only", "--no-renames", "--no-decorate", "--no-color",
            "--no-show-signature", "--no-ext-diff", "HEAD")
    with stream_git(top, *args) as chunks:
        tracked = _tracked(top)
        if not tracked:  # no commit yet, or an empty tree
            return found
        want_files = {p.encode(): p for p in files if p in tracked}
        held: set[str] = set()
        folders = {p for p in dirs if p}
        if folders:
            for path in tracked:
                slash = path.rfind("/")
                while slash > 0:
                    if path[:slash] in folders:
                        held.add(path[:slash])
                    slash = path.rfind("/", 0, slash)
        want_dirs = {p.encode(): p for p in held}
        whole_repo = "" in dirs
        files_left, dirs_left = len(want_files), len(want_dirs)
        when = 0
        tail = b""
        for chunk in chunks:
            fields = (tail + chunk).split(b"\0")
            tail = fields.pop()
            for field in fields:
                head = field[:1]
                if head == b"\x1e":
                    when = int(field[1:])
                    continue
                if head == b"\n":
                    field = field[1:]
                if whole_repo:
                    found[""] = when
                    whole_repo = False
                name = want_files.get(field)
                if name is not None and name not in found:
                    found[name] = when
                    files_left -= 1
                if dirs_left:  # folders are usually all seen early; then this is skipped
                    slash = field.rfind(b"/")
                    while slash > 0:
                        name = want_dirs.get(field[:slash])
                        if name is not None and name not in found:
                            found[name] = when
                            dirs_left -= 1
                        slash = field.rfind(b"/", 0, slash)
            if not (files_left or dirs_left or whole_repo):
                break
    return found


def _iso(seconds: int) -> str:
    return _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc).date().isoformat()


def changed_files(top: Path, ref: str, notes: list[str] | None = None) -> list[str]:
    """Code files changed since `ref`: `git diff --name-only REF` (tracked, working tree) plus untracked.

    `ref` resolves as for `changed` (`since_base`): a walk past the first commit compares with the
    root commit, and the reason is appended to `notes`.
    """
    commit, note = since_base(top, ref)
    if note and notes is not None:
        notes.append(note + ("" if commit else "; only untracked files are listed."))
    if commit is None:
        return sorted(untracked(top))
    changed = split_z(run_git(top, "diff", "--name-only", "--no-relative", "--no-color", "--no-ext-diff", "-z",
                              commit, "--"))
    return sorted(set(changed) | set(untracked(top)))


def _reverse(bank: Bank, top: Path | None, anchored: list[Doc], unanchored: int, files: list[str] | None,
             changed_since: str | None) -> dict:
    """Documents whose anchors cover the given code files — "docs to review for this diff"."""
    wanted: list[str] = []
    notes: list[str] = []
    if changed_since is not None:
        if top is None:
            raise BankError(f"Cannot list files changed since {changed_since}: the bank is not inside a git "
                            "repository. Pass the code files instead (`{files}`).", names=("files",))
        try:
            wanted += changed_files(top, changed_since, notes)
        except GitFailure as exc:
            raise git_refused(exc) from None
    base = top if top is not None else Path(os.path.realpath(bank.root)).parent  # the project folder
    for raw in files or ():
        if not isinstance(raw, str) or not raw.strip():
            continue
        rel = repo_path(base, raw)
        if rel is not None:
            wanted.append(rel)
    wanted = sorted(set(wanted))
    documents = []
    for doc in anchored:
        hits_anchor, hits_file = [], set()
        for raw in doc.anchors:
            anchor = repo_path(base, raw)
            if anchor is None:
                continue
            covered = [f for f in wanted if _covers(anchor, f)]
            if covered:
                hits_anchor.append(raw)
                hits_file.update(covered)
        if hits_anchor:
            documents.append({"path": doc.path, "title": doc.title, "status": doc.status,
                              "anchors": hits_anchor, "files": sorted(hits_file)})
    result: dict = {"mode": "reverse", "files": wanted, "anchored": len(anchored), "unanchored": unanchored,
                    "documents": documents}
    if not anchored:
        notes.append("No document lists code in `anchors:`, so no document can cover these files. " + HOW_TO_ANCHOR)
    if notes:
        result["note"] = " ".join(notes)
    return result


def _covers(anchor: str, path: str) -> bool:
    """An anchor covers a file at or under it (and a folder that contains the anchor)."""
    if anchor in ("", ".") or path == anchor:
        return True
    return path.startswith(anchor + "/") or anchor.startswith(path + "/")
