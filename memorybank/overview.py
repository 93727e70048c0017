"""The bank at a glance: every document's header (the index an agent reads first) and the frontmatter rules.

Served as the `memorybank://index` and `memorybank://schema/frontmatter` resources and as the CLI's
`index` and `schema` commands.
"""

from __future__ import annotations

from typing import Any

from .bank import Bank


def index(bank: Bank) -> dict[str, Any]:
    """Every non-template document outside the inbox, compact: `{documents: [{path, title, …}], count}`."""
    bank.refresh()
    docs = []
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.is_template or doc.in_inbox:
            continue
        item: dict[str, Any] = {"path": path, "title": doc.title}
        for key in ("purpose", "doc_kind", "layer", "status"):
            value = getattr(doc, key)
            if value:
                item[key] = value
        if doc.canonical_for:
            item["canonical_for"] = list(doc.canonical_for)
        docs.append(item)
    return {"documents": docs, "count": len(docs)}


def schema(bank: Bank) -> dict[str, Any]:
    """The bank's frontmatter rules: `{source, text}` — dna/frontmatter.md as written, else where the contract lives."""
    bank.refresh()
    if bank.contract is None:
        return {"source": None,
                "text": "This bank has no dna/ folder, so no contract: fields are free-form (degraded mode)."}
    if "dna/frontmatter.md" in bank.docs:
        return {"source": "dna/frontmatter.md", "text": bank.read_text("dna/frontmatter.md")}
    if not bank.contract.sources:
        return {"source": None,
                "text": "This bank's dna/ declares no fields (no value tables), so fields are free-form."}
    return {"source": None, "text": "This bank declares no dna/frontmatter.md; its contract lives in: "
            + ", ".join(bank.contract.sources)}
