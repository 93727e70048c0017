import pytest
from conftest import FIXTURE, doc, write_bank

from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.read import read


@pytest.fixture
def bank(tmp_path):
    body = "## Context\n\nWhy.\n\n## Decision\n\nWe do X.\n\n## Decision log\n\nold\n\n## Consequences\n\nCost.\n"
    root = write_bank(tmp_path / "b", {
        "adr/one.md": doc("One", body=body),
        "big.md": doc("Big", body="x" * 30_000),
        "big2.md": doc("Big2", body="y" * 30_000),
        "small.md": doc("Small", body="tiny"),
        "huge.md": "z" * 500_000,
    })
    return Bank(root)


def test_single_read_returns_body_without_frontmatter(bank):
    out = read(bank, "adr/one.md")
    assert out["path"] == "adr/one.md" and out["title"] == "One"
    assert out["frontmatter"]["status"] == "active"
    assert out["content"].startswith("# One") and "status:" not in out["content"]
    assert out["sections"] == ["Context", "Decision", "Decision log", "Consequences"]
    assert out["truncated"] is False and out["bytes"] == len(out["content"].encode())


def test_section_read_exact_match_wins_over_containment(bank):
    out = read(bank, "adr/one.md", section="decision")
    assert out["section"] == "Decision" and out["content"] == "## Decision\n\nWe do X."


def test_section_read_unique_containment_and_unicode_normalisation(bank):
    assert read(bank, "adr/one.md", section="  CONSEQUENCES!! ")["section"] == "Consequences"
    assert read(bank, "adr/one.md", section="log")["section"] == "Decision log"


def test_section_ambiguity_and_absence_are_refused(tmp_path):
    root = write_bank(tmp_path / "b", {"a.md": "## Setup A\nx\n## Setup B\ny\n"})
    bank = Bank(root)
    with pytest.raises(BankError, match=r'ambiguous.*Setup A \(line 1\) \| Setup B \(line 3\)'):
        read(bank, "a.md", section="setup")
    with pytest.raises(BankError, match=r'Section "nope" not found in a.md. Available: Setup A \| Setup B'):
        read(bank, "a.md", section="nope")


def test_line_range_returns_numbered_lines(bank):
    out = read(bank, "adr/one.md", lines="9-11")
    assert out["lines"] == "9-11"
    assert out["content"].split("\n") == ["9: ## Context", "10: ", "11: Why."] or \
        out["content"].split("\n") == [" 9: ## Context", "10: ", "11: Why."]
    with pytest.raises(BankError, match="outside"):
        read(bank, "adr/one.md", lines="900-901")
    with pytest.raises(BankError, match="not understood"):
        read(bank, "adr/one.md", lines="a-b")


def test_batch_budget_skips_whole_documents_and_lists_them(bank):
    out = read(bank, ["big.md", {"path": "adr/one.md", "section": "Decision"}, "big2.md", "small.md", "nope.md"])
    assert [d["path"] for d in out["documents"]] == ["big.md", "adr/one.md", "small.md"]
    assert out["skipped"][0]["path"] == "big2.md" and out["skipped"][0]["bytes"] > 30_000
    assert out["failed"][0]["path"] == "nope.md" and "No document" in out["failed"][0]["error"]
    assert out["bytes"] <= 40_000


def test_batch_first_document_is_always_read(bank):
    out = read(bank, ["big.md", "small.md"], max_bytes=1000)
    assert out["documents"][0]["path"] == "big.md" and out["documents"][0]["truncated"] is True
    assert out["documents"][0]["bytes"] <= 1000
    assert out["skipped"][0]["path"] == "small.md"


def test_single_document_cap(bank):
    out = read(bank, "huge.md")
    assert out["truncated"] is True and len(out["content"]) == 400_000


def test_read_refuses_escape_and_unknown(bank):
    with pytest.raises(BankError, match="Path must stay inside the bank"):
        read(bank, "../x.md")
    with pytest.raises(BankError, match="No document at adr/two.md"):
        read(bank, "adr/two.md")


def test_read_fixture_invalid_yaml_document():
    out = read(Bank(FIXTURE), "fixture-bank/product/pricing.md")
    assert out["frontmatter"]["purpose"].startswith("Pricing tiers: who pays")


def test_two_identical_headings_point_at_lines_and_a_batch_answers_one_section_once(tmp_path):
    from conftest import write_bank

    from memorybank.bank import Bank
    from memorybank.errors import BankError
    from memorybank.read import read

    text = "# Dup\n\n## Setup\n\none\n\n## Setup\n\ntwo\n\n## Last\n\nend\n"
    bank = Bank(write_bank(tmp_path / "b", {"dup.md": text}))
    with pytest.raises(BankError, match="The headings are the same; read one by its lines"):
        read(bank, "dup.md", section="Setup")
    batch = read(bank, [{"path": "dup.md", "section": s} for s in ("Last", "last", "LAST")])
    assert [d.get("section") for d in batch["documents"]] == ["Last"]
