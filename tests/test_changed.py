"""Changes since a ref or date (§8.3) against real git repositories."""

from __future__ import annotations

import os

import pytest
from conftest import doc
from gitrepo import Repo

from memorybank.bank import Bank
from memorybank.changed import changed
from memorybank.errors import BankError
from memorybank.render import changed as render_text

D1, D2, D3 = "2026-01-10T12:00:00Z", "2026-02-10T12:00:00Z", "2026-03-10T12:00:00Z"


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Repo:
    """A bank in `memory_bank/` with three commits; code beside it."""
    r = Repo(tmp_path_factory.mktemp("changed") / "repo")
    r.commit("one", D1, {"memory_bank/domain/README.md": "# Domain\n\n- [Billing](billing.md)\n",
                         "memory_bank/domain/billing.md": doc("Billing", body="## Rules\n"), "src/app.py": "A = 1\n"})
    r.commit("two", D2, {"memory_bank/domain/tax.md": doc("Tax")})
    r.commit("three", D3, {"src/app.py": "A = 2\n"})
    return r


@pytest.fixture
def repo(template, tmp_path) -> Repo:
    return template.copy(tmp_path / "repo")  # a private copy per test


def kinds(result: dict) -> list[tuple]:
    return [(c["path"], c["change_kind"], c.get("from")) for c in result["changes"]]


def test_added_document_and_its_section_index_since_head(repo):
    repo.write("memory_bank/domain/invoices.md", doc("Invoices", doc_kind="domain"))
    index = repo.path / "memory_bank/domain/README.md"
    index.write_text(index.read_text() + "- [Invoices](invoices.md)\n")
    result = changed(repo.bank(), "HEAD")
    assert result["mode"] == "git" and result["since"] == "HEAD" and "note" not in result
    assert kinds(result) == [("domain/README.md", "modified", None), ("domain/invoices.md", "added", None)]
    added = result["changes"][1]
    assert added == {"path": "domain/invoices.md", "change_kind": "added", "title": "Invoices",
                     "doc_kind": "domain", "layer": "knowledge", "status": "active"}


def test_committed_changes_since_an_older_ref_and_code_is_ignored(repo):
    assert kinds(changed(repo.bank(), "HEAD~2")) == [("domain/tax.md", "added", None)]
    assert kinds(changed(repo.bank(), "HEAD~1")) == []
    assert kinds(changed(repo.bank(), "main~2")) == [("domain/tax.md", "added", None)]


def test_rename_is_reported_with_from(repo):
    repo.git("mv", "memory_bank/domain/tax.md", "memory_bank/domain/taxes.md")
    repo.commit("rename", "2026-04-01T12:00:00Z")
    result = changed(repo.bank(), "HEAD~1")
    assert kinds(result) == [("domain/taxes.md", "renamed", "domain/tax.md")]
    assert result["changes"][0]["title"] == "Tax"


def test_plain_move_without_git_is_still_a_rename(repo):
    os.rename(repo.path / "memory_bank/domain/tax.md", repo.path / "memory_bank/domain/vat.md")
    assert kinds(changed(repo.bank(), "HEAD")) == [("domain/vat.md", "renamed", "domain/tax.md")]


def test_deleted_document_has_no_metadata(repo):
    repo.git("rm", "-q", "memory_bank/domain/tax.md")
    result = changed(repo.bank(), "HEAD")
    assert result["changes"] == [{"path": "domain/tax.md", "change_kind": "deleted"}]


def test_only_indexable_markdown_counts(repo):
    repo.write("memory_bank/domain/diagram.png", "not markdown")
    repo.write("memory_bank/.hidden/secret.md", "# hidden\n")
    repo.write("memory_bank/node_modules/pkg/README.md", "# dep\n")
    repo.write("elsewhere.md", "# outside the bank\n")
    assert kinds(changed(repo.bank(), "HEAD")) == []


def test_unknown_ref_is_refused(repo):
    with pytest.raises(BankError, match="Unknown git ref: no-such-ref"):
        changed(repo.bank(), "no-such-ref")
    with pytest.raises(BankError, match="Unknown git ref: no-such-ref~3"):
        changed(repo.bank(), "no-such-ref~3")
    with pytest.raises(BankError, match="Unknown git ref"):
        changed(repo.bank(), "--output=/tmp/x")


def test_walking_ref_past_the_first_commit_falls_back_to_the_root_commit(repo):
    root = repo.git("rev-list", "--max-parents=0", "HEAD").strip()
    result = changed(repo.bank(), "HEAD~20")
    assert result["mode"] == "git"
    assert root[:12] in result["note"] and "first commit" in result["note"]
    assert kinds(result) == [("domain/tax.md", "added", None)]


