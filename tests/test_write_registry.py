"""Index registration keeps hand-written index formatting: one added line, in the last entry's style."""

from __future__ import annotations

import pytest
from writekit import diff_lines, make_bank, read

from memorybank.writers import create

DERIVED = ["dna/principles.md"]


def index(title: str, body: str, kind: str = "product") -> str:
    return (f"---\ntitle: {title}\ndoc_kind: {kind}\ndoc_function: index\npurpose: Index of {title}.\n"
            f"derived_from:\n  - ../README.md\nstatus: active\n---\n# {title}\n\n{body}")


def doc(title: str, purpose: str, kind: str = "product") -> str:
    return (f"---\ntitle: {title}\ndoc_kind: {kind}\ndoc_function: canonical\npurpose: {purpose}\n"
            f"derived_from:\n  - ../dna/principles.md\nstatus: active\n---\n# {title}\n")


STYLES = {
    "bullet": ("product/README.md", None, "- [New doc](new.md) — Why the new doc exists."),
    "numbered": ("rules/README.md", index("Rules", "1. [Alpha](alpha.md): First rule.\n2. [Beta](beta.md): Second.\n\n"
                                           "See also the lint setup.\n", "rule"),
                 "3. [New doc](new.md): Why the new doc exists."),
    "table": ("ops/README.md", index("Ops", "| Document | Purpose | Kind |\n|---|---|---|\n"
                                     "| [Alpha](alpha.md) | Alpha purpose. | `product` |\n\nAfter the table.\n"),
              "| [New doc](new.md) | Why the new doc exists. |  |"),
    "backticked": ("domain/README.md", index("Domain", "- [`domain/alpha.md`](alpha.md) — Alpha purpose.\n"),
                   "- [`domain/new.md`](new.md) — Why the new doc exists."),
}


@pytest.mark.parametrize("style", sorted(STYLES))
def test_registration_adds_exactly_one_line_in_the_last_entrys_style(tmp_path, style):
    index_path, index_text, expected = STYLES[style]
    folder = index_path.split("/")[0]
    extra = {f"{folder}/alpha.md": doc("Alpha", "Alpha purpose."), f"{folder}/beta.md": doc("Beta", "Second.")}
    if index_text:
        extra[index_path] = index_text
    bank = make_bank(tmp_path, extra)
    before = read(bank, index_path)
    out = create(bank, path=f"{folder}/new.md", doc_kind="product", title="New doc",
                 purpose="Why the new doc exists.", derived_from=DERIVED)
    assert out["registered_in"] == index_path
    removed, added = diff_lines(before, read(bank, index_path))
    assert removed == [] and added == [expected]
    lines = read(bank, index_path).splitlines()
    assert lines[lines.index(expected) - 1].startswith(("- [", "2. [", "| [")), "entry goes right after the last one"


def test_first_registration_swaps_the_empty_placeholder(tmp_path):
    bank = make_bank(tmp_path)
    before = read(bank, "adr/README.md")
    create(bank, path="adr/ADR-001.md", doc_kind="adr", title="ADR-001 Use files", purpose="Why files.",
           derived_from=DERIVED)
    removed, added = diff_lines(before, read(bank, "adr/README.md"))
    assert removed == ["_Empty — the first decision is listed here._"]
    assert added == ["- [ADR-001 Use files](ADR-001.md) — Why files."]


def test_placeholder_inside_a_table_becomes_a_row(tmp_path):
    text = index("Ops", "| Document | Purpose |\n|---|---|\n| _Empty_ | |\n")
    bank = make_bank(tmp_path, {"ops/README.md": text})
    create(bank, path="ops/run.md", doc_kind="product", title="Runbook", purpose="How to run it.",
           derived_from=DERIVED)
    removed, added = diff_lines(text, read(bank, "ops/README.md"))
    assert removed == ["| _Empty_ | |"] and added == ["| [Runbook](run.md) | How to run it. |"]


def test_continuation_style_entries_get_a_continuation_line(tmp_path):
    text = index("Ops", "- [`alpha.md`](alpha.md)\n  Read when alpha.\n\n- [`beta.md`](beta.md)\n  Read when beta.\n")
    bank = make_bank(tmp_path, {"ops/README.md": text, "ops/alpha.md": doc("Alpha", "A."),
                                "ops/beta.md": doc("Beta", "B.")})
    create(bank, path="ops/gamma.md", doc_kind="product", title="Gamma", purpose="Read when gamma.",
           derived_from=DERIVED)
    assert read(bank, "ops/README.md").endswith("  Read when beta.\n\n- [`gamma.md`](gamma.md)\n  Read when gamma.\n")


def test_the_list_whose_links_look_alike_wins_over_a_later_table(tmp_path):
    root = (
        "---\ntitle: Root\ndoc_kind: project\ndoc_function: index\npurpose: Root.\nderived_from:\n"
        "  - dna/principles.md\nstatus: active\n---\n# Root\n\n"
        "- [`adr/README.md`](adr/README.md) — decisions\n- [`product/README.md`](product/README.md) — product\n\n"
        "## Routes\n\n| Task | Route |\n|---|---|\n| Decide | [adr/README.md](adr/README.md) |\n"
    )
    bank = make_bank(tmp_path, {"README.md": root})
    out = create(bank, path="epics/EP-1/charter.md", doc_kind="epic", title="Epic one", purpose="The first epic.",
                 derived_from=DERIVED)
    assert out["created_index"] == "epics/README.md" and out["registered_in"] == "epics/README.md"
    removed, added = diff_lines(root, read(bank, "README.md"))
    assert removed == [] and added == [
        "- [`epics/README.md`](epics/README.md) — Read when you need the list of documents in epics/."]
    assert read(bank, "README.md").index("epics/README.md") < read(bank, "README.md").index("## Routes")
    section = read(bank, "epics/README.md")
    assert "doc_function: index" in section and "  - ../README.md" in section
    assert section.rstrip().endswith("- [Epic one](EP-1/charter.md) — The first epic.")


def test_a_document_is_never_registered_twice(tmp_path):
    text = index("Ops", "- [Later](later.md) — listed before it exists.\n")
    bank = make_bank(tmp_path, {"ops/README.md": text})
    out = create(bank, path="ops/later.md", doc_kind="product", title="Later", purpose="Now it exists.",
                 derived_from=DERIVED)
    assert out["registered_in"] is None
    assert read(bank, "ops/README.md") == text


def test_nearest_index_is_an_ancestor_when_the_folder_has_none(tmp_path):
    bank = make_bank(tmp_path)
    out = create(bank, path="product/deep/er/spec.md", doc_kind="product", title="Deep spec", purpose="Deep.",
                 derived_from=DERIVED)
    assert out["registered_in"] == "product/README.md" and out["created_index"] is None
    assert "- [Deep spec](deep/er/spec.md) — Deep." in read(bank, "product/README.md")


def test_an_unknown_folder_without_index_registers_in_the_root(tmp_path):
    bank = make_bank(tmp_path)
    out = create(bank, path="misc/thing.md", doc_kind="product", title="Thing", purpose="A thing.",
                 derived_from=DERIVED)
    assert out["registered_in"] == "README.md" and out["created_index"] is None
    assert "- [`misc/thing.md`](misc/thing.md) — A thing." in read(bank, "README.md")
