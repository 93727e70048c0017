"""Adversarial run on prime-lean (session 7): the compiled patterns saved beside the parse cache
(`regexes.py`), the dictionary read a section at a time (`lexicon.marshal` format 4) and the saved
superseded-decision links (`cache.EXTRAS` "succession"). Each test failed before its fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import cli_path, doc, write_bank

from memorybank import regexes

BANK = {
    "README.md": "# Bank\n\nStart here.\n",
    "domain/export.md": doc("Export", "Why exports go through a queue.", canonical_for=["export_queue"],
                            body="## Queue\n\nExports wait in a queue so a slow printer never blocks the editor.\n"),
}


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_compiled_patterns_are_never_saved_inside_the_bank(tmp_path):
    """A cache folder inside the bank (a relative MEMORYBANK_CACHE_DIR, cwd = the bank) is refused for the
    parse cache; before the fix a real process still wrote `cache/regex-….mbre` there (time words)."""
    root = write_bank(tmp_path / "bank", BANK)
    before = _files(root)
    for folder in ("cache", "."):
        proc = subprocess.run([cli_path(), "--root", ".", "--route", "why do exports queue since last week?"],
                              capture_output=True, text=True, cwd=root, timeout=60,
                              env={**os.environ, "MEMORYBANK_CACHE_DIR": folder})
        assert proc.returncode == 0, proc.stderr
        assert _files(root) == before
    outside = tmp_path / "outside"  # the same call with the folder outside the bank saves them there
    proc = subprocess.run([cli_path(), "--root", str(root), "--route", "why do exports queue since last week?"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMORYBANK_CACHE_DIR": str(outside)})
    assert proc.returncode == 0 and list(outside.glob(f"*{regexes.SUFFIX}"))
