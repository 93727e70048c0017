"""Routing (§5, issue 14): rank documents for "what should I read about X".

Two kinds of evidence are fused (see `routed`): the hand-written metadata (`canonical_for`, `purpose`,
`title`, `## ` headings), scored as below, and the prose of the body, read from the body search index
(`evidence.py`). Metadata keeps its exact score; body evidence adds to it, and the order fuses that
score's ranking with the body text's own BM25 ranking by reciprocal rank (`_fused_order`). Each
document's fields are tokenised once (when the document is parsed or the vocabulary changes) into
`RouteFields`, and an inverted index (`term → Postings`: document ids per field, key and heading
slots) answers a question by touching only the documents that share a term with it; see `route`
for how the ranking stays exact while scoring only the documents that can reach the top.

Scoring, per SPEC §5:
- a question becomes concepts (`Lexicon.concepts`); a concept form matches a field word exactly
  (1.0) or by prefix (0.6: either is a prefix of the other, the typed word has ≥ 4 characters and
  so do both terms — the stem `fil` of "files" must not prefix-match `filter`); an equivalent from
  another language scores × 0.9. Each concept counts once per field — its best match (typed form
  first, so on a tie the typed form wins).
- canonical_for 5 × best key's coverage² (coverage = sum of concept matches ÷ key words, capped at
  1); purpose 3 × sum; title 2 × sum; best single heading 1 × sum (returned as `section`).
  SPEC §5 scores coverage linearly, but issue 3 requires that one word of a compound key not
  outrank a direct title match, and linearly half of a two-word key (2.5) beats a title word (2).
  Squaring keeps a full key at 5 and makes partial keys fade fast (½ → 1.25, ⅔ → 2.2).
- issue 14 (over SPEC §5's flat weights): a purpose, title or heading match is × the concept's
  rarity (`RouteIndex.rarity`: BM25 idf over the knowledge documents (issue 18, `scaffold.py`)
  holding it in any field or in the prose ÷ the idf of a one-document word;
  a concept takes its most common matched form's), so a word most documents' metadata shares stops
  outranking body evidence. Keys are unweighted: the owner of a canonical key keeps its lead. The
  rarity is ≤ 1, so the walk's integer bound below stays an upper bound.
- × layer weight (bank.layer_weights) × status (active 1, draft 0.7, archived 0.2, other 0.9)
  × closed work (delivery_status done/cancelled 0.5) × why-intent (decision 4/3, knowledge 0.8).

Choices the SPEC leaves open: the number of words of a canonical key is its count of distinct
content terms (stopwords dropped); prefix matching compares terms (stems) of ≥ 4 characters; an
empty question is refused, a stopword-only one returns no results; `limit` above 25 is clamped; an
unknown `layer` filter is refused because layers are a fixed set. `why` says "owns canonical_for"
only when every word of the key matched.
"""

from __future__ import annotations

import bisect
import heapq
import math
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from operator import itemgetter

from .answertype import answer_types, with_number_lines
from .bank import Bank
from .derived import DerivedIndex
from .echo import title_echo
from .evidence import Evidence, best_line, body_evidence, line_needles
from .frozen import Value, assign
from .lang import Concept, Lexicon, about_bank, why_intent
from .lang.everyday import everyday_df
from .layout import declares_metadata, overview_damped, role_scores, with_role
from .literal import literal_holders, question_literals
from .passage import with_passages
from .query import check_filters, check_query, empty_hint
from .records import Doc
from .routefit import fit_answer, shown_words
from .scaffold import counts_toward_statistics
from .scaffold import later as scaffold_later
from .search import SearchIndex
from .termmatch import EXACT, MIN_PREFIX_QUERY, PREFIX, TRANSLATION, term_matches

DEFAULT_LIMIT = 5
MAX_LIMIT = 25
# the candidate draws a route ranks in (`routed`): the first 5 results are fused among the candidates drawn
# for 5, the next 5 among those drawn for 10, and so on, so a larger `limit` extends the same ranking
DRAWS = (5, 10, 20, MAX_LIMIT)
WEIGHT_CANONICAL, WEIGHT_PURPOSE, WEIGHT_TITLE, WEIGHT_SECTION = 5.0, 3.0, 2.0, 1.0
WEIGHT_BODY = 5.0  # prose saying the whole question, saturated, weighs what owning a canonical key does
TITLE_NAMED = 5.0  # the least a title saying the whole question scores (route-title: the question names the document)
TITLE_MAX = 40  # characters of a title in a result
SECTION_MAX = 40  # characters of a `section`: a clipped heading still opens it (bank_read matches a part of one)
WHY_MAX = 160  # characters of a `why` line
WHY_WORDS = 3  # matched words named per field in `why`
KEY_SHOWN, WORD_SHOWN = 60, 24  # characters of a canonical key and of one matched word named in `why`
FUSE_K, BODY_VOTE = 2, 0.75  # reciprocal-rank fusion (`_fused_order`): rank offset, weight of the prose ranking
# s8-gov, the prose floor (`_fused_order`): below this share of the strongest candidate's prose, the score vote of
PROSE_FLOOR, PASSING = 0.5, 0.5  # a row whose title, purpose and keys name under this share of the question fades
KEY_WORD_LEAST = PREFIX * TRANSLATION  # the least a key word matched at all adds to a key's coverage
INDEX_BODY = 0.5  # an index's prose mostly describes the documents it links to
STATUS_FACTOR = {"active": 1.0, "draft": 0.7, "archived": 0.2}
OTHER_STATUS_FACTOR = 0.9
CLOSED_WORK = frozenset({"done", "cancelled"})
CLOSED_FACTOR = 0.5
WHY_FACTOR = {"decision": 4 / 3, "knowledge": 0.8}
# dna/ holds rules about the bank itself (frontmatter, layers, lifecycle): on a question about the
# project its documents only answer when nothing else does (issue 18: adopt added them to plain banks)
SELF_LAYER, SELF_FACTOR = "dna", 0.25
HINT = "No document's title, purpose, canonical_for or headings match; search bodies for a literal."

# A key or heading is addressed by a slot: document id << 12 | its number (the first 4,096 count).
SLOT_BITS = 12
SLOT_LIMIT = 1 << SLOT_BITS
CONCEPT_HITS = 16  # question concepts whose matches and per-field scores a warm index keeps (`concept_hits`)
CONCEPT_HITS_ENTRIES = 4096  # ... each at most this many per-document scores (memory grows with the bank)
EVIDENCE_KEPT, EVIDENCE_ENTRIES = 8, 2048  # questions whose body evidence a warm index keeps, each of ≤ this many ids

