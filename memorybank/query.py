"""Checks shared by the query capabilities (route, search): question text, limit and layer filter."""

from __future__ import annotations

from .errors import BankError
from .paths import LAYERS


def check_query(question: object, limit: object, max_limit: int, layer: str | None, what: str = "Question") -> int:
    """Refuse an empty question, a non-positive limit or an unknown layer; returns the limit clamped to max."""
    if not isinstance(question, str) or not question.strip():
        raise BankError(f'{what} is empty: ask about a topic or a literal, e.g. "filter thresholds".')
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise BankError(f"limit must be a whole number from 1 to {max_limit}; got {limit!r}.")
    if layer is not None and layer not in LAYERS:
        raise BankError(f"Unknown layer {layer!r}. Use one of: {', '.join(LAYERS)}.")
    return min(limit, max_limit)
