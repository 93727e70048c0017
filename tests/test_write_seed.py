"""bank_init and bank_materialize_flows (§10.8) on the shipped starter and templates."""

from __future__ import annotations

import pytest
from writekit import assert_clean, read, refused, tree_hash

from memorybank.assets import asset_dir
from memorybank.bank import Bank
from memorybank.writers import create, init, materialize_flows


def test_init_seeds_the_starter_with_the_project_name_and_validates_clean(tmp_path):
    bank = Bank(tmp_path / "bank")
    out = init(bank, name="Acme")
    starter = sorted(p.relative_to(asset_dir("starter")).as_posix() for p in asset_dir("starter").rglob("*.md"))
    assert sorted(f["path"] for f in out["files"] if f["path"].endswith(".md")) == starter
    assert read(bank, ".gitignore") == ".memorybank.lock\n.memorybank-journal\n.memorybank-tmp-*\n"
    assert "<project name>" not in read(bank, "README.md") and "Acme" in read(bank, "README.md")
    bank.refresh()
    assert_clean(bank)


def test_init_dry_run_lists_files_and_writes_nothing(tmp_path):
    bank = Bank(tmp_path / "bank")
    out = init(bank, name="Acme", dry_run=True)
    assert out["dry_run"] and any(f["path"] == "dna/principles.md" for f in out["files"])
    assert not (tmp_path / "bank").exists()


def test_init_refuses_an_existing_bank_unless_forced(tmp_path):
    bank = Bank(tmp_path / "bank")
    init(bank, name="Acme")
    (bank.root / "README.md").write_text((bank.root / "README.md").read_text() + "\nLocal note.\n")
    refused(bank, lambda: init(bank, name="Other"), "(init)", "already holds a bank", "force")
    (bank.root / "product/context.md").unlink()
    before = read(bank, "README.md")
    out = init(bank, name="Acme", force=True)
    # force adds what is missing and keeps every existing file (an index rewrite would unregister)
    assert out["files"] == [{"path": "product/context.md", "action": "create"}]
    assert read(bank, "README.md") == before
    assert "kept 1 existing file that differs from the starter: README.md. Delete a file first to reset it." \
        in out["warnings"]


def test_init_force_on_a_grown_bank_loses_no_registration(tmp_path):
    # A user-test found that --init --force rewrote every index and left 7 unregistered documents.
    from memorybank.validate import validate
    from memorybank.writers import create

    bank = Bank(tmp_path / "bank")
    init(bank, name="Acme")
    create(bank, path="adr/ADR-001-cents.md", doc_kind="adr", title="Cents", purpose="Why cents.",
           derived_from=["dna/principles.md"], body="# Cents\n\nInteger cents.\n")
    create(bank, path="epics/alpha.md", doc_kind="epic", title="Alpha", purpose="Alpha epic.",
           derived_from=["product/context.md"], body="# Alpha\n\nThe alpha epic.\n")
    assert validate(bank)["summary"]["total"] == 0
    out = init(bank, name="Acme", force=True)
    assert out["files"] == [] and validate(bank)["summary"]["total"] == 0


def test_an_inbox_only_folder_is_not_an_existing_bank(tmp_path):
    bank = Bank(tmp_path / "bank")
    (tmp_path / "bank/_inbox").mkdir(parents=True)
    (tmp_path / "bank/_inbox/early.md").write_text("---\ntitle: Early\n---\n# Early\n")
    init(bank, name="Acme")
    assert (tmp_path / "bank/_inbox/early.md").exists() and (tmp_path / "bank/dna/principles.md").exists()


def test_materialize_copies_registers_and_the_banks_copy_wins(tmp_path):
    bank = Bank(tmp_path / "bank")
    init(bank, name="Acme")
    out = materialize_flows(bank)
    shipped = sorted(p for p in asset_dir("flows").rglob("*.md") if "doc_function: template" in p.read_text())
    assert len(out["copied"]) == len(shipped)
    bank.refresh()
    assert_clean(bank)
    mine = bank.root / "flows/templates/adr.md"
    mine.write_text(mine.read_text().replace("decision_status: proposed", "decision_status: proposed\nteam: core"))
    made = create(bank, path="adr/ADR-001.md", doc_kind="adr", title="One", purpose="First.",
                  derived_from=["product/context.md"])
    assert made["template"] == "flows/templates/adr.md" and "team: core" in read(bank, "adr/ADR-001.md")
    refused(bank, lambda: materialize_flows(bank), "(materialize)", "flows/templates/adr.md", "force")
    before = tree_hash(bank.root)
    again = materialize_flows(bank, dry_run=True, force=True)
    assert again["copied"] == ["flows/templates/adr.md"] and tree_hash(bank.root) == before


@pytest.mark.parametrize("name", ["{{name}} {{project}}", "it's: a [x](y.md) | pipe", "# Heading", "Ünïcode 🚀 <b>"])
def test_any_project_name_seeds_a_bank_with_zero_findings_and_the_name_as_written(tmp_path, name):
    # Names went into the frontmatter unquoted: YAML errors, a lost title, a dangling index link.
    from memorybank.validate import validate

    bank = Bank(tmp_path / "bank")
    init(bank, name=name)
    assert validate(bank)["summary"]["total"] == 0
    bank.refresh()
    assert bank.docs["README.md"].title == f"{name} memory bank"


def test_init_where_the_folder_cannot_be_made_is_a_refusal(tmp_path):
    (tmp_path / "file").write_text("x")
    refused(Bank(tmp_path / "file" / "bank"), lambda: init(Bank(tmp_path / "file" / "bank"), name="X"),
            "(init)", "cannot create")