Terms = tuple[tuple[str, str, str], ...]  # (term, surface, language), in field order (shared lexicon tuples)
_TERM = itemgetter(0)  # a Terms triple's term


class RouteFields(Value):
    """One document's routing fields, tokenised."""

    keys: tuple[tuple[str, Terms], ...]
    purpose: Terms
    title: Terms
    sections: tuple[tuple[str, Terms], ...]

    __slots__ = ("keys", "purpose", "title", "sections")

    def __init__(
        self, keys: tuple[tuple[str, Terms], ...], purpose: Terms, title: Terms,
        sections: tuple[tuple[str, Terms], ...]
    ) -> None:
        assign(self, "keys", keys)
        assign(self, "purpose", purpose)
        assign(self, "title", title)
        assign(self, "sections", sections)


def _terms(lexicon: Lexicon, text: str | None) -> Terms:
    return lexicon.route_terms(text) if text else ()


def route_fields(lexicon: Lexicon, doc: Doc) -> RouteFields:
    """Tokenise a document's routing fields (done once per parsed document, never per question)."""
    keys = []
    for key in doc.canonical_for:
        distinct: dict[str, tuple[str, str, str]] = {}
        for triple in _terms(lexicon, key):
            distinct.setdefault(triple[0], triple)
        terms = tuple(distinct.values())
        if terms:
            keys.append((key, terms))
    return RouteFields(
        keys=tuple(keys)[:SLOT_LIMIT],
        purpose=() if doc.purpose_echo else _terms(lexicon, doc.purpose),  # an echo is body (echo.py)
        title=_terms(lexicon, doc.title),
        sections=tuple((s.title, _terms(lexicon, s.title)) for s in doc.sections)[:SLOT_LIMIT],
    )


class Slots(array):
    """Distinct ints (document ids or slots), ascending, 4 bytes each, with the few set operations the
    index and the scorer use (`add`, `discard`, `in`, `|`): a set of 100 slots costs ~7 KB (an int
    object and a hash entry each), this 0.5 KB (issue 15: server memory). Ids only grow, so `add`
    appends; `in` is a binary search."""

    __slots__ = ()

    def __new__(cls, values: Iterable[int] = ()) -> Slots:
        return super().__new__(cls, "i", values)

    def add(self, value: int) -> None:
        if not self or self[-1] < value:
            self.append(value)
        else:
            at = bisect_left(self, value)
            if self[at] != value:
                self.insert(at, value)

    def discard(self, value: int) -> None:
        at = bisect_left(self, value)
        if at < len(self) and self[at] == value:
            del self[at]

    def __contains__(self, value: object) -> bool:
        at = bisect_left(self, value)  # type: ignore[call-overload]
        return at < len(self) and self[at] == value

    def __or__(self, other: Iterable[int]) -> set[int]:  # type: ignore[override]
        return set(self).union(other)

    __ror__ = __or__


class Postings:
    """Where one term occurs: document ids per field; for keys and headings, slots `id << 12 | number`."""

    __slots__ = ("purpose", "title", "keys", "key_ids", "sections")

    def __init__(self) -> None:
        self.purpose = Slots()
        self.title = Slots()
        self.keys = Slots()
        self.key_ids = Slots()  # ids of the documents behind `keys`
        self.sections = Slots()

    def __bool__(self) -> bool:
        return bool(self.purpose or self.title or self.keys or self.sections)


