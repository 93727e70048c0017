"""Body evidence for routing (issue 14): how strongly a document's prose, outside its headings, says a question.

Routing's metadata fields (title, purpose, canonical_for, headings) are written to be routed on; the
prose under them is not, yet it is where most answers live. This module reads the body search index
(`search.SearchIndex`, shared with `bank_search`, so a warm server pays for it once) and turns BM25's
pieces into a number in [0, 1) that can sit next to metadata scores without knowing the bank's size:

- per question concept (search concepts: typed form tier 10, another language's word 6, identifier
  parts 1), the BM25 term-frequency part `tf / (tf + k1 · (1 − b + b · length / average))` of its best
  form, × tier / 10. Title and `## ` heading lines are subtracted from `tf`: they are metadata
  already, and counting them twice would let a heading outvote the prose.
- `strength` = Σ idf(concept) · that part ÷ Σ idf(concept): BM25 divided by the most any document could
  score for this question, so 1 would mean every concept, saturated; a word no document holds still
  weighs (at the largest idf), which is what makes an off-topic question weak everywhere.
- `coverage` = the idf-weighted share of the concepts found at all (prime's confidence uses it).

The best line is found the way `bank_search` finds it (`search._best_line`), only for the rows shown.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

from .frozen import Value, assign
from .lang import SearchConcept
from .lang.everyday import everyday_df
from .records import Doc
from .search import SearchIndex, _best_line, _Body, _excerpt, _line_needles

SATURATED_CACHE = 128  # terms whose saturated postings are kept per index
CONCEPT_CACHE = 16  # concepts whose merged evidence is kept per index (each up to one float per document)
BODIES_KEPT, BODY_CHARS = 32, 500_000  # bodies best_line keeps between route calls, and their characters
EXCERPT = 32  # characters of the best line quoted in `why` (five rows must fit 300 tokens)


class Evidence(Value):
    """Per search-index id: prose strength × `total` (Σ idf); the concepts, their idf weights and values."""

    raw: dict[int, float]
    total: float
    concepts: list[SearchConcept]
    weights: list[float]
    per_concept: list[dict[int, float]]
    dfs: tuple[int, ...]  # per concept: the counted documents holding it (0: none does)
    said: list[dict[int, bool]]  # per concept: id -> its metadata names it (memo)
    whole: list[dict[int, float]]  # per concept: its saturated value with the title and heading lines counted

    __slots__ = ("raw", "total", "concepts", "weights", "per_concept", "dfs", "said", "whole")

    def __init__(
        self, raw: dict[int, float], total: float, concepts: list[SearchConcept], weights: list[float],
        per_concept: list[dict[int, float]], dfs: tuple[int, ...] = (), said: list[dict[int, bool]] | None = None,
        whole: list[dict[int, float]] | None = None
    ) -> None:
        assign(self, "raw", raw)
        assign(self, "total", total)
        assign(self, "concepts", concepts)
        assign(self, "weights", weights)
        assign(self, "per_concept", per_concept)
        assign(self, "dfs", dfs)
        assign(self, "said", [] if said is None else said)
        assign(self, "whole", per_concept if whole is None else whole)

    def strength(self, sid: int) -> float:
        return self.raw.get(sid, 0.0) / self.total

    def prose(self, sid: int) -> float:
        """BM25 of the whole body text, title and heading lines included (÷ (k1 + 1)): how `bank_search`
        weighs a document, without its bonuses; route's second ranking (`route._fused_order`)."""
        total = 0.0
        for weight, values in zip(self.weights, self.whole):
            value = values.get(sid)
            if value is not None:
                total += weight * value
        return total

    def coverage(self, sid: int) -> float:
        """The idf-weighted share of the question's concepts the document's prose holds at all."""
        return sum(w for w, values in zip(self.weights, self.per_concept) if sid in values) / self.total

    def named_share(self, index: SearchIndex, sid: int) -> float:
        """The share of the question's concepts the document's title, purpose and canonical keys name
        (`named`), whether or not its prose holds them (route's prose floor, `route._fused_order`)."""
        title, purpose = index.meta[sid]
        terms = title | purpose | index.keys[sid]
        if not terms or not self.concepts:
            return 0.0
        return sum(named(concept, terms) for concept in self.concepts) / len(self.concepts)

    def beyond(self, index: SearchIndex, sid: int, doc: Doc) -> float:
        """Strength from the concepts the document's title, purpose and canonical keys do not hold.

        Each concept counts once per document, at the evidence that names it first: a word the title
        already matched earns nothing more for appearing in the prose too.
        """
        terms: set[str] | None = None
        found = 0.0
        said = self.said or [{} for _ in self.concepts]
        for concept, weight, values, memo in zip(self.concepts, self.weights, self.per_concept, said):
            value = values.get(sid)
            if value:
                held = memo.get(sid)  # kept with the concept's evidence: a document's metadata changes with its id
                if held is None:
                    if terms is None:
                        title, purpose = index.meta[sid]
                        terms = title | purpose | index.keys[sid]
                    held = memo[sid] = named(concept, terms)
                if not held:
                    found += weight * value
        return found / self.total


