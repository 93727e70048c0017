"""Metadata that only repeats the body (issue 18): a `purpose` copied from the document's own prose.

`adopt` writes a plain document's `purpose` as the first sentence of its first paragraph. That text
is already body evidence; scored again as hand-written purpose (× 3, and hiding those words from the
body evidence) it lets one opening sentence outrank the document that answers. A purpose is an echo
when, flattened (links to their text, emphasis and code marks dropped, whitespace collapsed,
case folded, a cap's trailing `…` removed), it occurs in the flattened opening of the body
(`ECHO_SCAN` characters). Routing and search then read it as the prose it is.
"""

from __future__ import annotations

import re

ECHO_SCAN = 16_000  # characters of body searched: adopt takes the first paragraph, near the top
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
EMPHASIS = re.compile(r"(\*\*|__|\*|`)")


def _unmarked(text: str) -> str:
    """`text` with links turned to their text and emphasis and code marks dropped (whitespace kept).

    The same as `EMPHASIS.sub("", LINK.sub(r"\1", text))`, at a fraction of the cost (issue 15: a
    parse ran both regexes over every body): a link needs `](`, so most bodies skip that pass, and
    the marks go by `str.replace` — removing `__` pairs left to right first, then every `*` and
    backtick, drops exactly the characters the regex's one left-to-right pass drops.
    """
    if "](" in text:
        text = LINK.sub(r"\1", text)
    if "__" in text:  # each pass only where its mark occurs (a search is cheaper than a copy)
        text = text.replace("__", "")
    if "*" in text:
        text = text.replace("*", "")
    return text.replace("`", "") if "`" in text else text


def flatten(text: str) -> str:
    """Markdown links to their text, emphasis and code marks dropped, whitespace collapsed."""
    return " ".join(_unmarked(text).split())


def echoes(purpose: str | None, body: str) -> bool:
    """True when the purpose is a passage of the body's opening (see the module doc).

    Every word of the purpose must then occur in the unmarked, case-folded opening (collapsing
    whitespace neither joins nor splits a word), so an opening missing one is answered without
    collapsing it: nearly every document, at every parse.
    """
    if not purpose:
        return False
    wanted = flatten(purpose).removesuffix("…").rstrip().casefold()
    if len(wanted) < 3:
        return False
    opening = _unmarked(body[:ECHO_SCAN])
    opening = opening.lower() if opening.isascii() else opening.casefold()  # the same on ASCII, and faster
    if not all(word in opening for word in wanted.split(" ")):
        return False
    return wanted in " ".join(opening.split())


def title_echo(title: str, h1: str | None) -> bool:
    """True when a declared title only repeats the document's H1 (adopt copies it, emphasis and
    spacing aside): routing weighs it as the H1 it is, not as a title written to be routed on."""
    if not h1:
        return False
    wanted = " ".join(flatten(title).split()).removesuffix("…").rstrip().casefold()
    return bool(wanted) and " ".join(flatten(h1).split()).casefold().startswith(wanted)
