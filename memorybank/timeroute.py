"""Routing with a time window (issue 19), wrapped around `route.routed`; a question without time passes through.

- The window comes from the question's time words (`timewords.find`) and/or the explicit `since` /
  `until` parameters (narrowing each other). The words are taken out of the topic, which is routed
  as usual over more candidates (`route.MAX_LIMIT`).
- Each candidate whose time (`doctime`) lies in the window and whose score is at least
  `BOOST_FLOOR` of the best is lifted above every other: the best score is added to its own, so the
  in-window documents keep their order among themselves and outrank the rest, which stay listed
  below. Their `why` ends `changed 2026-11-12, in "last month"` (`decided …` for a decision dated
  in its frontmatter). The answer carries `window: {since, until, words}` (days included).
- A question that is only about time ("what changed last week?", "что нового вчера?", "上周改了什么？":
  nothing but time words, change words and stopwords) lists the documents changed in the window,
  newest first, like `bank_changed` (`timechanged`); asked about decisions ("what did we decide last
  month?"), the decisions whose own time lies in the window.
- A why-question whose answer holds a superseded decision gets the current one first
  (`succession.current_first`), with or without a window.
"""

from __future__ import annotations

import datetime as _dt
import functools
import re

from .bank import Bank
from .doctime import doc_times, is_decision
from .errors import BankError
from .gitutil import decode, run_git
from .lang import lexicon_for, why_intent
from .project import bank_top
from .query import check_filters, check_query
from .succession import current_first
from .timechanged import dated_in, tag_of
from .timewords import Window, explicit, find

BOOST_FLOOR = 0.2  # of the best score: a passing mention is not lifted above a strong match for its date
# Compiled on first use (`_change`, `_decide`): only a question with a time window reaches them, and
# compiling them costs every process ~3 ms at import.
_CHANGE = (
    r"(?<![\w\-])(?:what'?s|what|which|anything|something|things?|stuff|docs?|documents?|files?|pages?|notes?|bank|"
    r"new|news|happen(?:ed|ing)?|chang(?:e|ed|es|ing)|updat(?:e|ed|es)|edit(?:ed|s)?|modif(?:y|ied)|touch(?:ed)?|"
    r"add(?:ed)?|remov(?:e|ed)|delet(?:e|ed)|wr[io]te|written|land(?:ed)?|ship(?:ped)?|work(?:ed)?|done|made|make|"
    r"decid(?:e|ed)|decisions?|show|list|tell|me|us|"
    r"что|какие|какое|нового|новое|новенького|изменени[ея]|измен\w*|поменя\w*|произош\w*|случил\w*|сдела\w*|"
    r"делали|решили|решено|решения|обнов\w*|добав\w*|удал\w*|правк\w*|документ\w*|покажи|список)(?![\w\-])"
    r"|改了|改动|修改|变化|变了|变动|更新|新增|添加|删除|决定|做了|发生|什么|哪些|有|了|的|我们|文档|吗|呢")
_DECIDE = r"(?<![\w\-])(?:decid(?:e|ed)|decisions?|решили|решено|решения)(?![\w\-])|决定"


@functools.cache
def _change() -> re.Pattern:
    return re.compile(_CHANGE, re.IGNORECASE)


@functools.cache
def _decide() -> re.Pattern:
    return re.compile(_DECIDE, re.IGNORECASE)