def _form_parts(index: SearchIndex, terms: tuple[str, ...],
                scale: float) -> tuple[dict[int, float], int, dict[int, float]]:
    """Saturated tf (× scale) per id for a form needing all `terms` (mean over them), the smallest df, and
    the same with title and heading lines counted (`_saturated`)."""
    norm, paths = index.norms(), index.paths
    merged: dict[int, float] | None = None
    whole: dict[int, float] | None = None
    smallest = 0
    every_live = index.live == len(paths)
    for term in terms:
        entry = index.postings.get(term)
        if entry is None:
            return {}, 0, {}
        ids, tfs = entry
        found, df, counted = _saturated(index, term, ids, tfs, norm, paths, every_live)
        if scale != 1.0:
            found = {k: scale * v for k, v in found.items()}
            counted = {k: scale * v for k, v in counted.items()}
        if merged is None or merged:  # the df of the terms up to the first no prose id holds with the others
            smallest = df if merged is None else min(smallest, df)  # a counted df may be 0 (scaffold.py)
            merged = found if merged is None else {k: v + found[k] for k, v in merged.items() if k in found}
        whole = counted if whole is None else {k: v + counted[k] for k, v in whole.items() if k in counted}
        if not whole:
            return {}, smallest, {}
    assert merged is not None and whole is not None
    count = len(terms)
    if count == 1:
        return merged, smallest, whole
    return {k: v / count for k, v in merged.items()}, smallest, {k: v / count for k, v in whole.items()}


def _saturated(index: SearchIndex, term: str, ids: array, tfs: array, norm: list[float], paths: list[str | None],
               every_live: bool) -> tuple[dict[int, float], int, dict[int, float]]:
    """`tf / (tf + norm)` per live id of one term, heading lines subtracted, the term's live document
    frequency, and `tf / (tf + norm)` with the heading lines counted (the whole body, as search counts it);
    memoised per index state.

    The frequency counts live ids only: a warm index keeps a replaced document's postings until it
    compacts, and counting those would push df past the live count (a negative idf), so a server after
    an edit would weigh evidence unlike a fresh build.

    Common terms touch thousands of postings on a large bank; the result only changes when a document
    does, so it is kept (for the `SATURATED_CACHE` most recent terms) until the index's stamp moves.
    """
    stamp = (index.total_length, index.live, len(paths), index.total_postings, index.bank.generation)
    cache = index.saturated
    hit = cache.get(term)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2], hit[3]
    if every_live:
        found = {ident: tf / (tf + norm[ident]) for ident, tf in zip(ids, tfs)}
        df = len(ids)
    else:
        found = {ident: tf / (tf + norm[ident]) for ident, tf in zip(ids, tfs) if paths[ident] is not None}
        df = len(found)
    whole = found
    heads = index.headings.get(term)
    if heads:  # heading lines are metadata: only the prose's occurrences count
        whole = dict(found)
        for ident, in_heads in heads.items():
            if ident in found:
                tf = tfs[bisect_left(ids, ident)] - in_heads  # ids are appended in increasing order
                if tf > 0:
                    found[ident] = tf / (tf + norm[ident])
                else:
                    del found[ident]
    df = index.counted_df(ids, df)  # issue 18: scaffolding holding the term does not count (scaffold.py)
    if len(cache) >= SATURATED_CACHE:
        cache.pop(next(iter(cache)))
    cache[term] = (stamp, found, df, whole)
    return found, df, whole


