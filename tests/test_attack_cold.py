"""Adversarial run on ready3 (ColdDoc, format 6, cached maps, lazy writer import) and cold-build7 (parse
shortcuts) — issue 15: answers never differ from a cold parse; a start that cannot look for a killed
writer's leftovers still serves, as before.
"""

from __future__ import annotations

import os
from pathlib import Path

from conftest import run_cli


def _long_bank(base: Path) -> Path:
    """A bank folder whose own path fits PATH_MAX but whose `.memorybank-journal` path does not (ENAMETOOLONG
    on stat: an error `Path.exists` raises, as it raises EACCES for a folder the user cannot search)."""
    limit = os.pathconf("/", "PC_PATH_MAX") if hasattr(os, "pathconf") else 4096
    folder = base
    while len(str(folder)) < limit - 20 - 210:
        folder = folder / ("d" * 200)
    folder = folder / ("b" * (limit - 10 - len(str(folder)) - 1))
    folder.mkdir(parents=True)
    (folder / "notes.md").write_text("# Notes\n\nplain text\n")
    return folder


def test_server_start_serves_when_the_leftover_check_fails(tmp_path: Path) -> None:
    # ready3 moved the leftover check (`leftovers.needs_repair`) out of `repair_on_start`'s "never raises"
    # guard: an OSError from it killed `serve` before the first message (it served before).
    bank = _long_bank(tmp_path)
    assert len(str(bank / ".memorybank-journal")) >= 4096 or os.name == "nt"
    done = run_cli("serve", "--root", str(bank), stdin="")
    assert "Traceback" not in done.stderr, done.stderr[-800:]
    assert done.returncode == 0, done.stderr[-800:]
