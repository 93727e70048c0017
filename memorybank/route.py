"""Routing (§5): rank documents by their hand-written metadata for "what should I read about X".

Only `canonical_for`, `purpose`, `title` and the `## ` headings are read — never bodies. Each
document's fields are tokenised once (when the document is parsed or the vocabulary changes) into
`RouteFields`, and an inverted index `term → {path: [slot]}` answers a question by touching only the
documents that share a term with it, so a warm route costs the postings it reads, not the bank size.

Scoring, per SPEC §5:
- a question becomes concepts (`Lexicon.concepts`); a concept form matches a field word exactly
  (1.0) or by prefix (0.6: either is a prefix of the other, the typed word has ≥ 4 characters and
  so do both terms — the stem `fil` of "files" must not prefix-match `filter`); an equivalent from
  another language scores × 0.9. Each concept counts once per field — its best match (typed form
  first, so on a tie the typed form wins).
- canonical_for 5 × best key's (sum of concept matches ÷ key words, capped at 1); purpose 3 × sum;
  title 2 × sum; best single heading 1 × sum (returned as `section`).
- × layer weight (bank.layer_weights) × status (active 1, draft 0.7, archived 0.2, other 0.9)
  × closed work (delivery_status done/cancelled 0.5) × why-intent (decision 4/3, knowledge 0.8).

Choices the SPEC leaves open: the number of words of a canonical key is its count of distinct
content terms (stopwords dropped); prefix matching compares terms (stems) of ≥ 4 characters; an
empty question is refused, a stopword-only one returns no results; `limit` above 25 is clamped; an
unknown `layer` filter is refused because layers are a fixed set. `why` says "owns canonical_for"
only when every word of the key matched.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .bank import Bank
from .derived import DerivedIndex
from .lang import Lexicon, why_intent
from .query import check_query
from .records import Doc

DEFAULT_LIMIT = 5
MAX_LIMIT = 25
EXACT, PREFIX, TRANSLATION = 1.0, 0.6, 0.9
MIN_PREFIX_QUERY, MIN_PREFIX_TERM = 4, 4
WEIGHT_CANONICAL, WEIGHT_PURPOSE, WEIGHT_TITLE, WEIGHT_SECTION = 5.0, 3.0, 2.0, 1.0
STATUS_FACTOR = {"active": 1.0, "draft": 0.7, "archived": 0.2}
OTHER_STATUS_FACTOR = 0.9
CLOSED_WORK = frozenset({"done", "cancelled"})
CLOSED_FACTOR = 0.5
WHY_FACTOR = {"decision": 4 / 3, "knowledge": 0.8}
HINT = "No document's title, purpose, canonical_for or headings match; try bank_search for a literal in bodies."

# Slot codes: field in the low two bits, key/section number above them.
CANONICAL, PURPOSE, TITLE, SECTION = 0, 1, 2, 3

Terms = tuple[tuple[str, str], ...]  # (term, surface) pairs, in field order


@dataclass(frozen=True, slots=True)
class RouteFields:
    """One document's routing fields, tokenised."""

    keys: tuple[tuple[str, Terms], ...]
    purpose: Terms
    title: Terms
    sections: tuple[tuple[str, Terms], ...]

    def slots(self) -> list[tuple[int, Terms]]:
        out = [(CANONICAL | (i << 2), terms) for i, (_, terms) in enumerate(self.keys)]
        out.append((PURPOSE, self.purpose))
        out.append((TITLE, self.title))
        out.extend((SECTION | (i << 2), terms) for i, (_, terms) in enumerate(self.sections))
        return out

    def terms_of(self, code: int) -> Terms:
        field, number = code & 3, code >> 2
        if field == CANONICAL:
            return self.keys[number][1]
        if field == SECTION:
            return self.sections[number][1]
        return self.purpose if field == PURPOSE else self.title


def _terms(lexicon: Lexicon, text: str | None) -> Terms:
    if not text:
        return ()
    return tuple((term, surface) for term, surface, _ in lexicon.route_terms(text))


