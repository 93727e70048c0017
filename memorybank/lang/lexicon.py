"""The merged dictionary and everything that turns text into comparable terms (§7).

A *term* is the form two words must share to match:
- English: the light stem (`english.stem`); identifiers split into parts for routing.
- Russian: the *canonical stem* of the dictionary row the word belongs to (longest stem the word
  starts with, else one verbal prefix stripped and retried); a row's stems are synonyms, so
  `задеплоить` and `развертывание` both become `депло`. Unknown words get `russian.cut_ending`.
- Chinese: forward maximum matching over the dictionary; a dictionary word becomes its row's
  canonical word (`决策` → `决定`), leftovers become bigrams. A CJK run is folded first
  (`tokens.fold`: Japanese and Traditional characters in their Simplified form, `variants.py`).

A `Concept` (§7.5) is one typed word: its own term plus *equivalents*, the terms of the same
concept in the other two languages. English reaches Chinese and Russian directly; Russian reaches
Chinese (and back) through the English words of its row.

Lexicons are immutable after construction apart from per-word memo tables; one is built per
distinct vocabulary (`build_lexicon` is cached on the vocabulary rows).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import re
from collections import Counter
from itertools import chain
from typing import NamedTuple

from ..frozen import Value, assign
from ..regexes import compiled
from . import chinese, english, russian
from .dictionary import ROWS
from .tokens import WORD, fold, is_compound, is_cyrillic, lower, normalize, scan, split_compound, split_scripts, version
from .vocabulary import VocabularyRow

STOPWORDS = english.STOPWORDS | russian.STOPWORDS | chinese.STOPWORDS

Row = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # english items, russian stems, chinese words
MIN_PREFIXED_STEM = 4  # letters of a dictionary stem found behind a stripped verbal prefix
_MEMO_LIMIT = 200_000  # per-lexicon memo tables are cleared when they reach this many entries
QUESTIONS_KEPT = 64  # questions whose routing and search concepts a lexicon keeps (`concepts`, `search_concepts`)
_WORD_ASCII = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ASCII_SEPARATORS = str.maketrans({chr(i): " " for i in range(128) if chr(i) not in _WORD_ASCII})
# a text holding a version number keeps its dots, so `0.1.0` stays one token (`tokens.version`)
_ASCII_SEPARATORS_DOTTED = str.maketrans({chr(i): " " for i in range(128) if chr(i) not in _WORD_ASCII | {"."}})
_DOTTED = compiled(r"\d\.\d")
_PHRASE_ROWS = russian.phrase_rows()
_PHRASES = compiled("|".join(f"({pattern})" for pattern, _ in _PHRASE_ROWS), re.IGNORECASE)
_PHRASE_TARGETS = tuple(target for _, target in _PHRASE_ROWS)


def read_phrases(text: str) -> str:
    """A question with each Russian phrase of `russian.PHRASES` read as its one word (`по очереди` →
    `последовательно`), so the phrase's concept is found and its words apart are not."""
    if text.isascii():
        return text
    folded = text.replace("ё", "е").replace("Ё", "Е")  # the same length: a match's offsets are the text's
    out, at = [], 0
    for match in _PHRASES.finditer(folded):
        out += (text[at:match.start()], _PHRASE_TARGETS[match.lastindex - 1])
        at = match.end()
    return "".join(out) + text[at:] if out else text


class Concept(Value):
    """One typed query word for routing: its term, whether prefix matching is allowed, equivalents."""

    text: str
    term: str
    prefix: bool
    equivalents: tuple[str, ...]
    weight: float  # an identifier's parts share one idea: each weighs 1 / their count

    __slots__ = ("text", "term", "prefix", "equivalents", "weight")

    def __init__(self, text: str, term: str, prefix: bool, equivalents: tuple[str, ...], weight: float = 1.0) -> None:
        assign(self, "text", text)
        assign(self, "term", term)
        assign(self, "prefix", prefix)
        assign(self, "equivalents", equivalents)
        assign(self, "weight", weight)


class SearchForm(Value):
    """A way a search concept can occur in a body: all `terms` present (CJK bigrams), at `tier` weight."""

    terms: tuple[str, ...]
    tier: int
    label: str

    __slots__ = ("terms", "tier", "label")

    def __init__(self, terms: tuple[str, ...], tier: int, label: str) -> None:
        assign(self, "terms", terms)
        assign(self, "tier", tier)
        assign(self, "label", label)


