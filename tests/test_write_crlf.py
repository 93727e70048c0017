"""A CRLF bank stays CRLF after every writer; a BOM stays in place."""

from __future__ import annotations

from writekit import assert_clean, make_bank, read

from memorybank.writers import (
    create,
    discard,
    edit,
    promote,
    set_field,
    set_list,
    set_status,
    update_section,
)

UP = ["dna/principles.md"]


def bare_lf_files(root) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.md")):
        data = path.read_bytes()
        if b"\n" in data.replace(b"\r\n", b""):
            out.append(path.relative_to(root).as_posix())
    return out


def test_every_writer_keeps_crlf(tmp_path):
    bank = make_bank(tmp_path / "bank", crlf=True)
    steps = [
        lambda: create(bank, path="adr/ADR-001.md", doc_kind="adr", title="A", purpose="Alpha.", derived_from=UP,
                       body="## Context\n\nLine one.\nLine two.\n"),
        lambda: create(bank, path="epics/EP-1.md", doc_kind="epic", title="E", purpose="Epic.", derived_from=UP),
        lambda: edit(bank, path="adr/ADR-001.md", find="Line one.\nLine two.", replace="Line 1.\nLine 2.\nLine 3."),
        lambda: update_section(bank, path="product/vision.md", section="Goals", content="A\n\nB\n"),
        lambda: update_section(bank, path="product/vision.md", section="Audience", content="C", mode="append"),
        lambda: set_field(bank, path="product/vision.md", field="purpose", value="Who it serves: everyone."),
        lambda: set_field(bank, path="product/vision.md", field="title", value="Vision 2"),
        lambda: set_list(bank, path="adr/ADR-001.md", field="canonical_for", add=["storage"]),
        lambda: set_list(bank, path="adr/ADR-001.md", field="derived_from", add=["product/vision.md"]),
        lambda: set_status(bank, path="adr/ADR-001.md", status="archived", release_canonical=True),
        lambda: create(bank, path="n1.md", doc_kind="note", title="N1", purpose="One.", inbox=True),
        lambda: create(bank, path="n2.md", doc_kind="note", title="N2", purpose="Two.", inbox=True),
        lambda: promote(bank, path="_inbox/n1.md", to="product/n1.md", doc_kind="product", derived_from=UP),
        lambda: discard(bank, path="_inbox/n2.md", reason="Not needed."),
    ]
    for step in steps:
        step()
        assert bare_lf_files(bank.root) == []
    assert "Line 1.\r\nLine 2.\r\nLine 3." in read(bank, "adr/ADR-001.md")
    assert_clean(bank)


def test_bom_is_kept_by_edits(tmp_path):
    bank = make_bank(tmp_path / "bank")
    target = bank.root / "product/vision.md"
    target.write_bytes(b"\xef\xbb\xbf" + target.read_bytes())
    set_field(bank, path="product/vision.md", field="purpose", value="With a BOM.")
    edit(bank, path="product/vision.md", find="Fewer surprises.", replace="None.")
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\n") and b"purpose: With a BOM.\n" in data and b"None." in data
