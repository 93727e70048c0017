"""Body search (§6): "where does this string occur" over document bodies, ranked BM25-style.

The index is an in-memory inverted index over bodies (frontmatter excluded; templates and
`_inbox/` never indexed), built on first use and then updated from refreshes: only documents a
refresh reported are re-read and re-indexed (`SearchIndex.derived` counts them). Postings are two
parallel arrays per term (document ids as `'i'`, term frequencies as `'H'`, widened to `'i'` for a
term over 65,535 times in one body), packed into flat arrays for all terms (`PackedPostings`); a
changed document gets a new id and its old postings are skipped until a compaction drops them.

Terms (`Lexicon.search_counts`): lowercase words (English stemmed, Russian stemmed by the
dictionary), identifiers whole plus their parts (`ft-042` → `ft-042`, `ft`, `042`), CJK runs as
overlapping bigrams (a one-character run as itself).

Ranking, per SPEC §6:
- each query concept scores its best form: typed × 10, an equivalent in another language × 6; a
  compound token that no document holds whole scores the sum of its parts × 1. A form's score is
  BM25 (k1 1.2, b 0.75); a CJK form needs all of its bigrams and scores their mean.
- stopwords are dropped unless nothing else remains.
- documents matching every concept form the pool and rank first; the rest follow (or, with no
  pool, are all there is) ranked by score × the idf-weighted share of concepts they match.
- bonuses, multiplicative on the score so they never lift a document that matched nothing:
  + 0.5 when a run of ≥ 2 consecutive query words occurs verbatim in the body (the *phrase*),
  + 0.3 × the share of concepts found in the title, + 0.15 × the share found in the purpose;
  archived × 0.3 (before the cut). Bonuses need the text, so only the leading candidates (3 × limit,
  at least 30) are read and re-ranked; the rest cannot appear.
- issue 18: idf and the average length are taken over the project's knowledge documents, and the
  dna/ contract and indexes rank after the others, as in route (`scaffold.py`).
- each result names the best line: the body line whose matched concepts carry the most idf × tier
  (found with `str.find` over the lowercased body, `Lexicon.needles`), and that line as
  `excerpt` (≤ 240 characters, cut around the first match).
"""

from __future__ import annotations

import heapq
import math
import os
import re
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .bank import _FILE_FLAGS, Bank
from .confined import read_file
from .derived import DerivedIndex
from .errors import BankError
from .lang import Lexicon, SearchConcept, SearchForm
from .lang.chinese import STOPWORDS as ZH_STOPWORDS
from .lang.chinese import segment
from .lang.lexicon import STOPWORDS
from .lang.tokens import WORD, fold, normalize, split_scripts
from .limits import TITLE_MAX
from .plain import plain, shown
from .query import check_filters, check_query, empty_hint
from .records import Doc
from .regexes import compiled
from .scaffold import counts_toward_statistics
from .scaffold import later as scaffold_later

DEFAULT_LIMIT = 10
MAX_LIMIT = 50
K1, B = 1.2, 0.75
ARCHIVED_FACTOR = 0.3
PHRASE_BONUS, TITLE_BONUS, PURPOSE_BONUS = 0.5, 0.3, 0.15
EXCERPT_MAX = 240
# the title and `## ` sections are routing metadata; deeper headings are prose
HEADING_LINES = compiled(r"^#{1,2}[ \t].*$", re.MULTILINE)
PACK_LOOSE = 4096  # loose terms (added or changed since the last pack) that make the body postings pack again
HINT = "No document body contains these words; rank documents by topic instead."


class TermSet(tuple):
    """A document's few title, purpose or key terms: a tuple (64 bytes for three) where a frozenset
    costs 216 or more, with the `in` and `|` that the bonuses and the evidence use (issue 15: memory)."""

    __slots__ = ()

    def __or__(self, other: Iterable[str]) -> set[str]:  # type: ignore[override]
        return set(self).union(other)

    __ror__ = __or__


NO_TERMS = TermSet()


def term_set(terms: Iterable[str]) -> TermSet:
    found = sorted(set(terms))
    return TermSet(found) if found else NO_TERMS


class HeadCounts:
    """How often one term occurs in each document's heading lines: ids (ascending) and counts as two
    int32 arrays, with the `items()` the evidence reads; a dict of ints cost ~5× as much (issue 15)."""

    __slots__ = ("ids", "counts")

    def __init__(self, ids: array | None = None, counts: array | None = None) -> None:
        self.ids = ids if ids is not None else array("i")
        self.counts = counts if counts is not None else array("i")

    def __setitem__(self, ident: int, count: int) -> None:  # ids only grow (a new document, a new id)
        self.ids.append(ident)
        self.counts.append(count)

    def items(self) -> Iterable[tuple[int, int]]:
        return zip(self.ids, self.counts)

    def __len__(self) -> int:
        return len(self.ids)