class SearchConcept(Value):
    """One typed query token for search: typed form first, then equivalents; `parts` for compounds."""

    text: str
    forms: tuple[SearchForm, ...]
    parts: tuple[SearchForm, ...]
    stop: bool

    __slots__ = ("text", "forms", "parts", "stop")

    def __init__(self, text: str, forms: tuple[SearchForm, ...], parts: tuple[SearchForm, ...], stop: bool) -> None:
        assign(self, "text", text)
        assign(self, "forms", forms)
        assign(self, "parts", parts)
        assign(self, "stop", stop)


def _split(cell: str) -> tuple[str, ...]:
    cell = cell.strip()
    if cell in ("", "-"):
        return ()
    return tuple(item.strip().lower().replace("ё", "е") for item in cell.split(",") if item.strip())


@functools.lru_cache(maxsize=1)
def builtin_rows() -> tuple[Row, ...]:
    """The built-in dictionary rows, parsed once."""
    rows: list[Row] = []
    for line in ROWS.strip().splitlines():
        cells = line.split("|")
        if len(cells) != 3:
            raise ValueError(f"dictionary row needs three cells: {line!r}")
        rows.append((_split(cells[0]), _split(cells[1]), _split(fold(cells[2]))))  # kanji-fold
    return tuple(rows)


