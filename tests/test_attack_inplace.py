"""Adversarial run on the in-place update after a restore (issue 15): what a cold call restores from the parse
cache must answer as the same call with the cache off, whatever happened to the files around the save.

Each test is a repro of one finding: a state the cache kept that no cold parse would see again.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import FIXTURE, cli_in_process, run_cli
from gitrepo import Repo

from memorybank import cache
from memorybank.bank import Bank
from memorybank.route import RouteIndex
from memorybank.search import SearchIndex

OFF = {"MEMORYBANK_CACHE": "off"}


def _both(*args: str) -> tuple[str, str]:
    """A cold call's stdout with the cache (read, updated, saved) and with it off."""
    warm = cli_in_process(*args)
    off = cli_in_process(*args, env=OFF)
    assert warm.returncode == off.returncode == 0, (warm.stderr, off.stderr)
    return warm.stdout, off.stdout


def test_a_body_unreadable_while_the_index_was_built_is_read_again_by_the_next_call(tmp_path):
    """Repro: a folder moved away and back (a branch switch, a sync tool) while a call built the body index
    left the files in it out of the index; their stamps did not move (a folder's rename changes the
    folder, not its files), so every later cold call restored the index without them and `search`
    never found their words again, while the cache off found them."""
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    question = ("search", "--root", str(root), "zanzibar", "--json")
    cli_in_process(*question)  # writes the cache
    with (root / "domain/tax.md").open("a", encoding="utf-8") as handle:
        handle.write("\nZanzibar duties apply.\n")
    bank = Bank(root)
    cache.load(bank)
    bank.refresh()  # the call parsed the edit ...
    (root / "domain").rename(root / "domain.moving")  # ... and the folder was away while it read the bodies
    RouteIndex.of(bank)
    SearchIndex.of(bank)
    (root / "domain.moving").rename(root / "domain")
    cache.save(bank)
    warm = run_cli(*question)  # the real process: load, restore, answer, save
    off = cli_in_process(*question, env=OFF)
    assert warm.stdout == off.stdout
    assert [row["path"] for row in json.loads(warm.stdout)["results"]] == ["domain/tax.md"]


def test_a_tracked_file_away_when_doc_times_were_read_gets_its_commit_date_back(tmp_path):
    """Repro: the git dates saved with the parse cache (`doc.times`, keyed by HEAD) were asked for the files the
    walk saw; a tracked file deleted in the work tree when HEAD moved got none, and once restored
    (`git checkout -- FILE`, HEAD unmoved) every cached call dated it by its mtime (today: "changed
    2026-…, in the window") while the cache off dated it by its commit (outside the window)."""
    repo = Repo(tmp_path / "proj")
    repo.commit("init", "2024-01-02T03:04:05Z", {
        "memory_bank/notes/kettle.md": "# Kettle\n\nThe kettle boils water for tea.\n",
        "memory_bank/notes/garden.md": "# Garden\n\nThe garden shed holds the kettle too.\n",
        "memory_bank/notes/other.md": "# Other\n\nNothing about tea here.\n"})
    root = tmp_path / "proj/memory_bank"
    question = ("route", "--root", str(root), "kettle", "--since", "2025-01-01", "--json")
    cli_in_process(*question)
    (root / "notes/kettle.md").unlink()
    repo.write("memory_bank/notes/other.md", "# Other\n\nStill no tea.\n")
    repo.git("add", "memory_bank/notes/other.md")  # the deletion stays in the work tree only
    repo.git("commit", "-q", "-m", "other", date="2024-06-01T00:00:00Z")
    cli_in_process(*question)  # HEAD moved: the dates are read again, the kettle note away
    repo.git("checkout", "--", "memory_bank/notes/kettle.md")
    warm, off = _both(*question)
    assert warm == off
    assert "changed" not in json.loads(warm)["results"][0]["why"]  # committed 2024: outside the window


def _paths(out: str) -> list[str]:
    return [row["path"] for row in json.loads(out)["results"]]


def test_nothing_read_through_a_file_swapped_for_a_symlink_reaches_the_index(tmp_path):
    """Repro: the body index read a document by its path, following a symlink: a file replaced by a link to a
    file outside the bank between the walk and the read put the outside file's words in the index
    (and the cache saved them), though the walk never follows a symlink."""
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n" + "\n" * 40 + "Quokkapassword lives outside the bank.\n" * 40, encoding="utf-8")
    bank = Bank(root)
    bank.refresh()
    victim = root / "domain/tax.md"
    victim.unlink()
    victim.symlink_to(outside)
    index = SearchIndex.of(bank)
    assert not index.holds("quokkapassword")
    assert Path(outside).read_text(encoding="utf-8").startswith("# Secret")


def _derived(root: Path) -> tuple[int, int]:
    """(documents the route index derived, documents the body index derived) by a cold call that saves."""
    bank = Bank(root)
    cache.load(bank)
    bank.refresh()
    found = (RouteIndex.of(bank).derived_total, SearchIndex.of(bank).derived_total)
    cache.save(bank)
    return found


def test_a_call_loading_no_index_keeps_the_saved_indexes_for_the_next_call_to_update_in_place(tmp_path):
    """Repro: after an edit, a cold call that loads no index (validate, read, an edit itself) or only one
    (search) saved the cache without the other index's state, so the next route built it in full: every
    document derived again (12.7 s at 10,000) where the in-place update derives the one edited. The
    state is now carried with the paths changed since, and the next call re-derives those only."""
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    cli_in_process("route", "--root", str(root), "invoice rounding")  # writes both indexes
    calls = ((("validate", "--root", str(root)), (1, 1)), (("read", "--root", str(root), "domain/tax.md"), (1, 1)),
             (("search", "--root", str(root), "tax"), (1, 0)),  # it updated the body index itself
             (("edit", "--root", str(root), "domain/billing.md", "--find", "every account", "--replace", "each"),
              (2, 2)))
    for number, (call, derived) in enumerate(calls):
        with (root / "domain/tax.md").open("a", encoding="utf-8") as handle:
            handle.write(f"\nZanzibar duty {number}.\n")
        assert cli_in_process(*call).returncode in (0, 1), call[0]
        assert _derived(root) == derived, call[0]
        warm, off = _both("route", "--root", str(root), "zanzibar duty billing", "--limit", "25", "--json")
        assert warm == off, call[0]
        assert _derived(root) == (0, 0), call[0]
    with (root / "domain/tax.md").open("a", encoding="utf-8") as handle:
        handle.write("\nOne more.\n")
    cli_in_process("validate", "--root", str(root))
    cli_in_process("stats", "--root", str(root))  # two calls without an index: the changed paths add up
    assert _derived(root) == (1, 1)
    warm, off = _both("search", "--root", str(root), "zanzibar duty", "--json")
    assert warm == off and "domain/tax.md" in _paths(warm)
