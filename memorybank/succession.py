"""Superseded decisions (issue 19): a why-question answered by an ADR another ADR replaced gets the current one first.

A decision is superseded when its frontmatter says `superseded_by: X`, or another document says
`supersedes: X` (a string or a list) naming it. One marked only `decision_status: superseded` is
taken as replaced by the best-ranked newer, not superseded decision in the same answer (by
document time, `doctime`), if there is one. X is a path (relative to the declaring document or the bank root, `.md`
optional) or a decision's id (`ADR-003`: a document whose file name starts with it). The chain is
followed to the current decision (at most `MAX_CHAIN` steps; a cycle stops it).

In a why-question's answer, each superseded result gets its current decision just above it (moved
up if it was listed lower, added if it was not), with `supersedes ADR-003` in its `why` — the whole
chain, newest first — and the superseded one says `superseded by ADR-007`.
"""

from __future__ import annotations

import posixpath

from .bank import Bank
from .records import Doc
from .regexes import compiled

MAX_CHAIN = 10
MAX_REFS = 20  # references read from one document's supersedes list
CACHE_KEY = "succession"
_ID = compiled(r"^([A-Za-z]+-\d+[A-Za-z0-9]*)")


def label(path: str) -> str:
    """How a chain names a decision: its id (`ADR-003`) when its file name starts with one, else its stem."""
    stem = path.rpartition("/")[2].removesuffix(".md")
    found = _ID.match(stem)
    return found.group(1) if found else stem


def _refs(value: object) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [item.strip() for item in items[:MAX_REFS] if isinstance(item, str) and item.strip()]


def _resolve(bank: Bank, doc: Doc, ref: str) -> str | None:
    target = ref.partition("#")[0].strip().replace("\\", "/")
    if not target or "\0" in target:
        return None
    for base in (doc.folder, ""):
        for candidate in (target, target + ".md"):
            path = posixpath.normpath(posixpath.join(base, candidate))
            if path in bank.docs:
                return path
    stem = target.rpartition("/")[2].removesuffix(".md").lower()
    for path in bank.paths:
        name = path.rpartition("/")[2].lower()
        if name.startswith(stem) and (len(name) == len(stem) or not name[len(stem)].isalnum()):
            return path
    return None


class Successors:
    """The links of one bank generation; saved with the parse cache (`cache.EXTRAS`) when computed here.

    prime-lean: reading every document's `supersedes` decodes every cached document's cold fields (~15 ms
    CPU at 400 documents, ~100 at 2,000, under load) in each cold process a why-question starts, so a
    process whose bank has not changed since the cache was saved takes the saved links instead."""

    def __init__(self, bank: Bank, links: dict[str, str], fresh: bool) -> None:
        self.bank = bank
        self.generation = bank.generation
        self.links = links
        self.fresh = fresh  # computed in this process (so worth saving)

    def cache_state(self) -> dict[str, str] | None:
        """The links to save with the documents, if computed here over the documents being saved."""
        return self.links if self.fresh and self.generation == self.bank.generation else None


def _saved(bank: Bank) -> dict[str, str] | None:
    """The links saved with the parse cache, when no document changed since it was written."""
    if bank.snapshot is None or bank.since_seed != set():
        return None
    found = bank.snapshot.get("indexes", {}).get(CACHE_KEY)
    if not (isinstance(found, tuple) and len(found) == 2 and type(found[1]) is dict):
        return None
    links = found[1]
    return links if all(type(k) is str and type(v) is str for k, v in links.items()) else None


def successors(bank: Bank) -> dict[str, str]:
    """Superseded decision → the decision that replaced it (one step), cached per bank generation."""
    held = bank.cache.get(CACHE_KEY)
    if isinstance(held, Successors) and held.generation == bank.generation:
        return held.links
    saved = _saved(bank)
    if saved is not None:
        bank.cache[CACHE_KEY] = Successors(bank, saved, fresh=False)
        return saved
    out: dict[str, str] = {}
    for path in bank.paths:
        doc = bank.docs[path]
        if not doc.is_knowledge:
            continue
        for ref in _refs(doc.frontmatter.get("superseded_by"))[:1]:
            found = _resolve(bank, doc, ref)
            if found is not None and found != path:
                out[path] = found
        for ref in _refs(doc.frontmatter.get("supersedes")):
            found = _resolve(bank, doc, ref)
            if found is not None and found != path:
                out.setdefault(found, path)
    bank.cache[CACHE_KEY] = Successors(bank, out, fresh=True)
    return out


def _superseded(bank: Bank, path: str) -> bool:
    doc = bank.docs.get(path)
    return doc is not None and (doc.decision_status or "").lower() == "superseded"


def _by_status(bank: Bank, results: list[dict], marked: list[str]) -> dict[str, str]:
    """For decisions marked superseded with no link: the best-ranked newer, current decision in the answer."""
    from .doctime import doc_times, is_decision

    times = doc_times(bank)
    out: dict[str, str] = {}
    for path in marked:
        for row in results:
            other = bank.docs.get(row["path"])
            if (other is not None and row["path"] != path and is_decision(other)
                    and not _superseded(bank, row["path"]) and times[row["path"]].day > times[path].day):
                out[path] = row["path"]
                break
    return out


def chain(links: dict[str, str], path: str) -> list[str]:
    """`[path, its successor, …, the current decision]`, stopping at a cycle or MAX_CHAIN steps."""
    seen = [path]
    while seen[-1] in links and len(seen) <= MAX_CHAIN:
        following = links[seen[-1]]
        if following in seen:
            break
        seen.append(following)
    return seen


def current_first(bank: Bank, answer: dict, limit: int) -> dict:
    """Put each superseded result's current decision just above it, naming the chain (module doc)."""
    links = successors(bank)
    results = answer.get("results") or []
    marked = [r["path"] for r in results if r["path"] not in links and _superseded(bank, r["path"])]
    if marked:
        links = {**links, **_by_status(bank, results, marked)}
    if not links or not any(r["path"] in links for r in results):
        return answer
    from .route import TITLE_MAX, _clip, _unprefixed

    rows = list(results)
    handled: set[str] = set()
    i = 0
    while i < len(rows):
        row = rows[i]
        steps = chain(links, row["path"])
        current = steps[-1]
        if len(steps) < 2 or current == row["path"]:
            i += 1
            continue
        if current in handled:  # a middle link of a chain already placed
            row["why"] = "; ".join(part for part in (row["why"], f"superseded by {label(current)}") if part)
            i += 1
            continue
        handled.add(current)
        at = next((j for j, r in enumerate(rows) if r["path"] == current), None)
        if at is not None and at < i:
            i += 1
        else:
            if at is not None:
                top = rows.pop(at)
            else:
                doc = bank.docs[current]
                top = {"path": current, "title": _clip(_unprefixed(doc.title, current), TITLE_MAX), "why": ""}
            top["score"] = max(top.get("score", 0.0), row["score"])
            rows.insert(i, top)
            i += 2
        named = ", ".join(label(p) for p in reversed(steps[:-1]))
        top_row = next(r for r in rows if r["path"] == current)
        top_row["why"] = "; ".join(part for part in (top_row["why"], f"supersedes {named}") if part)
        row["why"] = "; ".join(part for part in (row["why"], f"superseded by {label(current)}") if part)
    return {**answer, "results": rows[:limit]}
