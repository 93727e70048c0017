"""Route's rule for which indexed terms a question term meets, shared by the routing index (route.py)
and the layout roles' descriptions (layout.py), so both read a question word the same way.

A term meets itself (quality `EXACT`) and, when prefix matching is allowed and the term has at least
`MIN_PREFIX_TERM` characters, every indexed term it begins and every indexed prefix of it of at least
that length (`PREFIX`); a dictionary equivalent counts `TRANSLATION` of its concept's weight.
"""

from __future__ import annotations

from bisect import bisect_left

EXACT, PREFIX, TRANSLATION = 1.0, 0.6, 0.9
MIN_PREFIX_QUERY, MIN_PREFIX_TERM = 4, 4


def term_matches(term: str, present: dict | frozenset | set, ordered: list[str], longest: int,
                 allow_prefix: bool) -> list[tuple[str, float]]:
    """Indexed terms `term` meets with their quality: `present` holds the indexed terms, `ordered` the
    same sorted, `longest` the length of the longest one."""
    found = [(term, EXACT)] if term in present else []
    if not allow_prefix or len(term) < MIN_PREFIX_TERM:
        return found
    i = bisect_left(ordered, term)
    while i < len(ordered) and ordered[i].startswith(term):
        if ordered[i] != term:
            found.append((ordered[i], PREFIX))
        i += 1
    for size in range(MIN_PREFIX_TERM, min(len(term), longest + 1)):
        head = term[:size]
        if head in present:
            found.append((head, PREFIX))
    return found
