"""bank_create (§10.1): gates in order, each refusal named with nothing written, templates, inbox mode."""

from __future__ import annotations

import pytest
from writekit import assert_clean, make_bank, read, refused, tree_hash

from memorybank.writers import create
from memorybank.writers import templates as wtemplates
from memorybank.writers.templates import today

UP = ["dna/principles.md"]


def call(bank, **over):
    params = {"path": "adr/ADR-001.md", "doc_kind": "adr", "title": "ADR-001 Keep files", "purpose": "Why files.",
              "derived_from": UP, "status": "active"}
    params.update(over)
    return lambda: create(bank, **params)


@pytest.mark.parametrize("over,fragments", [
    ({"title": "  "}, ["(title)", "`title` is empty"]),
    ({"purpose": ""}, ["(purpose)", "`purpose` is empty"]),
    ({"purpose": "two\nlines"}, ["(purpose)", "one line"]),
    ({"path": "adr/ADR-001.txt"}, ["(path)", "does not end in `.md`"]),
    ({"path": "../outside.md"}, ["Path must stay inside the bank: ../outside.md"]),
    ({"path": "/etc/passwd.md"}, ["Path must stay inside the bank"]),
    ({"path": "..\\outside.md"}, ["Path must stay inside the bank"]),
    ({"path": "product/vision.md"}, ["(path)", "already exists at product/vision.md"]),
    ({"path": "adr/.hidden/x.md"}, ["(path)", "hidden"]),
    ({"path": "adr/with space.md"}, ["(path)", "spaces"]),
    ({"derived_from": ["nowhere.md"]}, ["(derived_from)", "nowhere.md does not resolve", "Create the upstream"]),
    ({"canonical_for": ["audience"]}, ["(canonical_for)", "already owned by product/vision.md. One fact, one home."]),
    ({"canonical_for": ["k"], "must_not_define": ["k"]}, ["(must_not_define)", "both"]),
    ({"derived_from": None}, ["(derived_from)", "must define derived_from", "draft"]),
    ({"body": "x", "body_file": "y"}, ["(body)", "both"]),
    ({"body_file": "/nonexistent/body.md"}, ["(body_file)", "cannot read"]),
    ({"extra": {"status": "active"}}, ["(extra)", "`status` is a governed key"]),
    ({"extra": {"doc_function": "index"}}, ["(extra)", "governed"]),
    ({"body": "---\ntitle: x\n---\nbody"}, ["(body)", "frontmatter"]),
])
def test_create_refusals_name_the_gate_and_write_nothing(tmp_path, over, fragments):
    bank = make_bank(tmp_path / "bank")
    refused(bank, call(bank, **over), *fragments)


def test_gates_run_in_spec_order(tmp_path):
    bank = make_bank(tmp_path / "bank")
    # title before path, path before derived_from, derived_from before ownership, ownership before the contract rule
    refused(bank, call(bank, title="", path="../x.md"), "(title)")
    refused(bank, call(bank, path="product/vision.md", derived_from=["missing.md"]), "(path)")
    refused(bank, call(bank, derived_from=["missing.md"], canonical_for=["audience"]), "(derived_from)")
    refused(bank, call(bank, canonical_for=["audience"], derived_from=None), "(canonical_for)")


def test_body_file_over_one_megabyte_is_refused(tmp_path):
    bank = make_bank(tmp_path / "bank")
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * ((1 << 20) + 1))
    refused(bank, call(bank, body_file=str(big)), "(body_file)", "1 MB")


def test_dry_run_runs_every_gate_and_writes_nothing(tmp_path):
    bank = make_bank(tmp_path / "bank")
    before = tree_hash(bank.root)
    out = call(bank, dry_run=True)()
    assert out["dry_run"] is True and out["registered_in"] == "adr/README.md"
    assert out["files"] == [{"path": "adr/ADR-001.md", "action": "create"},
                            {"path": "adr/README.md", "action": "update"}]
    assert tree_hash(bank.root) == before
    refused(bank, call(bank, dry_run=True, canonical_for=["audience"]), "already owned")


