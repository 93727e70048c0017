"""Bank statistics (`--stats`, §12): what the index holds and how long the refresh took."""

from __future__ import annotations

import os
from typing import Any

from .bank import Bank


def stats(bank: Bank) -> dict[str, Any]:
    """Counts over the fresh index. `refresh_ms` is the first (cold) build in this process."""
    result = bank.refresh()
    refresh_ms = bank.cold_ms or result.ms
    by_layer: dict[str, int] = {}
    by_kind: dict[str, int] = {}
    edges = with_fit = external = broken = index_links = 0
    total_bytes = 0
    for path in bank.paths:
        doc = bank.docs[path]
        total_bytes += doc.bytes
        by_layer[doc.layer] = by_layer.get(doc.layer, 0) + 1
        kind = doc.doc_kind or "(none)"
        by_kind[kind] = by_kind.get(kind, 0) + 1
        for edge in doc.derived_from:
            edges += 1
            with_fit += edge.fit is not None
            if edge.external:
                external += 1
            elif edge.target not in bank.docs and not os.path.exists(bank.root / edge.target):
                broken += 1
        if doc.is_index:
            index_links += len(doc.links)
    return {
        "root": str(bank.root),
        "documents": len(bank.docs),
        "bytes": total_bytes,
        "refresh_ms": round(refresh_ms, 2),
        "contract": bank.contract.as_dict() if bank.contract else None,
        "by_layer": dict(sorted(by_layer.items())),
        "by_doc_kind": dict(sorted(by_kind.items())),
        "edges": {"total": edges, "with_fit": with_fit, "external": external, "broken": broken},
        "canonical": {"keys": len(bank.owners), "conflicts": sum(1 for o in bank.owners.values() if len(o) > 1)},
        "index_links": index_links,
        "parse_errors": [p for p in bank.paths if bank.docs[p].parse_error],
        "no_frontmatter": [p for p in bank.paths if not bank.docs[p].has_frontmatter],
        "skipped": list(bank.skipped),
    }
