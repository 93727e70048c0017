"""Bank text as plain data for the agent's context (issue 14 attack run).

A title, heading or body line is the repository's data. Controls (newline, tab, ESC), format
characters (zero-width, bidi overrides) and line separators in it would let a document break the
one-line-per-row format of route, search and prime, or be read by a terminal or a model as
structure; they become spaces here. Letters and digits are kept, so a shown heading still opens
its section with bank_read.
"""

from __future__ import annotations

import unicodedata

from .lang.tokens import CJK_FLOOR

_NOT_SHOWN = frozenset(("Cc", "Cf", "Zl", "Zp"))
WIDE = 60 / 25  # a CJK character costs as many tokens as 2.4 others (§14.2's estimate)


def plain(text: str) -> str:
    """`text` with each control, format or separator character replaced by one space (same length)."""
    if text.isprintable():  # no Other or Separator character but the space: none of _NOT_SHOWN (C-level check)
        return text
    return "".join(" " if unicodedata.category(ch) in _NOT_SHOWN else ch for ch in text)


def shown(text: str, size: int) -> str:
    """`text` as one plain line, whitespace runs as one space, cut with `…` to the tokens of `size` characters.

    `size` counts Latin or Cyrillic characters; a CJK one counts `WIDE`, so a Chinese heading costs no
    more of a budget than an English one.
    """
    text = " ".join(plain(text).split())
    if len(text) <= size and (text.isascii() or max(text) < CJK_FLOOR):
        return text
    room = size - 1.0
    for end, ch in enumerate(text):
        room -= WIDE if ch >= CJK_FLOOR else 1.0
        if room < 0:
            return text[:end].rstrip() + "…"
    return text
