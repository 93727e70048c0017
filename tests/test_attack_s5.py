"""Adversarial run on session 5's landings (attack-s5): prime's confidence bar and the Cline layout roles,
through the real faces (CLI, the prompt hook fed Claude Code payloads), each test pinned to a defect found.
"""

from __future__ import annotations

import json

from conftest import cli_in_process, run_cli, write_bank

# A plain bank: no frontmatter, every page's prose says `project`, one page's H1 says it too
PLAIN = {f"{name}.md": f"# {name.title()} notes\n\nThe project keeps its {name} data here; the project is small.\n"
         for name in ("alpha", "beta", "gamma", "delta")}
PLAIN["overview.md"] = "# Project overview\n\nWhat we build and why.\n"


def test_a_route_read_from_the_parse_cache_scores_as_a_fresh_build(tmp_path):
    # the route index's set of H1-derived titles (weighed by prose rarity) was not saved with the cache:
    # a second process, restoring the index, weighed `Project overview` as a declared title (3.6, not 1.913)
    bank = write_bank(tmp_path / "plain", PLAIN)
    cache = {"MEMORYBANK_CACHE_DIR": str(tmp_path / "cache")}
    args = ("--root", str(bank), "--route", "project overview", "--json")
    written = run_cli(*args, env=cache)
    read = run_cli(*args, env=cache)
    fresh = cli_in_process(*args, env={"MEMORYBANK_CACHE": "off"})
    assert written.returncode == read.returncode == fresh.returncode == 0, (written.stderr, read.stderr)
    assert any((tmp_path / "cache").iterdir())  # the second process had a cache to read
    assert json.loads(read.stdout) == json.loads(fresh.stdout) == json.loads(written.stdout)
    prime = ("--root", str(bank), "--prime", "where is the project overview?", "--json")
    assert cli_in_process(*prime, env=cache).stdout == cli_in_process(*prime, env={"MEMORYBANK_CACHE": "off"}).stdout
