"""Validation (§9): the fifteen rules a bank is held to, from its own contract and its structure."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator
from typing import Any

from .assets import shipped_template_names
from .bank import PROJECT_MARKERS, Bank
from .contract import ENUM_FIELDS
from .errors import BankError
from .paths import nearest_index
from .records import Doc, Finding
from .rules import FINDING, finding_message, flaws, judged

RULES: tuple[tuple[str, str], ...] = (
    ("invalid-frontmatter", "error"),
    ("broken-derived-from", "error"),
    ("missing-derived-from", "error"),
    ("cycle-in-derived-from", "error"),
    ("ssot-conflict", "error"),
    ("must-not-define-violated", "error"),
    ("dangling-index-entry", "error"),
    ("incomplete-rule", "error"),
    ("unregistered-doc", "warning"),
    ("unresolved-rule-reference", "warning"),
    ("unknown-enum-value", "warning"),
    ("unknown-layer-value", "warning"),
    ("no-contract", "warning"),
    ("root-looks-like-project", "warning"),
    ("document-over-limit", "warning"),
)
SEVERITY = dict(RULES)
_ORDER = {name: i for i, (name, _) in enumerate(RULES)}


def _exists(bank: Bank, path: str) -> bool:
    return path in bank.docs or os.path.exists(bank.root / path)


def _invalid_frontmatter(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        doc = bank.docs[path]
        if not doc.parse_error:
            continue
        if doc.has_frontmatter and "-character limit" in doc.parse_error:
            message = (f"{doc.parse_error[0].upper()}{doc.parse_error[1:]}. "
                       "Keep the header short: move long lists into the body, or split the document.")
        elif doc.has_frontmatter and "UTF-8" not in doc.parse_error and "NUL" not in doc.parse_error:
            message = (f"Frontmatter YAML does not parse ({doc.parse_error}); values were recovered line by line. "
                       "Quote values that contain `: ` (e.g. purpose: \"a: b\").")
        else:
            error = doc.parse_error.rstrip(".?!")
            message = f"{error[0].upper()}{error[1:]}. Re-save the file as UTF-8 text."
            if "never closed" in doc.parse_error:
                message = f"{error[0].upper()}{error[1:]}. Add the closing `---` line."
        yield Finding("error", "invalid-frontmatter", path, message, doc.error_line)


def _broken_derived_from(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        for edge in bank.docs[path].derived_from:
            if not edge.external and not _exists(bank, edge.target):
                yield Finding("error", "broken-derived-from", path,
                              f"derived_from `{edge.raw}` resolves to {edge.target}, which does not exist. "
                              "Fix the path (it is relative to this file's folder) or remove the edge.",
                              edge.line)


def _missing_derived_from(bank: Bank) -> Iterator[Finding]:
    if bank.contract is None or not bank.contract.requires_derived_from:
        return
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.status == "active" and not doc.derived_from and not doc.is_template and not bank.is_root(path):
            yield Finding("error", "missing-derived-from", path,
                          "Active document without derived_from; the contract requires one. "
                          "Add the upstream document(s) it builds on, or set status to draft.",
                          doc.line_of("status"))


def _cycles(bank: Bank) -> Iterator[Finding]:
    if bank.contract is None or not bank.contract.forbids_cycles:
        return
    graph = {p: sorted({e.target for e in bank.docs[p].derived_from if e.target in bank.docs}) for p in bank.paths}
    for component in _strongly_connected(graph):
        nodes = set(component)
        start = min(component)
        if len(component) == 1 and start not in graph[start]:
            continue
        cycle = _cycle_through(graph, nodes, start)
        text = " -> ".join(cycle + [start])
        doc = bank.docs[start]
        line = next((e.line for e in doc.derived_from if e.target == (cycle[1] if len(cycle) > 1 else start)), None)
        yield Finding("error", "cycle-in-derived-from", start,
                      f"derived_from cycle: {text}. Remove one edge so authority flows one way.", line)


def _strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (banks can be deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    item = stack.pop()
                    on_stack.discard(item)
                    component.append(item)
                    if item == node:
                        break
                out.append(sorted(component))
    return out


def _cycle_through(graph: dict[str, list[str]], nodes: set[str], start: str) -> list[str]:
    """A shortest cycle from `start` back to itself inside one component (BFS, sorted neighbours)."""
    parent: dict[str, str] = {}
    queue = [start]
    seen = {start}
    for node in queue:
        for child in graph[node]:
            if child not in nodes:
                continue
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return list(reversed(path))
            if child not in seen:
                seen.add(child)
                parent[child] = node
                queue.append(child)
    return [start]


def _ssot(bank: Bank) -> Iterator[Finding]:
    for key in sorted(bank.owners):
        owners = bank.owners[key]
        for path in owners[1:]:
            doc = bank.docs[path]
            yield Finding("error", "ssot-conflict", path,
                          f"canonical_for `{key}` is also owned by {owners[0]}. One fact, one home: "
                          "remove the key from one of them (or archive one with release_canonical).",
                          doc.line_of("canonical_for"))


def _must_not_define(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        doc = bank.docs[path]
        for key in sorted(set(doc.canonical_for) & set(doc.must_not_define)):
            yield Finding("error", "must-not-define-violated", path,
                          f"`{key}` is in both canonical_for and must_not_define. Keep it in only one.",
                          doc.line_of("canonical_for"))


def _dangling(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        doc = bank.docs[path]
        if not doc.is_index:
            continue
        for link in doc.links:
            if not link.external and not _exists(bank, link.target):
                yield Finding("error", "dangling-index-entry", path,
                              f"Index links `{link.raw}` ({link.target}), which does not exist. "
                              "Fix the link or remove the entry.", link.line)


def _unregistered(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.is_index or doc.in_inbox or bank.registered_in.get(path):
            continue
        index = nearest_index(path, lambda candidate: candidate in bank.docs) or "README.md"
        yield Finding("warning", "unregistered-doc", path,
                      f"No index links to this document. Add an entry to {index} (a created document is "
                      "registered automatically).", None, see=("create",))


def _resolves(bank: Bank, doc: Doc, raw: str) -> bool:
    """Whether a claimed path names something: relative, root-relative, beside the bank, or by name."""
    raw = raw.split("#", 1)[0]
    if "/" not in raw:
        if any(p.rpartition("/")[2] == raw for p in bank.paths) or raw in shipped_template_names():
            return True
    candidates = [posixpath.normpath(posixpath.join(doc.folder, raw)), posixpath.normpath(raw.lstrip("/"))]
    prefix = bank.root.name + "/"
    if raw.startswith(prefix):
        candidates.append(posixpath.normpath(raw[len(prefix):]))
    for candidate in candidates:
        if candidate.startswith("../"):
            if os.path.exists(os.path.normpath(bank.root / candidate)):
                return True
            continue
        if _exists(bank, candidate) or os.path.exists(bank.root.parent / candidate):
            return True
    return False


def _rule_refs(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.is_template:
            continue
        for ref in doc.rule_refs:
            if not _resolves(bank, doc, ref.raw):
                yield Finding("warning", "unresolved-rule-reference", path,
                              f"Prose says a rule lives in `{ref.raw}`, which resolves to nothing. "
                              "Fix the path or reword the reference.", ref.line)


def _enums(bank: Bank) -> Iterator[Finding]:
    contract = bank.contract
    if contract is None:
        return
    for path in bank.paths:
        doc = bank.docs[path]
        for name in ENUM_FIELDS:
            value = getattr(doc, name)
            allowed = contract.allowed(name)
            if value is None or not allowed or value in allowed:
                continue
            shown = ", ".join(sorted(allowed))
            yield Finding("warning", "unknown-enum-value", path,
                          f"{name} `{value}` is not declared in dna/ (allowed: {shown}). "
                          "Use a declared value or declare it in a dna table.", doc.line_of(name))


def _layers(bank: Bank) -> Iterator[Finding]:
    if bank.contract is None:
        return
    for issue in bank.contract.layer_issues:
        yield Finding("warning", "unknown-layer-value", issue.path,
                      f"Layer table names layer `{issue.layer}`, which does not exist "
                      "(dna, knowledge, decision, delivery, flow, inbox, other); the row is ignored. "
                      "Use one of those.", issue.line)


def _no_contract(bank: Bank) -> Iterator[Finding]:
    if bank.contract is None:
        yield Finding("warning", "no-contract", "dna/",
                      "The bank has no dna/ documents, so no contract: only structural checks ran. "
                      "Seed a new bank with the starter set, or add dna/ documents.", see=("init",))


def _over_limit(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        note = bank.docs[path].limit_note
        if note:
            yield Finding("warning", "document-over-limit", path,
                          f"Not fully indexed: {note}. Split the document into smaller ones to index all of it.")


def _incomplete_rules(bank: Bank) -> Iterator[Finding]:
    for path in bank.paths:
        doc = bank.docs[path]
        if not judged(doc):
            continue
        for flaw in flaws(doc):
            yield Finding("error", FINDING, path, finding_message(flaw), doc.line_of(flaw.field))


def _project_root(bank: Bank) -> Iterator[Finding]:
    marker = next((m for m in PROJECT_MARKERS if (bank.root / m).is_file()), None)
    if marker is not None:
        yield Finding("warning", "root-looks-like-project", marker,
                      f"The bank root holds {marker}, so it looks like a project folder rather than a bank: every "
                      "markdown file of the project is indexed. Use the bank folder as root (e.g. ./memory_bank).")


_CHECKS = (_invalid_frontmatter, _broken_derived_from, _missing_derived_from, _cycles, _ssot, _must_not_define,
           _dangling, _incomplete_rules, _unregistered, _rule_refs, _enums, _layers, _no_contract,
           _project_root, _over_limit)


def findings(bank: Bank) -> list[Finding]:
    """Every finding, ordered by rule (table order), then path, then line. The bank must be fresh."""
    found = [f for check in _CHECKS for f in check(bank)]
    found.sort(key=lambda f: (_ORDER[f.rule], f.path, f.line or 0))
    return found


def validate(bank: Bank, scope: str | None = None, severity: str | None = None,
             rule: str | None = None, limit: int | None = None) -> dict[str, Any]:
    """Run every rule; filter by folder `scope`, `severity` and `rule`; return findings and a summary.

    With `limit`, only the first `limit` findings are listed (`truncated` says so); the summary
    always counts them all.
    """
    bank.refresh()
    if severity is not None and severity not in ("error", "warning"):
        raise BankError(f'Unknown severity "{severity}". Use "error" or "warning".', param="severity")
    if rule is not None and rule not in SEVERITY:
        raise BankError(f'Unknown rule "{rule}". Rules: {", ".join(SEVERITY)}.', param="rule")
    within = bank.scope(scope)
    selected = [f for f in findings(bank)
                if (severity is None or f.severity == severity)
                and (rule is None or f.rule == rule)
                and bank.in_scope(f.path, within)]
    by_rule: dict[str, int] = {}
    for finding in selected:
        by_rule[finding.rule] = by_rule.get(finding.rule, 0) + 1
    errors = sum(1 for f in selected if f.severity == "error")
    out: dict[str, Any] = {
        "findings": [f.as_dict() for f in selected[:limit]],
        "summary": {"total": len(selected), "errors": errors, "warnings": len(selected) - errors, "by_rule": by_rule}}
    if limit is not None and len(selected) > limit:
        out["truncated"] = f"first {limit} of {len(selected)} findings; narrow with scope, rule or severity"
    return out


AGENT_LIMIT = 100


def validate_for_agents(bank: Bank, scope: str | None = None, severity: str | None = None,
                        rule: str | None = None) -> dict[str, Any]:
    """`validate` as the MCP tool and the health resource serve it: at most 100 findings listed.

    A bank with thousands of findings would otherwise answer with megabytes; the summary still
    counts every finding, and the filters narrow the list.
    """
    return validate(bank, scope=scope, severity=severity, rule=rule, limit=AGENT_LIMIT)
