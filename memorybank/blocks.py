"""The memorybank block in shared files (CLAUDE.md, AGENTS.md, copilot-instructions.md): one grammar.

A block runs from a begin line to an end line, each alone on its line:
`<!-- memorybank:begin -->` (written by `--install-hook`) or `<!-- memorybank:begin digest=<12 hex> -->`
(written by `--deliver`, the digest covering the lines between the markers), then
`<!-- memorybank:end -->`. Both writers find blocks with `find_block`, so each recognises the
other's block instead of refusing it as malformed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BEGIN = "<!-- memorybank:begin -->"
BEGIN_DIGEST = "<!-- memorybank:begin digest={} -->"
END = "<!-- memorybank:end -->"
_BEGIN = re.compile(r"^<!-- memorybank:begin(?: digest=([0-9a-f]{12}))? -->[ \t]*\r?$", re.M)
_END = re.compile(r"^<!-- memorybank:end -->[ \t]*\r?$", re.M)


class BlockShapeError(ValueError):
    """Markers present but not exactly one begin line followed by one end line."""

    def __init__(self, begins: int, ends: int) -> None:
        super().__init__(f"{begins} begin and {ends} end memorybank markers")
        self.begins = begins
        self.ends = ends


@dataclass(frozen=True, slots=True)
class Block:
    """Offsets of the one block in a text. `text[start:stop]` runs from `<!--` of the begin marker to
    the `-->` of the end marker; `text[body_start:body_end]` is the inner text (whole lines)."""

    start: int
    body_start: int
    body_end: int
    stop: int
    digest: str | None


def find_block(text: str) -> Block | None:
    """The text's memorybank block; None when it has no markers; BlockShapeError when malformed."""
    begins = list(_BEGIN.finditer(text))
    ends = list(_END.finditer(text))
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0].start() < begins[0].end():
        raise BlockShapeError(len(begins), len(ends))
    begin, end = begins[0], ends[0]
    return Block(begin.start(), text.index("\n", begin.start()) + 1, end.start(),
                 end.start() + len(END), begin.group(1))
