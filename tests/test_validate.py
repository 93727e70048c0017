import re

import pytest
from conftest import FIXTURE, doc, write_bank

from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.validate import RULES, validate


def expected_rows():
    rows = []
    for line in (FIXTURE / "EXPECTED.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in dict(RULES):
            rows.append((cells[0], cells[1], None if cells[2] == "-" else int(cells[2])))
    return rows


def test_fixture_bank_reports_exactly_the_planted_findings():
    found = validate(Bank(FIXTURE))["findings"]
    assert [(f["rule"], f["path"], f.get("line")) for f in found] == expected_rows()
    assert len(expected_rows()) == 11


def test_summary_counts_and_filters():
    bank = Bank(FIXTURE)
    full = validate(bank)
    assert full["summary"]["total"] == 11 and full["summary"]["errors"] == 7 and full["summary"]["warnings"] == 4
    assert full["summary"]["by_rule"]["ssot-conflict"] == 1
    assert {f["path"] for f in validate(bank, scope="domain")["findings"]} == {"domain/invoices.md", "domain/tax.md"}
    assert all(f["severity"] == "warning" for f in validate(bank, severity="warning")["findings"])
    assert [f["rule"] for f in validate(bank, rule="cycle-in-derived-from")["findings"]] == ["cycle-in-derived-from"]
    with pytest.raises(BankError, match="Unknown rule"):
        validate(bank, rule="nope")


def test_messages_name_the_fix():
    for f in validate(Bank(FIXTURE))["findings"]:
        assert len(f["message"]) > 30 and re.search(r"\b(Fix|Add|Quote|Remove|remove|Keep|Use|reword)\b", f["message"])


def test_degraded_mode_reports_no_contract_once(tmp_path):
    root = write_bank(tmp_path / "b", {"README.md": "- [a](a.md)\n", "a.md": doc("A", status="whatever")})
    out = validate(Bank(root))
    assert [(f["rule"], f["path"]) for f in out["findings"]] == [("no-contract", "dna/")]


CONTRACT = ("Every active document must define `derived_from`. Cycles are forbidden.\n"
            "| `status` | `draft`, `active`, `archived` |\n| `doc_kind` | `note` |\n")


def _bank(tmp_path, files):
    base = {"dna/principles.md": doc("P"), "dna/rules.md": doc("R", derived=["principles.md"], body=CONTRACT),
            "README.md": "- [p](dna/principles.md)\n- [r](dna/rules.md)\n"}
    return Bank(write_bank(tmp_path / "b", {**base, **files}))


def rules_of(bank):
    return [(f["rule"], f["path"]) for f in validate(bank)["findings"]]


def test_clean_bank_has_no_findings(tmp_path):
    bank = _bank(tmp_path, {"n/a.md": doc("A", derived=["../dna/rules.md"]), "n/README.md": "[a](a.md)\n",
                            "README.md": "- [p](dna/principles.md)\n- [r](dna/rules.md)\n- [n](n/README.md)\n"})
    assert rules_of(bank) == []


def test_missing_derived_from_spares_roots_drafts_and_templates(tmp_path):
    bank = _bank(tmp_path, {
        "a.md": doc("A"), "b.md": doc("B", status="draft"), "t.md": doc("T", doc_function="template"),
        "README.md": "[a](a.md) [b](b.md) [t](t.md) [p](dna/principles.md) [r](dna/rules.md)\n"})
    assert rules_of(bank) == [("missing-derived-from", "a.md")]


def test_each_cycle_reported_once_and_self_loop(tmp_path):
    bank = _bank(tmp_path, {
        "x/a.md": doc("A", derived=["b.md"]), "x/b.md": doc("B", derived=["c.md"]),
        "x/c.md": doc("C", derived=["a.md"]), "x/s.md": doc("S", derived=["s.md"]),
        "x/README.md": "[a](a.md) [b](b.md) [c](c.md) [s](s.md)\n",
        "README.md": "[x](x/README.md) [p](dna/principles.md) [r](dna/rules.md)\n"})
    found = validate(bank, rule="cycle-in-derived-from")["findings"]
    assert [f["message"].split(". Remove")[0] for f in found] == [
        "derived_from cycle: x/a.md -> x/b.md -> x/c.md -> x/a.md",
        "derived_from cycle: x/s.md -> x/s.md",
    ]


def test_external_edges_and_links_are_not_broken(tmp_path):
    bank = _bank(tmp_path, {"a.md": doc("A", derived=["../sibling/x.md"]),
                            "README.md": "[a](a.md) [out](../sibling/y.md) [p](dna/principles.md) [r](dna/rules.md)\n"})
    assert rules_of(bank) == []


def test_unknown_enum_includes_unquoted_dates(tmp_path):
    bank = _bank(tmp_path, {"a.md": doc("A", status="2026-01-01", derived=["dna/rules.md"], doc_kind="memo"),
                            "README.md": "[a](a.md) [p](dna/principles.md) [r](dna/rules.md)\n"})
    assert rules_of(bank) == [("unknown-enum-value", "a.md"), ("unknown-enum-value", "a.md")]


def test_unresolved_rule_reference_spares_template_names_and_ambiguous_names(tmp_path):
    body = ("Owned by `adr.md`. Defined in `dup.md`. Specified in `x/one.md`. Described in `gone.md`.\n"
            "Governed by [the rules](dna/rules.md).")
    bank = _bank(tmp_path, {
        "a.md": doc("A", status="draft", body=body), "x/dup.md": doc("D1"), "y/dup.md": doc("D2"), "x/one.md": "x",
        "README.md": "[a](a.md) [1](x/dup.md) [2](y/dup.md) [o](x/one.md) [p](dna/principles.md) [r](dna/rules.md)\n"})
    found = validate(bank, rule="unresolved-rule-reference")["findings"]
    assert [f["message"].split(",")[0] for f in found] == ["Prose says a rule lives in `gone.md`"]


def test_unregistered_doc_names_the_nearest_index_that_exists(tmp_path):
    # The fix used to name engineering/deep/nested/README.md, a file that does not exist.
    root = write_bank(tmp_path / "bank", {
        "README.md": doc(title="Root", doc_function="index", body="- [Eng](engineering/README.md)\n"),
        "engineering/README.md": doc(title="Eng", doc_function="index"),
        "engineering/deep/nested/thing.md": doc(title="Thing"),
    })
    found = [f for f in validate(Bank(root))["findings"] if f["rule"] == "unregistered-doc"]
    assert [f["path"] for f in found] == ["engineering/deep/nested/thing.md"]
    assert "Add an entry to engineering/README.md" in found[0]["message"]
