"""Metadata that only repeats the body (issue 18): a `purpose` copied from the document's own prose.

`adopt` writes a plain document's `purpose` as the first sentence of its first paragraph. That text
is already body evidence; scored again as hand-written purpose (× 3, and hiding those words from the
body evidence) it lets one opening sentence outrank the document that answers. A purpose is an echo
when, flattened (links to their text, emphasis and code marks dropped, whitespace collapsed,
case folded, a cap's trailing `…` removed), it occurs in the flattened opening of the body
(`ECHO_SCAN` characters). Routing and search then read it as the prose it is.
"""

from __future__ import annotations

from .lang.tokens import lower
from .regexes import compiled

ECHO_SCAN = 16_000  # characters of body searched: adopt takes the first paragraph, near the top
LINK = compiled(r"!?\[([^\]]*)\]\([^)]*\)")
EMPHASIS = compiled(r"(\*\*|__|\*|`)")


def _unmarked(text: str) -> str:
    """`text` with links turned to their text and emphasis and code marks dropped (whitespace kept).

    The same as `EMPHASIS.sub("", LINK.sub(r"\1", text))`, at a fraction of the cost (issue 15: a
    parse ran both regexes over every body): a link needs `](`, so most bodies skip that pass, and
    the marks go by `str.replace` — removing `__` pairs left to right first, then every `*` and
    backtick, drops exactly the characters the regex's one left-to-right pass drops.
    """
    # each pass only where its mark occurs (a search is cheaper than a copy), asked first of one character:
    # a one-character search is a memchr, a two-character one ~50× slower (issue 15: the cold build)
    if "]" in text and "](" in text:
        text = LINK.sub(r"\1", text)
    if "_" in text:
        text = text.replace("__", "")  # (returns `text` itself when it holds none)
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
    wanted = lower(flatten(purpose).removesuffix("…").rstrip()).casefold()
    if len(wanted) < 3:
        return False
    opening: str | bytes = body[:ECHO_SCAN]
    words: list[str] | list[bytes] = wanted.split(" ")
    if opening.isascii():  # as bytes, where dropping a mark is a memchr walk, not a per-character loop
        if not wanted.isascii():
            return False  # a non-ASCII word occurs in no ASCII opening
        opening = _unmarked_ascii(opening.encode("ascii")).lower()  # (lower is casefold on ASCII)
        words = wanted.encode("ascii").split(b" ")
    else:
        opening = _unmarked(opening)
        opening = opening.lower() if opening.isascii() else lower(opening).casefold()  # "İ" as tokens.lower
    # the longest words first: the rarest, so a miss (nearly every document) is usually found by the first
    # search or two; each word once (issue 15: the cold build)
    words.sort(key=len, reverse=True)
    for word in words:
        if word not in opening:  # type: ignore[operator]
            return False
    if isinstance(opening, bytes):
        opening = opening.decode("ascii")  # (str.split's whitespace, which bytes.split's lacks \x1c-\x1f)
    return wanted in " ".join(opening.split())


LINK_ASCII = compiled(LINK.pattern.encode("ascii"))
_PAIR_ASCII = compiled(b"__")  # non-overlapping, left to right: what `replace(b"__", b"")` removes


def _unmarked_ascii(text: bytes) -> bytes:
    """`_unmarked` of an ASCII text, as bytes (the same passes in the same order)."""
    if b"]" in text and b"](" in text:
        text = LINK_ASCII.sub(rb"\1", text)
    if b"_" in text:  # (the regex finds a pair faster than `bytes.replace`'s two-byte search; the same cut)
        text = _PAIR_ASCII.sub(b"", text)
    if b"*" in text:
        text = text.replace(b"*", b"")
    return text.replace(b"`", b"") if b"`" in text else text


def title_echo(title: str, h1: str | None) -> bool:
    """True when a declared title only repeats the document's H1 (adopt copies it, emphasis and
    spacing aside): routing weighs it as the H1 it is, not as a title written to be routed on."""
    if not h1:
        return False
    wanted = lower(" ".join(flatten(title).split()).removesuffix("…").rstrip()).casefold()
    return bool(wanted) and lower(" ".join(flatten(h1).split())).casefold().startswith(wanted)