def route_fields(lexicon: Lexicon, doc: Doc) -> RouteFields:
    """Tokenise a document's routing fields (done once per parsed document, never per question)."""
    keys = []
    for key in doc.canonical_for:
        distinct: dict[str, tuple[str, str]] = {}
        for term, surface in _terms(lexicon, key):
            distinct.setdefault(term, (term, surface))
        terms = tuple(distinct.values())
        if terms:
            keys.append((key, terms))
    return RouteFields(
        keys=tuple(keys),
        purpose=_terms(lexicon, doc.purpose),
        title=_terms(lexicon, doc.title),
        sections=tuple((s.title, _terms(lexicon, s.title)) for s in doc.sections),
    )


class RouteIndex(DerivedIndex):
    """Per-bank routing index: tokenised fields per document and `term → {path: [slot]}` postings."""

    cache_key = "route.index"

    def _reset(self) -> None:
        self.fields: dict[str, RouteFields] = {}
        self.postings: dict[str, dict[str, list[int]]] = {}
        self._sorted: list[str] | None = None

    def _add(self, path: str, doc: Doc) -> bool:
        assert self.lexicon is not None
        fields = route_fields(self.lexicon, doc)
        self.fields[path] = fields
        for code, terms in fields.slots():
            for term in {t for t, _ in terms}:
                bucket = self.postings.get(term)
                if bucket is None:
                    bucket = self.postings[term] = {}
                    self._sorted = None
                bucket.setdefault(path, []).append(code)
        return True

    def _remove(self, path: str) -> None:
        fields = self.fields.pop(path, None)
        if fields is None:
            return
        for _, terms in fields.slots():
            for term, _ in terms:
                bucket = self.postings.get(term)
                if bucket is not None and bucket.pop(path, None) is not None and not bucket:
                    del self.postings[term]
                    self._sorted = None

    def matches(self, term: str, allow_prefix: bool) -> list[tuple[str, float]]:
        """Field terms a query term meets: itself (1.0) and, if allowed, prefix relatives (0.6)."""
        found = [(term, EXACT)] if term in self.postings else []
        if not allow_prefix or len(term) < MIN_PREFIX_TERM:
            return found
        if self._sorted is None:
            self._sorted = sorted(self.postings)
        terms = self._sorted
        i = bisect_left(terms, term)
        while i < len(terms) and terms[i].startswith(term):
            if terms[i] != term:
                found.append((terms[i], PREFIX))
            i += 1
        for size in range(MIN_PREFIX_TERM, len(term)):
            head = term[:size]
            if head in self.postings:
                found.append((head, PREFIX))
        return found


def _multiplier(bank_weights: dict[str, float], doc: Doc, intent: bool) -> float:
    factor = bank_weights.get(doc.layer, 1.0)
    factor *= STATUS_FACTOR.get(doc.status or "", OTHER_STATUS_FACTOR)
    if doc.delivery_status in CLOSED_WORK:
        factor *= CLOSED_FACTOR
    if intent:
        factor *= WHY_FACTOR.get(doc.layer, 1.0)
    return factor


def _quote(words: list[str]) -> str:
    return '"' + ", ".join(words) + '"'


def _matched_surfaces(terms: Terms, matched: set[str]) -> list[str]:
    return list(dict.fromkeys(surface for term, surface in terms if term in matched))


