"""ATX headings outside fenced code, and the one section resolver used by read, edit and update."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .errors import BankError
from .lang.tokens import lower
from .records import Section
from .regexes import compiled

_MARK = compiled(
    r" {0,3}(?:(?P<fence>`{3,}|~{3,})(?P<info>.*)|(?P<hashes>#{1,6})(?:[ \t]+(?P<title>.*?))?(?:[ \t]+#+)?[ \t]*)$")
_NOT_WORD = compiled(r"[\W_]+")
# The only lines that can open a heading or a fence: up to three spaces, then `#`, a backtick or `~`.
# (After a line break: a literal first character lets the regex engine skip ahead to each one.)
_CANDIDATE = compiled(r"\n( {0,3}[#`~][^\n]*)")
_FIRST = compiled(r"( {0,3}[#`~][^\n]*)")


def scan_text(text: str, first_line: int = 1) -> tuple[list[tuple[int, str, int]], list[tuple[int, int]]]:
    """Headings and fenced-code ranges of a markdown text.

    Returns `(headings, fences)`: headings as `(level, title, line)` outside fences, fences as
    inclusive `(first line, last line)`; line numbers start at `first_line`. Only lines that could
    open a heading or fence (`_CANDIDATE`, found in one C pass) are matched against the pattern. A fence closes on the
    same character, at least as long, with nothing after it; an unclosed fence runs to the end. A
    backtick run whose info string holds a backtick is an inline span, not a fence. Setext headings
    are not headings here (banks use ATX).
    """
    headings, fences, _ = scan_lines(text, first_line)
    return headings, fences


def scan_lines(text: str, first_line: int = 1, sections: list[tuple[str, int]] | None = None
               ) -> tuple[list[tuple[int, str, int]], list[tuple[int, int]], int]:
    """`scan_text`'s `(headings, fences)` and the text's count of line breaks, which the scan counts on
    its way to each candidate line anyway (issue 15: a cold parse then need not count them again).

    With `sections` (a list), each level-2 heading goes there as `(title, line)`, the title interned,
    and only the other levels into `headings`: what a parse keeps, without a second pass.
    """
    headings: list[tuple[int, str, int]] = []
    fences: list[tuple[int, int]] = []
    fence: str | None = None
    fence_line = 0
    index, pos = first_line, 0  # the line number of the candidate at `pos`
    count = text.count
    crs = "\r" in text  # (a one-character search: most texts hold none, so no line needs its CR cut)
    intern = sys.intern
    # in C: prose lines are never looked at in Python; the text's first line has no "\n" before it
    first = _FIRST.match(text)
    for candidate in ((first,) if first else ()) + tuple(_CANDIDATE.finditer(text)):
        start = candidate.start(1)
        index += count("\n", pos, start)
        pos = start
        line = candidate.group(1)
        if crs:
            line = line.rstrip("\r")
        if line[0] == "#":  # the usual `## Title`: what the pattern gives it, without the pattern
            if line.startswith("## ") and line[-1] not in " \t#":  # (level 2, the commonest, asked first)
                if fence is None:
                    if sections is None:
                        headings.append((2, line[2:].strip(), index))
                    else:
                        sections.append((intern(line[2:].strip()), index))
                continue
            level = len(line) - len(line.lstrip("#"))
            if level <= 6 and len(line) > level and line[level] in " \t" and line[-1] not in " \t#":
                if fence is None:
                    if level == 2 and sections is not None:
                        sections.append((intern(line[level:].strip()), index))
                    else:
                        headings.append((level, line[level:].strip(), index))
                continue
        match = _MARK.match(line)
        if match is None:
            continue
        run = match.group("fence")
        if run is not None:
            info = match.group("info")
            if fence is None:
                if run[0] == "`" and "`" in info:
                    continue
                fence, fence_line = run, index
            elif run[0] == fence[0] and len(run) >= len(fence) and not info.strip():
                fences.append((fence_line, index))
                fence = None
            continue
        if fence is None:
            level = len(match.group("hashes"))
            title = (match.group("title") or "").strip()
            if level == 2 and sections is not None:
                sections.append((intern(title), index))
            else:
                headings.append((level, title, index))
    breaks = index - first_line + count("\n", pos)
    if fence is not None:
        last = first_line + breaks - (1 if text.endswith("\n") else 0)
        fences.append((fence_line, max(last, fence_line)))
    return headings, fences, breaks


def scan_headings(lines: Sequence[str], start: int = 0) -> list[tuple[int, str, int]]:
    """`(level, title, 0-based line index)` of every ATX heading outside fences, from `lines[start:]`."""
    headings, _ = scan_text("\n".join(lines[start:]), start)
    return headings


def normalize_heading(text: str) -> str:
    """Casefold (after `tokens.lower`, so "İ" is a plain "i" as in the index); runs of characters that
    are not Unicode letters or digits become one space; trim."""
    return _NOT_WORD.sub(" ", lower(text).casefold()).strip()


def resolve_section(sections: Sequence[Section], request: str, path: str) -> Section:
    """Find the one `## ` section a request names, or refuse.

    Exact (normalised) match first; else the unique heading that contains the request. Several
    candidates are refused with their names and lines; none lists the available headings.
    """
    want = normalize_heading(request)
    if not want:
        raise BankError(f'Section name is empty. Available in {path}: {_available(sections)}')
    exact = [s for s in sections if normalize_heading(s.title) == want]
    found = exact or [s for s in sections if want in normalize_heading(s.title)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise BankError(f'Section "{request}" not found in {path}. Available: {_available(sections)}')
    listed = " | ".join(f"{s.title} (line {s.line})" for s in found)
    if exact:  # the same heading twice: no name can tell them apart
        raise BankError(f'Section "{request}" is ambiguous in {path}: {listed}. The headings are the same; '
                        f"read one by its lines instead (lines starting at the line shown).")
    raise BankError(f'Section "{request}" is ambiguous in {path}: {listed}. Name it exactly.')


def _available(sections: Sequence[Section]) -> str:
    return " | ".join(s.title for s in sections) or "(no ## sections)"


def section_bounds(sections: Sequence[Section], section: Section, line_count: int) -> tuple[int, int]:
    """1-based inclusive line range of a section: its heading to the line before the next `## `."""
    later = [s.line for s in sections if s.line > section.line]
    end = (min(later) - 1) if later else line_count
    return section.line, end
