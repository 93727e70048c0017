"""What a killed writer can leave in a bank (§16), found without importing the writers (issue 15: ready).

A starting server looks for these before it serves; only when one is there does it import the writers
(`writers/files.py`: the lock, `recover`, `clean_stale_temps`), which cost a server ~0.1 s of start-up
CPU the interpreter lock makes every later step wait for.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from .atomic import TEMP_PREFIX

JOURNAL_NAME = ".memorybank-journal"  # hidden like the temps; exists only while a multi-file commit runs
STALE_SECONDS = 3600


def stale_temps(root: Path, now: float | None = None) -> list[str]:
    """Writer temp files older than an hour (a killed writer's leftovers), without removing them."""
    cutoff = (time.time() if now is None else now) - STALE_SECONDS
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
        for name in sorted(files):
            if name.startswith(TEMP_PREFIX):
                full = os.path.join(folder, name)
                try:
                    if os.lstat(full).st_mtime < cutoff:
                        found.append(os.path.relpath(full, root).replace(os.sep, "/"))
                except OSError:
                    continue
    return found


def needs_repair(root: Path) -> bool:
    """Whether the bank holds a half-done commit's journal or a stale temp file (`repair_on_start`'s work).

    Never raises, as `repair_on_start` never did: a bank whose journal cannot even be looked for (a folder
    the user cannot search, a path over PATH_MAX) is still served, and its next writer repairs it."""
    try:
        return root.is_dir() and ((root / JOURNAL_NAME).exists() or bool(stale_temps(root)))
    except OSError:
        return False