def test_created_document_has_governed_key_order_and_validates(tmp_path):
    bank = make_bank(tmp_path / "bank")
    out = create(bank, path="product/storage.md", doc_kind="product", title="Storage: files", purpose="Why: files.",
                 derived_from=["vision.md"], canonical_for=["storage"], must_not_define=["audience"],
                 anchors=["./src/store.py"], status="active", extra={"decision_status": "accepted", "owner": "ops"},
                 body="## Context\n\nWe write things down.\n")
    assert out["warnings"] == [] and out["template"] is None
    assert read(bank, "product/storage.md") == (
        "---\ntitle: 'Storage: files'\ndoc_kind: product\ndoc_function: canonical\npurpose: 'Why: files.'\n"
        "derived_from:\n  - vision.md\ncanonical_for:\n  - storage\nmust_not_define:\n  - audience\n"
        "anchors:\n  - src/store.py\nstatus: active\ndecision_status: accepted\nowner: ops\n---\n\n"
        "# Storage: files\n\n## Context\n\nWe write things down.\n")
    assert_clean(bank)


def test_root_relative_derived_from_is_stored_relative_to_the_file(tmp_path):
    bank = make_bank(tmp_path / "bank")
    create(bank, path="adr/ADR-001.md", doc_kind="adr", title="A", purpose="B", derived_from=["product/vision.md"])
    assert "  - ../product/vision.md\n" in read(bank, "adr/ADR-001.md")


def test_warnings_for_draft_without_edges_undeclared_values_and_near_duplicates(tmp_path):
    bank = make_bank(tmp_path / "bank")
    out = create(bank, path="product/vision-2.md", doc_kind="vision", title="Vision", status="draft",
                 purpose="Who the product serves and why.")
    text = " | ".join(out["warnings"])
    assert "no derived_from" in text
    assert "doc_kind `vision` is not declared" in text
    assert "near-duplicate: product/vision.md" in text


def test_external_derived_from_is_a_warning(tmp_path):
    bank = make_bank(tmp_path / "bank")
    out = create(bank, path="product/ext.md", doc_kind="product", title="Ext", purpose="Outside link.",
                 derived_from=["../../other-bank/x.md", "../dna/principles.md"], status="active")
    assert any("leaves the bank" in w for w in out["warnings"])


TEMPLATE = """---
title: ADR template
doc_kind: adr
doc_function: template
template_for: adr
template_target_path: adr/ADR-<NNN>-<slug>.md
purpose: Skeleton for decision records.
status: active
---
# ADR template

## Instantiated Frontmatter

```yaml
title: <title>
doc_kind: adr
doc_function: canonical
purpose: <purpose>
status: draft
decision_status: proposed
date: YYYY-MM-DD
reviewer: <who reviews>
```

## Instantiated Body

````markdown
# ADR-<NNN>: <title>

## Context

<What forces the decision.>

```text
a fenced example stays inside the body
```

## Decision

Decided on YYYY-MM-DD.
````
"""


def test_bank_template_supplies_defaults_body_and_dates(tmp_path):
    bank = make_bank(tmp_path / "bank", {"flows/templates/adr.md": TEMPLATE,
                                         "flows/templates/README.md": "---\ntitle: T\ndoc_function: index\n---\n"
                                         "- [ADR](adr.md)\n"})
    out = create(bank, path="adr/ADR-002.md", doc_kind="adr", title="Use SQLite", purpose="Why SQLite.",
                 derived_from=UP)
    assert out["template"] == "flows/templates/adr.md"
    text = read(bank, "adr/ADR-002.md")
    assert f"decision_status: proposed\ndate: {today()}\n# reviewer: <who reviews>\n---\n\n# Use SQLite\n" in text
    assert "```text\na fenced example stays inside the body\n```" in text
    assert f"Decided on {today()}." in text
    assert "title: <title>" not in text and "status: draft" in text
    assert any("placeholders left" in w and "<who reviews>" in w and "<What forces the decision.>" in w
               for w in out["warnings"])