class PackedPostings:
    """The body index's `term → (ids, tfs)` postings, most of them packed (issue 15: memory, ready).

    Packed terms are one sorted term list and four flat arrays (every term's ids in one `'i'`
    array, its counts in one `'H'` array, each term's start and length), ~20 bytes a term beside its
    postings where a tuple of two arrays per term cost ~230; the cache restores them from bytes in C,
    without building a Python object per term. Terms added or changed since the last `pack()` (and a
    term whose counts were widened to `'i'`) live in a plain dict beside them. `get` hands back
    fresh arrays (a slice of the packed ones): callers read them, and `append` is the only writer.
    """

    __slots__ = ("terms", "starts", "counts", "ids", "tfs", "loose", "packed_live", "garbage")

    def __init__(self) -> None:
        self.terms: list[str] = []  # sorted; a term moved to `loose` keeps its place with count 0
        self.starts = array("q")
        self.counts = array("i")
        self.ids = array("i")
        self.tfs = array("H")
        self.loose: dict[str, tuple[array, array]] = {}
        self.packed_live = 0  # packed terms with postings (count > 0)
        self.garbage = 0  # packed postings no term points at any more

    def _slot(self, term: str) -> int:
        """The packed place of `term`, or -1 (not packed, or moved to `loose`)."""
        terms = self.terms
        at = bisect_left(terms, term)
        return at if at < len(terms) and terms[at] == term and self.counts[at] else -1

    def get(self, term: str, default: Any = None) -> Any:
        found = self.loose.get(term)
        if found is not None:
            return found
        at = self._slot(term)
        if at < 0:
            return default
        start = self.starts[at]
        end = start + self.counts[at]
        return self.ids[start:end], self.tfs[start:end]

    def __getitem__(self, term: str) -> tuple[array, array]:
        found = self.get(term)
        if found is None:
            raise KeyError(term)
        return found

    def __contains__(self, term: object) -> bool:
        return term in self.loose or (isinstance(term, str) and self._slot(term) >= 0)

    def __len__(self) -> int:
        return self.packed_live + len(self.loose)

    def __iter__(self) -> Iterator[str]:
        counts = self.counts
        yield from (term for at, term in enumerate(self.terms) if counts[at])
        yield from list(self.loose)

    def items(self) -> Iterator[tuple[str, tuple[array, array]]]:
        for term in list(self):
            yield term, self[term]

    def _unpack(self, term: str) -> None:
        """Move a packed term into `loose` (its packed postings become garbage until the next `pack`)."""
        at = self._slot(term)
        if at >= 0:
            self.loose[term] = self.get(term)
            self.garbage += self.counts[at]
            self.counts[at] = 0
            self.packed_live -= 1

    def __setitem__(self, term: str, entry: tuple[array, array]) -> None:
        self._unpack(term)
        self.loose[term] = entry

    def __delitem__(self, term: str) -> None:
        self._unpack(term)
        del self.loose[term]

    def append(self, term: str, ident: int, tf: int) -> None:
        """Add one posting (ids only grow: `ident` is the newest document's)."""
        entry = self.loose.get(term)
        if entry is None:
            self._unpack(term)
            entry = self.loose.get(term)
            if entry is None:
                entry = self.loose[term] = (array("i"), array("H"))
        entry[0].append(ident)
        try:
            entry[1].append(tf)
        except OverflowError:  # a term over 65,535 times in one body: this term's counts widen
            entry = self.loose[term] = (entry[0], array("i", entry[1]))
            entry[1].append(tf)

    def pack(self) -> None:
        """Move every term with `'H'` counts into the flat arrays (the widened ones stay loose).

        The arrays come out as a pack of every term one by one would write them (terms sorted, each
        term's postings in one run), but the packed terms are copied a run at a time: the ranges between
        the places of terms moved to `loose` (count 0) and the places the loose terms go in. An edit
        between two calls leaves a few hundred loose terms, and the save after it packs (`state`): term by
        term that cost ~0.15 s at 10,000 documents (issue 15), by runs it costs a slice per loose term."""
        terms, starts, counts, ids, tfs = self.terms, self.starts, self.counts, self.ids, self.tfs
        widened = {term: entry for term, entry in self.loose.items() if entry[1].typecode != "H"}
        moving = sorted(term for term in self.loose if term not in widened)
        cuts: dict[int, list[str]] = {}  # a packed place -> the moving terms that go in before it
        at = -1
        while True:
            try:
                at = counts.index(0, at + 1)
            except ValueError:
                break
            cuts.setdefault(at, [])
        for term in moving:
            cuts.setdefault(bisect_left(terms, term), []).append(term)  # a moved term's own place holds count 0
        out = PackedPostings()
        new_ids, new_tfs, new_starts, new_counts, new_terms = out.ids, out.tfs, out.starts, out.counts, out.terms
        loose = self.loose

        def copy(first: int, stop: int) -> None:  # packed places first..stop-1, every one with postings
            if first < stop:
                low, high = starts[first], starts[stop - 1] + counts[stop - 1]
                new_starts.extend(map((len(new_ids) - low).__add__, starts[first:stop]))
                new_terms.extend(terms[first:stop])
                new_counts.extend(counts[first:stop])
                new_ids.extend(ids[low:high])
                new_tfs.extend(tfs[low:high])

        cursor = 0
        for place in sorted(cuts):
            copy(cursor, min(place, len(terms)))
            for term in cuts[place]:
                found_ids, found_tfs = loose[term]
                new_terms.append(term)
                new_starts.append(len(new_ids))
                new_counts.append(len(found_ids))
                new_ids.extend(found_ids)
                new_tfs.extend(found_tfs)
            cursor = place + 1 if place < len(terms) and not counts[place] else place
        copy(cursor, len(terms))
        self.terms, self.starts, self.counts, self.ids, self.tfs = new_terms, new_starts, new_counts, new_ids, new_tfs
        self.loose = widened
        self.packed_live = len(new_terms)
        self.garbage = 0

    def state(self) -> tuple:
        """What the cache keeps: the packed arrays as bytes and the loose terms (see `restore`)."""
        if self.loose or self.garbage:
            self.pack()
        loose = [(term, ids.tobytes(), tfs.typecode, tfs.tobytes()) for term, (ids, tfs) in self.loose.items()]
        return (self.terms, self.starts.tobytes(), self.counts.tobytes(), self.ids.tobytes(), self.tfs.tobytes(),
                loose)

    @classmethod
    def restore(cls, state: tuple) -> PackedPostings:
        """The postings `state()` wrote; ValueError for a state of the wrong shape (the cache rebuilds)."""
        terms, starts, counts, ids, tfs, loose = state
        out = cls()
        out.terms, out.starts, out.counts = list(terms), array("q", starts), array("i", counts)
        out.ids, out.tfs = array("i", ids), array("H", tfs)
        if not (len(out.terms) == len(out.starts) == len(out.counts) and len(out.ids) == len(out.tfs)):
            raise ValueError("packed postings of the wrong shape")  # (the file's CRC and code mark vouch for the rest)
        out.loose = {term: (array("i", i), array("H" if code == "H" else "i", t)) for term, i, code, t in loose}
        out.packed_live = len(out.terms)
        return out


