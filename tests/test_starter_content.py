"""The shipped content: `starter/` (what `--init` seeds) and `flows/` (the shipped templates).

These tests load the real folders with the core index, so a content edit that breaks the contract,
a template's wrapper format or the placeholder conventions the writers rely on fails here.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from memorybank.bank import Bank
from memorybank.parse import load_yaml, parse_document
from memorybank.paths import DEFAULT_LAYER_WEIGHTS, DEFAULT_LAYERS
from memorybank.validate import validate

REPO = Path(__file__).resolve().parent.parent
STARTER = REPO / "starter"
FLOWS = REPO / "flows"
PROJECT_PLACEHOLDER = "<project name>"
EMPTY_PREFIX = "_Empty"
ENTRY = re.compile(r"^- \[[^\]]+\]\([^)\s]+\.md\) — \S")
SECTION_INDEXES = ("product", "domain", "engineering", "ops", "adr", "use-cases", "features", "processes", "rules")
TEMPLATE_KINDS = {
    "adr", "prd", "use-case", "process", "prompt", "rule", "recipe",
    "feature", "design", "implementation-plan", "epic", "decision-log",
}
_OPEN_FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\w*)\s*$")


def _bank(folder: Path) -> Bank:
    bank = Bank(folder)
    bank.refresh()
    return bank


@pytest.fixture(scope="module")
def starter() -> Bank:
    return _bank(STARTER)


@pytest.fixture(scope="module")
def shipped() -> Bank:
    return _bank(FLOWS)


def _templates(shipped: Bank) -> list[str]:
    return [path for path in shipped.paths if path != "README.md"]


def _fence(text: str, heading: str) -> tuple[str, str]:
    """The info string and content of the first fenced block under `## heading` (CommonMark closing rule)."""
    lines = text.split("\n")
    start = lines.index(f"## {heading}")
    for i in range(start + 1, len(lines)):
        match = _OPEN_FENCE.match(lines[i])
        if match:
            run, info = match.groups()
            for j in range(i + 1, len(lines)):
                close = lines[j].strip()
                if close and set(close) == {run[0]} and len(close) >= len(run):
                    return info, "\n".join(lines[i + 1:j])
            raise AssertionError(f"fence under '## {heading}' is never closed")
        assert not lines[i].startswith("## "), f"no fenced block under '## {heading}'"
    raise AssertionError(f"no fenced block under '## {heading}'")


def _wrapper(shipped: Bank, path: str) -> tuple[dict, str]:
    text = (FLOWS / path).read_text(encoding="utf-8")
    info, yaml_text = _fence(text, "Instantiated Frontmatter")
    assert info == "yaml", path
    meta = load_yaml(yaml_text)
    assert isinstance(meta, dict), path
    info, body = _fence(text, "Instantiated Body")
    assert info == "markdown", path
    return meta, body


# --- starter/ -------------------------------------------------------------------------------------

def test_every_starter_document_parses_with_governed_frontmatter(starter):
    assert len(starter.docs) >= 25
    for path, doc in starter.docs.items():
        assert doc.parse_error is None, (path, doc.parse_error)
        for key in ("title", "doc_kind", "doc_function", "purpose", "status"):
            assert doc.frontmatter.get(key), (path, key)
        if path != "dna/principles.md":
            assert doc.derived_from, path
        assert doc.h1 == doc.title, path


def test_starter_contract_declares_root_rules_and_every_kind(starter):
    contract = starter.contract
    assert contract is not None
    assert contract.requires_derived_from and contract.forbids_cycles
    assert contract.roots == {"dna/principles.md"}
    assert not starter.docs["dna/principles.md"].derived_from
    kinds = contract.allowed("doc_kind")
    assert TEMPLATE_KINDS | {"rule", "recipe", "governance", "project", "product", "domain", "engineering", "ops",
                             "flow", "process", "prompt", "note"} <= kinds
    assert contract.allowed("doc_function") == {"canonical", "index", "template", "reference", "derived", "log"}
    assert contract.allowed("status") == {"draft", "active", "archived"}
    assert contract.allowed("delivery_status") == {"planned", "in_progress", "done", "cancelled"}
    assert contract.allowed("decision_status") == {"proposed", "accepted", "superseded", "rejected"}
    assert starter.owners["doc_kind_values"] == ["dna/governance.md"]


def test_starter_layer_table_restates_the_spec_defaults(starter):
    assert starter.contract.layer_issues == ()
    table = (STARTER / "dna/governance.md").read_text(encoding="utf-8")
    for folder in ("dna", "product", "domain", "engineering", "ops", "rules", "adr", "use-cases", "prd",
                   "features", "epics", "tasks", "flows", "processes", "prompts", "_inbox"):
        assert f"| `{folder}` |" in table, folder
        assert starter.layers.layer_map[folder] == DEFAULT_LAYERS[folder]
    assert dict(starter.layers.weights) == DEFAULT_LAYER_WEIGHTS


def test_starter_values_are_declared_and_keys_have_one_owner(starter):
    contract = starter.contract
    for path, doc in starter.docs.items():
        for name in ("doc_kind", "doc_function", "status", "delivery_status", "decision_status"):
            value = getattr(doc, name)
            assert value is None or value in contract.allowed(name), (path, name, value)
        assert not set(doc.canonical_for) & set(doc.must_not_define), path
    assert all(len(owners) == 1 for owners in starter.owners.values()), starter.owners


def test_root_index_carries_the_project_name_placeholder_and_nowhere_else(starter):
    root = starter.docs["README.md"]
    assert PROJECT_PLACEHOLDER in root.title and PROJECT_PLACEHOLDER in (root.h1 or "")
    others = [p for p in starter.paths if p != "README.md" and PROJECT_PLACEHOLDER in starter.read_text(p)]
    assert others == []


def test_root_index_registers_every_seeded_section_index(starter):
    linked = {link.target for link in starter.docs["README.md"].links}
    assert {f"{name}/README.md" for name in SECTION_INDEXES} | {"dna/README.md", "flows/README.md"} <= linked


def test_every_starter_document_is_registered_and_no_index_link_dangles(starter):
    for path, doc in starter.docs.items():
        if doc.is_index:
            for link in doc.links:
                assert link.target in starter.docs, (path, link.raw)
        else:
            assert starter.registered_in.get(path), path


def test_empty_indexes_hold_exactly_one_placeholder_and_others_one_bullet_style(starter):
    for path, doc in starter.docs.items():
        if not doc.is_index:
            continue
        lines = starter.read_text(path).split("\n")
        placeholders = [line for line in lines if line.startswith(EMPTY_PREFIX)]
        entries = [line for line in lines if line.startswith("- [")]
        if not doc.links:
            assert len(placeholders) == 1, path
        else:
            assert placeholders == [], path
            assert entries and all(ENTRY.match(line) for line in entries), path
            assert lines[lines.index(entries[-1]) + 1:] in ([], [""]), f"{path}: entries must end the file"


def test_starter_derivation_has_no_cycle(starter):
    seen: dict[str, int] = {}

    def walk(path: str, trail: tuple[str, ...]) -> None:
        seen[path] = 1
        for edge in starter.docs[path].derived_from:
            assert seen.get(edge.target) != 1, " -> ".join((*trail, edge.target))
            if edge.target in starter.docs and edge.target not in seen:
                walk(edge.target, (*trail, edge.target))
        seen[path] = 2

    for path in starter.paths:
        if path not in seen:
            walk(path, (path,))


def test_starter_drafts_to_fill_are_drafts_with_upstream(starter):
    for path in ("product/context.md", "engineering/testing-policy.md"):
        doc = starter.docs[path]
        assert doc.status == "draft" and doc.derived_from and doc.sections, path


def _seeded(tmp_path: Path) -> Path:
    """A copy of starter/ with the project name filled in, as `--init` would leave it."""
    root = tmp_path / "memory_bank"
    shutil.copytree(STARTER, root)
    readme = root / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace(PROJECT_PLACEHOLDER, "Acme Payments"),
                      encoding="utf-8")
    return root


def test_a_seeded_starter_validates_with_zero_findings(tmp_path):
    result = validate(_bank(_seeded(tmp_path)))
    assert result["findings"] == [] and result["summary"]["total"] == 0


def test_starter_with_materialised_templates_validates_with_zero_findings(tmp_path):
    """The shipped flows/README.md doubles as flows/templates/README.md, so a plain copy stays valid."""
    root = _seeded(tmp_path)
    shutil.copytree(FLOWS, root / "flows" / "templates", dirs_exist_ok=True)
    bank = _bank(root)
    assert sum(doc.is_template for doc in bank.docs.values()) == len(TEMPLATE_KINDS)
    assert validate(bank)["findings"] == []


# --- flows/ (shipped templates) -------------------------------------------------------------------

def test_every_shipped_template_has_the_wrapper_sections_with_parseable_yaml(shipped, starter):
    kinds = starter.contract.allowed("doc_kind")
    seen_kinds = set()
    for path in _templates(shipped):
        doc = shipped.docs[path]
        assert doc.parse_error is None, (path, doc.parse_error)
        assert doc.doc_function == "template" and doc.status == "active" and doc.title and doc.purpose, path
        kind = doc.frontmatter["template_for"]
        target = doc.frontmatter["template_target_path"]
        assert kind in kinds and kind not in seen_kinds, path
        seen_kinds.add(kind)
        assert target.endswith(".md") and starter.layers.layer_map.get(target.split("/", 1)[0]), (path, target)
        assert [s.title for s in doc.sections] == ["Instantiated Frontmatter", "Instantiated Body"], path
        meta, body = _wrapper(shipped, path)
        assert meta["doc_kind"] == kind, path
        assert meta["status"] == "draft" and meta["title"] == "<title>" and meta["purpose"].startswith("<"), path
        assert "derived_from" not in meta and "canonical_for" not in meta, path
        for name in ("doc_function", "status", "delivery_status", "decision_status"):
            assert name not in meta or meta[name] in starter.contract.allowed(name), (path, name)
        assert body.split("\n", 1)[0] == "# <title>", path
        assert re.search(r"^## \S", body, re.MULTILINE), path
    assert seen_kinds == TEMPLATE_KINDS


def test_rule_and_recipe_templates_carry_the_delivery_fields(shipped):
    rule, _ = _wrapper(shipped, "rule.md")
    assert {"do", "dont", "why", "scope", "applies_to"} <= set(rule) and rule["priority"] == 3
    assert "# guard:" in (FLOWS / "rule.md").read_text(encoding="utf-8")
    recipe, body = _wrapper(shipped, "recipe.md")
    assert {"when", "do", "dont", "why", "topic"} <= set(recipe)
    example = body.split("## Example", 1)[1]
    assert re.search(r"^```\w*\n.+?\n```$", example, re.MULTILINE | re.DOTALL)


def test_shipped_readme_indexes_every_template(shipped):
    readme = shipped.docs["README.md"]
    assert readme.doc_function == "index"
    assert {link.target for link in readme.links} == set(_templates(shipped))


def test_instantiated_templates_parse_as_documents(shipped):
    """Fill each template the simple way a writer would; the result parses and carries no link or rule reference."""
    for path in _templates(shipped):
        meta, body = _wrapper(shipped, path)
        target = shipped.docs[path].frontmatter["template_target_path"]
        target = target.replace("NNN", "001").replace("<slug>", "example")
        text = (FLOWS / path).read_text(encoding="utf-8")
        yaml_text = _fence(text, "Instantiated Frontmatter")[1]
        yaml_text = yaml_text.replace("<title>", "Example").replace("YYYY-MM-DD", "2024-05-01")
        data = f"---\n{yaml_text}\n---\n\n{body.replace('<title>', 'Example')}\n".encode()
        doc = parse_document(target, data)
        assert doc.parse_error is None, (path, doc.parse_error)
        assert doc.title == doc.h1 == "Example" and doc.doc_kind == meta["doc_kind"], path
        assert not doc.links and not doc.rule_refs, path
