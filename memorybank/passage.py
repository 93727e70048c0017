"""Passage evidence for routing (session 8): a document that states the fact says the question's words together.

The core files of a Cline-style bank restate the same facts, so document-level BM25 (`evidence.py`) finds
the question's words in several of them at close strength; the file that *states* the answer tends to
say several of them in one line ("Fallback to alternative IPFS gateways when the primary one is down"),
where a file that merely mentions the subject has them scattered over its sections. This is the standard
passage-retrieval idea: weigh a document by its best passage, not only by its whole text.

A document's *passage share* is the idf-weighted share of the question's concepts (search concepts, placed
on lines as `bank_search` places them: `_line_needles`, so languages, the character fold and translations
work alike; × tier ÷ 10) held by its best body line, ÷ Σ idf of the question (`Evidence.total`: the scale of
the body strength, [0, 1)). Only a line holding at least `LEAST_CONCEPTS` distinct concepts counts: two
words side by side are most often one name ("async runtime", "TOML config"), not a statement. Title and
heading lines are metadata and never count. Route adds `WEIGHT_PASSAGE` × the share × the document's
multiplier to the score of each candidate row, and
quotes the line in `why`. The guards are route's, not this module's (`route.py` calls `with_passages` only
then): it adds nothing when the question names a document (a key said whole, a title
saying every concept): proximity elsewhere must not move the document asked for by name; nor when the
question asks for an answer type (`answertype`: a number, a path, a status, a reason), whose typed line is
this rule with a test of what the line must hold, and a line saying the words without it is not the answer.

Measured on every allowed set (session 8, HISTORY.md): one line beat windows of 3 and 6 lines (a window
joins a list item's words with its neighbours', which lifted pages listing the subject); two concepts
instead of three moved more answers down than up, and twice the weight lost more top-3 answers. Cost:
one `str.find` pass per concept literal over the body of each candidate whose prose holds three concepts,
the placed lines kept with the body (`evidence.kept_body`) and shared with `best_line` and the answer
types' lines.
"""

from __future__ import annotations

from collections.abc import Callable

from .evidence import Evidence, kept_body, line_needles, quote, section_at
from .records import Doc
from .regexes import compiled
from .search import SearchIndex, _placed

WEIGHT_PASSAGE = 1.0  # a line holding every concept of the question, typed (prose saying all of it: 5)
LEAST_CONCEPTS = 3  # distinct question concepts a line must hold

Row = tuple[bool, float, str, float, float, float, bool]
# an ATX heading as markdown and `headings.py` read one: up to three spaces, one to six `#`, then a space or
# the line's end (a line merely opening with `#`, "#12 fixed …" or an indented code line, states something)
_HEADING = compiled(r" {0,3}#{1,6}(?:[ \t]|$)")


def passage(index: SearchIndex, evidence: Evidence, doc: Doc,
            needles: list) -> tuple[float, tuple[int, str, str | None]] | None:
    """The document's best passage line: its share of the question (module docstring) and the line as
    `evidence.best_line` gives one (1-based file line, excerpt, `## ` heading above); None when no body
    line holds `LEAST_CONCEPTS` of the question's concepts."""
    body = kept_body(index, doc)
    if body is None or not body.text:
        return None
    placed = body.placed
    per_line: dict[int, dict[int, float]] = {}  # line -> concept number -> weight × its strongest tier there
    for number, (concept_needles, weight) in enumerate(zip(needles, evidence.weights)):
        key = tuple(concept_needles)
        lines = placed.get(key)
        if lines is None:
            lines = placed[key] = _placed(body.low, concept_needles)
        for line, tier in lines.items():
            per_line.setdefault(line, {})[number] = weight * tier
    text = body.lines
    best: tuple[float, int] | None = None
    for line in sorted(per_line):  # the first line on ties
        held = per_line[line]
        if len(held) < LEAST_CONCEPTS or _HEADING.match(text[line].rstrip("\r")):
            continue
        share = sum(held.values())
        if best is None or share > best[0]:
            best = (share, line)
    if best is None:
        return None
    at = doc.body_line + best[1]
    # quoted as every best line is: cut around the evidence to `why`'s room (a long line cut to 240
    # characters 60 before its first concept, then to 32, quoted only the words before the evidence)
    excerpt = quote(text[best[1]], evidence.concepts)
    return best[0] / (10 * evidence.total), (at, excerpt, section_at(doc, at))


def with_passages(rows: list[Row], index: SearchIndex, evidence: Evidence, docs: dict[str, Doc],
                  factor: Callable[[str], float]) -> tuple[list[Row], dict[str, tuple[int, str, str | None]]]:
    """Route's rows with `WEIGHT_PASSAGE` × passage share × multiplier added to the score and body part of
    each row with a passage line; those lines, by path, for `why`.

    Every row is weighed on its own (the bonus depends on nothing but the row), so each draw's order, and
    every limit, cuts one ranking. Only a row whose prose holds `LEAST_CONCEPTS` of the concepts at all
    (`Evidence.per_concept`, known without reading it) has its body read: most candidates never are, and a
    cold restored document stays undecoded."""
    if len(evidence.concepts) < LEAST_CONCEPTS:
        return rows, {}
    ids, per_concept = index.ids, evidence.per_concept
    out = list(rows)
    lines: dict[str, tuple[int, str, str | None]] = {}
    needles = None
    for number, row in enumerate(rows):
        sid = ids.get(row[2])
        if sid is None or sum(sid in values for values in per_concept) < LEAST_CONCEPTS:
            continue
        if needles is None:
            needles = line_needles(index, evidence)
        found = passage(index, evidence, docs[row[2]], needles)
        if found is None:
            continue
        extra = WEIGHT_PASSAGE * found[0] * factor(row[2])
        lines[row[2]] = found[1]
        out[number] = (row[0], round(row[1] - extra, 4), row[2], row[3], row[4] + extra, row[5], row[6])
    return out, lines