class RouteIndex(DerivedIndex):
    """Per-bank routing index: tokenised fields per document id and per-term `Postings`."""

    cache_key = "route.index"

    def _reset(self) -> None:
        self.ids: dict[str, int] = {}
        self.paths: list[str | None] = []
        self.fields: dict[int, RouteFields] = {}
        self.prose_titles: set[int] = set()  # ids whose title is not declared in frontmatter (H1, file name)
        self.postings: dict[str, Postings] = {}
        self._sorted: list[str] | None = None
        self._longest = 0
        self._factors: dict[tuple[bool, bool], list[float]] = {}
        self._factors_for = (-1, -1)
        self._rarity: dict[str, float] = {}  # term -> idf ÷ the largest idf, cleared on any change
        self._rarity_all: dict[str, float] = {}  # the same over fields and prose, cleared as well
        self._rarity_for: tuple | None = None  # the body index's state `_rarity_all` was computed with
        self._population: tuple[tuple, tuple[int, frozenset[int]]] = ((), (0, frozenset()))
        self._hits: dict[Concept, tuple[tuple, dict[str, float], _ConceptHits | None]] = {}  # `concept_hits`
        self._evidence: dict[tuple[str, int], tuple[Evidence, list[int]]] = {}  # `question_evidence`
        self._evidence_for: tuple | None = None  # the body index state `_evidence` holds for

    def factors(self, intent: bool, self_intent: bool = True) -> list[float]:
        """Per document id: layer weight × status × closed work (× why-intent, × the dna/ damping unless
        the question is about the bank itself); 0 for removed ids.

        Cached per (bank generation, id count): statuses change only with a file, layer weights only
        with dna/, and either bumps the generation.
        """
        stamp = (self.bank.generation, len(self.paths))
        if stamp != self._factors_for:
            self._factors, self._factors_for = {}, stamp
        found = self._factors.get((intent, self_intent))
        if found is None:
            weights, docs = self.bank.layer_weights, self.bank.docs
            found = [0.0] * len(self.paths)
            for ident, path in enumerate(self.paths):
                doc = docs.get(path) if path is not None else None
                if doc is not None:
                    found[ident] = _multiplier(weights, doc, intent, self_intent)
            self._factors[(intent, self_intent)] = found
        return found

    def rarity(self, term: str, body: SearchIndex | None = None) -> float:
        """How distinctive a routing word is in this bank: BM25 idf ÷ the idf of a word held by one
        document (1.0 for a word one document has, → 0 as every document has it).

        Document frequency counts documents holding the term in a routing field and, with `body`
        (the bank's body index), in the prose too: a word every document's body uses (`project` in a
        project's bank) says as little in a title or heading as it does in prose. Cached per term
        until either index changes, so a warm route pays one dict lookup per matched term."""
        if body is None:
            cache = self._rarity
        else:
            stamp = (body.live, len(body.paths), body.total_postings)
            if stamp != self._rarity_for:
                self._rarity_all.clear()
                self._rarity_for = stamp
            cache = self._rarity_all
        live, left = self.population()  # issue 18: the project's knowledge only (scaffold.py)
        found = cache.get(term)
        if found is None:
            entry = self.postings.get(term)
            if entry is None or live == 0:
                return 1.0
            # issue 18: scaffolding (dna/, indexes) neither holds nor counts (scaffold.py)
            holders = len((entry.purpose | entry.title | entry.key_ids | {slot >> SLOT_BITS for slot in entry.sections})
                          - left)
            if body is not None and body.live:
                counted = body.population()[0]
                prose = body.postings.get(term)
                if prose is not None:
                    ids, paths = prose[0], body.paths
                    df = len(ids) if body.live == len(paths) else sum(paths[ident] is not None for ident in ids)
                    holders = max(holders, body.counted_df(ids, df))
                live = max(live, counted)
            if self.lexicon is not None and self.lexicon.everyday(term):  # a prior on general frequency (everyday.py)
                holders = everyday_df(holders, live)
            # a word only scaffolding holds counts as one document's: the rarity stays ≤ 1 (the walk's bound)
            found = _idf(live, max(1, min(holders, live))) / _idf(live, 1)
            cache[term] = found
        return found

    def concept_hits(self, concept: Concept, body: SearchIndex) -> tuple[dict[str, float], _ConceptHits | None]:
        """A question concept's field matches (`_concept_matches`) and its per-field scores (`_ConceptHits`,
        None when nothing matched), memoised per index state for the `CONCEPT_HITS` most recent concepts
        of at most `CONCEPT_HITS_ENTRIES` scores each (at 50,000 documents an unbounded memo held 70 MB):
        both depend only on the concept and the two indexes, and a question repeating a word would
        otherwise redo its prefix search and rebuild a dict over every document holding it. Read only."""
        stamp = (self.bank.generation, len(self.paths), len(self.ids), body.live, len(body.paths),
                 body.total_postings, self.lexicon)
        hit = self._hits.get(concept)
        if hit is not None and hit[0] == stamp:
            return hit[1], hit[2]
        matched = _concept_matches(self, concept)
        found = _ConceptHits(self, matched, concept.weight, body) if matched else None
        if found is not None and len(found.purpose) + len(found.title) + len(found.keys) > CONCEPT_HITS_ENTRIES:
            return matched, found  # a word most documents hold: rebuilt per call, not kept (server memory)
        if len(self._hits) >= CONCEPT_HITS:
            self._hits.pop(next(iter(self._hits)))
        self._hits[concept] = (stamp, matched, found)
        return matched, found

    def question_evidence(self, question: str, body: SearchIndex, count: int) -> tuple[Evidence, list[int]]:
        """A question's body evidence (`body_evidence` over its search concepts) and its `count` strongest
        ids (`_strongest`), memoised for the `EVIDENCE_KEPT` most recent questions while the body index
        is in the same state (the stamp `_concept_evidence` keys its memo on, and the index itself): both
        depend on nothing else. Evidence over more than `EVIDENCE_ENTRIES` documents is not kept (server
        memory). Read only."""
        lexicon = body.lexicon
        assert lexicon is not None
        stamp = (body, lexicon, body.total_length, body.live, len(body.paths), body.total_postings,
                 self.bank.generation)
        if stamp != self._evidence_for:
            self._evidence.clear()
            self._evidence_for = stamp
        found = self._evidence.get((question, count))
        if found is None:
            evidence = body_evidence(body, lexicon.search_concepts(question))
            found = (evidence, _strongest(evidence.raw, count, body.paths))
            if len(evidence.raw) <= EVIDENCE_ENTRIES:
                if len(self._evidence) >= EVIDENCE_KEPT:
                    self._evidence.pop(next(iter(self._evidence)), None)
                self._evidence[(question, count)] = found
        return found

    # -- issue 18 (adopt-parity): rarity counts the project's knowledge only (scaffold.py) --
    def population(self) -> tuple[int, frozenset[int]]:
        """(documents counted toward rarity, ids of the live scaffolding left out); all when nothing else is live."""
        stamp = (self.bank.generation, len(self.paths), len(self.ids))
        if self._population[0] != stamp:
            docs = self.bank.docs
            left = frozenset(ident for path, ident in self.ids.items()
                             if (doc := docs.get(path)) is not None and not counts_toward_statistics(doc))
            self._population = (stamp, (len(self.ids) - len(left), left) if len(left) < len(self.ids)
                                else (len(self.ids), frozenset()))
            self._rarity.clear()
            self._rarity_all.clear()
        return self._population[1]

    def _posting(self, term: str) -> Postings:
        found = self.postings.get(term)
        if found is None:
            found = self.postings[term] = Postings()
            self._sorted = None
        return found

    MAX_IDS = 1 << (31 - SLOT_BITS)  # a slot `id << SLOT_BITS | number` is an int32 (`Slots`)

    def _ids_after(self, more: int) -> int:
        return len(self.paths) + more  # ids only grow; a full rebuild numbers from 0 again

    def _add(self, path: str, doc: Doc) -> bool:
        assert self.lexicon is not None
        fields = route_fields(self.lexicon, doc)
        self._rarity.clear()
        self._rarity_all.clear()
        ident = len(self.paths)
        self.ids[path] = ident
        self.paths.append(path)
        self.fields[ident] = fields
        # issue 18: metadata copied from the body (adopt's: purpose an echo, title the H1) routes as a plain page's
        # route-title: a document declaring its own purpose or keys is governed, and its H1 is its name,
        # written with them to be routed on: weighed as a declared title is
        if ("title" not in doc.frontmatter or (doc.purpose_echo and title_echo(doc.title, doc.h1))) \
                and not declares_metadata(doc):
            self.prose_titles.add(ident)
        base = ident << SLOT_BITS
        posting = self._posting
        for number, (_, terms) in enumerate(fields.keys):
            for term, _, _ in terms:
                entry = posting(term)
                entry.keys.add(base | number)
                entry.key_ids.add(ident)
        for term, _, _ in fields.purpose:
            posting(term).purpose.add(ident)
        for term, _, _ in fields.title:
            posting(term).title.add(ident)
        for number, (_, terms) in enumerate(fields.sections):
            for term, _, _ in terms:
                posting(term).sections.add(base | number)
        return True

    def _remove(self, path: str) -> None:
        ident = self.ids.pop(path, None)
        if ident is None:
            return
        fields = self.fields.pop(ident)
        self.prose_titles.discard(ident)
        self._rarity.clear()
        self._rarity_all.clear()
        self.paths[ident] = None
        base = ident << SLOT_BITS
        touched: set[str] = set()
        for number, (_, terms) in enumerate(fields.keys):
            for term, _, _ in terms:
                self.postings[term].keys.discard(base | number)
                self.postings[term].key_ids.discard(ident)
                touched.add(term)
        for term, _, _ in fields.purpose:
            self.postings[term].purpose.discard(ident)
            touched.add(term)
        for term, _, _ in fields.title:
            self.postings[term].title.discard(ident)
            touched.add(term)
        for number, (_, terms) in enumerate(fields.sections):
            for term, _, _ in terms:
                self.postings[term].sections.discard(base | number)
                touched.add(term)
        for term in touched:
            if not self.postings[term]:
                del self.postings[term]
                self._sorted = None

    def matches(self, term: str, allow_prefix: bool) -> list[tuple[str, float]]:
        """Field terms a query term meets: itself (1.0) and, if allowed, prefix relatives (0.6)."""
        if allow_prefix and self._sorted is None:
            self._sorted = sorted(self.postings)
            self._longest = max(map(len, self._sorted), default=0)
        return term_matches(term, self.postings, self._sorted or [], self._longest, allow_prefix)


