"""`bank_graph` (§8.1): breadth-first over `derived_from` (its text, Mermaid and DOT renderers are in `render`).

Edges always point the way `derived_from` does: `{from: A, to: B}` means A derives from B (B is
upstream). `up` follows edges forwards (what the document builds on), `down` follows them backwards
(what depends on it — its blast radius). `both` is the union of the two walks, not an undirected
walk: a node reached going up is only expanded upwards, a node reached going down only downwards, so
siblings and cousins are not pulled in. `via` is the node a node was first reached from (None for
the root). Nodes are listed by depth, then path; edges by (from, to).
"""

from __future__ import annotations

import os
import posixpath
from collections import Counter, deque

from .bank import Bank
from .errors import BankError
from .parse import parse_document, split_frontmatter
from .records import Doc

DIRECTIONS = ("up", "down", "both")
MAX_DEPTH = 6
MAX_NEIGHBOURS = 25
MAX_FOLDERS_ABOVE = 3
_HEADER_BYTES = 64 * 1024


def graph(bank: Bank, path: str, direction: str = "down", depth: int = 2, limit: int = 60,
          neighbours: bool = True) -> dict:
    """Walk `derived_from` from one document; returns the §8.1 dict.

    `limit` counts the root; when a new node would exceed it the node (and its edge) is left out and
    `truncated` is true. Edges between nodes already in the graph are still recorded, so a cycle
    shows as a closed loop. `external` and `broken` list the up-edges of visited nodes that leave
    the root or point at no document (only up-walks look at a node's own `derived_from`).
    """
    bank.refresh()
    if direction not in DIRECTIONS:
        raise BankError(f"Unknown direction: {direction!r}. Use one of: up, down, both.", param="direction")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise BankError(f"depth must be a whole number from 1 to {MAX_DEPTH} (got {depth!r}).")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise BankError(f"limit must be a whole number of at least 1 (got {limit!r}).")
    root = bank.doc(path)

    nodes: dict[str, dict] = {root.path: _node(root, 0, None)}
    edges: dict[tuple[str, str], str | None] = {}
    external: dict[tuple[str, str], str | None] = {}
    broken: dict[tuple[str, str], str | None] = {}
    truncated = False
    walks = ("up", "down") if direction == "both" else (direction,)
    seen = {walk: {root.path} for walk in walks}
    queue: deque[tuple[str, int, str]] = deque((root.path, 0, walk) for walk in walks)

    while queue:
        current, level, walk = queue.popleft()
        if level >= depth:
            continue
        for neighbour, edge_from, edge_to, fit in _steps(bank, current, walk, external, broken):
            if neighbour not in nodes:
                if len(nodes) >= limit:
                    truncated = True
                    continue
                nodes[neighbour] = _node(bank.docs[neighbour], level + 1, current)
            edges.setdefault((edge_from, edge_to), fit)
            if neighbour not in seen[walk]:
                seen[walk].add(neighbour)
                queue.append((neighbour, level + 1, walk))

    ordered = sorted(nodes.values(), key=lambda n: (n["depth"], n["path"]))
    result = {
        "root": root.path,
        "direction": direction,
        "depth": depth,
        "nodes": ordered,
        "edges": [_edge(a, b, fit) for (a, b), fit in sorted(edges.items())],
        "external": [_edge(a, b, fit) for (a, b), fit in sorted(external.items())],
        "broken": [_edge(a, b, fit) for (a, b), fit in sorted(broken.items())],
        "by_layer": dict(sorted(Counter(n["layer"] for n in ordered).items())),
        "truncated": truncated,
        "neighbours": _neighbours(bank, sorted({b for _, b in external})) if neighbours else [],
    }
    return result


def _steps(bank: Bank, current: str, walk: str, external: dict, broken: dict):
    """Yield `(neighbour, from, to, fit)` one hop from `current`; record external/broken up-edges."""
    if walk == "up":
        for edge in bank.docs[current].derived_from:
            if edge.external:
                external.setdefault((current, edge.target), edge.fit)
            elif edge.target not in bank.docs:
                broken.setdefault((current, edge.target), edge.fit)
            elif edge.target != current:
                yield edge.target, current, edge.target, edge.fit
        return
    for child in bank.incoming.get(current, ()):
        if child == current:
            continue
        fit = next((e.fit for e in bank.docs[child].derived_from if e.target == current), None)
        yield child, child, current, fit


def _node(doc: Doc, depth: int, via: str | None) -> dict:
    return {"path": doc.path, "title": doc.title, "doc_kind": doc.doc_kind, "layer": doc.layer,
            "status": doc.status, "depth": depth, "via": via}


def _edge(source: str, target: str, fit: str | None) -> dict:
    out = {"from": source, "to": target}
    if fit is not None:
        out["fit"] = fit
    return out


def _neighbours(bank: Bank, targets: list[str]) -> list[dict]:
    """Header facts of external targets, one hop out, never their edges (§8.1)."""
    out = []
    for target in targets[:MAX_NEIGHBOURS]:
        out.append(_read_neighbour(bank, target))
    return out


def _read_neighbour(bank: Bank, target: str) -> dict:
    """Read only the frontmatter header of an external document; a note says why when it can't."""
    above = 0
    for part in target.split("/"):
        if part != "..":
            break
        above += 1
    entry: dict = {"path": target}
    if above > MAX_FOLDERS_ABOVE:
        entry["note"] = f"not read: more than {MAX_FOLDERS_ABOVE} folders above the bank root"
        return entry
    full = os.path.normpath(os.path.join(bank.root, target))
    try:
        with open(full, "rb") as handle:
            head = _header_bytes(handle.read(_HEADER_BYTES))
    except FileNotFoundError:
        entry["note"] = "no such file"
        return entry
    except IsADirectoryError:
        entry["note"] = "a folder, not a document"
        return entry
    except OSError as exc:
        entry["note"] = f"unreadable: {exc.strerror or exc}"
        return entry
    doc = parse_document(posixpath.basename(target), head)
    entry.update({"title": doc.title, "doc_kind": doc.doc_kind, "status": doc.status, "purpose": doc.purpose,
                  "canonical_for": list(doc.canonical_for)})
    return entry


def _header_bytes(data: bytes) -> bytes:
    """The frontmatter block of a file's first bytes (empty when it has none): the body is never parsed."""
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    lines = text.split("\n")
    close, _ = split_frontmatter([line.rstrip("\r") for line in lines])
    if close is None:
        return b""
    return "\n".join(lines[: close + 1]).encode("utf-8") + b"\n"