def _english_terms(items: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(all English terms of a row, single-word terms usable in the reverse direction)."""
    every: list[str] = []
    single: list[str] = []
    for item in items:
        words = [w for w in item.replace("-", " ").split() if w not in english.STOPWORDS]
        terms = [english.stem(w) if w.isascii() and w.isalpha() else w for w in words]
        every.extend(terms)
        if len(terms) == 1 and " " not in item:
            single.append(terms[0])
    return tuple(dict.fromkeys(every)), tuple(dict.fromkeys(single))


Table = dict[str, tuple[str, ...]]


class _Tables(NamedTuple):
    """The merged dictionary as lookup tables: canonical forms, cross-language links, groups of synonyms."""

    ru_canon: dict[str, str]  # Russian stem → its row's canonical stem
    zh_canon: dict[str, str]  # Chinese word → its row's canonical word
    ru_en: Table  # canonical stem → English terms of its rows
    zh_en: Table
    zh_group: Table  # canonical word → every word it stands for
    en_ru: Table  # single-word English term → canonical stems
    en_zh: Table
    ru_group: Table  # canonical stem → every stem it stands for (filled by `grouped`)

    def add(self, every: tuple[str, ...], single: tuple[str, ...], ru: tuple[str, ...], zh: tuple[str, ...]) -> None:
        """Merge one row; a row sharing a stem or word with an earlier one joins that row's concept."""
        if ru:
            ru_canon = self.ru_canon
            canon = next((ru_canon[s] for s in ru if s in ru_canon), ru[0])
            for stem in ru:
                ru_canon.setdefault(stem, canon)
            _merge(self.ru_en, canon, every)
            for term in single:
                _merge(self.en_ru, term, (canon,))
        if zh:
            zh_canon = self.zh_canon
            canon = next((zh_canon[w] for w in zh if w in zh_canon), zh[0])
            for word in zh:
                zh_canon.setdefault(word, canon)
                _merge(self.zh_group, zh_canon[word], (word,))
            _merge(self.zh_en, canon, every)
            for term in single:
                _merge(self.en_zh, term, (canon,))

    def grouped(self) -> _Tables:
        ru_group: dict[str, list[str]] = {}
        for stem, canon in self.ru_canon.items():
            ru_group.setdefault(canon, []).append(stem)
        return self._replace(ru_group={k: tuple(v) for k, v in ru_group.items()})


def _merge(table: Table, key: str, items: tuple[str, ...]) -> None:
    """`items` appended to `table[key]` (created empty first), each once, in first-seen order."""
    old = table.get(key)
    table[key] = tuple(dict.fromkeys((*old, *items))) if old else tuple(dict.fromkeys(items))


def build_builtin_tables() -> _Tables:
    """The built-in dictionary's tables, built from the sources (rows, stemmer, stopwords)."""
    tables = _Tables({}, {}, {}, {}, {}, {}, {}, {})
    for en_items, ru, zh in builtin_rows():
        tables.add(*_english_terms(en_items), ru, zh)
    return tables.grouped()


DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lexicon.marshal")
DATA_FORMAT = 4  # 2: the marshal data behind a SHA-256 of itself; 3: the everyday-word sets beside the tables;
#                  4: each table and each everyday-word set its own section, unmarshalled on first use
EVERYDAY_SECTIONS = ("everyday", "everyday_ru")  # English stems and Chinese words; Russian stems


def sources_mark() -> str:
    """A hash of every source file in `lang/` (the saved data excepted): saved tables built from other
    sources are not used. Reading the few files costs well under a millisecond."""
    folder = os.path.dirname(DATA_FILE)
    digest = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name == os.path.basename(DATA_FILE) or name.startswith(".") or not os.path.isfile(path):
            continue
        with open(path, "rb") as handle:
            digest.update(name.encode("utf-8", "surrogateescape") + b"\0" + handle.read() + b"\0")
    return digest.hexdigest()


def _read_sections(path: str | None = None) -> tuple | None:
    """`(format, sources mark, {section name: marshal bytes})` from a saved file whose bytes are intact, else
    None (missing, unreadable, truncated, damaged or foreign). The digest is checked before `marshal` reads
    a byte: damaged marshal data can still load, as other tables or with a size field that asks for gigabytes."""
    try:
        with open(path or DATA_FILE, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    digest, payload = data[:32], data[32:]
    if len(data) <= 32 or hashlib.sha256(payload).digest() != digest:
        return None
    try:
        form, mark, sections = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(sections, dict) or not all(isinstance(sections.get(name), bytes) for name in _SECTIONS):
        return None
    return form, mark, sections


def read_saved(path: str | None = None) -> tuple | None:
    """`(format, sources mark, tables, everyday-word sets)` from a saved file whose bytes are intact, else None
    (`_read_sections`); every section read (a process reads only those it needs: `SavedTables`)."""
    found = _read_sections(path)
    if found is None:
        return None
    form, mark, sections = found
    try:
        tables = tuple(marshal.loads(sections[name]) for name in _Tables._fields)
        everyday = tuple(marshal.loads(sections[name]) for name in EVERYDAY_SECTIONS)
    except (EOFError, ValueError, TypeError):
        return None
    return form, mark, tables, everyday


class SavedTables:
    """The built-in tables as saved in `lexicon.marshal`, each section unmarshalled on first use.

    A prompt in one language reads the tables it needs (an English question: the English → Russian and
    → Chinese links; a Russian one also the Russian stems), so a growing dictionary or a table for one
    script costs the others nothing. Read as the `_Tables` saved (fields by name, iteration, equality).
    """

    __slots__ = ("_sections", "_loaded")

    def __init__(self, sections: dict[str, bytes]) -> None:
        self._sections = sections
        self._loaded: dict[str, object] = {}

    def section(self, name: str):
        """One saved section (a table, an everyday-word set), unmarshalled once; a section that does not
        unmarshal to its shape (`_section_ok`) is taken from tables built from the sources instead."""
        found = self._loaded.get(name)
        if found is None:
            try:
                found = marshal.loads(self._sections[name])
            except Exception:  # noqa: BLE001 - any failure of a section means the built one
                found = None
            if found is None or not _section_ok(name, found):
                found = _built_sections()[name]
            self._loaded[name] = found
        return found

    def __getattr__(self, name: str):
        if name in _Tables._fields:
            return self.section(name)
        raise AttributeError(name)

    def __iter__(self):
        return (self.section(name) for name in _Tables._fields)

    def __len__(self) -> int:
        return len(_Tables._fields)

    def __getitem__(self, index):
        return tuple(self)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, SavedTables)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


_SECTIONS = (*_Tables._fields, *EVERYDAY_SECTIONS)
_CANON_SECTIONS = ("ru_canon", "zh_canon")  # word → word; the other tables word → words; everyday: a set of words


def _section_ok(name: str, value: object) -> bool:
    """Is a saved section shaped as the built one (s8-robust)? The file's SHA-256 and sources mark catch a
    damaged or stale file, not one written with its digest made good: a table of the wrong shape failed
    the first lookup of the process (a TypeError mid-route) instead of meaning "built from the sources"."""
    words = str.__instancecheck__  # the checks run in C: a section costs about what unmarshalling it does
    if name in EVERYDAY_SECTIONS:
        return type(value) is frozenset and all(map(words, value))
    if type(value) is not dict or not all(map(words, value)):
        return False
    if name in _CANON_SECTIONS:
        return all(map(words, value.values()))
    return all(map(tuple.__instancecheck__, value.values())) and all(map(words, chain.from_iterable(value.values())))


@functools.cache
def _built_sections() -> dict[str, object]:
    """Every section as `write_builtin_tables` saves it, built from the sources (a saved one was unusable)."""
    tables = build_builtin_tables()
    plain = Lexicon.__new__(Lexicon)
    plain._setup(tables)
    return dict(zip(_SECTIONS, (*tables, *build_everyday(plain))))


def _saved() -> SavedTables | None:
    """The tables and everyday-word sets in `lexicon.marshal`, when it was saved from these very sources."""
    found = _read_sections()
    if found is None:
        return None
    form, mark, sections = found
    if form != DATA_FORMAT or mark != sources_mark():
        return None
    return SavedTables(sections)


_EVERYDAY: dict[str, tuple[frozenset[str], frozenset[str]]] = {}  # built when `builtin_tables` built the tables


@functools.lru_cache(maxsize=1)
def builtin_tables() -> _Tables | SavedTables:
    """The built-in tables: from `lexicon.marshal` when it was saved from these very sources, else built.

    Regenerate the file after changing a word list, the stemmer or this module:
    `python -m memorybank.lang.regenerate` (a test fails while it is stale; a stale file is never used).
    """
    _EVERYDAY.clear()
    saved = _saved()
    return build_builtin_tables() if saved is None else saved


def build_everyday(lexicon: Lexicon) -> tuple[frozenset[str], frozenset[str]]:
    """The everyday-word sets (`everyday.py`) as `lexicon` writes the words: English stems and Chinese
    words; Russian stems (these walk the dictionary, so a bank's vocabulary can change them)."""
    from .everyday import EN, RU, ZH

    return frozenset({english.stem(w) for w in EN} | set(ZH)), frozenset(lexicon.term(w)[0] for w in RU)


def _builtin_everyday(part: int) -> frozenset[str]:
    """One everyday-word set over the built-in dictionary (0: English and Chinese, 1: Russian): saved beside
    the tables and read from there (stemming the ~650 words took ~2.5 ms for English and ~3.4 ms for Russian
    in every routing process, under load), else built once."""
    tables = builtin_tables()
    if isinstance(tables, SavedTables):
        return tables.section(EVERYDAY_SECTIONS[part])
    found = _EVERYDAY.get("builtin")
    if found is None:
        found = _EVERYDAY["builtin"] = build_everyday(Lexicon())
    return found[part]


def builtin_everyday() -> tuple[frozenset[str], frozenset[str]]:
    """Both everyday-word sets over the built-in dictionary (`_builtin_everyday`)."""
    return _builtin_everyday(0), _builtin_everyday(1)


def write_builtin_tables(path: str = DATA_FILE) -> None:
    """Save the tables built from the sources to `path` (atomically), marked with the sources' hash."""
    tables = build_builtin_tables()
    plain = Lexicon.__new__(Lexicon)
    plain._setup(tables)  # a Lexicon over the tables just built, not over the saved ones
    parts = (*tables, *build_everyday(plain))
    sections = {name: marshal.dumps(part) for name, part in zip(_SECTIONS, parts)}
    payload = marshal.dumps((DATA_FORMAT, sources_mark(), sections))
    import tempfile  # only the regenerating process pays for it

    # a temporary name of this run's own: two runs at once (two checkouts' hooks, a merge and an editor)
    # each rename a whole file of their own; a fixed `.tmp` was truncated by one under the other's rename
    fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".marshal", dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(hashlib.sha256(payload).digest() + payload)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temp, 0o666 & ~mask)  # as `open` made the file before: read by every user of the package
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