def _idf(documents: int, holders: int) -> float:
    return math.log(1.0 + (documents - holders + 0.5) / (holders + 0.5))


def _multiplier(bank_weights: dict[str, float], doc: Doc, intent: bool, self_intent: bool = True) -> float:
    factor = bank_weights.get(doc.layer, 1.0)
    if doc.layer == SELF_LAYER and not self_intent:
        factor *= SELF_FACTOR
    factor *= STATUS_FACTOR.get(doc.status or "", OTHER_STATUS_FACTOR)
    if doc.delivery_status in CLOSED_WORK:
        factor *= CLOSED_FACTOR
    if intent:
        factor *= WHY_FACTOR.get(doc.layer, 1.0)
    return factor


def _concept_matches(index: RouteIndex, concept: Concept) -> dict[str, float]:
    """Field terms this concept meets, each with its best score (typed 1.0 / prefix 0.6, × 0.9 translated).

    Scores are × the concept's weight (an identifier's part weighs 1 / the parts' count)."""
    matched: dict[str, float] = {}
    forms = [(concept.term, EXACT * concept.weight, concept.prefix)]
    forms.extend((eq, TRANSLATION * concept.weight, len(eq) >= MIN_PREFIX_QUERY) for eq in concept.equivalents)
    for term, weight, allow_prefix in forms:
        for field_term, quality in index.matches(term, allow_prefix):
            score = weight * quality
            if score > matched.get(field_term, 0.0):
                matched[field_term] = score
    return matched


class _ConceptHits:
    """One concept's best score per document field: purpose/title by id, keys/headings by slot."""

    __slots__ = ("purpose", "title", "keys", "headings")

    def __init__(self, index: RouteIndex, matched: dict[str, float], weight: float = 1.0,
                 body: SearchIndex | None = None) -> None:
        postings = index.postings
        # purpose, title and headings weigh a match by the word's rarity in the bank (a word every
        # document's purpose shares says little); canonical keys are declared ownership: unweighted.
        # A purpose or a declared title is written to be routed on, so its words are weighed among the
        # routing fields; headings and a title taken from the H1 (all a plain bank has) also among the
        # prose: `Project Brief` or `Technical Context` in a bank whose every page says project say little.
        # A concept is as common as its most common matched form (`threshold` and `порог` are one idea).
        rarity = min(map(index.rarity, matched), default=1.0)
        spread = min((index.rarity(term, body) for term in matched), default=1.0) if body is not None else rarity
        self.purpose: dict[int, float] = {}
        self.title: dict[int, float] = {}
        self.keys: dict[int, float] = {}
        self.headings: list[tuple[set[int], float]] = []  # strongest first
        for term, score in sorted(matched.items(), key=lambda item: item[1]):  # weakest first: stronger overwrite
            entry = postings[term]
            self.purpose.update(dict.fromkeys(entry.purpose, score * rarity))
            if entry.title:
                prose_titles = index.prose_titles
                self.title.update({ident: score * (spread if ident in prose_titles else rarity)
                                   for ident in entry.title})
            if entry.sections:
                self.headings.insert(0, (entry.sections, score * spread))
        for term, score in sorted(matched.items(), key=lambda item: item[1]):
            entry = postings[term]
            # a key is matched part by part already (coverage²): an identifier's part counts whole there
            self.keys.update(dict.fromkeys(entry.keys, score / weight))


def route(bank: Bank, question: str, limit: int = DEFAULT_LIMIT, doc_kind: str | None = None,
          layer: str | None = None, status: str | None = None, since: str | None = None,
          until: str | None = None) -> dict:
    """Rank routable documents for a question (metadata fused with body evidence); `hint` when empty.

    `since`/`until` (and time words in the question) bound a window: see `timeroute`."""
    from .timeroute import routed as timed  # issue 19: time windows, superseded decisions (timeroute.py)
    answer = timed(bank, question, limit, doc_kind, layer, status, since, until)[0]
    return fit_answer(answer)  # the token budget (routefit.py)