class SearchIndex(DerivedIndex):
    """Per-bank body index: ids, lengths and `term → (ids, tfs)` postings."""

    cache_key = "search.index"

    def _reset(self) -> None:
        self._root = str(self.bank.root)
        self.ids: dict[str, int] = {}
        self.paths: list[str | None] = []
        self.lengths: list[int] = []
        self.unique: list[int] = []
        self.saturated: dict[str, tuple[tuple, dict[int, float], int]] = {}  # routing's per-term memo (evidence.py)
        self.concept_evidence: dict = {}  # routing's per-concept memo (evidence.py)
        self.bodies: dict = {}  # path -> (doc, body) routing keeps for its best lines (evidence.py)
        self.headings: dict[str, HeadCounts] = {}  # term -> id -> count in heading lines (routing evidence)
        self.meta: list[tuple[TermSet, TermSet]] = []  # title and purpose terms
        self.keys: list[TermSet] = []  # canonical_for terms (routing's body evidence skips them)
        self._per_doc: dict[str, tuple[tuple, list[float]]] = {}
        self.postings = PackedPostings()
        self.live = 0
        self.total_length = 0
        self.dead_postings = 0
        self.total_postings = 0

    def body(self, path: str, doc: Doc) -> str | None:
        """The body of a document as on disk now, `\n`-separated (None if it cannot be read)."""
        if doc.metadata_only:  # over the body limit: its metadata is searched, its body is not read
            return ""
        data = self._read(path)
        if data is None:
            return None
        text = data.decode("utf-8", errors="replace")
        if text.startswith("\ufeff"):
            text = text[1:]
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        parts = text.split("\n", doc.body_line - 1)
        return parts[-1] if len(parts) == doc.body_line else ""

    def _read(self, path: str) -> bytes | None:
        """The file's bytes, never through a symlink (attack-inplace: a file swapped for a link to one outside
        the bank between the walk and this read put the outside file's words in the index): opened with
        `O_NOFOLLOW` and read only when it is the file the walk stat'ed (same inode), else read one folder
        at a time (`confined.read_file`), as `Bank._parse` does; None when it cannot be read so."""
        stamp = self.bank._stamps.get(path)
        try:
            fd = os.open(self._root + "/" + path, _FILE_FLAGS)
        except OSError:
            return None
        try:
            with open(fd, "rb") as handle:  # closes fd
                if stamp is not None and os.fstat(fd).st_ino == stamp[2]:
                    return handle.read()
            snap = read_file(self.bank.root, path)
        except (OSError, BankError):
            return None
        return None if snap is None else snap.data

    def _add(self, path: str, doc: Doc) -> bool:
        assert self.lexicon is not None
        body = self.body(path, doc)
        if body is None:
            # attack-inplace: unread now (its folder moved away and back, say) is no reason to be missing from
            # every later call's index: its stamp goes stale, so the next refresh, here or in a process
            # restoring the cache saved after this one, reads it again
            self.bank.forget(path)
            return False
        counts, length = self.lexicon.search_counts(body)
        ident = len(self.paths)
        self.ids[path] = ident
        self.paths.append(path)
        self.keys.append(term_set(self.lexicon.search_terms(" ".join(doc.canonical_for))) if doc.canonical_for
                         else NO_TERMS)
        self.meta.append((term_set(self.lexicon.search_terms(doc.title)),
                          term_set(self.lexicon.search_terms("" if doc.purpose_echo else doc.purpose or ""))))
        self.lengths.append(length)
        self.unique.append(len(counts))
        headings = HEADING_LINES.findall(body)
        if headings:
            for term, tf in self.lexicon.search_counts("\n".join(headings))[0].items():
                found = self.headings.get(term)
                if found is None:
                    found = self.headings[term] = HeadCounts()
                found[ident] = tf
        self.live += 1
        self.total_length += length
        self.total_postings += len(counts)
        append = self.postings.append
        for term, tf in counts.items():
            append(term, ident, tf)
        return True

    def sync(self) -> None:
        super().sync()
        postings = self.postings
        if len(postings.loose) > max(PACK_LOOSE, postings.packed_live // 4):  # after a full build, or many edits
            postings.pack()

    def _remove(self, path: str) -> None:
        ident = self.ids.pop(path, None)
        if ident is None:
            return
        self.paths[ident] = None
        self.live -= 1
        self.total_length -= self.lengths[ident]
        self.dead_postings += self.unique[ident]
        if self.dead_postings > 50_000 and self.dead_postings * 2 > self.total_postings:
            self._compact()

    def _compact(self) -> None:
        """Drop postings of replaced or removed documents (ids stay stable)."""
        paths = self.paths
        for term in list(self.postings):
            ids, tfs = self.postings[term]
            keep = [i for i, ident in enumerate(ids) if paths[ident] is not None]
            if not keep:
                del self.postings[term]
            elif len(keep) != len(ids):
                self.postings[term] = (array("i", (ids[i] for i in keep)), array(tfs.typecode, (tfs[i] for i in keep)))
        for term in list(self.headings):
            alive = [(ident, tf) for ident, tf in self.headings[term].items() if paths[ident] is not None]
            if alive:
                self.headings[term] = HeadCounts(array("i", (i for i, _ in alive)), array("i", (tf for _, tf in alive)))
            else:
                del self.headings[term]
        self.total_postings -= self.dead_postings
        self.dead_postings = 0
        self.postings.pack()

    def idf(self, df: int) -> float:
        """BM25 idf of a term held by `df` counted documents (`counted_df`), over the counted population."""
        counted = self.population()[0]
        return math.log(1 + (counted - df + 0.5) / (df + 0.5))

    # -- issue 18 (adopt-parity): body statistics count the project's knowledge only (scaffold.py) --
    def population(self) -> tuple[int, int, frozenset[int]]:
        """(documents counted toward body statistics, their total length, the live ids left out).

        The dna/ contract and indexes are left out (`scaffold.counts_toward_statistics`), unless
        nothing else is live. Rebuilt when a document or a layer changes (the bank's generation)."""
        def build() -> tuple[int, int, frozenset[int]]:
            docs = self.bank.docs
            left = frozenset(ident for ident, path in enumerate(self.paths) if path is not None
                             and (doc := docs.get(path)) is not None and not counts_toward_statistics(doc))
            if len(left) >= self.live:
                return self.live, self.total_length, frozenset()
            return self.live - len(left), self.total_length - sum(self.lengths[i] for i in left), left
        return self._stamped("population", (self.bank.generation, self.live, len(self.paths), self.total_length),
                             build)

    def counted_df(self, ids: array, df: int) -> int:
        """A term's live document frequency `df` (postings `ids`, ascending) less the scaffolding holding it."""
        left = self.population()[2]
        if not left or not df:
            return df
        size = len(ids)
        if size <= len(left):  # walk the shorter side: a term's few postings, or the few left out
            return df - len(left.intersection(ids))
        for ident in left:
            at = bisect_left(ids, ident)
            if at < size and ids[at] == ident:
                df -= 1
        return df

    def _stamped(self, name: str, stamp: tuple, build: Callable[[], Any]) -> Any:
        cached = self._per_doc.get(name)
        if cached is None or cached[0] != stamp:
            cached = self._per_doc[name] = (stamp, build())
        return cached[1]

    def norms(self) -> list[float]:
        """Per id, BM25's length normalisation `k1 · (1 − b + b · length / average length)`."""
        def build() -> list[float]:
            counted, length, _ = self.population()  # issue 18: the knowledge documents' average (scaffold.py)
            average = (length / counted if counted else 1.0) or 1.0
            return [K1 * (1 - B + B * length / average) for length in self.lengths]
        return self._stamped("norms", (self.bank.generation, self.total_length, self.live, len(self.paths)), build)

    def damping(self) -> list[float]:
        """Per id: 0.3 for archived documents, 1 otherwise, 0 for replaced or removed ids."""
        def build() -> list[float]:
            docs = self.bank.docs
            out = []
            for path in self.paths:
                doc = docs.get(path) if path is not None else None
                out.append(0.0 if doc is None else ARCHIVED_FACTOR if doc.status == "archived" else 1.0)
            return out
        return self._stamped("damping", (self.bank.generation, len(self.paths)), build)

    def holds(self, term: str) -> bool:
        """Does a live document hold `term`? A warm index keeps a removed or replaced document's postings
        until it compacts, so `term in postings` can be true for a word no file holds any more, which a
        fresh build would not know at all."""
        entry = self.postings.get(term)
        if entry is None:
            return False
        if self.live == len(self.paths):
            return True
        paths = self.paths
        return any(paths[ident] is not None for ident in entry[0])

    def term_scores(self, term: str, scale: float = 1.0) -> tuple[dict[int, float], int]:
        """BM25 of one term (× `scale`) per live document, and its document frequency (`counted_df`)."""
        entry = self.postings.get(term)
        if entry is None:
            return {}, 0
        ids, tfs = entry
        if self.live == len(self.paths):
            pairs: Iterable[tuple[int, int]] = zip(ids, tfs)
            df = len(ids)
        else:
            paths = self.paths
            pairs = [(ident, tf) for ident, tf in zip(ids, tfs) if paths[ident] is not None]
            df = len(pairs)
        if not df:
            return {}, 0
        df = self.counted_df(ids, df)  # issue 18: scaffolding holding the term does not count (scaffold.py)
        top = self.idf(df) * (K1 + 1) * scale
        norm = self.norms()
        return {ident: top * tf / (tf + norm[ident]) for ident, tf in pairs}, df

    def form_scores(self, form: SearchForm) -> tuple[dict[int, float], float]:
        """Tier × score of one form (all its terms required, mean BM25) and its idf (0 if nothing matched)."""
        if len(form.terms) == 1:
            scores, df = self.term_scores(form.terms[0], form.tier)
            return scores, self.idf(df) if df else 0.0  # df 0: only scaffolding holds it, it sets no weight
        merged: dict[int, float] | None = None
        idfs = []
        for term in form.terms:
            scores, df = self.term_scores(term, form.tier)
            if not scores:
                return {}, 0.0
            idfs.append(self.idf(df) if df else 0.0)
            merged = scores if merged is None else {k: v + scores[k] for k, v in merged.items() if k in scores}
            if not merged:
                return {}, 0.0
        assert merged is not None
        count = len(form.terms)
        return {k: v / count for k, v in merged.items()}, (sum(idfs) / count if all(idfs) else 0.0)


def _concept_scores(index: SearchIndex, concept: SearchConcept) -> tuple[dict[int, float], float]:
    """Best tier-weighted form score per document, and the concept's idf weight."""
    best: dict[int, float] = {}
    weight = 0.0
    whole_known = any(index.holds(form.terms[0]) for form in concept.forms)
    if concept.parts and not whole_known:
        for form in concept.parts:
            scores, idf = index.form_scores(form)
            weight = max(weight, idf)
            get = best.get
            best.update({ident: get(ident, 0.0) + value for ident, value in scores.items()})
        return best, weight
    for form in concept.forms:
        scores, idf = index.form_scores(form)
        if not scores:
            continue
        weight = max(weight, idf)
        if not best:
            best = scores
            continue
        get = best.get
        best.update({ident: value for ident, value in scores.items() if value > get(ident, 0.0)})
    return best, weight


def _phrases(lexicon: Lexicon, query: str) -> list[str]:
    """Runs of ≥ 2 consecutive non-stopword words of the query, lowercased, as typed (for the phrase bonus)."""
    text = fold(lowered(normalize(query)))  # kanji-fold: matched against `_Body.low`, folded and lowered alike
    runs: list[str] = []
    start = end = -1
    count = 0

    def close() -> None:
        if count >= 2:
            runs.append(text[start:end])

    for match in WORD.finditer(text):
        token, cursor = match.group(), 0
        for cjk, piece in split_scripts(token):
            cursor = token.index(piece, cursor)
            offset = match.start() + cursor
            cursor += len(piece)
            if not cjk:
                if piece in STOPWORDS:
                    close()
                    start, count = -1, 0
                    continue
                if start < 0:
                    start = offset
                end, count = offset + len(piece), count + 1
                continue
            for word, is_word in segment(piece, lexicon.zh_words, lexicon.zh_max):
                if is_word and word in ZH_STOPWORDS:
                    close()
                    start, count = -1, 0
                else:
                    if start < 0:
                        start = offset
                    end, count = offset + len(word), count + (1 if is_word else len(word) // 2 or 1)
                offset += len(word)
    close()
    return runs


def _leading(scores: dict[int, float], count: int, paths: list[str | None]) -> list[tuple[float, int]]:
    """The `count` best `(score, id)` by score, ties by path (ids tied at the cut all compete)."""
    if len(scores) > count:
        cut = heapq.nlargest(count, scores.values())[-1]
        scores = {ident: score for ident, score in scores.items() if score >= cut}
    ordered = sorted(scores.items(), key=lambda item: (-round(item[1], 9), paths[item[0]] or ""))
    return [(score, ident) for ident, score in ordered[:count]]


def _covers(form: SearchForm, terms: set[str]) -> bool:
    return all(term in terms for term in form.terms)


def _concept_in(concept: SearchConcept, terms: set[str]) -> bool:
    if any(_covers(form, terms) for form in concept.forms):
        return True
    return bool(concept.parts) and any(_covers(part, terms) for part in concept.parts)



def search(bank: Bank, query: str, limit: int = DEFAULT_LIMIT, doc_kind: str | None = None,
           layer: str | None = None, status: str | None = None) -> dict:
    """Find where words or literals occur in bodies (§6): `{results: [...]}`, plus `hint` when empty."""
    limit = check_query(query, limit, MAX_LIMIT, layer, what="Query")
    bank.refresh()
    check_filters(bank, doc_kind, status)
    index = SearchIndex.of(bank)
    assert index.lexicon is not None
    concepts = index.lexicon.search_concepts(query)
    content = [c for c in concepts if not c.stop] or concepts
    if not content or not index.live:
        return {"results": [], **empty_hint(HINT, "route", doc_kind, layer, status)}

    per_concept: list[dict[int, float]] = []
    weights: list[float] = []
    floor = index.idf(0)
    for concept in content:
        scores, weight = _concept_scores(index, concept)
        per_concept.append(scores)
        weights.append(weight or floor)
    total_weight = sum(weights)

    docs, paths = bank.docs, index.paths
    damping = index.damping()
    filtered = doc_kind is not None or layer is not None or status is not None

    def accept(ident: int) -> bool:
        doc = docs.get(paths[ident] or "")
        return doc is not None and (doc_kind is None or doc.doc_kind == doc_kind) \
            and (layer is None or doc.layer == layer) and (status is None or doc.status == status)

    need = max(3 * limit, 30)  # candidates that get the bonuses (which need the text) before the final cut
    pool = set(per_concept[0]).intersection(*per_concept[1:])
    if filtered:
        pool = {ident for ident in pool if accept(ident)}
    first = per_concept[0]
    pool_scores = {ident: first[ident] for ident in pool}
    for scores in per_concept[1:]:
        pool_scores = {ident: value + scores[ident] for ident, value in pool_scores.items()}
    pool_scores = {ident: value * damping[ident] for ident, value in pool_scores.items()}
    chosen = [(0, score, ident) for score, ident in _leading(pool_scores, need, paths)]
    if len(chosen) < need:
        rest: dict[int, float] = {}
        for ident in set().union(*per_concept) - pool:
            if filtered and not accept(ident):
                continue
            base = matched = 0.0
            for scores, weight in zip(per_concept, weights):
                value = scores.get(ident)
                if value is not None:
                    base += value
                    matched += weight
            rest[ident] = base * (matched / total_weight if total_weight else 1.0) * damping[ident]
        chosen += [(1, score, ident) for score, ident in _leading(rest, need - len(chosen), paths)]
    candidates = [(group, score, paths[ident], docs[paths[ident]]) for group, score, ident in chosen if score > 0]
    if not candidates:
        return {"results": [], **empty_hint(HINT, "route", doc_kind, layer, status)}

    lexicon = index.lexicon
    phrases = _phrases(lexicon, query)
    bodies: dict[str, _Body] = {}
    ranked: list[tuple[int, float, str, Doc]] = []
    for group, score, path, doc in candidates:
        factor = 1.0
        if phrases:
            body = bodies[path] = _Body(index.body(path, doc) or "")
            if any(p in body.low for p in phrases):
                factor += PHRASE_BONUS
        title_terms, purpose_terms = index.meta[index.ids[path]]
        factor += TITLE_BONUS * sum(_concept_in(c, title_terms) for c in content) / len(content)
        factor += PURPOSE_BONUS * sum(_concept_in(c, purpose_terms) for c in content) / len(content)
        ranked.append((group, score * factor, path, doc))
    later = scaffold_later(query, layer)  # issue 18: the dna/ contract and indexes after the answers (scaffold.py)
    ranked.sort(key=lambda r: (later(r[3], False), r[0], -round(r[1], 9), r[2]))

    results = []
    needles = _line_needles(lexicon, content)
    for _, score, path, doc in ranked[:limit]:
        body = bodies[path] if path in bodies else _Body(index.body(path, doc) or "")
        line, excerpt = _best_line(needles, weights, body, doc.body_line, content, lexicon)
        results.append({"path": path, "title": shown(doc.title, TITLE_MAX), "doc_kind": doc.doc_kind,
                        "layer": doc.layer, "status": doc.status, "score": round(score, 3), "line": line,
                        "excerpt": excerpt})
    return {"results": results}


Needle = tuple[int, str, bool, bool]  # (tier, literal, at word start, at word end)
LINE_SCAN = 5000  # lines tokenised to place a concept no literal finds


def _line_needles(lexicon: Lexicon, content: list[SearchConcept]) -> list[list[Needle]]:
    """Per concept: the literals of its typed form, equivalents and parts, with their tiers."""
    out = []
    for concept in content:
        needles: dict[tuple[str, bool, bool], int] = {}
        for form in (*concept.forms, *concept.parts):
            if any(ch >= "\u2e80" for ch in form.label):
                found: tuple[tuple[str, bool, bool], ...] = ((form.label, False, False),)
            else:
                found = lexicon.needles(form.terms[0])
            for needle in found:
                needles[needle] = max(needles.get(needle, 0), form.tier)
        out.append([(tier, *needle) for needle, tier in needles.items()])
    return out


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _version_at(low: str, at: int, end: int) -> bool:
    """Is the version number `low[at:end]` a whole token here, as `tokens.WORD` reads it: a `v` at most before
    it, and no part of a longer dotted number (`1.2.3.4`, `2.1.2.3`), a word or a hyphenated word."""
    start = at - 1 if at and low[at - 1] == "v" else at
    if start:
        before = low[start - 1]
        if _is_word_char(before) or (start >= 2 and (low[start - 2].isdigit() if before == "." else
                                                     before == "-" and _is_word_char(low[start - 2]))):
            return False
    if end < len(low):
        after = low[end]
        if _is_word_char(after) or (after == "." and end + 1 < len(low) and low[end + 1].isdigit()):
            return False
    return True


class _Body:
    """A body read for one query, with its lowercased form and lines computed once.

    `placed` and `scanned` keep, per concept, the lines `_best_line` found it on (line → tier): they
    depend only on the text, the concept and the lexicon, so routing keeps a body between calls
    (`evidence.best_line`) and a question repeating a concept does not search the text for it again."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._low: str | None = None
        self._lines: list[str] | None = None
        self.placed: dict[tuple[Needle, ...], dict[int, int]] = {}
        self.scanned: dict[SearchConcept, dict[int, int]] = {}

    @property
    def low(self) -> str:
        if self._low is None:
            low = fold(lowered(self.text))  # kanji-fold: one form for 機構 / 机构; same length, same lines
            self._low = low.replace("ё", "е") if "ё" in low else low
        return self._low

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines


def _best_line(needles: list[list[Needle]], weights: list[float], body: _Body, first_line: int,
               content: list[SearchConcept], lexicon: Lexicon) -> tuple[int, str]:
    """The 1-based file line whose matched concepts weigh most (first on ties), and its excerpt.

    Each concept's literals (`Lexicon.needles`) are found with `str.find` over the lowercased body
    and placed on a line by counting the newlines before them (lowercasing never adds or drops a
    newline); a line scores Σ concept idf × the strongest tier found on it. A concept none of whose
    literals occurs (its stem is not a prefix of the word: `decid` in "decision", `retry` in
    "retries"; or it sits inside an identifier: `logger` in `getLogger`) is placed by tokenising
    the lines the way the index does, up to `LINE_SCAN` lines.
    """
    scores: dict[int, float] = {}
    missing: list[tuple[SearchConcept, float]] = []
    placed = body.placed
    for concept, concept_needles, weight in zip(content, needles, weights):
        key = tuple(concept_needles)
        best = placed.get(key)
        if best is None:
            best = placed[key] = _placed(body.low, concept_needles)
        if not best:
            missing.append((concept, weight))
        for line, tier in best.items():
            scores[line] = scores.get(line, 0.0) + weight * tier
    if missing:
        scanned = body.scanned
        todo = [concept for concept, _ in missing if concept not in scanned]
        if todo:  # one pass over the lines for every concept not scanned yet
            found: dict[SearchConcept, dict[int, int]] = {concept: {} for concept in todo}
            for index, text in enumerate(body.lines[:LINE_SCAN]):
                if not text.strip():
                    continue
                terms = lexicon.search_terms(text)
                for concept in todo:
                    tier = max((form.tier for form in (*concept.forms, *concept.parts)
                                if form.terms and all(t in terms for t in form.terms)), default=0)
                    if tier:
                        found[concept][index] = tier
            scanned.update(found)
        for concept, weight in missing:  # after every placed concept, in order: each line's sum as before
            for index, tier in scanned[concept].items():
                scores[index] = scores.get(index, 0.0) + weight * tier
    if not scores:
        return first_line, ""
    index = min(scores, key=lambda i: (-scores[i], i))
    return first_line + index, _excerpt(body.lines[index], content)


def _placed(low: str, concept_needles: list[Needle]) -> dict[int, int]:
    """The 0-based lines of `low` one concept's literals occur on (as whole words where asked), with the
    strongest tier found on each."""
    size = len(low)
    best: dict[int, int] = {}
    for tier, literal, word_start, word_end in concept_needles:
        at = low.find(literal)
        line, counted = 0, 0
        dotted = word_end and "." in literal  # a version number (the only terms with a dot: `tokens.version`)
        while at >= 0:
            end = at + len(literal)
            if (_version_at(low, at, end) if dotted else
                    not ((word_start and at and _is_word_char(low[at - 1]))
                         or (word_end and end < size and _is_word_char(low[end])))):
                line += low.count("\n", counted, at)
                counted = at
                if tier > best.get(line, 0):
                    best[line] = tier
            at = low.find(literal, end)
    return best


def lowered(text: str) -> str:
    """`text.lower()` one character for one, so an offset in it is the same offset in `text`.

    `str.lower` turns "İ" (U+0130) into "i" and a combining dot: every offset after it moved by one (an
    excerpt cut past its match, or cut to nothing), and "İstanbul" lowered held no "istanbul" to find.
    Here such a character keeps only the first character of its lowercase (no other letter's lowercase
    is longer than itself)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join([ch.lower()[0] for ch in text])


def _is_cjk_label(label: str) -> bool:
    return any(ch >= "\u2e80" for ch in label)


def _first_match(low: str, content: list[SearchConcept]) -> int:
    """Where in `low` the excerpt should show: the first typed form found there; else the first part
    or, for a CJK form, the first of its two-character pieces (a query run matched only in part: the
    whole run is not in the line, a piece of it is); else the start."""
    typed = [at for c in content for form in c.forms if form.label and (at := low.find(form.label)) >= 0]
    if typed:
        return min(typed)
    pieces = [low.find(form.label) for c in content for form in c.parts if form.label]
    pieces += [low.find(term) for c in content for form in (*c.forms, *c.parts)
               if form.label and _is_cjk_label(form.label) for term in form.terms]
    return min((at for at in pieces if at >= 0), default=0)


def _excerpt(line: str, content: list[SearchConcept], room: int = EXCERPT_MAX, lead: int = 60, keep: int = 0) -> str:
    """The line, trimmed; a line longer than `room` is cut to ≤ `room` characters around the first concept
    it contains, beginning `lead` characters before it (at the line's start when it begins before `keep`)."""
    text = plain(line).strip()
    if len(text) <= room:
        return text
    first = _first_match(fold(lowered(text)), content)  # kanji-fold: labels are folded; offsets as in `text`
    start = max(0, first - lead) if first >= keep else 0
    if start:  # never past the point where the rest of the line fills the room after the "…"
        start = max(1, min(start, len(text) - room + 1))
    head = "…" if start else ""
    room -= len(head)
    chunk = text[start:start + room]
    if start + room < len(text):
        chunk = chunk[:-1] + "…"
    return head + chunk