class _Table:
    """A table of a lexicon, taken from its tables on first use and kept as a plain attribute after that
    (the instance's own, so the hot loops read it at no extra cost)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, lexicon: Lexicon | None, owner: type | None = None):
        if lexicon is None:
            return self
        found = lexicon.__dict__[self.name] = getattr(lexicon._tables, self.name)
        return found


class Lexicon:
    """Built-in dictionary merged with a bank's vocabulary rows; turns text into terms and concepts."""

    def __init__(self, vocabulary: tuple[VocabularyRow, ...] = ()) -> None:
        # The built-in rows' tables come ready-made (`builtin_tables`: saved data, ~2 ms, instead of
        # stemming every row in every process); a vocabulary merges into copies of them.
        tables = builtin_tables()
        if vocabulary:
            tables = _Tables(*map(dict, tables[:7]), {})
            for language, term, en_items in vocabulary:
                every, single = _english_terms(en_items)
                russian = language == "ru"
                tables.add(every, single, (term,) if russian else (), () if russian else (fold(term),))
            tables = tables.grouped()
        self._setup(tables, builtin=not vocabulary)

    # prime-lean: each table is read from the saved sections on first use (`SavedTables`), as are the sets
    # derived from them: an English prompt never reads the Russian stems or the Chinese words
    ru_canon = _Table()
    zh_canon = _Table()
    ru_en = _Table()
    zh_en = _Table()
    zh_group = _Table()
    en_ru = _Table()
    en_zh = _Table()
    ru_group = _Table()

    def _setup(self, tables: _Tables | SavedTables, builtin: bool = False) -> None:
        self._builtin = builtin  # the built-in tables alone: the saved everyday-word sets hold for them
        self._tables = tables
        self._route_word: dict[str, tuple[tuple[str, str, str], ...]] = {}
        self._route_cjk: dict[str, tuple[tuple[str, str, str], ...]] = {}
        self._search_token: dict[str, tuple[tuple[str, ...], int]] = {}
        self._route_text: dict[str, tuple[tuple[str, str, str], ...]] = {}
        self._route_token: dict[str, tuple[tuple[str, str, str], ...]] = {}
        self._concepts: dict[str, tuple[Concept, ...]] = {}  # question -> `concepts` (the oldest dropped first)
        self._search_concepts: dict[str, tuple[SearchConcept, ...]] = {}  # query -> `search_concepts`
        self._everyday: frozenset[str] | None = None  # English and Chinese, built on first use (everyday.py)
        self._everyday_ru: frozenset[str] | None = None  # Russian, built on the first Russian word asked about

    @functools.cached_property
    def zh_words(self) -> frozenset[str]:
        """The words Chinese text is segmented into: the dictionary's and the stopwords."""
        return frozenset(self.zh_canon) | chinese.STOPWORDS

    @functools.cached_property
    def zh_max(self) -> int:
        return min(max((len(w) for w in self.zh_words), default=1), 8)

    @functools.cached_property
    def _ru_lengths(self) -> list[int]:
        return sorted({len(s) for s in self.ru_canon}, reverse=True)

    # -- single words ----------------------------------------------------------------------------

    def russian_stem(self, word: str) -> str | None:
        """Canonical stem of a Russian word: longest dictionary stem it starts with, else after one prefix.

        Behind a stripped prefix the stem must have ≥ 4 letters: `на|чаты` is no chat and `про|цент`
        no cent, while `за|деплоить` is a deploy."""
        found = self._longest_stem(word)
        if found is None:
            for prefix in russian.VERBAL_PREFIXES:
                if word.startswith(prefix) and len(word) - len(prefix) >= 4:
                    found = self._longest_stem(word[len(prefix):], MIN_PREFIXED_STEM)
                    if found is not None:
                        break
        return found

    def _longest_stem(self, word: str, shortest: int = 1) -> str | None:
        size = len(word)
        for length in self._ru_lengths:
            if shortest <= length <= size:
                canon = self.ru_canon.get(word[:length])
                if canon is not None:
                    return canon
        return None

    def term(self, word: str) -> tuple[str, str]:
        """`(term, language)` of one lowercase word part; language is en, ru, ru? (unknown) or other."""
        if word.isascii():
            if word.isalpha():
                return english.stem(word), "en"
            return (version(word) or word) if "." in word else word, "other"
        if is_cyrillic(word):
            stem = self.russian_stem(word)
            if stem is not None:
                return stem, "ru"
            return russian.cut_ending(word), "ru?"
        return word, "other"

    def everyday(self, term: str) -> bool:
        """Is this term (an English stem, a Russian stem, a Chinese word) a word of everyday language? The
        prior on general word frequency (`everyday.py`) weighs it down."""
        found = self._everyday
        if found is None:  # English stems and Chinese words: no vocabulary changes them
            found = self._everyday = _builtin_everyday(0)
        if term in found:
            return True
        if not is_cyrillic(term):
            return False
        russian = self._everyday_ru
        if russian is None:  # Russian stems walk the dictionary: a bank's vocabulary may change them
            if self._builtin:
                russian = _builtin_everyday(1)
            else:
                from .everyday import RU

                russian = frozenset(self.term(w)[0] for w in RU)
            self._everyday_ru = russian
        return term in russian

    # -- routing ---------------------------------------------------------------------------------

    def _route_word_terms(self, word: str) -> tuple[tuple[str, str, str], ...]:
        cached = self._route_word.get(word)
        if cached is not None:
            return cached
        compound = is_compound(word)
        parts = split_compound(word) if compound else [lower(word)]
        out = []
        whole = _camel_whole(word) if compound else None
        if whole is not None:  # `SQLite` also as the word `sqlite` would be: a query must not depend on case
            out.append((english.stem(whole), whole, "en"))
        for part in parts:
            part = part.replace("ё", "е")
            # one character is no content word; a lone digit only when typed alone (`ISO-639-1`'s `1`
            # would match every version number)
            if part in STOPWORDS or (len(part) == 1 and (not part.isdigit() or len(parts) > 1)):
                continue
            term, language = self.term(part)
            out.append((term, part, language))
        result = tuple(out)
        self._route_word[word] = result
        return result

    def _route_cjk_terms(self, run: str) -> tuple[tuple[str, str, str], ...]:
        cached = self._route_cjk.get(run)
        if cached is not None:
            return cached
        out = []
        # kanji-fold: the folded run is segmented; each surface is the run's own characters at the same
        # offsets (the fold keeps lengths), so `why` quotes the bank's spelling
        at = 0
        for piece, is_word in chinese.segment(fold(run), self.zh_words, self.zh_max):
            own, at = run[at:at + len(piece)], at + len(piece)
            if is_word:
                if piece in chinese.STOPWORDS:
                    continue
                out.append((self.zh_canon.get(piece, piece), own, "zh"))
            else:
                out.extend((gram, surface, "cjk")
                           for gram, surface in zip(chinese.bigrams(piece), chinese.bigrams(own)))
        result = tuple(out)
        self._route_cjk[run] = result
        return result

    def route_terms(self, text: str) -> tuple[tuple[str, str, str], ...]:
        """`(term, surface, language)` for every content word of a metadata field, in order.

        Memoised per text (headings such as "Context" or "Decision" repeat across a bank); the
        returned triples are shared objects, so tokenised fields cost little memory.
        """
        cached = self._route_text.get(text)
        if cached is not None:
            return cached
        out: list[tuple[str, str, str]] = []
        tokens = self._route_token
        for token in WORD.findall(normalize(text)):
            found = tokens.get(token)
            if found is None:
                found = tokens[token] = tuple(triple for cjk, piece in split_scripts(token) for triple in (
                    self._route_cjk_terms(piece) if cjk else self._route_word_terms(piece)))
            out.extend(found)
        result = tuple(out)
        if len(self._route_text) >= _MEMO_LIMIT:
            self._route_text.clear()
        self._route_text[text] = result
        return result

    def equivalents(self, term: str, language: str) -> tuple[str, ...]:
        """Terms of the same concept in the other languages (empty for unknown words)."""
        found: dict[str, None] = {}
        if language == "en":
            found.update(dict.fromkeys(self.en_ru.get(term, ())))
            found.update(dict.fromkeys(self.en_zh.get(term, ())))
        elif language in ("ru", "zh"):
            own = self.ru_en if language == "ru" else self.zh_en
            other = self.en_zh if language == "ru" else self.en_ru
            words = own.get(term, ())
            found.update(dict.fromkeys(words))
            for word in words:
                found.update(dict.fromkeys(other.get(word, ())))
        found.pop(term, None)
        return tuple(found)

    def concepts(self, question: str) -> list[Concept]:
        """The routing concepts of a question: stopwords dropped, one concept per distinct idea.

        A word that translates an earlier word of the question (`invoice 发票 счет`) is the same idea
        typed again: it adds no concept, so breadth alone never outscores a literal question (§7.5).
        Memoised per question text for the `QUESTIONS_KEPT` most recent (a function of the text and the
        lexicon alone); each call gets a list of its own.
        """
        kept = self._concepts.get(question)
        if kept is not None:
            return list(kept)
        out: list[Concept] = []
        seen: set[str] = set()
        for token in WORD.findall(read_phrases(normalize(question))):
            triples = self.route_terms(token)
            parts, whole = 1, None
            pieces = split_scripts(token)
            if len(triples) > 1 and len(pieces) == 1 and not pieces[0][0] and is_compound(pieces[0][1]):
                whole = _camel_whole(pieces[0][1])
                parts = len(triples) - (whole is not None)
            for number, (term, surface, language) in enumerate(triples):
                if term in seen:
                    continue
                equivalents = self.equivalents(term, language)
                seen.add(term)
                seen.update(equivalents)
                # `LocalEchoUpdated` is one idea: its whole form weighs 1, its parts 1 / their count
                # together, so a title that merely says "local" or "updated" is not a two-concept match
                weight = 1.0 if parts <= 1 or (whole is not None and number == 0) else 1.0 / parts
                out.append(Concept(surface, term, len(surface) >= 4, equivalents, weight))
        _keep(self._concepts, question, tuple(out))
        return out

    # -- search ----------------------------------------------------------------------------------

    def needles(self, term: str) -> tuple[tuple[str, bool, bool], ...]:
        """Literals that find `term` in lowercased text: `(literal, at word start, at word end)`.

        Used to place a search hit on a line without re-tokenising the body. Latin stems match at a
        word start (`round` finds rounded, rounding); a whole identifier or number also needs a word
        end; a Russian canonical stem matches any stem of its row anywhere in a word (a verbal
        prefix may come first); anything else (CJK words) matches literally.
        """
        group = self.ru_group.get(term)
        if group is not None:
            return tuple((stem, False, False) for stem in group)
        if term.isascii():
            return ((term, True, not term.isalpha()),)
        return ((term, is_cyrillic(term), False),)

    def _search_token_terms(self, token: str) -> tuple[tuple[str, ...], int]:
        """Index terms of one token (a `WORD` match or a whitespace-split ASCII token), and its length.

        Words count 1 (an identifier's parts are extra terms); a CJK run counts its bigrams.
        """
        cached = self._search_token.get(token)
        if cached is not None:
            return cached
        terms: list[str] = []
        count = 0
        pieces = split_scripts(token) if WORD.fullmatch(token) else \
            [piece for match in WORD.findall(token) for piece in split_scripts(match)]
        for cjk, piece in pieces:
            if cjk:
                grams = chinese.bigrams(fold(piece))  # kanji-fold
                terms.extend(grams)
                count += len(grams)
                continue
            count += 1
            low = lower(piece).replace("ё", "е")
            if is_compound(piece):
                terms.append(low)
                whole = _camel_whole(piece)
                if whole is not None and english.stem(whole) != low:
                    terms.append(english.stem(whole))
                terms.extend(self.term(part.replace("ё", "е"))[0] for part in split_compound(piece))
            else:
                terms.append(self.term(low)[0])
        result = (tuple(terms), count)
        if len(self._search_token) >= _MEMO_LIMIT:
            self._search_token.clear()
        self._search_token[token] = result
        return result

    def search_counts(self, text: str) -> tuple[dict[str, int], int]:
        """Index terms of body text with their frequencies, and the text's length in tokens.

        Tokens are counted (in C) before they are mapped to terms, so each distinct token is looked
        at once per text. ASCII text takes a faster path — separators translated to spaces, then
        `split()` — with the same result as the scanner.
        """
        if text.isascii():
            table = _ASCII_SEPARATORS_DOTTED if "." in text and _DOTTED.search(text) else _ASCII_SEPARATORS
            tokens = Counter(text.translate(table).split())
        else:
            tokens = Counter(WORD.findall(normalize(text)))
        counts: dict[str, int] = {}
        length = 0
        get = counts.get
        memo = self._search_token
        for token, times in tokens.items():
            found = memo.get(token)
            terms, size = found if found is not None else self._search_token_terms(token)
            length += size * times
            for term in terms:
                counts[term] = get(term, 0) + times
        return counts, length

    def search_terms(self, text: str) -> set[str]:
        """The distinct index terms of a short text (titles, purposes)."""
        return set(self.search_counts(text)[0])

    def _zh_forms(self, words: tuple[str, ...], tier: int) -> list[SearchForm]:
        return [SearchForm(tuple(chinese.bigrams(w)), tier, w) for w in words]

    def search_concepts(self, query: str) -> list[SearchConcept]:
        """Search concepts of a query: typed form (tier 10), equivalents (6), compound parts (1).

        Memoised per query text as `concepts` is."""
        kept = self._search_concepts.get(query)
        if kept is not None:
            return list(kept)
        out: list[SearchConcept] = []
        seen: set[tuple[str, ...]] = set()

        def emit(concept: SearchConcept) -> None:
            key = concept.forms[0].terms
            if key not in seen:
                seen.add(key)
                out.append(concept)

        for is_cjk, piece in scan(read_phrases(query)):
            if not is_cjk:
                low = lower(piece).replace("ё", "е")
                if is_compound(piece):
                    parts = tuple(dict.fromkeys(self.term(p.replace("ё", "е"))[0] for p in split_compound(piece)))
                    whole = _camel_whole(piece)
                    typed = [SearchForm((low,), 10, low)]
                    if whole is not None and english.stem(whole) != low:
                        typed.append(SearchForm((english.stem(whole),), 10, english.stem(whole)))
                    emit(SearchConcept(piece, tuple(typed),
                                       tuple(SearchForm((p,), 1, p) for p in parts), False))
                    continue
                term, language = self.term(low)
                forms = [SearchForm((term,), 10, term)]
                for eq in self.equivalents(term, language):
                    if eq in self.zh_group:
                        forms.extend(self._zh_forms(self.zh_group[eq], 6))
                    else:
                        forms.append(SearchForm((eq,), 6, eq))
                stop = low in STOPWORDS or (len(low) == 1 and not low.isdigit())
                emit(SearchConcept(piece, tuple(_unique_forms(forms)), (), stop))
                continue
            for word, is_word in self._search_cjk_units(fold(piece)):  # kanji-fold
                forms = self._zh_forms((word,), 10)
                stop = word in chinese.STOPWORDS
                if is_word and not stop:
                    canon = self.zh_canon.get(word, word)
                    siblings = tuple(w for w in self.zh_group.get(canon, ()) if w != word)
                    forms.extend(self._zh_forms(siblings, 6))
                    for eq in self.equivalents(canon, "zh"):
                        forms.append(SearchForm((eq,), 6, eq))
                emit(SearchConcept(word, tuple(_unique_forms(forms)), (), stop))
        _keep(self._search_concepts, query, tuple(out))
        return out

    def _search_cjk_units(self, run: str) -> list[tuple[str, bool]]:
        """A query's CJK run as search units: dictionary words of 2+ characters, stopwords, and the
        runs between them (leftovers and one-character words merged, so `清空` stays one literal
        rather than an unfindable single `清` plus the word `空`)."""
        units: list[tuple[str, bool]] = []
        pending = ""
        for word, is_word in chinese.segment(run, self.zh_words, self.zh_max):
            if is_word and (len(word) >= 2 or word in chinese.STOPWORDS):
                if pending:
                    units.append((pending, pending in self.zh_canon))
                    pending = ""
                units.append((word, True))
            else:
                pending += word
        if pending:
            units.append((pending, pending in self.zh_canon))
        return units


def _keep(memo: dict, text: str, found: tuple) -> None:
    """Keep one question's concepts, the oldest kept question dropped first past `QUESTIONS_KEPT`."""
    if len(memo) >= QUESTIONS_KEPT:
        memo.pop(next(iter(memo)), None)
    memo[text] = found


def _camel_whole(word: str) -> str | None:
    """A mixed-case word of letters only (`SQLite`, `WebSockets`, `NodeJS`) lowercased: it is also a word.

    Indexed and queried as the stem of that word as well as by its humps, so `sqlite` finds `SQLite` and
    the other way round; identifiers with separators or digits (`FT-042`, `GCP_SA_KEY`) stay whole only.
    """
    return word.lower() if word.isascii() and word.isalpha() else None


def _unique_forms(forms: list[SearchForm]) -> list[SearchForm]:
    seen: set[tuple[str, ...]] = set()
    out = []
    for form in forms:
        if form.terms not in seen:
            seen.add(form.terms)
            out.append(form)
    return out


@functools.lru_cache(maxsize=16)
def build_lexicon(vocabulary: tuple[VocabularyRow, ...] = ()) -> Lexicon:
    """The lexicon for a vocabulary (cached: banks with equal vocabularies share one object)."""
    return Lexicon(vocabulary)