def routed(bank: Bank, question: str, limit: int = DEFAULT_LIMIT, doc_kind: str | None = None,
           layer: str | None = None, status: str | None = None) -> tuple[dict, Evidence | None, SearchIndex | None]:
    """`route`'s answer with the body evidence behind it (prime reads the evidence to judge confidence).

    Metadata (§5) first, then fusion: the metadata top `limit` and the `3 × limit` documents
    with the most body evidence are scored `metadata + WEIGHT_BODY × strength × multiplier`, where
    strength counts only the concepts the document's title, purpose and keys do not already hold
    (`Evidence.beyond`); an index (README) gets half. They are ordered by `_fused_order`: that score's
    rank fused with the rank of the body text's BM25 (`Evidence.prose`); `score` stays the evidence. The
    draw is fixed in steps (`DRAWS`), each step's order placing its own share of the results, so every
    `limit` cuts one ranking.

    How the metadata walk stays fast on large banks without changing any score: per concept, the best score per
    field comes from C-level dict merges over the postings (`_ConceptHits`). Each candidate's upper
    bound is then summed from those hits — its exact score without headings plus the best score any of
    its headings could reach, × its undamped multiplier — and candidates are scored exactly, best
    bound first, until the bound falls below the current `limit`-th score.
    """
    asked = check_query(question, limit, MAX_LIMIT, layer)
    # Fusion ranks the candidates it is given, and the candidates are drawn for a size (the metadata top
    # `n`, the body's top `3n`): ranked in one draw sized by `limit`, a limit of 1 or of 10 put another
    # document first than 5 did. So the draws are fixed (`DRAWS`): the first 5 results are fused among the
    # candidates drawn for 5, results 6-10 among those drawn for 10 (the first five set aside), ... A
    # larger limit extends the same ranking; a smaller one cuts it.
    draws = DRAWS[:next(number for number, size in enumerate(DRAWS, 1) if size >= asked)]
    limit = draws[-1]
    bank.refresh()
    check_filters(bank, doc_kind, status)
    index = RouteIndex.of(bank)
    assert index.lexicon is not None
    concepts = index.lexicon.concepts(question)
    literals = question_literals(question)
    if not concepts:  # issue 14 (kanji-fold): a title of stopwords is still asked for by name (stoptitles.py)
        return _named_only(bank, index, question, asked, doc_kind, layer, status), None, None
    intent = why_intent(question)
    undamped = index.factors(intent)
    factors = undamped if about_bank(question) or layer == SELF_LAYER else index.factors(intent, False)
    owners: set[int] = set()  # documents owning a canonical key the question says whole: never damped
    body_index = SearchIndex.of(bank)
    per_concept = [index.concept_hits(concept, body_index) for concept in concepts]
    matched_per_concept = [matched for matched, _ in per_concept]
    hits = [found for _, found in per_concept if found is not None]
    hit_weights = [concept.weight for concept, (_, found) in zip(concepts, per_concept) if found is not None]
    fields, docs, paths = index.fields, bank.docs, index.paths
    filtered = doc_kind is not None or layer is not None or status is not None
    heading_hits = [h.headings for h in hits if h.headings]
    matched = _Matched(matched_per_concept)
    asked_weight = sum(concept.weight for concept in concepts)  # an identifier's parts weigh one word together

    def exact(ident: int) -> float:
        """Raw (unmultiplied) score of one document, straight from the per-concept hits."""
        if ident not in bounds:  # no field of it matched any concept (`bounds` holds every document one did)
            return 0.0
        total = titled = held = 0.0
        for h, concept_weight in zip(hits, hit_weights):
            total += WEIGHT_PURPOSE * h.purpose.get(ident, 0.0)
            value = h.title.get(ident)
            if value is not None:
                titled += WEIGHT_TITLE * value
                held += concept_weight
        doc_fields = fields[ident]
        # route-title: a title saying the whole question (`_title_named`), when its share could outweigh
        if held and TITLE_NAMED * (held / asked_weight) ** 2 > titled:
            titled = max(titled, _title_named(doc_fields.title, matched, asked_weight))
        total += titled
        base = ident << SLOT_BITS
        best = 0.0
        for number, (_, terms) in enumerate(doc_fields.keys):
            # Σ of the concepts' matches of this key, summed once for the bounds below (in concept order)
            share = covered_get(base | number)
            if share is not None and share / len(terms) > best:
                best = share / len(terms)
        coverage = min(1.0, best)
        if coverage >= 1.0:
            owners.add(ident)
        total += WEIGHT_CANONICAL * coverage * coverage
        if heading_hits:
            # per concept, each heading's strongest matching score: the document's slots are one
            # contiguous range of each sorted `Slots`, found by two bisections (not one per heading);
            # the sums run in concept order, as a heading-by-heading loop would add them
            summed: dict[int, float] = {}
            end = base + SLOT_LIMIT
            for pairs in heading_hits:
                first: dict[int, float] = {}
                for slots, score in pairs:  # strongest first: the first score found per heading stays
                    at = bisect_left(slots, base)
                    stop = bisect_left(slots, end, at)
                    for i in range(at, stop):
                        first.setdefault(slots[i], score)
                for slot, score in first.items():
                    summed[slot] = summed.get(slot, 0.0) + score
            best = max(summed.values(), default=0.0)
            if best > 0.0:
                total += WEIGHT_SECTION * best
        return total

    def factor(ident: int) -> float:
        """The document's multiplier; the dna/ damping spares the owner of a key the question says whole."""
        return undamped[ident] if ident in owners else factors[ident]

    held_back = scaffold_later(question, layer)  # issue 18: adopt adds dna/ pages and indexes to plain banks

    def later(ident: int, path: str) -> bool:
        """Ranked after every other document with a score: as search orders them (scaffold.later)."""
        return held_back(docs[path], ident in owners)

    top: list[tuple[bool, float, str]] = []  # (later, -score, path), sorted, at most `limit`

    def consider(ident: int) -> None:
        path = paths[ident]
        doc = docs.get(path) if path is not None else None
        if doc is None or (filtered and not ((doc_kind is None or doc.doc_kind == doc_kind)
                                             and (layer is None or doc.layer == layer)
                                             and (status is None or doc.status == status))):
            return
        raw = exact(ident)
        score = round(raw * factor(ident), 4)
        if score > 0:
            bisect.insort(top, (later(ident, path), -score, path))
            del top[limit:]

    def beaten(bound: float) -> bool:
        # scores are rounded to 4 places; while a later document holds a place, any other may still take it
        return len(top) >= limit and not top[-1][0] and bound + 1e-4 < -top[-1][1]

    # Each candidate's bound is its exact score without headings (purpose and title with their rarity,
    # the best key's coverage²) plus the best heading score any of its headings could reach (Σ over
    # concepts), × its undamped multiplier: candidates are scored best bound first until the bound
    # cannot reach the `limit`-th score, so a word most documents share does not send them all to `exact`
    covered: dict[int, float] = {}  # key slot -> Σ of concept matches (in concept order; `exact` reads it)
    get = covered_get = covered.get
    for h in hits:
        for slot, value in h.keys.items():
            covered[slot] = get(slot, 0.0) + value
    bounds: dict[int, float] = {}
    get = bounds.get
    for slot, value in covered.items():
        ident = slot >> SLOT_BITS
        share = min(1.0, value / len(fields[ident].keys[slot & (SLOT_LIMIT - 1)][1]))
        bounds[ident] = max(get(ident, 0.0), WEIGHT_CANONICAL * share * share)
    for h in hits:
        for ident, value in h.purpose.items():
            bounds[ident] = get(ident, 0.0) + WEIGHT_PURPOSE * value
    title_bounds: dict[int, list[float]] = {}  # id -> [Σ title scores, Σ weights of the concepts its title holds]
    for h, concept_weight in zip(hits, hit_weights):
        for ident, value in h.title.items():
            entry = title_bounds.setdefault(ident, [0.0, 0.0])
            entry[0] += WEIGHT_TITLE * value
            entry[1] += concept_weight
    for ident, (value, held) in title_bounds.items():  # a concept matches at most its weight: share ≤ held ÷ asked
        share = min(1.0, held / asked_weight)
        bounds[ident] = get(ident, 0.0) + max(value, TITLE_NAMED * share * share)
    for pairs in heading_hits:
        reach: dict[int, float] = {}
        for found, score in reversed(pairs):  # weakest first: stronger overwrite
            reach.update(dict.fromkeys({slot >> SLOT_BITS for slot in found}, score))
        for ident, score in reach.items():
            bounds[ident] = get(ident, 0.0) + WEIGHT_SECTION * score
    order = sorted(((ident, bound * undamped[ident]) for ident, bound in bounds.items()),
                   key=itemgetter(1), reverse=True)
    while True:  # one pass, unless a filter leaves the draws fewer candidates than asked (below)
        top.clear()
        for ident, bound in order:
            if beaten(bound):
                break
            consider(ident)
        # -- fusion with body evidence (issue 14): metadata keeps its score, prose adds up to WEIGHT_BODY --
        evidence, strongest = index.question_evidence(question, body_index, 3 * limit)  # body_evidence, _strongest
        rows = {path: -neg for _, neg, path in top}  # path -> metadata score
        body_ids = body_index.ids
        for sid in strongest:
            path = body_index.paths[sid]
            ident = index.ids.get(path) if path is not None else None
            if path is None or path in rows or ident is None:
                continue
            doc = docs.get(path)
            if doc is None or (filtered and not ((doc_kind is None or doc.doc_kind == doc_kind)
                                                 and (layer is None or doc.layer == layer)
                                                 and (status is None or doc.status == status))):
                continue
            raw = exact(ident)
            rows[path] = round(raw * factor(ident), 4)
        # -- s8-literal: a document holding a literal the question names whole joins the rows (literal.py) --
        holding = literal_holders(body_index, docs, literals) if literals else {}
        for path in holding:
            ident, doc = index.ids.get(path), docs.get(path)
            if path not in rows and ident is not None and doc is not None and not (filtered and not (
                    (doc_kind is None or doc.doc_kind == doc_kind) and (layer is None or doc.layer == layer)
                    and (status is None or doc.status == status))):
                rows[path] = round(exact(ident) * factor(ident), 4)
        # -- issue 14 (route-roles): a Cline-layout core file's role scores as low-weight metadata (layout.py) --
        roles = role_scores(bank, concepts, body_index, intent, question)
        for path, (extra, _) in roles.items():
            ident, doc = index.ids.get(path), docs.get(path)
            if ident is not None and doc is not None and not (filtered and not (
                    (doc_kind is None or doc.doc_kind == doc_kind) and (layer is None or doc.layer == layer)
                    and (status is None or doc.status == status))):
                known = exact(ident) * factor(ident) if (known := rows.get(path)) is None else known
                rows[path] = round(known + extra * factor(ident), 4)
        # Two rankings of the same rows, fused by their ranks (`_fused_order`): the evidence score (metadata +
        # body beyond it) and the body text alone, as BM25 weighs it (`Evidence.prose`), × the multiplier below 1
        scored: list[tuple[bool, float, str, float, float, float, bool]] = []
        named: set[str] = set()  # rows whose title says the whole question (`_fused_order`)
        passing: set[str] = set()  # rows whose title, purpose and keys name under half the question (`_fused_order`)
        raw_get, prose = evidence.raw.get, evidence.prose
        for path, value in rows.items():
            ident = index.ids[path]
            sid = body_ids.get(path)
            doc = docs[path]
            body = 0.0
            if sid is not None and raw_get(sid):
                body = WEIGHT_BODY * evidence.beyond(body_index, sid, doc) * factor(ident)
                if doc.is_index:
                    body *= INDEX_BODY
            total = round(value + body, 4)
            if total > 0:
                # a key said whole in any language: every word matched, each at least a translated prefix's 0.54
                keys, base = fields[ident].keys, ident << SLOT_BITS
                said = value > 0 and any(covered.get(base | number, 0.0) >= KEY_WORD_LEAST * len(terms)
                                         and len(_field(terms, matched)[1]) >= len(terms)
                                         for number, (_, terms) in enumerate(keys))
                # route-gov4: a title saying the whole question (every concept, at least as a translation)
                held = title_bounds.get(ident)
                if not said and held is not None and held[1] >= TRANSLATION * asked_weight - 1e-9 and \
                        _field(fields[ident].title, matched)[0] >= TRANSLATION * asked_weight - 1e-9:
                    named.add(path)
                # route-gov4: the prose ranking keeps the multiplier's demotions (delivery, draft, archived, done
                # work, dna/ damped): a page the layers say to read less must not outvote knowledge with the
                # same words; the lift among knowledge layers (1.5 / 1.2 / 1.0) is left to the score ranking
                weighed = prose(sid) * min(1.0, factor(ident)) if sid is not None else 0.0
                scored.append((later(ident, path), -total, path, value, body, weighed, said))
        scored = overview_damped(bank, question, scored)  # route-plain8: a how question (layout.py)
        # -- issue 14 (route-plain3, route-plain4): answer types (answertype.py) --
        numbers: dict[str, tuple[int, str, str | None]] = {}
        types = answer_types(question, reasons=bool(roles)) if scored else ()  # a reason line: plain banks only
        if types:  # every row weighed (no cut): the fused ranks read all of them
            scored, numbers = with_number_lines(scored, len(scored), body_index, evidence, docs,
                                                lambda path: factor(index.ids[path]), types)
        elif not named and not any(row[6] for row in scored):  # session 8: the question's words together (passage.py)
            scored, numbers = with_passages(scored, body_index, evidence, docs, lambda path: factor(index.ids[path]))
        # the prose floor's candidates (`_fused_order`): a draw's strongest prose is at most all rows' strongest
        floor = PROSE_FLOOR * max((row[5] for row in scored), default=0.0)
        passing.update(row[2] for row in scored if row[5] < floor and not row[6] and (sid := body_ids.get(row[2]))
                       is not None and evidence.named_share(body_index, sid) < PASSING)
        if len(draws) == 1:
            fused = _literal_first(_ordered(scored, docs, named, passing), holding, named)[:asked]
        else:  # each row joins the first draw holding it (a role: every draw), and each draw's order places its share
            drawn = dict.fromkeys(roles, DRAWS[0]) | dict.fromkeys(holding, DRAWS[0])  # a literal's holders: every draw
            for number, (_, _, path) in enumerate(top):
                drawn.setdefault(path, _draw(number, 1))
            for number, sid in enumerate(strongest):
                path = body_index.paths[sid]
                if path is not None:
                    drawn[path] = min(drawn.get(path, MAX_LIMIT), _draw(number, 3))
            fused, placed = [], set()
            for size in draws:
                for row in _literal_first(_ordered([row for row in scored if drawn[row[2]] <= size], docs, named,
                                                   passing), holding, named):
                    if len(fused) >= size:
                        break
                    if row[2] not in placed:
                        placed.add(row[2])
                        fused.append(row)
            del fused[asked:]
        # a filter can leave the draws fewer rows than asked where a wider draw holds more (its body's top
        # `3n` was full): drawn again wider, so a larger limit never shows a row a smaller one had room for
        if len(fused) >= asked or len(strongest) < 3 * limit or limit == MAX_LIMIT:
            break
        draws = DRAWS[:len(draws) + 1]
        limit = draws[-1]
    if not fused:  # issue 14 (kanji-fold): nothing matched a concept; the title lookup may still name one
        return _named_only(bank, index, question, asked, doc_kind, layer, status), None, None
    results = []
    needles = None  # placed once for every row that quotes a body line
    for _, neg, path, value, body, _, _ in fused:
        doc = docs[path]
        line = None
        if body > 0 and (body >= value or value == 0 or not _has_section(fields[index.ids[path]], matched)):
            if needles is None:
                needles = line_needles(body_index, evidence)
            line = numbers.get(path) or best_line(body_index, evidence, doc, needles)  # a number line answers
        results.append(with_role(_result(doc, fields[index.ids[path]], -neg, matched, line if body else None),
                                 roles, WHY_MAX))  # issue 14 (route-roles): `layout: <role>` in `why`
    return {"results": results}, evidence, body_index


