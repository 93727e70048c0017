"""Script-aware scanning shared by routing, search and delivery (§7.1), and the token estimator (§14.2).

A *word* is a run of Unicode letters, digits and `_`, with `-` allowed inside (`ft-042`,
`trade-off`). CJK text (Han, Kana, Hangul) has no spaces, so a run of CJK characters is one scan
item that the caller segments or cuts into bigrams. Non-ASCII text is NFKC-normalised first so
full-width letters and digits behave like their ASCII forms.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Iterator

from ..regexes import compiled

# CJK radicals … Kangxi, Kana, Bopomofo, Hangul compatibility jamo, CJK extension A, unified
# ideographs, Hangul syllables, compatibility ideographs, and the supplementary ideograph planes.
# U+3000–U+303F (CJK punctuation) is deliberately outside. Kept as code-point ranges, not a regex
# class: compiling a class this wide costs ~10 ms of every cold start.
CJK_RANGES = ((0x2E80, 0x2FDF), (0x3040, 0x318F), (0x31A0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
              (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
_BOUNDS = tuple(edge for lo, hi in CJK_RANGES for edge in (lo, hi + 1))
CJK_FLOOR = "\u2e80"
# letters, digits, `_`; `-` inside; a version number (`0.1.0`, `v2.3`) whole. CJK is split out afterwards
WORD = compiled(r"[vV]?\d+(?:\.\d+)+(?!\w)|\w+(?:-\w+)*")
_VERSION = compiled(r"[vV]?(\d+(?:\.\d+)+)")
_SEPARATORS = compiled(r"[-_]+")
_CAMEL = compiled(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W\d_]+")  # URLs is one hump
_PLURAL_ACRONYM = compiled(r"[A-Z]{2,}s")
_CYRILLIC = compiled(r"[\u0400-\u04ff]")


def normalize(text: str) -> str:
    """NFKC for non-ASCII text (full-width forms → ASCII); ASCII passes through untouched."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def lower(text: str) -> str:
    """`text.lower()` with "İ" (U+0130) lowered to a plain "i", as the bank's index and every query need it.

    `str.lower` turns "İ" into "i" and a combining dot above (U+0307), so "İstanbul" was indexed as a
    word "istanbul" never typed and a query for "istanbul" missed it (and "İzmir" typed missed "izmir").
    Only non-ASCII text is looked at, and only an "i" followed by the dot loses it."""
    low = text.lower()
    return low if text.isascii() or "\u0307" not in low else low.replace("i\u0307", "i")


def fold(text: str) -> str:
    """CJK text with Japanese and Traditional characters in their Simplified form (`variants.fold`), same length.

    issue 14 (kanji-fold): the table's module is imported on the first text holding a character at or
    above U+3400, so a process that never meets one (English, Russian) never loads it."""
    if text.isascii() or max(text) < "\u3400":  # `isascii` is O(1) on a str; `max` one C pass
        return text
    from .variants import fold as fold_cjk

    return fold_cjk(text)


def is_cjk(ch: str) -> bool:
    return bisect_right(_BOUNDS, ord(ch)) & 1 == 1


def has_cjk(text: str) -> bool:
    return bool(text) and max(text) >= CJK_FLOOR and any(is_cjk(ch) for ch in text)


def split_scripts(token: str) -> list[tuple[bool, str]]:
    """Cut one `WORD` match into `(is_cjk, piece)` runs; non-CJK pieces are words with `_` trimmed."""
    if max(token) < CJK_FLOOR:
        bare = token.strip("_")
        return [(False, bare)] if bare else []
    out: list[tuple[bool, str]] = []
    start, current = 0, is_cjk(token[0])
    for i in range(1, len(token) + 1):
        flag = is_cjk(token[i]) if i < len(token) else not current
        if flag == current:
            continue
        run = token[start:i]
        if current:
            out.append((True, run))
        else:
            out.extend((False, w.strip("_")) for w in WORD.findall(run) if w.strip("_"))
        start, current = i, flag
    return out


def scan(text: str) -> Iterator[tuple[bool, str]]:
    """Yield `(is_cjk, piece)` in order: CJK runs and words (original case kept)."""
    for token in WORD.findall(normalize(text)):
        yield from split_scripts(token)


def version(word: str) -> str | None:
    """A version number's term: its dotted digits without a leading `v` (`v0.1.0` and `0.1.0` → `0.1.0`), else None.

    A version is one token, so `0.1.0` meets `v0.1.0` in either direction; before, the dots cut it into
    `v0`, `1`, `0`, and `v0` never met `0`."""
    found = _VERSION.fullmatch(word)
    return found.group(1) if found is not None else None


def is_compound(word: str) -> bool:
    """An identifier made of parts: `ft-042`, `filter_thresholds`, `kBookCache` (camelCase)."""
    if "-" in word or "_" in word:
        return True
    if _PLURAL_ACRONYM.fullmatch(word):  # `URLs`, `APIs`: a plural, not the humps `UR` + `Ls`
        return False
    return not word.islower() and not word.isupper() and any(ch.isupper() for ch in word[1:]) \
        and any(ch.islower() for ch in word)


def split_compound(word: str) -> list[str]:
    """Parts of an identifier, lowercased: separators, then camelCase humps (ASCII parts only)."""
    parts: list[str] = []
    for piece in _SEPARATORS.split(word):
        if not piece:
            continue
        if piece.isascii() and not piece.islower() and not piece.isupper():
            parts.extend(p.lower() for p in _CAMEL.findall(piece))
        else:
            parts.append(lower(piece))
    return parts


def is_cyrillic(word: str) -> bool:
    return _CYRILLIC.search(word) is not None


def estimate_tokens(text: str) -> int:
    """Tokens a model will likely spend on `text` (§14.2): 0.25 per character below U+2E80, 0.6 at or above.

    Rounded up. Integer arithmetic (hundredths) keeps the result exact and platform-independent.
    """
    if text.isascii():
        return (len(text) * 25 + 99) // 100
    wide = sum(1 for ch in text if ch >= CJK_FLOOR)
    return ((len(text) - wide) * 25 + wide * 60 + 99) // 100
