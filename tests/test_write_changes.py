"""bank_edit, bank_update_section, bank_set_status, bank_set_field, bank_set_list (§10.2–§10.6)."""

from __future__ import annotations

import pytest
from writekit import assert_clean, diff_lines, make_bank, read, refused

from memorybank.writers import create, edit, set_field, set_list, set_status, update_section

UP = ["dna/principles.md"]
V = "product/vision.md"

TEMPLATE_DOC = ("---\ntitle: T\ndoc_kind: adr\ndoc_function: template\npurpose: A template.\nstatus: active\n---\n"
                "# T\n\n## Body\n\ntext\n")


@pytest.fixture
def bank(tmp_path):
    return make_bank(tmp_path / "bank", {"flows/templates/t.md": TEMPLATE_DOC,
                                         "flows/templates/README.md": "---\ntitle: Templates\ndoc_function: index\n"
                                         "---\n- [T](t.md)\n"})


# -- edit -----------------------------------------------------------------------------------------

def test_edit_replaces_one_occurrence_and_returns_context(bank):
    before = read(bank, V)
    out = edit(bank, path=V, find="Fewer surprises.", replace="Fewer surprises, more calm.")
    assert out["changed"] and out["line"] == 20 and "Fewer surprises, more calm." in out["context"]
    removed, added = diff_lines(before, read(bank, V))
    assert removed == ["Fewer surprises."] and added == ["Fewer surprises, more calm."]
    assert_clean(bank)


def test_edit_cannot_reach_the_frontmatter(bank):
    refused(bank, lambda: edit(bank, path=V, find="status: active", replace="status: draft"),
            "(find)", "no match", "bank_read")


def test_edit_refuses_several_matches_and_a_section_narrows_it(bank):
    refused(bank, lambda: edit(bank, path=V, find="## ", replace="## X "), "(find)", "occurs 2 times", "section")
    out = edit(bank, path=V, find="Teams", replace="People", section="audience")
    assert out["changed"] and "People that write things down." in read(bank, V)
    refused(bank, lambda: edit(bank, path=V, find="Fewer", replace="Less", section="audience"),
            'no match for "Fewer"', 'in section "Audience"')


def test_edit_refuses_templates(bank):
    refused(bank, lambda: edit(bank, path="flows/templates/t.md", find="text", replace="x"), "(template)")


def test_edit_missing_section_lists_the_headings(bank):
    refused(bank, lambda: edit(bank, path=V, find="x", replace="y", section="nope"), "Available: Audience | Goals")


# -- update_section ---------------------------------------------------------------------------------

def test_update_section_replaces_only_that_section(bank):
    before = read(bank, V)
    out = update_section(bank, path=V, section="Audience", content="\n\nEveryone who ships.  \n\n\n")
    assert out["changed"] and out["section"] == "Audience"
    after = read(bank, V)
    assert after == before.replace("Teams that write things down.", "Everyone who ships.  ")
    assert_clean(bank)


def test_update_section_append_and_last_section(bank):
    update_section(bank, path=V, section="goals", content="More calm.", mode="append")
    assert read(bank, V).endswith("## Goals\n\nFewer surprises.\n\nMore calm.\n")


def test_update_section_refusals(bank):
    refused(bank, lambda: update_section(bank, path=V, section="Missing", content="x"),
            'Section "Missing" not found', "Available: Audience | Goals")
    refused(bank, lambda: update_section(bank, path=V, section="Goals"), "(content)", "neither")
    refused(bank, lambda: update_section(bank, path=V, section="Goals", content="x", mode="prepend"), "(mode)")
    refused(bank, lambda: update_section(bank, path=V, section="Goals", content="x", content_file="f"), "both")


def test_update_section_reads_content_file(bank, tmp_path):
    source = tmp_path / "c.md"
    source.write_text("From a file.\n")
    update_section(bank, path=V, section="Goals", content_file=str(source))
    assert read(bank, V).endswith("## Goals\n\nFrom a file.\n")


# -- set_status ------------------------------------------------------------------------------------

def test_set_status_same_value_changes_nothing(bank):
    out = set_status(bank, path=V, status="active")
    assert out["changed"] is False and out["files"] == []


def test_archiving_an_owner_needs_release_canonical(bank):
    refused(bank, lambda: set_status(bank, path=V, status="archived"), "(canonical_for)", "still owns audience",
            "release_canonical")
    before = read(bank, V)
    out = set_status(bank, path=V, status="archived", release_canonical=True)
    assert out["released"] == ["audience"]
    removed, added = diff_lines(before, read(bank, V))
    assert removed == ["canonical_for:", "  - audience", "status: active"] and added == ["status: archived"]
    assert_clean(bank)


