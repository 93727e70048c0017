"""Markdown a writer composes: a caller's body as lines, the `# ` title heading."""

from __future__ import annotations

import re

from .registry import escape_inline

_H1 = re.compile(r"^ {0,3}#[ \t]+\S")


def body_lines(body: str) -> list[str]:
    """A caller's markdown as lines: CRLF folded to LF, surrounding blank lines dropped."""
    text = body.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    return text.split("\n") if text else []


def heading(title: str) -> str:
    """The `# ` line for a title, escaped so it never forms a link."""
    return f"# {escape_inline(title)}"


def with_heading(lines: list[str], title: str) -> list[str]:
    """Make the first `# ` heading read the title (adding one at the top when there is none)."""
    for index, line in enumerate(lines):
        if _H1.match(line):
            return lines[:index] + [heading(title)] + lines[index + 1:]
        if line.strip():
            break
    return [heading(title), "", *lines] if lines else [heading(title)]
