"""File globs as rules and recipes write them (`applies_to:`, guard `files:`), matched against paths.

Paths are POSIX and relative to the project top. Semantics (the SPEC leaves them open; these follow
the common editor conventions):
- `*` matches within one path segment, `?` one character, `[abc]`/`[!abc]` a class, `{a,b}` either.
- `**` matches any number of segments: `src/**/*.py` covers `src/a.py` and `src/x/y/a.py`.
- A pattern without `/` matches at any depth (`*.py` is `**/*.py`).
- A pattern without wildcards, or one ending in `/`, also covers everything below it (a folder).
"""

from __future__ import annotations

import re
from functools import lru_cache

_WILD = frozenset("*?[{")


def clean_glob(raw: str) -> str:
    """A glob with backslashes as `/` and no leading `./` or `/`."""
    text = str(raw).strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return text.lstrip("/")


@lru_cache(maxsize=1024)
def glob_regex(glob: str) -> re.Pattern[str]:
    """The compiled regex for one glob (cached: rules reuse the same few globs)."""
    text = clean_glob(glob)
    folder = text.endswith("/") or not any(ch in _WILD for ch in text)
    text = text.rstrip("/")
    if "/" not in text:
        text = "**/" + text
    body = _translate(text)
    tail = "(?:/.*)?" if folder else ""
    try:
        return re.compile(f"(?s:{body}{tail})\\Z")
    except re.error:
        return _NOTHING  # a glob that is no glob (`[z-a].py`) matches nothing; glob_problem says why


_NOTHING = re.compile(r"(?!)")


def glob_problem(glob: str) -> str | None:
    """Why a glob cannot be used (a bracket range backwards, …), or None."""
    text = clean_glob(glob).rstrip("/")
    try:
        re.compile(_translate(text))
    except re.error as exc:
        return f"{glob!r}: {exc}"
    return None


def _translate(glob: str) -> str:
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        ch = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[":
            end = glob.find("]", i + 2)
            if end < 0:
                out.append(re.escape(ch))
                i += 1
                continue
            inner = glob[i + 1:end]
            if inner.startswith("!"):
                inner = "^" + inner[1:]
            out.append("[" + inner.replace("\\", "\\\\") + "]")
            i = end + 1
        elif ch == "{":
            end = glob.find("}", i)
            if end < 0:
                out.append(re.escape(ch))
                i += 1
                continue
            options = glob[i + 1:end].split(",")
            out.append("(?:" + "|".join(_translate(opt) for opt in options) + ")")
            i = end + 1
        else:
            out.append(re.escape(ch))
            i += 1
    return "".join(out)


def matches(path: str, globs: tuple[str, ...] | list[str]) -> bool:
    """Whether a project-relative POSIX path matches any of the globs."""
    return any(glob_regex(g).match(path) for g in globs)
