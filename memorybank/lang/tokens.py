"""Script-aware scanning shared by routing, search and delivery (§7.1), and the token estimator (§14.2).

A *word* is a run of Unicode letters, digits and `_`, with `-` allowed inside (`ft-042`,
`trade-off`). CJK text (Han, Kana, Hangul) has no spaces, so a run of CJK characters is one scan
item that the caller segments or cuts into bigrams. Non-ASCII text is NFKC-normalised first so
full-width letters and digits behave like their ASCII forms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# CJK radicals … Kangxi, Kana, Bopomofo, Hangul compatibility jamo, CJK extension A, unified
# ideographs, Hangul syllables, compatibility ideographs, and the supplementary ideograph planes.
# U+3000–U+303F (CJK punctuation) is deliberately outside.
CJK_CLASS = "\u2e80-\u2fdf\u3040-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff" \
            "\U00020000-\U0003134f"
_WORDCH = rf"[^\W{CJK_CLASS}]"
SCAN = re.compile(rf"([{CJK_CLASS}]+)|({_WORDCH}+(?:-{_WORDCH}+)*)")
_SEPARATORS = re.compile(r"[-_]+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W\d_]+")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def normalize(text: str) -> str:
    """NFKC for non-ASCII text (full-width forms → ASCII); ASCII passes through untouched."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def scan(text: str) -> Iterator[tuple[bool, str]]:
    """Yield `(is_cjk, piece)` in order: CJK runs and words (original case kept)."""
    for match in SCAN.finditer(normalize(text)):
        cjk, word = match.groups()
        if cjk:
            yield True, cjk
        else:
            word = word.strip("_")
            if word:
                yield False, word


def is_compound(word: str) -> bool:
    """An identifier made of parts: `ft-042`, `filter_thresholds`, `kBookCache` (camelCase)."""
    if "-" in word or "_" in word:
        return True
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
            parts.append(piece.lower())
    return parts


def is_cyrillic(word: str) -> bool:
    return _CYRILLIC.search(word) is not None


def estimate_tokens(text: str) -> int:
    """Tokens a model will likely spend on `text` (§14.2): 0.25 per character below U+2E80, 0.6 at or above.

    Rounded up. Integer arithmetic (hundredths) keeps the result exact and platform-independent.
    """
    if text.isascii():
        return (len(text) * 25 + 99) // 100
    wide = sum(1 for ch in text if ch >= "\u2e80")
    return ((len(text) - wide) * 25 + wide * 60 + 99) // 100
