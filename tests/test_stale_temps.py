"""A writer killed between its temporary file and the rename leaves a `.tmp-*` file in the cache folder;
the next call that saves removes such files once they are old (a live writer renames its own within
seconds), the parse cache's and the compiled-pattern store's alike, and nothing else (attack-lean)."""

from __future__ import annotations

import os
import time

from conftest import doc, run_cli, write_bank

from memorybank import cache, regexes


def test_old_temporary_files_of_killed_writers_are_removed_by_the_next_save(tmp_path):
    root = write_bank(tmp_path / "bank", {"dna/principles.md": doc("Principles", "Root."),
                                          "domain/ledger.md": doc("Ledger", "How the ledger rounds.")})
    folder = tmp_path / "cache"
    folder.mkdir()
    hour_ago = time.time() - 3600
    old = [folder / f".tmp-killed{cache.SUFFIX}", folder / f".tmp-killed{regexes.SUFFIX}"]
    kept = [folder / f".tmp-writing{cache.SUFFIX}", folder / ".tmp-notes.txt", folder / "mine.txt"]
    for path in old + kept:
        path.write_bytes(b"partial")
    for path in old + kept[1:]:
        os.utime(path, (hour_ago, hour_ago))
    out = run_cli("--root", str(root), "--route", "ledger rounding", "--json",
                  env={"MEMORYBANK_CACHE_DIR": str(folder)})
    assert out.returncode == 0, out.stderr
    assert [p.name for p in old if p.exists()] == []
    assert all(p.exists() for p in kept)
    assert any(p.name.endswith(cache.SUFFIX) and not p.name.startswith(".tmp-") for p in folder.iterdir())