def test_activation_gates(bank):
    create(bank, path="product/loose.md", doc_kind="product", title="Loose", purpose="No upstream yet.")
    refused(bank, lambda: set_status(bank, path="product/loose.md", status="active"),
            "(derived_from)", "no derived_from")
    create(bank, path="product/twin.md", doc_kind="product", title="Twin", purpose="Shares a key.",
           derived_from=UP)
    # a hand edit made two owners; activation must refuse
    twin = bank.root / "product/twin.md"
    twin.write_text(twin.read_text().replace("status: draft", "canonical_for:\n  - audience\nstatus: draft"))
    refused(bank, lambda: set_status(bank, path="product/twin.md", status="active"),
            "(canonical_for)", "already owned by product/vision.md")
    twin.write_text(twin.read_text().replace("  - ../dna/principles.md", "  - ../gone.md")
                    .replace("canonical_for:\n  - audience\n", ""))
    refused(bank, lambda: set_status(bank, path="product/twin.md", status="active"),
            "(derived_from)", "../gone.md, which does not exist")


def test_set_status_refuses_inbox_templates_and_undeclared_values(bank):
    create(bank, path="n.md", doc_kind="note", title="N", purpose="A note.", inbox=True)
    refused(bank, lambda: set_status(bank, path="_inbox/n.md", status="active"), "(status)", "bank_promote")
    refused(bank, lambda: set_status(bank, path="flows/templates/t.md", status="draft"), "(template)")
    refused(bank, lambda: set_status(bank, path=V, status="done"), "(status)", "archived, draft")


def test_root_is_exempt_from_the_derived_from_gate(bank):
    set_status(bank, path="dna/principles.md", status="draft")
    out = set_status(bank, path="dna/principles.md", status="active")
    assert out["changed"]


# -- set_field ----------------------------------------------------------------------------------------

QUOTED = """---
title: Quoted
doc_kind: product
doc_function: canonical
purpose: 'Single quoted purpose.'
owner: "Double quoted"
team: plain team
review_on: 2024-05-06
derived_from:
  - ../dna/principles.md
status: active
---
# Quoted
"""


@pytest.mark.parametrize("field,value,line", [
    ("owner", "Someone else", 'owner: "Someone else"'),
    ("team", "platform crew", "team: platform crew"),
    ("review_on", "2025-01-31", "review_on: 2025-01-31"),
    ("team", "ops: on call", "team: 'ops: on call'"),
    ("delivery_status", "in_progress", "delivery_status: in_progress"),
])
def test_set_field_changes_exactly_one_line_with_the_right_quoting(tmp_path, field, value, line):
    bank = make_bank(tmp_path / "bank", {"product/quoted.md": QUOTED,
                                         "product/README.md": "---\ntitle: P\ndoc_function: index\n---\n"
                                         "- [Quoted](quoted.md)\n- [Vision](vision.md)\n"})
    out = set_field(bank, path="product/quoted.md", field=field, value=value)
    assert out["changed"] and out["value"] == value
    removed, added = diff_lines(QUOTED, read(bank, "product/quoted.md"))
    assert len(added) == 1 and added == [line] and len(removed) <= 1
    if field == "review_on":
        bank.refresh()
        assert bank.docs["product/quoted.md"].frontmatter["review_on"].isoformat() == value  # still a date
    assert_clean(bank)


def test_set_field_keeps_single_quotes_for_purpose_and_updates_index_entries(tmp_path):
    bank = make_bank(tmp_path / "bank")
    create(bank, path="adr/ADR-001.md", doc_kind="adr", title="Old title", purpose="Old purpose.", derived_from=UP,
           body="# Old title\n\nBody.")
    index_before = read(bank, "adr/README.md")
    out = set_field(bank, path="adr/ADR-001.md", field="purpose", value="New purpose.")
    assert out["indexes"] == ["adr/README.md"]
    assert diff_lines(index_before, read(bank, "adr/README.md")) == (
        ["- [Old title](ADR-001.md) — Old purpose."], ["- [Old title](ADR-001.md) — New purpose."])
    out = set_field(bank, path="adr/ADR-001.md", field="title", value="New title")
    text = read(bank, "adr/ADR-001.md")
    assert "title: New title\n" in text and "\n# New title\n" in text and "# Old title" not in text
    assert "- [New title](ADR-001.md) — New purpose." in read(bank, "adr/README.md")
    assert_clean(bank)


