"""Layout roles come from a folder that holds the Cline core files side by side, not from core names scattered
over unrelated folders of a bank (attack-s5: `features/a/progress.md`, `ops/techContext.md` and
`notes/activeContext.md` made every one of them a role holder).
"""

from __future__ import annotations

import json

from conftest import cli_in_process, write_bank

PAGES = {
    "progress.md": "# Progress\n\n## Done\n\nThe importer reads CSV files.\n",
    "techContext.md": "# Tech\n\n## Tools\n\nPython 3.12 and pandas.\n",
    "activeContext.md": "# Active\n\n## Now\n\nThe importer gets a preview screen.\n",
    "guide.md": "# Guide\n\n## Steps\n\nOpen the importer and pick a file.\n",
}


def roles(bank, question: str) -> list[str]:
    proc = cli_in_process("--root", str(bank), "--route", question, "--json")
    assert proc.returncode == 0, proc.stderr
    return [row["path"] for row in json.loads(proc.stdout)["results"] if row["why"].startswith("layout: ")]


def test_core_files_side_by_side_get_roles(tmp_path):
    bank = write_bank(tmp_path / "side", PAGES)
    assert roles(bank, "what is left and what is done?") == ["progress.md"]


def test_core_names_scattered_over_folders_get_none(tmp_path):
    scattered = {"features/a/progress.md": PAGES["progress.md"], "ops/techContext.md": PAGES["techContext.md"],
                 "notes/activeContext.md": PAGES["activeContext.md"], "guide.md": PAGES["guide.md"]}
    bank = write_bank(tmp_path / "scattered", scattered)
    assert roles(bank, "what is left and what is done?") == []
