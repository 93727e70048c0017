"""Gates for the project files install, uninstall, deliver and import touch (outside the bank).

The bank's writers have their path gates (`writers.gates`, `confined`); these are the same promises
for `.mcp.json`, `.claude/settings.json`, `CLAUDE.md`, `AGENTS.md` and the rule folders: a file is
read with a bound, a JSON config is read strictly (one meaning for every reader), a read-only file
or a name that collides on another system is left alone, and nothing is reached through a symlink
leading out of the project (`project.link_out_of`). Each gate returns the reason, or raises
`BankError` naming the reason and the fix. Standard library only.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from .confined import name_collision
from .errors import BankError
from .limits import PROJECT_FILE_MAX


def too_large(path: Path) -> int | None:
    """The file's size when it is over `PROJECT_FILE_MAX` bytes (never read whole), else None."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    return size if size > PROJECT_FILE_MAX else None


def size_refusal(rel: str, size: int) -> BankError:
    return BankError(f"Refusing to touch {rel}: it is {size:,} bytes, over the {PROJECT_FILE_MAX:,}-byte limit of a "
                     "project file memorybank edits. Shorten it or move it aside, then re-run; nothing was written.")


def read_only(path: Path) -> bool:
    """Whether an existing file has no write permission bit set (a person marked it not to be changed).

    The bits, not `os.access`: a process running as root may write anything, but the mark still says no.
    """
    try:
        info = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and not info.st_mode & 0o222


def collision(project: Path, rel: str) -> str | None:
    """The existing project path a new `rel` equals after case folding and NFC, or None (see `confined`)."""
    return name_collision(project, rel)


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_json(text: str, rel: str) -> Any:
    """Parse a config strictly, or refuse naming what is wrong and the fix.

    Refused: invalid JSON (comments and trailing commas included: the clients' own readers differ on
    them), a key twice in one object (readers disagree which one counts, and an edit would drop one),
    NaN/Infinity (not JSON), and nesting deeper than the parser's recursion limit.
    """
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except _Duplicate as exc:
        raise BankError(f"Refusing to touch {rel}: the key {json.dumps(exc.key)[:80]} appears twice in one object, "
                        "so JSON readers disagree on which one counts. Keep one of them, then re-run; nothing was "
                        "written.") from None
    except json.JSONDecodeError as exc:
        hint = " (comments and trailing commas are not JSON)" if "//" in text or "/*" in text or ",}" in \
            "".join(text.split()) or ",]" in "".join(text.split()) else ""
        raise BankError(f"Refusing to touch {rel}: it is not valid JSON{hint} ({exc.msg} at line {exc.lineno}, column "
                        f"{exc.colno}). Fix or remove it, then re-run; nothing was written.") from None
    except RecursionError:
        raise BankError(f"Refusing to touch {rel}: it nests deeper than a JSON reader follows. Fix or remove it, "
                        "then re-run; nothing was written.") from None
    except ValueError as exc:
        raise BankError(f"Refusing to touch {rel}: it is not valid JSON ({exc}). Fix or remove it, then re-run; "
                        "nothing was written.") from None
