"""Body evidence for routing (issue 14): how strongly a document's prose, outside its headings, says a question.

Routing's metadata fields (title, purpose, canonical_for, headings) are written to be routed on; the
prose under them is not, yet it is where most answers live. This module reads the body search index
(`search.SearchIndex`, shared with `bank_search`, so a warm server pays for it once) and turns BM25's
pieces into a number in [0, 1) that can sit next to metadata scores without knowing the bank's size:

- per question concept (search concepts: typed form tier 10, another language's word 6, identifier
  parts 1), the BM25 term-frequency part `tf / (tf + k1 · (1 − b + b · length / average))` of its best
  form, × tier / 10. Heading lines are subtracted from `tf`: headings and the title are metadata
  already, and counting them twice would let a heading outvote the prose.
- `strength` = Σ idf(concept) · that part ÷ Σ idf(concept): BM25 divided by the most any document could
  score for this question, so 1 would mean every concept, saturated; a word no document holds still
  weighs (at the largest idf), which is what makes an off-topic question weak everywhere.
- `coverage` = the idf-weighted share of the concepts found at all (prime's confidence uses it).

The best line is found the way `bank_search` finds it (`search._best_line`), only for the rows shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lang import SearchConcept
from .records import Doc
from .search import SearchIndex, _best_line, _Body, _line_needles

EXCERPT = 60  # characters of the best line quoted in `why`


@dataclass(frozen=True, slots=True)
class Evidence:
    """Per search-index id: prose strength and idf-weighted coverage; the concepts and their idf weights."""

    strength: dict[int, float]
    coverage: dict[int, float]
    concepts: list[SearchConcept]
    weights: list[float]
    per_concept: list[dict[int, float]]

    def beyond(self, index: SearchIndex, sid: int, doc: Doc) -> float:
        """Strength from the concepts the document's title, purpose and canonical keys do not hold.

        Each concept counts once per document, at the evidence that names it first: a word the title
        already matched earns nothing more for appearing in the prose too.
        """
        title, purpose = index.meta[sid]
        assert index.lexicon is not None
        terms = set(title) | set(purpose)
        if doc.canonical_for:
            terms |= index.lexicon.search_terms(" ".join(doc.canonical_for))
        total = sum(self.weights) or 1.0
        found = 0.0
        for concept, weight, values in zip(self.concepts, self.weights, self.per_concept):
            value = values.get(sid)
            if value and not _named(concept, terms):
                found += weight * min(value, 1.0)
        return found / total


def _form_parts(index: SearchIndex, terms: tuple[str, ...], scale: float) -> tuple[dict[int, float], int]:
    """Saturated tf (× scale) per id for a form needing all `terms` (mean over them), and the smallest df."""
    norm, paths, headed = index.norms(), index.paths, index.headed
    merged: dict[int, float] | None = None
    smallest = 0
    for term in terms:
        entry = index.postings.get(term)
        if entry is None:
            return {}, 0
        found: dict[int, float] = {}
        for ident, tf in zip(*entry):
            if paths[ident] is None:
                continue
            heads = headed[ident]
            if heads is not None:
                tf -= heads.get(term, 0)
                if tf <= 0:
                    continue
            found[ident] = scale * tf / (tf + norm[ident])
        smallest = len(entry[0]) if not smallest else min(smallest, len(entry[0]))
        merged = found if merged is None else {k: v + found[k] for k, v in merged.items() if k in found}
        if not merged:
            return {}, smallest
    assert merged is not None
    count = len(terms)
    return ({k: v / count for k, v in merged.items()} if count > 1 else merged), smallest


def body_evidence(index: SearchIndex, concepts: list[SearchConcept]) -> Evidence:
    """Strength and coverage of every document whose prose holds any of the question's content concepts."""
    content = _one_per_idea([c for c in concepts if not c.stop])
    strength: dict[int, float] = {}
    covered: dict[int, float] = {}
    weights: list[float] = []
    per_concept: list[dict[int, float]] = []
    floor = index.idf(0)
    for concept in content:
        best: dict[int, float] = {}
        df = 0
        whole_known = any(form.terms[0] in index.postings for form in concept.forms)
        forms = concept.parts if concept.parts and not whole_known else concept.forms
        summed = forms is concept.parts
        for form in forms:
            parts, smallest = _form_parts(index, form.terms, form.tier / 10)
            if smallest and (not df or smallest < df):
                df = smallest
            get = best.get
            if summed:
                best.update({k: get(k, 0.0) + v for k, v in parts.items()})
            else:
                best.update({k: v for k, v in parts.items() if v > get(k, 0.0)})
        weight = index.idf(df) if df else floor
        weights.append(weight)
        per_concept.append(best)
        get_s, get_c = strength.get, covered.get
        for ident, value in best.items():
            strength[ident] = get_s(ident, 0.0) + weight * min(value, 1.0)
            covered[ident] = get_c(ident, 0.0) + weight
    total = sum(weights) or 1.0
    return Evidence({k: v / total for k, v in strength.items()}, {k: v / total for k, v in covered.items()},
                    content, weights, per_concept)


def _named(concept: SearchConcept, terms: set[str]) -> bool:
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


def best_line(index: SearchIndex, evidence: Evidence, doc: Doc) -> tuple[int, str, str | None] | None:
    """The body line carrying most of the evidence: `(file line, short excerpt, heading above it)`."""
    text = index.body(doc.path, doc)
    if not text or not evidence.concepts:
        return None
    assert index.lexicon is not None
    needles = _line_needles(index.lexicon, evidence.concepts)
    line, excerpt = _best_line(needles, evidence.weights, _Body(text), doc.body_line, evidence.concepts,
                               index.lexicon)
    if not excerpt:
        return None
    excerpt = excerpt.lstrip("#>-*| ").strip() or excerpt
    if len(excerpt) > EXCERPT:
        excerpt = excerpt[:EXCERPT - 1].rstrip() + "…"
    section = None
    for candidate in doc.sections:
        if candidate.line <= line:
            section = candidate.title
        else:
            break
    return line, excerpt, section