def routed(bank: Bank, question: str, limit: int = 5, doc_kind: str | None = None, layer: str | None = None,
           status: str | None = None, since: str | None = None, until: str | None = None) -> tuple:
    """`route.routed` with time (module doc): `(answer, evidence, body index)`; evidence None for a time-only list."""
    from .route import MAX_LIMIT
    from .route import routed as plain

    shown = check_query(question, limit, MAX_LIMIT, layer)
    given = explicit(since, until)
    found, topic = find(question)
    window = _narrow(given, found)
    if window is None:
        answer, evidence, index = plain(bank, question, limit, doc_kind, layer, status)
        if why_intent(question):
            answer = current_first(bank, answer, shown)
        return answer, evidence, index
    bank.refresh()
    check_filters(bank, doc_kind, status)
    window = _started(bank, window)
    if _time_only(bank, topic):
        return _listed(bank, window, topic, shown, doc_kind, layer, status), None, None
    answer, evidence, index = plain(bank, topic, MAX_LIMIT, doc_kind, layer, status)
    rows = answer["results"]
    if rows:
        times = doc_times(bank)
        best = rows[0]["score"]
        inside, outside = [], []
        for row in rows:
            when = times.get(row["path"])
            if when is not None and window.holds(when.day) and row["score"] >= best * BOOST_FLOOR:
                said = f'{when.verb} {when.day.isoformat()}, in "{window.words}"'
                inside.append({**row, "score": round(row["score"] + best, 3),
                               "why": "; ".join(p for p in (row["why"], said) if p)})
            else:
                outside.append(row)
        answer = {**answer, "results": inside + outside}
    if why_intent(question):
        answer = current_first(bank, answer, shown)
    answer = {**answer, "results": answer["results"][:shown], "window": window.shown()}
    return answer, evidence, index


def _narrow(given: Window | None, found: Window | None) -> Window | None:
    if given is None or found is None:
        return given or found
    start = max((w.start for w in (given, found) if w.start is not None), default=None)
    end = min((w.end for w in (given, found) if w.end is not None), default=None)
    return Window(start, end, f"{found.words} {given.words}", given.tag or found.tag)


def _started(bank: Bank, window: Window) -> Window:
    """A "since <tag>" window with its first day: the day of the tag's commit (refused when there is no such tag)."""
    if window.tag is None:
        return window
    tag = tag_of(bank, window)
    top = bank_top(bank)
    day = ""
    if top is not None:
        try:
            out = run_git(top, "log", "-1", "--format=%cs", "--end-of-options", f"{tag}^{{commit}}", "--")
            day = decode(out).strip()
        except Exception:  # noqa: BLE001 - any failure means the tag names no commit here
            day = ""
    if not day:
        raise BankError(f"Unknown tag {tag!r} in {window.words!r}: no such tag or commit in this repository. "
                        "Give a tag that exists (`git tag` lists them) or a date (\"since 2026-03-01\").",
                        see="changed")
    first = _dt.date.fromisoformat(day)
    start = max(first, window.start) if window.start else first
    return Window(start, window.end, window.words, tag)


def _time_only(bank: Bank, topic: str) -> bool:
    """Nothing but change words and stopwords left once the time words are out."""
    rest = _change().sub(" ", topic)
    return not lexicon_for(bank).concepts(rest)


def _listed(bank: Bank, window: Window, topic: str, limit: int, doc_kind: str | None, layer: str | None,
            status: str | None) -> dict:
    """A time-only question's answer: what changed in the window (decisions by their own time when asked)."""
    from .plain import shown
    from .route import TITLE_MAX, _unprefixed

    def wanted(doc) -> bool:
        return (doc is not None and doc.is_knowledge and (doc_kind is None or doc.doc_kind == doc_kind)
                and (layer is None or doc.layer == layer) and (status is None or doc.status == status))

    if _decide().search(topic):
        times = doc_times(bank)
        picked = sorted(((times[p].day.isoformat(), p, times[p].verb) for p, d in bank.docs.items()
                         if is_decision(d) and wanted(d) and window.holds(times[p].day)), reverse=True)
        entries = [(p, verb, day) for day, p, verb in picked]
    else:
        entries = [(p, kind, day or "uncommitted") for p, kind, day in dated_in(bank, window)
                   if wanted(bank.docs.get(p))]
    rows = []
    for path, kind, day in entries[:limit]:
        doc = bank.docs[path]
        rows.append({"path": path, "title": shown(_unprefixed(doc.title, path), TITLE_MAX), "score": 1.0,
                     "why": f'{kind} {day}, in "{window.words}"'})
    if not rows:
        return {"results": [], "hint": f"Nothing in the bank changed in {window.words!r}; widen the window "
                                       "(an earlier date, a longer period).", "window": window.shown()}
    return {"results": rows, "window": window.shown()}