def test_iso_date_outside_git_uses_mtimes(repo, tmp_path):
    import shutil

    plain = tmp_path / "plain" / "memory_bank"
    shutil.copytree(repo.path / "memory_bank", plain)
    bank = Bank(plain)
    old = 946_684_800 - 86_400 * 30  # December 1999
    for path in plain.rglob("*.md"):
        os.utime(path, (old, old))
    os.utime(plain / "domain/tax.md", (1_800_000_000, 1_800_000_000))
    result = changed(bank, "2000-01-01")
    assert result["mode"] == "mtime" and "deleted" in result["note"]
    assert kinds(result) == [("domain/tax.md", "modified", None)]
    assert kinds(changed(bank, "2000-01-01T00:00:00+00:00")) == [("domain/tax.md", "modified", None)]
    with pytest.raises(BankError, match="Not a valid ISO date"):
        changed(bank, "2026-13-45")


def test_outside_git(tmp_path):
    bank_dir = tmp_path / "plain"
    (bank_dir / "adr").mkdir(parents=True)
    (bank_dir / "adr" / "one.md").write_text(doc("One", doc_kind="adr"))
    (bank_dir / "two.md").write_text(doc("Two"))
    bank = Bank(bank_dir)
    for ref in ("HEAD~20", "HEAD~1", "v1.2.0"):  # a ref outside git used to list everything as added
        with pytest.raises(BankError, match="not inside a git repository.*ISO date.*git init"):
            changed(bank, ref)
    dated = changed(bank, "2000-01-01")
    assert dated["mode"] == "mtime" and len(dated["changes"]) == 2


def test_repository_without_commits_lists_everything(tmp_path):
    r = Repo(tmp_path / "repo")
    r.write("bank/a.md", doc("A"))
    result = changed(Bank(r.path / "bank"), "HEAD")
    assert kinds(result) == [("a.md", "added", None)] and "no commits" in result["note"]
    with pytest.raises(BankError, match="Unknown git ref"):
        changed(Bank(r.path / "bank"), "main")


def test_bank_at_the_repository_top(tmp_path):
    r = Repo(tmp_path / "repo")
    r.write("a.md", doc("A"))
    r.commit("one", D1)
    r.write("b.md", doc("B"))
    r.write("a.md", doc("A", body="## More\n"))
    assert kinds(changed(Bank(r.path), "HEAD")) == [("a.md", "modified", None), ("b.md", "added", None)]


def test_empty_since_is_refused(repo):
    with pytest.raises(BankError, match="empty"):
        changed(repo.bank(), "  ")


def test_text_rendering(repo):
    repo.git("mv", "memory_bank/domain/tax.md", "memory_bank/domain/taxes.md")
    repo.git("rm", "-q", "memory_bank/domain/billing.md")
    lines = render_text(changed(repo.bank(), "HEAD")).splitlines()
    assert lines[0] == "since HEAD (git): 2 change(s)"
    assert lines[1].split() == ["deleted", "domain/billing.md"]
    assert lines[2].split() == ["renamed", "domain/taxes.md", "←", "domain/tax.md", "Tax"]
    assert len(lines) == 3
    assert render_text(changed(repo.bank(), "HEAD~20")).splitlines()[-1].startswith(
        "note: HEAD~20 reaches past the first commit")


def test_broken_repository_is_a_clear_refusal(repo):
    tree = repo.git("rev-parse", "HEAD^{tree}").strip()
    (repo.path / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    with pytest.raises(BankError, match="git failed: .*git fsck"):
        changed(repo.bank(), "HEAD")


def test_a_parent_number_that_does_not_exist_is_a_bad_ref_not_a_walk(tmp_path):
    # `HEAD^3` on a one-parent commit used to fall back to the root commit "past the first commit".
    repo = Repo(tmp_path / "repo")
    repo.write("memory_bank/README.md", doc("Root"))
    repo.commit("one", "2026-01-10T10:00:00Z")
    repo.write("memory_bank/a.md", doc("A"))
    repo.commit("two", "2026-01-11T10:00:00Z")
    bank = Bank(repo.path / "memory_bank")
    for ref in ("HEAD^3", "HEAD^^2"):
        with pytest.raises(BankError):
            changed(bank, ref)
    assert "note" in changed(bank, "HEAD~5")


def test_a_shallow_clone_says_its_history_is_cut(tmp_path):
    import subprocess

    from memorybank.drift import drift

    repo = Repo(tmp_path / "repo")
    repo.write("memory_bank/a.md", doc("A", anchors=["src/a.py"]))
    repo.write("src/a.py", "x = 1\n")
    repo.commit("one", "2026-01-10T10:00:00Z")
    repo.write("src/a.py", "x = 2\n")
    repo.commit("two", "2026-07-10T10:00:00Z")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)], check=True)
    result = drift(Bank(clone / "memory_bank"))
    assert "shallow" in result["note"] and "git fetch --unshallow" in result["note"]
    assert "shallow clone's first commit" in changed(Bank(clone / "memory_bank"), "HEAD~3")["note"]
