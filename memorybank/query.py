"""Checks shared by the query capabilities (route, search): question text, limit and filters."""

from __future__ import annotations

from typing import Any

from .errors import BankError
from .limits import MAX_QUESTION
from .paths import LAYERS


def check_query(question: object, limit: object, max_limit: int, layer: str | None, what: str = "Question") -> int:
    """Refuse an empty question, a non-positive limit or an unknown layer; returns the limit clamped to max."""
    if not isinstance(question, str) or not question.strip():
        raise BankError(f'{what} is empty: ask about a topic or a literal, e.g. "filter thresholds".')
    if len(question) > MAX_QUESTION:
        raise BankError(f"{what} is {len(question):,} characters; at most {MAX_QUESTION:,} are read. "
                        f"Ask about one topic, or search for the most specific phrase.")
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)  # JSON Schema's "integer" admits 3.0
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise BankError(f"{{limit}} must be a whole number from 1 to {max_limit}; got {limit!r}.", param="limit")
    if layer is not None and layer not in LAYERS:
        raise BankError(f"Unknown layer {layer!r}. Use one of: {', '.join(LAYERS)}.", param="layer")
    return min(limit, max_limit)


def check_filters(bank: Any, doc_kind: str | None, status: str | None) -> None:
    """Refuse a `doc_kind` or `status` filter that nothing in the bank could match.

    A value counts when dna/ declares it or any document carries it, so a typo is refused with
    the values to use instead of answering "no match".
    """
    for name, value in (("doc_kind", doc_kind), ("status", status)):
        if value is None:
            continue
        known = set(bank.contract.allowed(name)) if bank.contract is not None else set()
        known.update(getattr(doc, name) for doc in bank.docs.values() if getattr(doc, name))
        if value not in known:
            shown = ", ".join(sorted(known)[:20]) or "none"
            raise BankError(f"Unknown {name} {value!r}: no document has it and dna/ does not declare it. "
                            f"Use one of: {shown}.", param=name)


def empty_hint(default: str, see: str, doc_kind: str | None, layer: str | None, status: str | None) -> dict[str, Any]:
    """The empty result's `hint`: with filters set it blames the filters (`param`), else it points to `see`.

    The filters are written as `{doc_kind}=…` for each face to spell (`--kind` in the CLI), see `faces`.
    """
    given = [(k, v) for k, v in (("doc_kind", doc_kind), ("layer", layer), ("status", status)) if v]
    if not given:
        return {"hint": default, "see": [see]}
    return {"hint": "Nothing matched with " + ", ".join("{" + k + "}=" + str(v) for k, v in given)
            + "; drop a filter to widen.", "param": [k for k, _ in given]}