def test_given_body_replaces_template_prose_with_a_warning(tmp_path):
    bank = make_bank(tmp_path / "bank", {"flows/templates/adr.md": TEMPLATE})
    out = create(bank, path="adr/ADR-002.md", doc_kind="adr", title="Use SQLite", purpose="Why SQLite.",
                 derived_from=UP, body="Short and sweet.")
    assert any("replaces the prose of template flows/templates/adr.md" in w for w in out["warnings"])
    assert read(bank, "adr/ADR-002.md").endswith("---\n\n# Use SQLite\n\nShort and sweet.\n")
    assert "decision_status: proposed" in read(bank, "adr/ADR-002.md")


def test_shipped_template_is_used_when_the_bank_has_none_and_the_banks_wins(tmp_path, monkeypatch):
    shipped = tmp_path / "shipped-flows"
    (shipped / "adr").mkdir(parents=True)
    (shipped / "adr" / "adr.md").write_text(TEMPLATE.replace("reviewer: <who reviews>", "origin: shipped"))
    monkeypatch.setattr(wtemplates, "asset_dir", lambda name: shipped)
    bank = make_bank(tmp_path / "bank")
    out = create(bank, path="adr/ADR-002.md", doc_kind="adr", title="A", purpose="B", derived_from=UP)
    assert out["template"] == "shipped:flows/adr/adr.md" and "origin: shipped" in read(bank, "adr/ADR-002.md")
    (bank.root / "flows/templates").mkdir(parents=True)
    (bank.root / "flows/templates/mine.md").write_text(TEMPLATE.replace("reviewer: <who reviews>", "origin: bank"))
    out = create(bank, path="adr/ADR-003.md", doc_kind="adr", title="C", purpose="D", derived_from=UP)
    assert out["template"] == "flows/templates/mine.md" and "origin: bank" in read(bank, "adr/ADR-003.md")


def test_inbox_mode_files_the_note_without_template_or_registration(tmp_path):
    bank = make_bank(tmp_path / "bank", {"flows/templates/adr.md": TEMPLATE})
    before = read(bank, "adr/README.md")
    out = create(bank, path="adr/idea.md", doc_kind="note", title="Idea", purpose="Maybe later.", inbox=True)
    assert out["path"] == "_inbox/idea.md" and out["template"] is None and out["registered_in"] is None
    assert out["files"] == [{"path": "_inbox/idea.md", "action": "create"}]
    assert read(bank, "adr/README.md") == before
    assert read(bank, "_inbox/idea.md").endswith("status: draft\n---\n\n# Idea\n")


def test_every_placeholder_of_a_shipped_template_is_named_even_over_several_lines(tmp_path):
    # The warning used to miss placeholders longer than 80 characters or spread over two lines.
    from memorybank.placeholder import placeholders

    bank = make_bank(tmp_path / "bank")
    out = create(bank, path="adr/ADR-009-cents.md", doc_kind="adr", title="Cents", purpose="Why cents.",
                 derived_from=UP)
    left = placeholders(read(bank, "adr/ADR-009-cents.md"))
    assert len(left) >= 4 and any(len(p) > 80 for p in left)
    warning = next(w for w in out["warnings"] if "left to fill" in w)
    assert warning.startswith(f"{len(left)} placeholders left to fill in adr/ADR-009-cents.md: ")
    assert len(warning) < 400  # long placeholders are shortened in the warning


def test_arrows_comparisons_and_closing_tags_are_not_placeholders():
    from memorybank.placeholder import placeholders

    assert placeholders("a <- b -> c; x < y > z; </div> <!-- c --> <br/> <b>bold</b>") == []
    assert placeholders("<what to do,\n  as one sentence>") == ["<what to do, as one sentence>"]