def route(bank: Bank, question: str, limit: int = DEFAULT_LIMIT, doc_kind: str | None = None,
          layer: str | None = None, status: str | None = None) -> dict:
    """Rank routable documents for a question by metadata (§5); `{results: [...]}` plus `hint` when empty."""
    limit = check_query(question, limit, MAX_LIMIT, layer)
    bank.refresh()
    index = RouteIndex.of(bank)
    assert index.lexicon is not None
    concepts = index.lexicon.concepts(question)
    if not concepts:
        return {"results": [], "hint": HINT}

    # concept × (path, slot) → best (score, field term); typed form first so it wins ties
    hits: dict[str, dict[int, list[tuple[float, str]]]] = {}
    docs = bank.docs
    allowed: dict[str, bool] = {}
    for concept in concepts:
        best: dict[tuple[str, int], tuple[float, str]] = {}
        forms = [(concept.term, EXACT, concept.prefix)]
        forms.extend((eq, TRANSLATION, len(eq) >= MIN_PREFIX_QUERY) for eq in concept.equivalents)
        for term, weight, allow_prefix in forms:
            for field_term, quality in index.matches(term, allow_prefix):
                score = weight * quality
                for path, codes in index.postings[field_term].items():
                    ok = allowed.get(path)
                    if ok is None:
                        doc = docs[path]
                        ok = allowed[path] = ((doc_kind is None or doc.doc_kind == doc_kind)
                                              and (layer is None or doc.layer == layer)
                                              and (status is None or doc.status == status))
                    if not ok:
                        continue
                    for code in codes:
                        key = (path, code)
                        prev = best.get(key)
                        if prev is None or score > prev[0]:
                            best[key] = (score, field_term)
        for (path, code), found in best.items():
            hits.setdefault(path, {}).setdefault(code, []).append(found)

    intent = why_intent(question)
    weights = bank.layer_weights
    ranked: list[tuple[float, str, dict[int, list[tuple[float, str]]]]] = []
    for path, slots in hits.items():
        fields = index.fields[path]
        canonical = purpose = title = section = 0.0
        for code, found in slots.items():
            total = sum(score for score, _ in found)
            field = code & 3
            if field == CANONICAL:
                canonical = max(canonical, min(1.0, total / len(fields.keys[code >> 2][1])))
            elif field == PURPOSE:
                purpose = total
            elif field == TITLE:
                title = total
            else:
                section = max(section, total)
        raw = (WEIGHT_CANONICAL * canonical + WEIGHT_PURPOSE * purpose + WEIGHT_TITLE * title
               + WEIGHT_SECTION * section)
        score = round(raw * _multiplier(weights, docs[path], intent), 4)
        if score > 0:
            ranked.append((score, path, slots))
    ranked.sort(key=lambda item: (-item[0], item[1]))
    results = [_result(docs[path], index.fields[path], score, slots) for score, path, slots in ranked[:limit]]
    if not results:
        return {"results": [], "hint": HINT}
    return {"results": results}


def _result(doc: Doc, fields: RouteFields, score: float, slots: dict[int, list[tuple[float, str]]]) -> dict:
    """One result row with its `why` line and, when a heading matched, the `section` to read."""
    why: list[str] = []
    best_key: tuple[float, int] | None = None
    best_section: tuple[float, int] | None = None
    for code, found in sorted(slots.items()):
        field, number = code & 3, code >> 2
        total = sum(s for s, _ in found)
        if field == CANONICAL:
            ratio = min(1.0, total / len(fields.keys[number][1]))
            if best_key is None or ratio > best_key[0]:
                best_key = (ratio, number)
        elif field == SECTION and (best_section is None or total > best_section[0]):
            best_section = (total, number)
    if best_key is not None:
        key, terms = fields.keys[best_key[1]]
        matched = {t for _, t in slots[CANONICAL | (best_key[1] << 2)]}
        words = _matched_surfaces(terms, matched)
        if len(words) >= len(terms):
            why.append(f"owns canonical_for: {key}")
        else:
            why.append(f"canonical_for: {key} ({len(words)} of {len(terms)} words)")
    for field, name, terms in ((PURPOSE, "purpose", fields.purpose), (TITLE, "title", fields.title)):
        if field in slots:
            matched = {t for _, t in slots[field]}
            why.append(f"{name}: {_quote(_matched_surfaces(terms, matched))}")
    section: str | None = None
    if best_section is not None:
        section = fields.sections[best_section[1]][0]
        why.append(f'section: "{section}"')
    out: dict = {"path": doc.path, "title": doc.title, "purpose": doc.purpose, "doc_kind": doc.doc_kind,
                 "layer": doc.layer, "status": doc.status, "score": round(score, 3), "why": "; ".join(why)}
    if section is not None:
        out["section"] = section
    return out
