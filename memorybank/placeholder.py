"""Template placeholders (`<what to write here>`): found in template output and in delivered fields.

A placeholder is `<…>` whose inside starts with a letter, digit or quote-like character (not `/`,
`!`, `-`, `=` or white space, so closing tags, comments, arrows and comparisons are not one), may
run over several lines, and is at most 400 characters long. HTML tag names are not placeholders.
"""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"<(?![/!\s=-])([^<>]{1,400})>")
_HTML = frozenset("a abbr b br code del details div em hr i img kbd li ol p pre s small span strong sub summary "
                  "sup table tbody td th thead tr u ul".split())


def placeholders(text: str) -> list[str]:
    """Distinct `<…>` placeholders left in a text, in order (inner white space folded)."""
    seen: list[str] = []
    for match in _PLACEHOLDER.finditer(text):
        inner = " ".join(match.group(1).split())
        if not inner or inner.split(" ")[0].rstrip("/").lower() in _HTML:
            continue
        token = f"<{inner}>"
        if token not in seen:
            seen.append(token)
    return seen
