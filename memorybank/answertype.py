"""Answer type for routing (issue 14): a question asking for a quantity is answered by a line stating one.

Question-answering systems have long matched a question's expected answer type with the passages
that can hold it: "how much memory…", "when is the release due", "what share is done", "сколько…",
"多少…" ask for an amount, a date, a share or a version — a number. Core files of a plain bank restate
the same facts (the tech context's "AX Tree Cache: ~5MB typical" and the system patterns' "accessibility
tree caching"); the one that answers a quantity question states the number beside the question's
words, while the others only name the subject. Word statistics cannot tell them apart; the answer
type can.

So when the question asks for a quantity (`asks_quantity`: interrogative forms of English, Russian
and Chinese written here a priori, not taken from any question set), a document's *number line* is
the body line holding a number (a digit that is not a list item's marker) whose question concepts
weigh most — Σ idf × tier, as `bank_search` picks a best line — ÷ the most a line could weigh (every
concept, typed: the same scale as the body strength, [0, 1)). Route adds `WEIGHT_NUMBER` × that × the
document's multiplier to the row's score and quotes that line in `why`. Only concepts found by their
literals count (the line scan `bank_search` falls back on for the rest is not repeated here); title
and `## ` heading lines are metadata and hold no number line; a question of another type costs one
regex search, and a quantity question one pass over the placed lines of each row with body evidence.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from .evidence import Evidence, kept_body, line_needles, section_at, short_excerpt
from .records import Doc
from .regexes import compiled
from .search import SearchIndex, _excerpt, _placed

# = route.WEIGHT_BODY: the line stating a number beside all of the question's words is worth what prose saying all
# of it is (measured on the allowed sets: a heading's 1.0 gained one question fewer, no set lost more)
WEIGHT_NUMBER = 5.0

# Interrogative forms asking for an amount, a duration, a frequency, a date, a share or a version.
# A leading when/когда whose clause a comma closes before more words is a condition ("When the build fails,
# what happens…", "when you get a chance, fix…"): the question, if any, is the clause after it (`_CONDITION`).
_CONDITION = r"(?![^,;]*[,;]\s*\w)"
_QUANTITY_EN = compiled(
    r"\bhow\s+(?:much|many|long|often|big|large|fast|soon|old|far)\b"
    r"|^\W*when\b" + _CONDITION + r"|\bwhen\s+(?:is|are|was|were|will|would|does|do|did|should|can|could)\b"
    r"|\b(?:what|which)\s+(?:percent(?:age)?|share|fraction|proportion|version|date|year|size|number)\b"
    r"|\bat\s+what\s+(?:time|rate|size|point)\b|\bby\s+when\b")
# `когда` only opens a question: inside one it is a conjunction ("что происходит, когда…"); hyphenated
# (когда-нибудь, сколько-то) they are indefinite pronouns
_QUANTITY_RU = compiled(
    r"(?<![а-яa-z0-9_])(?:сколько(?!-)|как\s+(?:часто|долго|скоро|быстро|много)"
    r"|как(?:ой|ая|ую|ого)\s+(?:процент|доля|долю|част|объем|размер|срок|верси)"
    r"|в\s+какой\s+(?:верси|срок|момент)|к\s+какому\s+сроку)|^\W*когда(?![а-я-])" + _CONDITION)
_QUANTITY_ZH = compiled(r"多少|多久|多长|多大|多快|多高|几(?![乎何])|百分之|什么时候|何时"
                        r"|哪个版本|什么版本|哪一版|哪一年|哪天")
# an ordered list item's number, or a deeper heading's outline number (`### 4. Retries`, `### 2.1 Cache`)
_LIST_MARKER = compiled(r"^\s*(?:[-*+]\s+)?\d+[.)]\s|^#{3,6}\s+(?:\d+(?:\.\d+)+\.?|\d+[.)])\s")
# A number stands on its own: a digit run not inside a Latin or Cyrillic word (e2ee, sha256) nor an identifier's
# (ADR-003, FT-001, UTF-8); `v2` is a version. CJK script writes numbers against its characters (占用64MB).
_LETTER = "A-Za-zА-Яа-яЁё"
_DIGIT = compiled(rf"(?<![{_LETTER}\d])(?<![{_LETTER}]-)\d|(?<![{_LETTER}\d])[vV]\d")


def asks_quantity(question: str) -> bool:
    """Does the question ask for a number (amount, duration, frequency, date, share, version)?"""
    low = question.lower().replace("ё", "е")
    return any(p.search(low) is not None for p in (_QUANTITY_EN, _QUANTITY_RU, _QUANTITY_ZH))


def states_number(line: str) -> bool:
    """A digit on the line that is not an ordered list item's or a heading's number; title and `## ` lines are
    metadata."""
    if line.startswith("# ") or line.startswith("## "):
        return False
    return _DIGIT.search(_LIST_MARKER.sub("", line, count=1)) is not None


def number_line(index: SearchIndex, evidence: Evidence, doc: Doc, needles: list
                ) -> tuple[float, tuple[int, str, str | None]] | None:
    """The document's best number line: its weight ÷ the most a line could weigh, and the line as
    `evidence.best_line` gives one (1-based file line, excerpt, `## ` heading above); None when no line
    holding a number holds a question concept.

    `needles`: `evidence.line_needles(index, evidence)`; the lines each concept is placed on are kept
    with the body, shared with `best_line`."""
    body = kept_body(index, doc)
    if body is None or not body.text or not evidence.concepts:
        return None
    scores: dict[int, float] = {}
    placed = body.placed
    for concept_needles, weight in zip(needles, evidence.weights):
        key = tuple(concept_needles)
        lines = placed.get(key)
        if lines is None:
            lines = placed[key] = _placed(body.low, concept_needles)
        for line, tier in lines.items():
            scores[line] = scores.get(line, 0.0) + weight * tier
    text = body.lines
    best: tuple[float, int] | None = None
    for line, score in scores.items():
        if (best is None or score > best[0] or (score == best[0] and line < best[1])) and states_number(text[line]):
            best = (score, line)
    if best is None:
        return None
    at = doc.body_line + best[1]
    excerpt = short_excerpt(_excerpt(text[best[1]], evidence.concepts))
    return best[0] / (10 * evidence.total), (at, excerpt, section_at(doc, at))


Row = tuple[bool, float, str, float, float, float, bool]  # route's scored row (route._fused_order)


def with_number_lines(rows: list[Row], limit: int, index: SearchIndex, evidence: Evidence, docs: dict[str, Doc],
                      factor: Callable[[str], float]) -> tuple[list[Row], dict[str, tuple[int, str, str | None]]]:
    """Route's rows for a quantity question: a row with body evidence gets `WEIGHT_NUMBER` × its number line's
    weight × its multiplier added to its score and body part; the lines, by path, for `why`.

    A number line weighs at most the document's coverage of the question (`Evidence.coverage`), so rows are
    read best reach first (score + that bound), and only while a row could still reach the `limit`-th
    score. Route passes `limit = len(rows)` (every row weighed): its fused order ranks all the rows, and a
    row left short would move the ranks of the others."""
    needles: list | None = None
    lines: dict[str, tuple[int, str, str | None]] = {}
    ids, raw = index.ids, evidence.raw
    reach: list[tuple[float, int]] = []
    for number, row in enumerate(rows):
        sid = ids.get(row[2])
        if sid is not None and raw.get(sid):
            reach.append((-row[1] + WEIGHT_NUMBER * evidence.coverage(sid) * factor(row[2]), number))
    reach.sort(key=lambda item: (-item[0], item[1]))
    scores = {number: -row[1] for number, row in enumerate(rows) if not row[0]}  # `later` rows rank after these
    out = list(rows)
    for bound, number in reach:
        if len(scores) >= limit and bound < heapq.nlargest(limit, scores.values())[-1]:
            break  # neither this row nor any after it can reach the `limit`-th score
        row = rows[number]
        if needles is None:
            needles = line_needles(index, evidence)
        found = number_line(index, evidence, docs[row[2]], needles)
        if found is None or not found[0]:
            continue
        extra = WEIGHT_NUMBER * found[0] * factor(row[2])
        lines[row[2]] = found[1]
        out[number] = (row[0], round(row[1] - extra, 4), row[2], row[3], row[4] + extra, row[5], row[6])
        if number in scores:
            scores[number] = -out[number][1]
    return out, lines