def _named_only(bank: Bank, index: RouteIndex, question: str, limit: int, doc_kind: str | None,
                layer: str | None, status: str | None) -> dict:
    """Nothing to rank: the documents whose title or heading the question's words, stopwords too, name."""
    from .stoptitles import titled  # the rare path: a routing process does not import it

    assert index.lexicon is not None
    rows = titled(bank, index.lexicon, index.ids, index.fields, question, limit, doc_kind, layer, status,
                  TITLE_MAX, SECTION_MAX)
    return {"results": rows} if rows else {"results": [], **empty_hint(HINT, "search", doc_kind, layer, status)}


def _ordered(scored: list[tuple[bool, float, str, float, float, float, bool]], docs: dict[str, Doc],
             named: set[str] | frozenset[str] = frozenset(), passing: set[str] | frozenset[str] = frozenset()
             ) -> list[tuple[bool, float, str, float, float, float, bool]]:
    """Candidate rows in route's order: fused (`_fused_order`) when one of them (dna/ and indexes, ranked later,
    aside) declares metadata; else by score, which is prose already in a plain bank (a prose vote would
    count it twice)."""
    if any(not row[0] and declares_metadata(docs[row[2]]) for row in scored):
        return _fused_order(scored, named, passing)
    return sorted(scored)