@pytest.mark.parametrize("field,value,fragment", [
    ("status", "draft", "bank_set_status"),
    ("doc_kind", "rule", "Create a new document"),
    ("doc_function", "index", "Create a new document"),
    ("derived_from", "x.md", "bank_set_list"),
    ("canonical_for", "k", "bank_set_list"),
    ("anchors", "src/", "bank_set_list"),
    ("purpose", "two\nlines", "one line"),
    ("purpose", "   ", "is empty"),
    ("delivery_status", "shipped", "Use one of: done, in_progress, planned"),
    ("decision_status", "maybe", "Use one of: accepted, proposed, superseded"),
])
def test_set_field_refusals(bank, field, value, fragment):
    refused(bank, lambda: set_field(bank, path=V, field=field, value=value), fragment)


def test_set_field_same_value_is_a_no_op(bank):
    out = set_field(bank, path=V, field="purpose", value="Who the product serves and why.")
    assert out["changed"] is False and out["files"] == []


# -- set_list ---------------------------------------------------------------------------------------

def test_set_list_adds_and_removes_with_the_create_gates(bank):
    create(bank, path="product/pricing.md", doc_kind="product", title="Pricing", purpose="What it costs.",
           derived_from=UP, status="active")
    before = read(bank, "product/pricing.md")
    out = set_list(bank, path="product/pricing.md", field="derived_from", add=["product/vision.md"])
    assert out["added"] == ["vision.md"] and out["items"] == ["../dna/principles.md", "vision.md"]
    assert diff_lines(before, read(bank, "product/pricing.md")) == ([], ["  - vision.md"])
    set_list(bank, path="product/pricing.md", field="canonical_for", add=["price", "currency"])
    set_list(bank, path="product/pricing.md", field="anchors", add=["src/pricing/"])
    set_list(bank, path="product/pricing.md", field="must_not_define", add=["audience"])
    out = set_list(bank, path="product/pricing.md", field="derived_from", remove=["dna/principles.md"])
    assert out["removed"] == ["../dna/principles.md"] and out["items"] == ["vision.md"]
    assert_clean(bank)
    refused(bank, lambda: set_list(bank, path="product/pricing.md", field="derived_from", remove=["vision.md"]),
            "(derived_from)", "would have no derived_from left")
    refused(bank, lambda: set_list(bank, path="product/pricing.md", field="derived_from", add=["nope.md"]),
            "nope.md does not resolve")
    refused(bank, lambda: set_list(bank, path="product/pricing.md", field="canonical_for", add=["audience"]),
            "already owned by product/vision.md")
    refused(bank, lambda: set_list(bank, path="product/pricing.md", field="canonical_for", remove=["nope"]),
            "nope is not in canonical_for", "price, currency")
    refused(bank, lambda: set_list(bank, path="product/pricing.md", field="must_not_define", add=["price"]),
            "both in canonical_for and must_not_define")
    refused(bank, lambda: set_list(bank, path=V, field="derived_from", add=["product/pricing.md"]),
            "would close a cycle", "product/vision.md -> product/pricing.md -> product/vision.md")
    refused(bank, lambda: set_list(bank, path=V, field="tags", add=["x"]), "not a governed list")
    refused(bank, lambda: set_list(bank, path=V, field="anchors"), "nothing to add or remove")


def test_set_list_adding_a_present_item_is_a_warning_and_no_write(bank):
    out = set_list(bank, path=V, field="canonical_for", add=["audience"])
    assert out["changed"] is False and out["files"] == [] and "already in canonical_for" in out["warnings"][0]


def test_set_field_repairs_an_unquoted_colon_and_the_bank_validates_again(tmp_path):
    broken = ("---\ntitle: Broken\ndoc_kind: product\ndoc_function: canonical\npurpose: Read this: it breaks\n"
              "derived_from:\n  - ../dna/principles.md\nstatus: active\n---\n# Broken\n")
    bank = make_bank(tmp_path / "bank", {"product/broken.md": broken,
                                         "product/README.md": "---\ntitle: P\ndoc_function: index\n---\n"
                                         "- [Broken](broken.md)\n- [Vision](vision.md)\n"})
    out = set_field(bank, path="product/broken.md", field="purpose", value="Read this: it works")
    assert diff_lines(broken, read(bank, "product/broken.md")) == (
        ["purpose: Read this: it breaks"], ["purpose: 'Read this: it works'"])
    assert out["changed"]
    assert_clean(bank)
