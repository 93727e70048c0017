"""Bank text as plain data for the agent's context (issue 14 attack run).

A title, heading or body line is the repository's data. Controls (newline, tab, ESC), format
characters (zero-width, bidi overrides) and line separators in it would let a document break the
one-line-per-row format of route, search and prime, or be read by a terminal or a model as
structure; they become spaces here. Letters and digits are kept, so a shown heading still opens
its section with bank_read.
"""

from __future__ import annotations

import unicodedata

_NOT_SHOWN = frozenset(("Cc", "Cf", "Zl", "Zp"))


def plain(text: str) -> str:
    """`text` with each control, format or separator character replaced by one space (same length)."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(" " if unicodedata.category(ch) in _NOT_SHOWN else ch for ch in text)


def shown(text: str, size: int) -> str:
    """`text` as one plain line, whitespace runs as one space, cut to at most `size` characters with `…`."""
    text = " ".join(plain(text).split())
    return text if len(text) <= size else text[:size - 1].rstrip() + "…"