def _fused_order(scored: list[tuple[bool, float, str, float, float, float, bool]],
                 named: set[str] | frozenset[str] = frozenset(), passing: set[str] | frozenset[str] = frozenset()
                 ) -> list[tuple[bool, float, str, float, float, float, bool]]:
    """Rows `(later, -score, path, metadata, body part, prose, says a key)` in route's order: reciprocal-rank
    fusion of the score ranking and the prose ranking, `1 / (FUSE_K + rank) + BODY_VOTE / (FUSE_K + prose rank)`.

    The score adds metadata to prose on one scale, so a purpose that says one word of the question (or
    its translation) outweighs prose that says all of it; the prose ranking (`Evidence.prose`, what
    `bank_search` ranks by) knows no metadata. Fusing ranks, not scores, needs neither scale to fit the
    other. The prose is weighed by the row's multiplier where that is below 1, so a delivery page does
    not outvote knowledge with the same words. A row without prose gets no prose vote; a row owning
    a key the question says whole (in any language: `why` names it) gets the best one, so it keeps a
    first place its score gives it; a row whose title says the whole question (`named`: the question
    names it) votes at its score's rank when its prose ranks lower, so prose elsewhere cannot push it
    below where its score put it, and it is lifted no higher. Documents `later` (scaffold.later) stay
    after the rest; ties go to the score.

    s8-gov, the prose floor: a row whose title, purpose and keys name fewer than half the question's
    concepts (`passing`: `Evidence.named_share`) and whose prose holds less than half of what the strongest
    candidate's prose holds of the question gets its score vote × its prose ÷ that half (no prose: none).
    Why: on a governed bank the score ranking's first places went to pages whose purpose, heading or
    partial key names one or two words of a long question (`purpose: … error conventions` for "strange
    errors from hooks … could React be loaded twice?", `Branch, commit, and release-tag conventions` for
    "in the legacy release …") while their bodies say next to nothing of it (the 13th–17th prose of 17
    candidates), above the page whose prose says most of it: the score's first place (1/3) outvoted the
    prose's second (¾/4). Metadata naming at least half the question (a key said whole, a title naming
    the document, a purpose saying one of two words) keeps its whole vote, and so does a page whose
    body backs its metadata (at least half the best prose); plain banks are unaffected (`_ordered` sorts
    them by score). Chosen by measurement over every allowed set: a floor of ¼ or ½ moves no question
    down in the top 3 or at 1 and 19 up; from ¾ the top-1 of short questions a purpose alone answers
    (dev-gov4, dev) falls; shares weighed by idf instead of counted demote a knowledge page naming the
    common word of a two-word question below a delivery page naming both (the layers forbid it)."""
    by_score = sorted(scored)
    place = {path: number for number, (_, _, path) in  # equal prose: ties go to the score
             enumerate(sorted([(-row[5], at, row[2]) for at, row in enumerate(by_score) if row[5] > 0 and not row[6]]),
                       1)}
    best = BODY_VOTE / (FUSE_K + 1)
    floor = PROSE_FLOOR * max((row[5] for row in scored), default=0.0)
    keyed = []
    for number, row in enumerate(by_score, 1):
        at = place.get(row[2])
        if row[2] in named:
            at = min(at, number) if at else number
        given = best if row[6] else BODY_VOTE / (FUSE_K + at) if at else 0.0
        vote = 1 / (FUSE_K + number)
        if row[5] < floor and row[2] in passing:  # metadata met in passing (docstring)
            vote *= row[5] / floor
        keyed.append((row[0], -(vote + given), number, row))
    keyed.sort()  # `number` is unique: rows themselves are never compared
    return [item[3] for item in keyed]