def body_evidence(index: SearchIndex, concepts: list[SearchConcept]) -> Evidence:
    """Prose evidence of every document holding any of the question's content concepts (see the module doc)."""
    content = _one_per_idea([c for c in concepts if not c.stop])
    raw: dict[int, float] = {}
    weights: list[float] = []
    per_concept: list[dict[int, float]] = []
    said: list[dict[int, bool]] = []
    dfs: list[int] = []
    whole: list[dict[int, float]] = []
    for concept in content:
        weight, best, df, memo, counted = _concept_evidence(index, concept)
        weights.append(weight)
        dfs.append(df)
        per_concept.append(best)
        said.append(memo)
        whole.append(counted)
        if not raw:
            raw = {k: weight * v for k, v in best.items()}
        else:
            get_r = raw.get
            raw.update({k: get_r(k, 0.0) + weight * v for k, v in best.items()})
    return Evidence(raw, sum(weights) or 1.0, content, weights, per_concept, tuple(dfs), said, whole)


def _concept_evidence(index: SearchIndex, concept: SearchConcept
                      ) -> tuple[float, dict[int, float], int, dict[int, bool], dict[int, float]]:
    """One concept's idf weight, saturated value per id and counted df, memoised per index state, with the
    memo of which ids' metadata names it (`Evidence.beyond` fills it) and the saturated value per id with
    title and heading lines counted (`Evidence.prose`).

    Every question that names a concept repeats this merge over all its forms' postings (thousands
    of ids for a common word); it changes only when a document does, so it is kept (for the
    `CONCEPT_CACHE` most recent concepts) until the index's stamp moves, like `_saturated`.
    Callers must not change the returned dict."""
    stamp = (index.total_length, index.live, len(index.paths), index.total_postings, index.bank.generation,
             index.lexicon)
    cache = index.concept_evidence
    hit = cache.get(concept)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2], hit[3], hit[4], hit[5]
    floor = index.idf(0)
    counted = index.population()[0]
    lexicon = index.lexicon
    assert lexicon is not None
    df = 0
    whole_known = any(index.holds(form.terms[0]) for form in concept.forms)
    forms = concept.parts if concept.parts and not whole_known else concept.forms
    summed = forms is concept.parts
    parts = [_form_parts(index, form.terms, form.tier / 10) for form in forms]
    for _, smallest, _ in parts:
        if smallest and (not df or smallest < df):
            df = smallest
    best = _best_form([found for found, _, _ in parts], summed)
    whole = _best_form([with_heads for _, _, with_heads in parts], summed)
    if df and any(lexicon.everyday(form.label) for form in concept.forms):
        weight = index.idf(everyday_df(df, counted))  # an everyday word held: little evidence (everyday.py)
    else:
        weight = index.idf(df) if df else floor
    if len(cache) >= CONCEPT_CACHE:
        cache.pop(next(iter(cache)))
    memo: dict[int, bool] = {}
    cache[concept] = (stamp, weight, best, df, memo, whole)
    return weight, best, df, memo, whole


def _best_form(per_form: list[dict[int, float]], summed: bool) -> dict[int, float]:
    """Per id, a concept's best form, or for an identifier's parts their sum capped at 1."""
    best: dict[int, float] = {}
    owned = False  # `best` may be `_saturated`'s memo itself: copied before a later form changes it
    for parts in per_form:
        if not best:
            best = parts
            continue
        get = best.get
        if summed:
            changes = {k: get(k, 0.0) + v for k, v in parts.items()}
        else:
            changes = {k: v for k, v in parts.items() if v > get(k, 0.0)}
        if changes:
            if not owned:
                best, owned = dict(best), True
            best.update(changes)
    return {k: min(v, 1.0) for k, v in best.items()} if summed else best


