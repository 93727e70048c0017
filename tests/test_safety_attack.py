"""An adversarial run on issue 13's finished work: each test is one hole found by attacking the real
CLI, server and hooks, pinned so it stays closed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import cli_path, doc, git_repo, run_cli
from test_hook import block_reason, stop
from writekit import make_bank

JOURNAL = ".memorybank-journal"
LOCK = ".memorybank.lock"
SET_ASIDE = ".memorybank-journal.set-aside"


def _create(root: Path, name: str = "adr/ADR-050-x.md", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([cli_path(), "--root", str(root), "--create", name, "--kind", "adr", "--title", "Fifty",
                           "--purpose", "Why fifty.", "--derived", "dna/principles.md", "--json"],
                          capture_output=True, text=True, timeout=timeout)


# -- the bank's own files (lock, journal) as a clone can bring them -----------------------------

def test_a_lock_file_symlinked_out_of_the_bank_is_refused_and_nothing_outside_is_made(tmp_path):
    root = make_bank(tmp_path / "bank").root
    (root / LOCK).symlink_to(tmp_path / "made-outside")
    proc = _create(root)
    assert not (tmp_path / "made-outside").exists()
    assert proc.returncode != 0 and LOCK in proc.stderr and "symlink" in proc.stderr
    assert not (root / "adr/ADR-050-x.md").exists()


def test_a_journal_symlinked_out_of_the_bank_never_leads_a_write_outside(tmp_path):
    # A dangling `.memorybank-journal -> <outside>` read as "no journal", then the commit's journal was
    # written through it: a file made outside the bank.
    root = make_bank(tmp_path / "bank").root
    (root / JOURNAL).symlink_to(tmp_path / "made-outside")
    proc = _create(root)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "made-outside").exists()
    assert (root / "adr/ADR-050-x.md").exists()
    assert not os.path.lexists(root / JOURNAL)


def test_a_journal_that_is_a_fifo_is_set_aside_instead_of_blocking_every_writer_and_the_server(tmp_path):
    root = make_bank(tmp_path / "bank").root
    os.mkfifo(root / JOURNAL)
    proc = _create(root, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert any("set aside" in w for w in json.loads(proc.stdout)["warnings"])
    assert not os.path.lexists(root / JOURNAL)
    os.mkfifo(root / JOURNAL)
    served = subprocess.run([cli_path(), "--root", str(root)], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=30)
    assert "set aside" in served.stderr


def test_a_huge_journal_is_set_aside_unread(tmp_path):
    root = make_bank(tmp_path / "bank").root
    with open(root / JOURNAL, "wb") as handle:
        handle.truncate(64 << 20)  # sparse: costs no disk, but reading it costs 64 MB
    proc = run_cli("--root", str(root), "--create", "adr/ADR-050-x.md", "--kind", "adr", "--title", "Fifty",
                   "--purpose", "Why fifty.", "--derived", "dna/principles.md", "--json")
    assert proc.returncode == 0, proc.stderr
    assert any("set aside" in w and "large" in w for w in json.loads(proc.stdout)["warnings"])


# -- hooks on a hostile bank --------------------------------------------------------------------

def test_the_stop_hook_never_counts_notes_through_a_symlinked_inbox(tmp_path):
    # `_inbox -> <a folder of 12 notes outside>`: the index skips it, but the Stop hook walked it and
    # told the agent about notes that are not in the bank (and `_inbox -> /` walked the whole disk).
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    for i in range(12):
        (outside / f"n{i}.md").write_text(doc(f"N {i}"))
    project = git_repo(tmp_path / "proj", {"src/app.py": "print('hi')\n", "memory_bank/README.md": "# Bank\n",
                                           "memory_bank/domain/money.md": doc("Money")})
    (project / "memory_bank" / "_inbox").symlink_to(outside, target_is_directory=True)
    (project / "src" / "app.py").write_text("changed\n")
    reason = block_reason(stop(project, tmp_path))
    assert "notes wait" not in reason


# -- body_file / content_file over MCP ----------------------------------------------------------

@pytest.fixture
def home_served(writable_server):
    """The worker's server (a start costs ~2 s of CPU) over a bank in a home folder, as built.

    A bank kept in a home folder that is not a git repository (or in a dotfiles repository) has the
    home folder as its project: `.ssh/id_rsa`, `.aws/credentials`, `.env` were all "inside the project"
    (conftest `writable_server` puts `.ssh/id_rsa`, `.env` and `notes.md` there).
    """
    return writable_server


def test_over_mcp_no_hidden_file_or_folder_of_the_project_is_read(home_served):
    session, home, root = home_served, home_served.home, home_served.root
    base = {"doc_kind": "adr", "title": "From file", "purpose": "Body from a file.",
            "derived_from": ["dna/principles.md"]}
    for i, given in enumerate([".ssh/id_rsa", str(home / ".ssh" / "id_rsa"), ".env", "memory_bank/../.env"]):
        result = session.call("bank_create", {**base, "path": f"adr/ADR-06{i}-x.md", "body_file": given})
        assert result.is_error and "hidden" in result.content[0].text, (given, result.content[0].text)
    result = session.call("bank_update_section", {"path": "product/vision.md", "section": "Goals",
                                                  "content_file": ".ssh/id_rsa"})
    assert result.is_error and "hidden" in result.content[0].text
    assert session.ok("bank_create", {**base, "path": "adr/ADR-069-ok.md", "body_file": "notes.md"})
    assert "PRIVATE" not in "".join(p.read_text() for p in root.rglob("*.md"))
    assert "TOKEN" not in "".join(p.read_text() for p in root.rglob("*.md"))


# -- names that collide on macOS and Windows, through every path that makes a file ------------------

def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != LOCK}


def test_init_force_never_adds_a_starter_file_beside_one_that_differs_only_in_case(tmp_path):
    root = tmp_path / "bank"
    root.mkdir()
    (root / "readme.md").write_text("---\ntitle: Mine\ndoc_function: index\npurpose: Mine.\n---\n# Mine\n")
    before = _tree(root)
    proc = run_cli("--root", str(root), "--init", "Proj", "--force")
    assert proc.returncode != 0
    assert "readme.md" in proc.stderr and "collides" in proc.stderr
    assert _tree(root) == before


def test_materialize_flows_never_adds_a_template_beside_one_that_differs_only_in_case(tmp_path):
    import shutil

    from conftest import FIXTURE
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    (root / "flows/templates/PRD.md").write_text("# my own prd notes\n")
    before = _tree(root)
    proc = run_cli("--root", str(root), "--materialize-flows", "--force")
    assert proc.returncode != 0
    assert "PRD.md" in proc.stderr and "collides" in proc.stderr
    assert _tree(root) == before


# -- base_version misuse --------------------------------------------------------------------------

def test_a_malformed_base_version_is_named_as_such_not_as_a_changed_document(home_served):
    # "" or a NUL-tailed or 2 MB base_version was answered "it changed since that read", echoing the
    # raw value back: a misleading reason (nothing changed) and an unbounded, binary echo.
    session, root = home_served, home_served.root
    version = json.loads(session.call("bank_read", {"path": "product/vision.md"}).content[0].text)["version"]
    before = (root / "product/vision.md").read_bytes()
    for given in ["", " ", version + "\x00", "a" * 2_000_000, version.upper()[:11]]:
        result = session.call("bank_set_field", {"path": "product/vision.md", "field": "owner", "value": "x",
                                                 "base_version": given})
        text = result.content[0].text
        assert result.is_error and "is not a version" in text and version in text, text
        assert "\x00" not in text and len(text) < 400
    assert (root / "product/vision.md").read_bytes() == before
    assert session.ok("bank_set_field", {"path": "product/vision.md", "field": "owner", "value": "x",
                                         "base_version": f" {version} "})["changed"]
