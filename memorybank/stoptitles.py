"""Titles made of stopwords (issue 14): "Who We Are", "О нас", "关于我们" found by asking for them.

Routing drops stopwords, so a question whose words are all stopwords has no concept left, and a
document whose title is all stopwords matches none: asking for it by name found nothing. When route
has nothing to rank, this known-item lookup compares the question's words themselves, stopwords
included, with each routable document's title and `## ` headings: a title (or heading) matches when
every one of its words is in the question and it says at least half of the question's distinct words
("who are we" finds "Who We Are"; "what about us" finds "About Us"). A title scores its share of the
question, a heading half of that. It never runs while route finds anything, and it hands prime no
body evidence, so prime stays silent on small talk ("what do you think", "и что дальше", "然后呢").

Words are compared lowercased, `ё` as `е`, CJK runs folded (`variants.fold`) and cut by the
dictionary's words (stopwords are in it: 关于 + 我们) into words and single characters.
"""

from __future__ import annotations

from .bank import Bank
from .lang import Lexicon
from .lang.chinese import segment
from .lang.tokens import WORD, fold, normalize, split_scripts
from .routefit import shown_words

HEADING_SHARE = 0.5  # a heading naming the question weighs half a title naming it
LEAST_SHARE = 0.5  # of the question's distinct words a title must say
MAX_WORDS = 12  # a longer question is no title lookup


def words(lexicon: Lexicon, text: str) -> frozenset[str]:
    """The distinct words of `text`, stopwords kept: lowercased, CJK folded and cut by the dictionary."""
    out: set[str] = set()
    for token in WORD.findall(normalize(text)):
        for cjk, piece in split_scripts(token):
            if not cjk:
                out.add(piece.lower().replace("ё", "е"))
                continue
            for part, is_word in segment(fold(piece), lexicon.zh_words, lexicon.zh_max):
                out.update((part,) if is_word else part)  # a leftover run: its characters
    return frozenset(out)


def _share(asked: frozenset[str], text: str | None, lexicon: Lexicon, memo: dict[str, float]) -> float:
    """The share of the question `text` says, when every word of `text` is in the question, else 0."""
    if not text:
        return 0.0
    found = memo.get(text)
    if found is None:
        said = words(lexicon, text)
        found = memo[text] = len(said) / len(asked) if said and said <= asked else 0.0
    return found if found >= LEAST_SHARE else 0.0


def titled(bank: Bank, lexicon: Lexicon, routable: dict[str, int], fields: dict, question: str, limit: int,
           doc_kind: str | None, layer: str | None, status: str | None, title_max: int, section_max: int) -> list[dict]:
    """Route's result rows for a question no concept of which matched: documents whose title or a `## `
    heading it names (see the module docstring), best first, ties by path; [] when none does.

    `routable`: the route index's path → id; `fields`: its `RouteFields` per id, whose headings are read
    (so no document's cold fields are decoded)."""
    asked = words(lexicon, question)
    if not asked or len(asked) > MAX_WORDS:
        return []
    memo: dict[str, float] = {}
    found: list[tuple[float, str, str | None]] = []
    for path, ident in routable.items():
        doc = bank.docs.get(path)
        if doc is None or (doc_kind is not None and doc.doc_kind != doc_kind) or \
                (layer is not None and doc.layer != layer) or (status is not None and doc.status != status):
            continue
        score, section = _share(asked, doc.title, lexicon, memo), None
        for heading, _ in fields[ident].sections:
            value = HEADING_SHARE * _share(asked, heading, lexicon, memo)
            if value > score:
                score, section = value, heading
        if score > 0:
            found.append((-score, path, section))
    found.sort()
    rows = []
    for neg, path, section in found[:limit]:
        doc = bank.docs[path]
        row: dict = {"path": path, "title": shown_words(doc.title, title_max), "score": round(-neg, 3),
                     "why": "heading" if section is not None else "title"}
        if doc.status not in (None, "active"):
            row["status"] = doc.status
        if section is not None:
            row["section"] = shown_words(section, section_max)
        rows.append(row)
    return rows