def named(concept: SearchConcept, terms: set[str]) -> bool:
    """Do these metadata terms hold the concept: a form whole, or an identifier's every part?"""
    if any(all(t in terms for t in form.terms) for form in concept.forms):
        return True
    return bool(concept.parts) and all(all(t in terms for t in part.terms) for part in concept.parts)


def _one_per_idea(concepts: list[SearchConcept]) -> list[SearchConcept]:
    """Drop a concept that translates an earlier one (`invoice 发票 счет` is one idea typed three times)."""
    out: list[SearchConcept] = []
    seen: set[tuple[str, ...]] = set()
    for concept in concepts:
        forms = {form.terms for form in concept.forms}
        if forms & seen:
            continue
        seen |= forms
        out.append(concept)
    return out


def line_needles(index: SearchIndex, evidence: Evidence) -> list:
    """The literals that place each of the evidence's concepts on a line (the same for every document)."""
    assert index.lexicon is not None
    return _line_needles(index.lexicon, evidence.concepts)


def best_line(index: SearchIndex, evidence: Evidence, doc: Doc,
              needles: list | None = None) -> tuple[int, str, str | None] | None:
    """The body line carrying most of the evidence: `(file line, short excerpt, heading above it)`.

    `needles`: `line_needles(index, evidence)`, when the caller places lines in several documents."""
    body = kept_body(index, doc)
    if body is None or not body.text or not evidence.concepts:
        return None
    assert index.lexicon is not None
    if needles is None:
        needles = line_needles(index, evidence)
    line, excerpt = _best_line(needles, evidence.weights, body, doc.body_line, evidence.concepts, index.lexicon)
    if not excerpt:
        return None
    return line, quote(body.lines[line - doc.body_line], evidence.concepts), section_at(doc, line)


def quote(line: str, concepts: list) -> str:
    """A best line as `why` quotes it: `EXCERPT` characters around the evidence (a long line's first 32
    characters seldom held it; from the line's start when the evidence shows there), list, quote and table
    marks off."""
    return short_excerpt(_excerpt(line.lstrip().lstrip("#>-*| "), concepts, room=EXCERPT, lead=EXCERPT // 4,
                                  keep=EXCERPT - EXCERPT // 4))


def short_excerpt(excerpt: str) -> str:
    """A best line's excerpt as `why` quotes it: list, quote and table marks off, ≤ `EXCERPT` characters."""
    excerpt = excerpt.lstrip("#>-*| ").strip() or excerpt
    if len(excerpt) > EXCERPT:
        excerpt = excerpt[:EXCERPT - 1].rstrip() + "…"
    return excerpt


def section_at(doc: Doc, line: int) -> str | None:
    """The `## ` heading above a file line, if any."""
    section = None
    for candidate in doc.sections:
        if candidate.line <= line:
            section = candidate.title
        else:
            break
    return section


def kept_body(index: SearchIndex, doc: Doc) -> _Body | None:
    """The document's body as `_best_line` reads it, kept between route calls with the lines each concept
    was found on (`_Body.placed`), for the `BODIES_KEPT` documents last shown and at most `BODY_CHARS`
    characters in all.

    Kept per parsed document: a refresh that sees the file's stamp move parses it again into a new
    `Doc`, which misses here, so an edit, a rename or a delete is never answered from an old text.
    None when the file cannot be read (not kept: the next call tries again)."""
    kept = index.bodies
    hit = kept.pop(doc.path, None)
    if hit is not None and hit[0] is doc:
        kept[doc.path] = hit  # the most recent last
        return hit[1]
    text = index.body(doc.path, doc)
    if text is None:
        return None
    body = _Body(text)
    if len(text) <= BODY_CHARS:
        kept[doc.path] = (doc, body)
        size = sum(len(entry[1].text) for entry in kept.values())
        while len(kept) > BODIES_KEPT or size > BODY_CHARS:  # the oldest go first
            size -= len(kept.pop(next(iter(kept)))[1].text)
    return body
