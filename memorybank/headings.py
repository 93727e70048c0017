"""ATX headings outside fenced code, and the one section resolver used by read, edit and update."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .errors import BankError
from .records import Section

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_NOT_WORD = re.compile(r"[\W_]+")


def scan_headings(lines: Sequence[str], start: int = 0) -> list[tuple[int, str, int]]:
    """Return `(level, title, line index)` for every ATX heading outside ``` / ~~~ fences.

    A fence closes on the same character, at least as long, with nothing after it; an unclosed
    fence hides everything after it. Setext headings are not headings here (banks use ATX).
    """
    out: list[tuple[int, str, int]] = []
    fence: str | None = None
    for index in range(start, len(lines)):
        line = lines[index]
        if "`" in line[:6] or "~" in line[:6]:
            marker = _FENCE.match(line)
            if marker:
                run, rest = marker.group(1), marker.group(2)
                if fence is None:
                    if run[0] == "`" and "`" in rest:
                        pass  # an inline code span, not a fence
                    else:
                        fence = run
                        continue
                elif run[0] == fence[0] and len(run) >= len(fence) and not rest.strip():
                    fence = None
                    continue
        if fence is not None or not line.lstrip(" ").startswith("#"):
            continue
        match = _ATX.match(line)
        if match:
            out.append((len(match.group(1)), (match.group(2) or "").strip(), index))
    return out


def normalize_heading(text: str) -> str:
    """Casefold; runs of characters that are not Unicode letters or digits become one space; trim."""
    return _NOT_WORD.sub(" ", text.casefold()).strip()


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
    raise BankError(f'Section "{request}" is ambiguous in {path}: {listed}. Name it exactly.')


def _available(sections: Sequence[Section]) -> str:
    return " | ".join(s.title for s in sections) or "(no ## sections)"


def section_bounds(sections: Sequence[Section], section: Section, line_count: int) -> tuple[int, int]:
    """1-based inclusive line range of a section: its heading to the line before the next `## `."""
    later = [s.line for s in sections if s.line > section.line]
    end = (min(later) - 1) if later else line_count
    return section.line, end
