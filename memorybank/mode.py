"""Whether a bank is served, and how much of it (§11.4): `off`, `seed` or `full`. Standard library only.

The rule is the product's, not the server's: the Stop hook honours the same off switch.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

OFF_MARKER = ".memorybank-off"


def _under(path: str, prefix: str) -> bool:
    """Whole-segment containment: /a/bc is not under /a/b."""
    path, prefix = os.path.normpath(path), os.path.normpath(prefix)
    return path == prefix or path.startswith(prefix.rstrip(os.sep) + os.sep)


def has_documents(root: Path) -> bool:
    """Whether any `.md` lives under the root outside `_inbox/` and hidden folders (stops at the first)."""
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    if entry.name.startswith("."):
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        if not (folder == root and entry.name == "_inbox"):
                            stack.append(Path(entry.path))
                    elif entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                        return True
        except OSError:
            continue
    return False


def decide_mode(root: Path, off_paths: Sequence[str] = ()) -> str:
    """`off` (under an --off path, or a .memorybank-off beside the bank), `seed` (no documents) or `full`."""
    absolute = os.path.abspath(root)
    if any(_under(absolute, os.path.abspath(p)) for p in off_paths):
        return "off"
    if os.path.exists(os.path.join(os.path.dirname(absolute), OFF_MARKER)):
        return "off"
    return "full" if has_documents(Path(absolute)) else "seed"
