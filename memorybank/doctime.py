"""A document's time (issue 19): when it last changed, for questions about time.

The rule, in order:
1. a decision document (layer `decision`, `doc_kind: adr`, or a `decision_status`) that declares
   `decided:` or `date:` is as old as that decision — an ADR edited later is still last month's decision;
2. else the date of the last commit that changed it (the committer's own calendar date);
3. else its `date:`, `decided:` or `reviewed:` frontmatter (the latest of those given);
4. else its modification time (local date).

The git dates come from ONE streamed `git log --name-only` over the bank folder, stopped as soon as
every tracked document has been seen (as `bank_drift` does), so a long history costs only what it
takes to reach the oldest document's last commit. They depend only on HEAD, so they are kept per bank
keyed by HEAD's commit id (`DocTimes`), and saved with the parse cache (`cache.py`, `EXTRAS`): a later
process asks git only for `rev-parse HEAD`. A document changed but not committed keeps its last
commit's date (its working-tree change shows in `bank_changed`).
"""

from __future__ import annotations

import datetime as _dt

from .bank import Bank
from .frozen import Value, assign
from .gitutil import GitFailure, decode, relative_to_top, resolve_commit, run_git, split_z, stream_git
from .project import bank_top
from .records import Doc

CACHE_KEY = "doc.times"
DECISION_FIELDS = ("decided", "date")
DATE_FIELDS = ("date", "decided", "reviewed")


class DocTime(Value):
    """When a document last changed, and what says so: git | decided | date | reviewed | mtime."""

    day: _dt.date
    source: str

    __slots__ = ("day", "source")

    def __init__(self, day: _dt.date, source: str) -> None:
        assign(self, "day", day)
        assign(self, "source", source)

    @property
    def verb(self) -> str:
        """How `why` names it: `changed 2026-11-12`, `decided 2026-11-12`."""
        return {"git": "changed", "decided": "decided", "date": "dated", "reviewed": "reviewed"}.get(self.source,
                                                                                                    "changed")


def _day(value: object) -> _dt.date | None:
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str) and len(value.strip()) >= 10:
        try:
            return _dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def is_decision(doc: Doc) -> bool:
    return doc.layer == "decision" or doc.doc_kind == "adr" or bool(doc.decision_status)


def declared(doc: Doc, fields: tuple[str, ...]) -> tuple[_dt.date, str] | None:
    """The latest valid date among these frontmatter fields, and the field that gave it."""
    found = [(day, name) for name in fields if (day := _day(doc.frontmatter.get(name))) is not None]
    return max(found) if found else None


class DocTimes:
    """Per bank: the last commit date of each tracked document, for one HEAD; saved with the parse cache."""

    def __init__(self, head: str | None, committed: dict[str, str]) -> None:
        self.head = head
        self.committed = committed  # bank path -> YYYY-MM-DD of its last commit
        self.fresh = False  # computed in this process (so worth saving)

    def cache_state(self) -> tuple | None:
        return (self.head, self.committed) if self.fresh and self.head else None


def _committed(bank: Bank) -> DocTimes:
    """The git pass, or the cached one while HEAD has not moved."""
    top = bank_top(bank)
    if top is None:
        return DocTimes(None, {})
    head = resolve_commit(top, "HEAD")
    held = bank.cache.get(CACHE_KEY)
    if isinstance(held, DocTimes) and held.head == head:
        return held
    state = (bank.snapshot or {}).get("indexes", {}).get(CACHE_KEY) if bank.snapshot else None
    if head is not None and isinstance(state, tuple) and len(state) == 2 and state[1][0] == head:
        times = DocTimes(head, dict(state[1][1]))
    else:
        times = DocTimes(head, _walk(bank, top) if head is not None else {})
        times.fresh = head is not None
    bank.cache[CACHE_KEY] = times
    return times


def _walk(bank: Bank, top) -> dict[str, str]:
    """One `git log --name-only` over the bank folder: each tracked document's last commit date."""
    bank_rel = relative_to_top(top, bank.root)
    prefix = bank_rel + "/" if bank_rel else ""
    spec = f":(top,literal){bank_rel}" if bank_rel else ":(top)"
    try:
        tracked = list(split_z(run_git(top, "ls-files", "-z", "--full-name", "--", spec)))
    except GitFailure:
        return {}
    # every tracked document, not only those the walk sees now: the dates are kept per HEAD (and saved with the
    # parse cache), and a tracked file away from the work tree when they were read (deleted, then checked
    # out again) must get its commit's date back, as a cold read would give it (attack-inplace)
    want = {name.encode(): name[len(prefix):] for name in tracked if name.startswith(prefix) and name.endswith(".md")}
    found: dict[str, str] = {}
    if not want:
        return found
    args = ("log", "-z", "--format=%x1e%cs", "--name-only", "--no-renames", "--no-decorate", "--no-color",
            "--no-show-signature", "--no-ext-diff", "HEAD", "--", spec)
    left, when, tail = len(want), "", b""
    try:
        with stream_git(top, *args) as chunks:
            for chunk in chunks:
                fields = (tail + chunk).split(b"\0")
                tail = fields.pop()
                for field in fields:
                    if field[:1] == b"\x1e":
                        when = decode(field[1:]).strip()
                        continue
                    if field[:1] == b"\n":
                        field = field[1:]
                    name = want.get(field)
                    if name is not None and name not in found:
                        found[name] = when
                        left -= 1
                if not left:
                    break
    except GitFailure:
        return found
    return found


def doc_times(bank: Bank) -> dict[str, DocTime]:
    """Every document's time by the rule above (refresh the bank first)."""
    committed = _committed(bank).committed
    out: dict[str, DocTime] = {}
    for path, doc in bank.docs.items():
        out[path] = time_of(doc, committed.get(path))
    return out


def time_of(doc: Doc, committed: str | None) -> DocTime:
    """One document's time, given its last commit date (YYYY-MM-DD) if it has one."""
    if is_decision(doc):
        decided = declared(doc, DECISION_FIELDS)
        if decided is not None:
            return DocTime(decided[0], decided[1])
    day = _day(committed) if committed else None
    if day is not None:
        return DocTime(day, "git")
    given = declared(doc, DATE_FIELDS)
    if given is not None:
        return DocTime(given[0], given[1])
    return DocTime(_dt.datetime.fromtimestamp(doc.mtime_ns / 1e9).date(), "mtime")
