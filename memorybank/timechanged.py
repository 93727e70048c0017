"""What changed in a window of days (issue 19): `bank_changed "last week"` and time-only route questions.

A window open towards today ("since March", "this week", "recently") is `bank_changed` since its
first day: the diff from the last commit before it, plus the working tree (`changed._by_history`).
A window that ended before today ("last week", "yesterday", "in March 2026") lists the documents
that commits inside it touched: one `git log --name-status` over the bank folder, with git told to
stop a little before the first day; a document's kind over the window is `added` when its first
change in it added it, `deleted` when its last one deleted it, else `modified`. Days are the
committer's calendar dates, as for document times (`doctime`). "Since a tag" is `bank_changed`
since that tag; "since the last release" is since the newest tag reachable from HEAD. Outside git,
file modification dates in the window.
"""

from __future__ import annotations

import datetime as _dt

from .bank import Bank
from .changed import _by_history, _by_mtime, _entry, _indexable
from .errors import BankError
from .gitutil import GitFailure, decode, git_refused, has_commits, relative_to_top, run_git, stream_git
from .project import bank_top
from .timewords import LAST_RELEASE, Window, today

SLACK = _dt.timedelta(days=2)  # committer dates vs git's --since (local time): ask a little wider, filter exactly


def last_release(bank: Bank) -> str | None:
    """The newest tag reachable from HEAD (`git describe --tags --abbrev=0`), or None."""
    top = bank_top(bank)
    if top is None:
        return None
    try:
        return decode(run_git(top, "describe", "--tags", "--abbrev=0", "HEAD")).strip() or None
    except GitFailure:
        return None


def tag_of(bank: Bank, window: Window) -> str:
    """The ref a "since <tag>" window starts from; refused when there is none."""
    assert window.tag is not None
    if window.tag != LAST_RELEASE:
        return window.tag
    tag = last_release(bank)
    if tag is None:
        raise BankError(f"{window.words!r} names the last release, but no tag is reachable from HEAD here. Tag "
                        "releases (`git tag v1.0`), or give a date instead (e.g. \"since 2026-03-01\").")
    return tag


def changed_in(bank: Bank, window: Window) -> dict:
    """`bank_changed`'s answer for a window (module doc); the bank is refreshed first."""
    from .changed import changed

    bank.refresh()
    if window.tag is not None:
        tag = tag_of(bank, window)
        result = changed(bank, tag)
        return {**result, "since": window.words, "window": {**window.shown(), "tag": tag}}
    now = today()
    top = bank_top(bank)
    start = window.start
    open_ended = window.end is None or window.end > now
    if top is None or not has_commits(top):
        result = _by_mtime(bank, (start or _dt.date(1970, 1, 1)).isoformat())
        if not open_ended:
            result["changes"] = [c for c in result["changes"] if window.holds(_mtime_day(bank, c["path"]))]
    elif open_ended and start is not None:
        result = _by_history(bank, top, start.isoformat())
    else:
        try:
            changes = _logged(bank, top, window)
        except GitFailure as exc:
            raise git_refused(exc) from None
        result = {"mode": "git", "changes": [_entry(bank, path, kind) for path, (kind, _) in sorted(changes.items())],
                  "note": "documents that commits in the window touched (committer dates); later changes are "
                          "not shown."}
    return {**result, "since": window.words, "window": window.shown()}


def dated_in(bank: Bank, window: Window) -> list[tuple[str, str, str]]:
    """`(path, change kind, day)` of the documents changed in a window, newest first (day '' = uncommitted)."""
    top = bank_top(bank)
    bounded = window.tag is None and window.end is not None and window.end <= today()
    if bounded and top is not None and has_commits(top):
        bank.refresh()
        try:
            logged = _logged(bank, top, window)
        except GitFailure as exc:
            raise git_refused(exc) from None
        return sorted(((p, k, d) for p, (k, d) in logged.items()), key=lambda row: (row[2], row[0]), reverse=True)
    result = changed_in(bank, window)
    days: dict[str, str] = {}
    if result.get("mode") == "git" and top is not None:
        try:
            days = {p: d for p, (_, d) in _logged(bank, top, Window(window.start, window.end, window.words)).items()}
        except GitFailure:
            days = {}
    rows = []
    for change in result["changes"]:
        path = change["path"]
        day = days.get(path) or (_mtime_day(bank, path).isoformat() if result.get("mode") == "mtime" else "")
        rows.append((path, change["change_kind"], day))
    rows.sort(key=lambda row: (row[2] == "", row[2]), reverse=True)  # uncommitted first, then newest
    return rows


def _mtime_day(bank: Bank, path: str) -> _dt.date:
    doc = bank.docs.get(path)
    return _dt.datetime.fromtimestamp(doc.mtime_ns / 1e9).date() if doc is not None else _dt.date(1970, 1, 1)


def _logged(bank: Bank, top, window: Window) -> dict[str, tuple[str, str]]:
    """`{bank path: (kind, newest day)}` for the documents commits dated inside the window touched."""
    bank_rel = relative_to_top(top, bank.root)
    prefix = bank_rel + "/" if bank_rel else ""
    spec = f":(top,literal){bank_rel}" if bank_rel else ":(top)"
    args = ["log", "-z", "--format=%x1e%cs", "--name-status", "--no-renames", "--no-decorate", "--no-color",
            "--no-show-signature", "--no-ext-diff"]
    if window.start is not None:
        args.append(f"--since={(window.start - SLACK).isoformat()}")
    if window.end is not None:
        args.append(f"--until={(window.end + SLACK).isoformat()}")
    args += ["HEAD", "--", spec]
    newest: dict[str, tuple[str, str]] = {}  # path -> (newest status, its day)
    oldest: dict[str, str] = {}  # path -> oldest status in the window
    day, inside, status, tail = "", False, None, b""
    with stream_git(top, *args) as chunks:
        for chunk in chunks:
            fields = (tail + chunk).split(b"\0")
            tail = fields.pop()
            for field in fields:
                field = field.lstrip(b"\n")
                if field[:1] == b"\x1e":
                    day = decode(field[1:]).strip()
                    try:
                        inside = window.holds(_dt.date.fromisoformat(day))
                    except ValueError:
                        inside = False
                    status = None
                    continue
                if status is None:
                    status = decode(field)[:1]
                    continue
                path, kind, status = decode(field), status, None
                if not inside or (prefix and not path.startswith(prefix)):
                    continue
                rel = path[len(prefix):]
                if not _indexable(rel):
                    continue
                newest.setdefault(rel, (kind, day))
                oldest[rel] = kind
    out = {}
    for path, (kind, day) in newest.items():
        out[path] = ("deleted" if kind == "D" else "added" if oldest[path] == "A" else "modified", day)
    return out