def _literal_first(ordered: list[tuple[bool, float, str, float, float, float, bool]], held: dict[str, float],
                   named: set[str] | frozenset[str] = frozenset()
                   ) -> list[tuple[bool, float, str, float, float, float, bool]]:
    """s8-literal: rows holding a literal the question names whole (`literal.literal_holders`) before the rest,
    the rarer or more literals first, route's order kept among equals; documents ranked later stay later.

    Metadata that names the question leads the holders (attack8b): a row owning a canonical key the question
    says whole (`row[6]`; the issue keeps a key's owner first on that key) or whose title says the whole
    question (`named`). A literal met in passing elsewhere (a changelog listing `README.md`, `--dry-run`,
    `10%`) must not push "the readme conventions for README.md" off the page whose key is "readme
    conventions". Among those leaders, and among the rest, the literals still order (an ADR titled by the
    whole question and holding its id before a page owning a key its title words say)."""
    if not held:
        return ordered
    return sorted(ordered, key=lambda row: (row[0], not (row[6] or row[2] in named), -held.get(row[2], 0.0)))


def _draw(position: int, per_size: int) -> int:
    """The smallest of `DRAWS` whose draw holds a candidate at 0-based `position` of a ranking it takes
    `per_size` per result from (metadata 1, the body 3)."""
    return next(size for size in DRAWS if position < per_size * size)


def _strongest(raw: dict[int, float], count: int, paths: list[str | None]) -> list[int]:
    """The ids of the `count` largest values of `raw`, ties by path (`paths`: the body index's, by id).

    Ties go by path, not by id or the dict's order: a fresh build numbers documents in path order, an
    index updated in place numbers a changed one last (`cache.restore`), and both must draw the same
    candidates. The `count`-th largest value is found over the bare floats first (no key call per item),
    then only the ids reaching it are ranked."""
    if not raw:
        return []
    least = heapq.nlargest(count, raw.values())[-1]
    reaching = [key for key, value in raw.items() if value >= least]
    reaching.sort(key=lambda key: (-raw[key], paths[key] or ""))
    return reaching[:count]


class _Matched:
    """The per-concept matches of one question (`_concept_matches`) and every field term any of them holds."""

    __slots__ = ("per_concept", "terms")

    def __init__(self, per_concept: list[dict[str, float]]) -> None:
        self.per_concept = per_concept
        self.terms = set().union(*per_concept)


def _title_named(title: Terms, matched: _Matched, asked: float) -> float:
    """route-title: `TITLE_NAMED` × the share of the question (its concepts' weights) the title says, squared.

    A question a document's title says whole names that document, however many bodies use the word: the
    title then weighs what owning a canonical key said whole does, unweighted by rarity. Squared
    as a key's coverage is, so a title saying half of a longer question adds a quarter and fades."""
    share = min(1.0, _field(title, matched)[0] / asked)
    return TITLE_NAMED * share * share


def _has_section(fields: RouteFields, matched: _Matched) -> bool:
    return any(_field(terms, matched)[1] for _, terms in fields.sections)


def _best(terms: Terms, matched: dict[str, float]) -> tuple[float, str | None]:
    """A concept's best score against one field's words, and the first field word reaching it."""
    best, surface = 0.0, None
    for term, word, _ in terms:
        score = matched.get(term, 0.0)
        if score > best:
            best, surface = score, word
    return best, surface


def _field(terms: Terms, matched: _Matched) -> tuple[float, list[str]]:
    # only the field's words some concept matched can score (the rest score 0 and never win `_best`)
    wanted = matched.terms
    if wanted.isdisjoint(map(_TERM, terms)):  # most fields (headings) hold none: told in C, no list built
        return 0.0, []
    held = [triple for triple in terms if triple[0] in wanted]
    total, words = 0.0, []
    for per_concept in matched.per_concept:
        score, word = _best(held, per_concept)
        if word is not None:
            total += score
            words.append(word)
    return total, list(dict.fromkeys(words))


def _result(doc: Doc, fields: RouteFields, score: float, matched: _Matched,
            line: tuple[int, str, str | None] | None = None) -> dict:
    """One result row with its `why` line and `section`: the heading that matched, else the one above `line`.

    `line` is the best body line when body evidence is named (`body: L42 "…"`).
    """
    why: list[str] = []
    best_key: tuple[float, int, list[str]] | None = None
    for number, (_, terms) in enumerate(fields.keys):
        total, words = _field(terms, matched)
        ratio = min(1.0, total / len(terms))
        if words and (best_key is None or ratio > best_key[0]):
            best_key = (ratio, number, words)
    if best_key is not None:
        key, terms = fields.keys[best_key[1]]
        if len(best_key[2]) >= len(terms):
            why.append(f"owns canonical_for: {shown_words(key, KEY_SHOWN)}")
        elif 2 * len(best_key[2]) >= len(terms):  # a third of a key adds 5 × (1/3)² ≈ 0.6: not worth naming
            why.append(f"canonical_for: {shown_words(key, KEY_SHOWN)} {len(best_key[2])}/{len(terms)}")
    _, words = _field(fields.purpose, matched)
    if words:
        why.append(f'purpose: {", ".join(shown_words(word, WORD_SHOWN) for word in words[:WHY_WORDS])}')
    elif _field(fields.title, matched)[1]:
        why.append("title")  # the row shows the title; its matched words need no repeating
    section: str | None = None
    best_section = 0.0
    for heading, terms in fields.sections:
        total, words = _field(terms, matched)
        if words and total > best_section:
            best_section, section = total, heading
    if section is not None:
        why.append("heading")  # the matched heading is the row's `section`; naming it twice costs tokens
    if line is not None:
        why.append(f'body: L{line[0]} "{line[1]}"')
        if section is None:
            section = line[2]
    # Compact by design (issue 14: five results in ≤ 300 tokens): the purpose, kind and layer are one
    # bank_read away; a status is shown only when it is not `active`, because it changes how to read.
    title = shown_words(_unprefixed(doc.title, doc.path), TITLE_MAX)
    out: dict = {"path": doc.path, "title": title, "score": round(score, 3),
                 "why": shown_words("; ".join(why), WHY_MAX, why=True)}
    if doc.status not in (None, "active"):
        out["status"] = doc.status
    if section is not None:
        out["section"] = shown_words(section, SECTION_MAX)
    return out


def _unprefixed(title: str, path: str) -> str:
    """The title without a leading identifier the file name already shows (`ADR-20260830T161251Z: Name`).

    The path is always in the row, so repeating its id in the title spends tokens on nothing."""
    head, sep, rest = title.partition(":")
    if sep and rest.strip() and " " not in head.strip() and \
            path.rsplit("/", 1)[-1].lower().startswith(head.strip().lower()):
        return rest.strip()
    return title


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[:size - 1].rstrip() + "…"
