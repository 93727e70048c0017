"""The contract a bank declares about itself in `dna/` (§3): enums, governance phrases, roots, layers."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from .frozen import Value, assign
from .paths import DEFAULT_LAYER_WEIGHTS, DEFAULT_LAYERS, LAYERS, resolve_from
from .regexes import compiled

ENUM_FIELDS = ("doc_kind", "doc_function", "status", "delivery_status", "decision_status")
_TYPE_WORDS = frozenset({"enum", "string", "array", "object", "md", "yaml", "true", "false"})
_TICKED = compiled(r"`([^`]*)`")
_IDENT = compiled(r"^[a-z][a-z0-9_-]*$")
_SEPARATOR = compiled(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_REQUIRES = compiled(r"must\s+define\s+`?derived_from`?", re.IGNORECASE)
_CYCLES = compiled(r"(?:cyclic\s+dependencies|cycles)\s+are\s+forbidden", re.IGNORECASE)
_ROOT = compiled(
    r"root\s+document\s+is\s+(?:\[`?([^`\]\s]+\.md)`?\]\([^)]*\)|`([^`\s]+\.md)`|\[([^\]\s]+\.md)\]|([\w./-]+\.md))",
    re.IGNORECASE)


class LayerIssue(Value):
    """A layer-table row naming a layer that does not exist."""

    path: str
    line: int
    layer: str

    __slots__ = ("path", "line", "layer")

    def __init__(self, path: str, line: int, layer: str) -> None:
        assign(self, "path", path)
        assign(self, "line", line)
        assign(self, "layer", layer)


class Contract(Value):
    """What `dna/` declares. `None` in place of a Contract means degraded mode (no dna/)."""

    sources: tuple[str, ...]
    enums: Mapping[str, frozenset[str]]
    requires_derived_from: bool
    forbids_cycles: bool
    roots: frozenset[str]
    layer_issues: tuple[LayerIssue, ...]

    __slots__ = ("sources", "enums", "requires_derived_from", "forbids_cycles", "roots", "layer_issues")

    def __init__(
        self, sources: tuple[str, ...], enums: Mapping[str, frozenset[str]], requires_derived_from: bool,
        forbids_cycles: bool, roots: frozenset[str], layer_issues: tuple[LayerIssue, ...] = ()
    ) -> None:
        assign(self, "sources", sources)
        assign(self, "enums", enums)
        assign(self, "requires_derived_from", requires_derived_from)
        assign(self, "forbids_cycles", forbids_cycles)
        assign(self, "roots", roots)
        assign(self, "layer_issues", layer_issues)

    def allowed(self, field_name: str) -> frozenset[str]:
        return self.enums.get(field_name, frozenset())

    def as_dict(self) -> dict:
        return {
            "sources": list(self.sources),
            **{name: sorted(self.allowed(name)) for name in ("doc_kind", "doc_function", "status")},
            "roots": sorted(self.roots),
            "requires_derived_from": self.requires_derived_from,
            "forbids_cycles": self.forbids_cycles,
        }


class LayerTable(Value):
    """Folder → layer map and per-layer route weights, defaults overridden by dna rows."""

    layer_map: Mapping[str, str]
    weights: Mapping[str, float]

    __slots__ = ("layer_map", "weights")

    def __init__(self, layer_map: Mapping[str, str] | None = None, weights: Mapping[str, float] | None = None) -> None:
        assign(self, "layer_map", dict(DEFAULT_LAYERS) if layer_map is None else layer_map)
        assign(self, "weights", dict(DEFAULT_LAYER_WEIGHTS) if weights is None else weights)


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [cell.strip() for cell in body.split("|")]


def _plain(cell: str) -> str:
    return cell.replace("`", "").strip().lower()


def _values(cells: list[str], name: str) -> set[str]:
    out = set()
    for cell in cells:
        for token in _TICKED.findall(cell):
            token = token.strip()
            if _IDENT.match(token) and token not in _TYPE_WORDS and token != name:
                out.add(token)
    return out


def _tables(lines: list[str]):
    """Yield `(header cells, [(line number, cells), ...])` for every pipe table with a separator row."""
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|") and i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1].strip()) \
                and "-" in lines[i + 1]:
            header = _cells(lines[i])
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                rows.append((j + 1, _cells(lines[j])))
                j += 1
            yield header, rows
            i = j
        else:
            i += 1


def build_contract(dna_texts: Mapping[str, str], existing: Collection[str]) -> Contract | None:
    """Read the contract from the text of every `dna/**.md` document; None when there are none."""
    if not dna_texts:
        return None
    enums: dict[str, set[str]] = {name: set() for name in ENUM_FIELDS}
    sources: set[str] = set()
    requires = cycles = False
    roots: set[str] = set()
    for path in sorted(dna_texts):
        text = dna_texts[path]
        lines = text.split("\n")
        for line in lines:
            if line.lstrip().startswith("|"):
                cells = _cells(line)
                if len(cells) >= 2:
                    name = _plain(cells[0])
                    if name in enums:
                        found = _values(cells[1:], name)
                        if found:
                            enums[name] |= found
                            sources.add(path)
        for header, rows in _tables(lines):
            names = [_plain(cell) for cell in header]
            for col, name in enumerate(names):
                if name in enums:
                    for _, cells in rows:
                        if col < len(cells):
                            found = _values([cells[col]], name)
                            if found:
                                enums[name] |= found
                                sources.add(path)
        if _REQUIRES.search(text):
            requires = True
            sources.add(path)
        if _CYCLES.search(text):
            cycles = True
            sources.add(path)
        for match in _ROOT.finditer(text):
            raw = next(g for g in match.groups() if g)
            if raw.startswith("dna/"):
                target = raw
            else:
                target, external = resolve_from(path, raw)
                if external:
                    continue
            roots.add(target)
            sources.add(path)
    if not roots and "dna/principles.md" in existing:
        roots.add("dna/principles.md")
    layer_rows, issues = _layer_rows(dna_texts)
    sources.update(row[0] for row in layer_rows)
    sources.update(issue.path for issue in issues)
    return Contract(
        sources=tuple(sorted(sources)),
        enums={name: frozenset(values) for name, values in enums.items()},
        requires_derived_from=requires,
        forbids_cycles=cycles,
        roots=frozenset(roots),
        layer_issues=tuple(issues),
    )


LayerRow = tuple[str, list[str], str, float | None]  # (dna path, folders, layer, weight)


def _layer_rows(dna_texts: Mapping[str, str]) -> tuple[list[LayerRow], list[LayerIssue]]:
    rows_out: list[LayerRow] = []
    issues: list[LayerIssue] = []
    for path in sorted(dna_texts):
        for header, rows in _tables(dna_texts[path].split("\n")):
            names = [_plain(cell) for cell in header]
            folder_col = next((i for i, n in enumerate(names) if n in ("directory", "section", "folder")), None)
            layer_col = next((i for i, n in enumerate(names) if n == "layer"), None)
            if folder_col is None or layer_col is None:
                continue
            weight_col = next((i for i, n in enumerate(names) if n == "weight"), None)
            for line, cells in rows:
                if max(folder_col, layer_col) >= len(cells):
                    continue
                layer = _plain(cells[layer_col])
                if not layer:
                    continue
                if layer not in LAYERS:
                    issues.append(LayerIssue(path=path, line=line, layer=layer))
                    continue
                folders = [f.strip().strip("/") for f in cells[folder_col].replace("`", "").split(",")]
                weight = None
                if weight_col is not None and weight_col < len(cells):
                    try:
                        weight = float(cells[weight_col].replace("`", "").strip())
                    except ValueError:
                        weight = None
                rows_out.append((path, [f for f in folders if f], layer, weight))
    return rows_out, issues


def build_layers(dna_texts: Mapping[str, str]) -> LayerTable:
    """The layer map and weights: defaults, overridden row by row by dna layer tables."""
    layer_map = dict(DEFAULT_LAYERS)
    weights = dict(DEFAULT_LAYER_WEIGHTS)
    for _, folders, layer, weight in _layer_rows(dna_texts)[0]:
        for folder in folders:
            layer_map[folder.split("/", 1)[0]] = layer
        if weight is not None:
            weights[layer] = weight
    return LayerTable(layer_map=layer_map, weights=weights)
