"""Issue 13 §1 and §4: nothing outside the bank is ever read or touched, and names that collide elsewhere
are refused. End-to-end through the real CLI and the real MCP server."""

from __future__ import annotations

import json
import os
import subprocess
import unicodedata
from pathlib import Path

import pytest
from conftest import cli_path, git, run_cli
from writekit import BASE, make_bank, tree_hash

from memorybank.bank import Bank
from memorybank.confined import open_folder, read_file
from memorybank.errors import BankError
from memorybank.writers.files import Transaction

JOURNAL = ".memorybank-journal"
SET_ASIDE = ".memorybank-journal.set-aside"


# -- 1. journal recovery -----------------------------------------------------------------------

def _hostile_bank(tmp_path: Path, style: str) -> tuple[Path, Path]:
    """A bank (as a clone could bring it) with `link -> <outside>` and a journal deleting through it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "important.txt").write_text("keep me\n")
    root = make_bank(tmp_path / "bank").root
    (root / "link").symlink_to(outside, target_is_directory=True)
    if style == "v1":
        plan = {"version": 1, "ops": [{"path": "link/important.txt", "delete": True}]}
    else:  # every field of the current format right, even the inode of the outside file
        temp = ".memorybank-tmp-1-deadbeef-important.txt"
        plan = {"version": 2, "pid": 1, "dev": os.stat(root).st_dev, "ops": [
            {"path": "link/important.txt", "delete": True, "base_ino": (outside / "important.txt").stat().st_ino},
            {"path": "link/x.md", "temp": temp, "temp_ino": 1, "base_ino": None}]}
    (root / JOURNAL).write_text(json.dumps(plan))
    return root, outside


@pytest.mark.parametrize("style", ["v1", "v2"])
def test_a_server_started_with_stdin_closed_sets_a_hostile_journal_aside(tmp_path, style):
    root, outside = _hostile_bank(tmp_path, style)
    proc = subprocess.run([cli_path(), "--root", str(root)], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)
    assert (outside / "important.txt").read_text() == "keep me\n"
    assert not (root / JOURNAL).exists() and (root / SET_ASIDE).exists()
    assert "set aside" in proc.stderr and "without acting on it" in proc.stderr


def test_a_cli_write_sets_a_hostile_journal_aside_and_says_so(tmp_path):
    root, outside = _hostile_bank(tmp_path, "v1")
    proc = run_cli("--root", str(root), "--create", "adr/ADR-050-x.md", "--kind", "adr", "--title", "Fifty",
                   "--purpose", "Why fifty.", "--derived", "dna/principles.md", "--json")
    assert proc.returncode == 0, proc.stderr
    assert (outside / "important.txt").read_text() == "keep me\n"
    assert any("set aside" in w for w in json.loads(proc.stdout)["warnings"])
    assert (root / "adr/ADR-050-x.md").exists() and (root / SET_ASIDE).exists()


# -- 1. body_file / content_file over MCP ------------------------------------------------------

@pytest.fixture
def project(tmp_path):
    """A git project holding a bank, a file inside the project, and secrets outside it and under .git/."""
    top = tmp_path / "proj"
    top.mkdir()
    git(top, "init", "-q")
    root = make_bank(top / "memory_bank").root
    (top / "notes.md").write_text("Body from the project.\n")
    (tmp_path / "secret.txt").write_text("TOP SECRET outside\n")
    (top / ".git" / "secret.md").write_text("TOP SECRET in git\n")
    (top / "out").symlink_to(tmp_path, target_is_directory=True)
    (top / "leak.md").symlink_to(tmp_path / "secret.txt")
    return top, root


def test_body_file_over_mcp_reads_only_inside_the_project(scratch_server):
    """The worker's scratch server, its project made as `project` makes one: a git repository holding
    the bank and notes.md, secrets outside it (`session.outside`) and under .git/, symlinks leading out."""
    session = scratch_server
    root, top, outside = session.load(dict(BASE)), session.top, session.outside
    git(top, "init", "-q")
    (top / "notes.md").write_text("Body from the project.\n")
    (outside / "secret.txt").write_text("TOP SECRET outside\n")
    (top / ".git" / "secret.md").write_text("TOP SECRET in git\n")
    (top / "out").symlink_to(outside, target_is_directory=True)
    (top / "leak.md").symlink_to(outside / "secret.txt")
    base = {"doc_kind": "adr", "title": "From file", "purpose": "Body from a file.",
            "derived_from": ["dna/principles.md"]}
    for i, (given, needle) in enumerate([
            (str(outside / "secret.txt"), "outside the project"),
            ("../secret.txt", "outside the project"),
            (str(top / ".git" / "secret.md"), ".git"),
            (str(top / "out" / "secret.txt"), "symlink"),
            (str(top / "leak.md"), "symlink")]):
        result = session.call("bank_create", {**base, "path": f"adr/ADR-06{i}-x.md", "body_file": given})
        assert result.is_error and needle in result.content[0].text, (given, result.content[0].text)
        assert not (root / f"adr/ADR-06{i}-x.md").exists()
    result = session.call("bank_update_section", {"path": "product/vision.md", "section": "Goals",
                                                  "content_file": str(outside / "secret.txt")})
    assert result.is_error and "outside the project" in result.content[0].text
    ok = session.ok("bank_create", {**base, "path": "adr/ADR-069-ok.md", "body_file": "notes.md"})
    assert ok["path"] == "adr/ADR-069-ok.md"
    assert "Body from the project." in (root / "adr/ADR-069-ok.md").read_text()
    assert "TOP SECRET" not in "".join(p.read_text() for p in root.rglob("*.md"))


def test_the_cli_keeps_full_access_to_body_files(project, tmp_path):
    _, root = project
    proc = run_cli("--root", str(root), "--create", "adr/ADR-070-x.md", "--kind", "adr", "--title", "Seventy",
                   "--purpose", "Why seventy.", "--derived", "dna/principles.md",
                   "--body-file", str(tmp_path / "secret.txt"))
    assert proc.returncode == 0, proc.stderr


# -- 1. TOCTOU: a folder or file swapped for a symlink between check and use -------------------------

def test_the_open_helper_refuses_a_symlinked_folder_and_file(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.md").write_text("a")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "real" / "l.md").symlink_to(tmp_path / "real" / "a.md")
    assert read_file(tmp_path, "real/a.md").data == b"a"
    with pytest.raises(BankError, match="symlink"):
        read_file(tmp_path, "link/a.md")
    with pytest.raises(BankError, match="symlink"):
        read_file(tmp_path, "real/l.md")
    with pytest.raises(BankError, match="symlink"):
        open_folder(tmp_path, ["link"])


def test_a_commit_never_writes_through_a_folder_swapped_for_a_symlink_after_its_checks(tmp_path):
    bank = make_bank(tmp_path / "bank")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "ADR-001-x.md").write_text("outside, untouched\n")
    tx = Transaction(bank.root)
    tx.write("adr/ADR-001-x.md", b"new\n")
    tx.write("adr/ADR-002-y.md", b"new\n")
    (bank.root / "adr").rename(tmp_path / "adr-moved")
    (bank.root / "adr").symlink_to(outside, target_is_directory=True)  # the swap, after the checks
    with pytest.raises(BankError, match="symlink"):
        tx.commit()
    assert sorted(p.name for p in outside.iterdir()) == ["ADR-001-x.md"]
    assert (outside / "ADR-001-x.md").read_text() == "outside, untouched\n"


def test_the_index_never_parses_through_a_folder_swapped_for_a_symlink_after_the_walk(tmp_path):
    bank = make_bank(tmp_path / "bank")
    outside = tmp_path / "outside"
    outside.mkdir()
    fresh = Bank(bank.root)
    stamps = fresh._walk()
    path = "product/vision.md"
    (outside / "vision.md").write_text("---\ntitle: SECRET\n---\n# SECRET\n")
    (bank.root / "product").rename(tmp_path / "product-moved")
    (bank.root / "product").symlink_to(outside, target_is_directory=True)
    assert fresh._parse(path, stamps[path]) is None
    assert any(s["path"] == path for s in fresh.skipped)


# -- 4. names that collide on other systems ------------------------------------------------------

@pytest.mark.parametrize("existing,new", [
    ("domain/caf\u00e9.md", unicodedata.normalize("NFD", "domain/caf\u00e9.md")),
    ("adr/README.md", "adr/readme.md"),
    ("adr/README.md", "ADR/ADR-077-x.md")])
def test_create_refuses_a_name_that_collides_after_nfc_and_case_folding(tmp_path, existing, new):
    bank = make_bank(tmp_path / "bank")
    target = bank.root / existing
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("---\ntitle: Café\npurpose: Café.\nstatus: draft\n---\n# Café\n")
    before = tree_hash(bank.root)
    proc = run_cli("--root", str(bank.root), "--create", new, "--kind", "adr", "--title", "Collide",
                   "--purpose", "A colliding name.", "--derived", "dna/principles.md")
    assert proc.returncode == 1
    clash = existing if new.count("/") == existing.count("/") and not new.startswith("ADR/") else "adr"
    assert "collides" in proc.stderr and clash in proc.stderr, proc.stderr
    assert tree_hash(bank.root) == before


def test_a_folder_another_writer_makes_first_is_used_and_kept(tmp_path, monkeypatch):
    """Two installs at once: the loser of the mkdir race writes into the winner's folder, and a later
    failure never removes a folder it did not make (CI saw `.claude (File exists)` refused)."""
    from memorybank import atomic

    real_mkdir = Path.mkdir

    def racing_mkdir(self, *args, **kwargs):
        real_mkdir(self)  # the other writer wins the race
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", racing_mkdir)
    target = tmp_path / "proj" / ".claude" / "settings.json"
    atomic.replace_files({target: b"{}\n"})
    assert target.read_bytes() == b"{}\n"
    other = tmp_path / "proj2" / "x" / "a.json"
    with pytest.raises(atomic.ReplaceFailed):
        atomic.replace_files({other: b"1"}, expected={other: b"what the caller read"})
    assert other.parent.is_dir() and not other.exists()  # the other writer's folder stays


def test_the_confined_opener_uses_a_folder_another_writer_makes_first(tmp_path, monkeypatch):
    real_mkdir = os.mkdir

    def racing_mkdir(path, *args, **kwargs):
        real_mkdir(path, *args, **kwargs)
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", racing_mkdir)
    made: list[tuple[int, str]] = []
    fd = open_folder(tmp_path, ["a", "b"], made=made)
    os.close(fd)
    assert (tmp_path / "a" / "b").is_dir() and made == []  # nothing recorded, so nothing would be removed


def test_a_symlink_raced_in_where_a_folder_was_to_be_made_is_refused_as_an_escape(tmp_path, monkeypatch):
    outside, bank = tmp_path / "outside", tmp_path / "bank"
    outside.mkdir()
    bank.mkdir()
    real_mkdir = os.mkdir

    def racing_mkdir(path, *args, **kwargs):
        os.symlink(outside, path, dir_fd=kwargs.get("dir_fd"))  # a hostile process wins the race with a link
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", racing_mkdir)
    made: list[tuple[int, str]] = []
    with pytest.raises(BankError, match="symlink"):
        open_folder(bank, ["a"], made=made)
    assert made == [] and list(outside.iterdir()) == []
