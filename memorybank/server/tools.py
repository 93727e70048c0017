"""The tool table (§11.1): names, groups, schemas, descriptions, and which capability each calls.

No MCP import here: the server, `--surface` and the tests read this table. Each tool is a thin
adapter — its arguments, validated against the schema, are passed as keyword arguments to the
capability named by `target` (`module:function`), whose parameter names match the schema's.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

GROUPS = ("find", "check", "change", "create", "init")


@dataclass(frozen=True)
class Tool:
    name: str
    group: str
    description: str
    schema: dict[str, Any]
    target: str
    read_only: bool = False
    destructive: bool = False

    def capability(self):
        module, _, func = self.target.partition(":")
        return getattr(importlib.import_module(f"memorybank.{module}"), func)


def _s(desc: str, **kw: Any) -> dict[str, Any]:
    return {"type": "string", "description": desc, **kw}


def _i(desc: str, default: int, lo: int, hi: int) -> dict[str, Any]:
    return {"type": "integer", "description": desc, "default": default, "minimum": lo, "maximum": hi}


def _b(desc: str, default: bool = False) -> dict[str, Any]:
    return {"type": "boolean", "description": desc, "default": default}


def _a(desc: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": desc}


def _obj(required: list[str], **props: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


DRY = _b("No write.")
VER = _s("If-Match.")
PATH = _s("Bank path.")
FILTERS = {"doc_kind": _s("Only this doc_kind."), "layer": _s("Only this layer."),
           "status": _s("Only this status.")}

TOOLS: tuple[Tool, ...] = (
    Tool("bank_route", "find",
         "Rank documents for a question by metadata and body text. Call before opening bank files; "
         "ask as the user asked, any language.",
         _obj(["question"], question=_s("As asked."),
              limit=_i("Max results.", 5, 1, 25), **FILTERS), "route:route", read_only=True),
    Tool("bank_search", "find",
         "Full-text search of bodies for a literal (identifier, error text); gives path, line, excerpt.",
         _obj(["query"], query=_s("Literal or words."),
              limit=_i("Max results.", 10, 1, 50), **FILTERS), "search:search", read_only=True),
    Tool("bank_read", "find",
         "Read a body, one ## section or a line range; a list reads a batch within 40,000 bytes. "
         "Its version: writers' base_version.",
         _obj(["path"],
              path={"description": "Path, or list of paths / {path, section}.",
                    "anyOf": [{"type": "string"},
                              {"type": "array", "minItems": 1, "items": {"anyOf": [
                                  {"type": "string"},
                                  {"type": "object", "additionalProperties": False,  # no path: lands in `failed`
                                   "properties": {"path": {"type": "string"}, "section": {"type": "string"}}}]}}]},
              section=_s("One ## section (name or part)."),
              lines=_s("e.g. 40-80."),
              max_bytes=_i("Batch byte budget.", 40000, 1, 40000)), "read:read", read_only=True),
    Tool("bank_graph", "find",
         "Walk derived_from: up (what it rests on), down (what rests on it) or both.",
         _obj(["path"], path=PATH,
              direction=_s("Walk direction.", enum=["up", "down", "both"], default="down"),
              depth=_i("Hops.", 2, 1, 6), limit=_i("Max nodes.", 60, 1, 500),
              neighbours=_b("Read external headers.", True)), "graph:graph", read_only=True),
    Tool("bank_changed", "find", "Documents added, modified, renamed or deleted since a ref or date.",
         _obj(["since"], since=_s("Git ref or ISO date.")),
         "changed:changed", read_only=True),
    Tool("bank_validate", "check", "Check the bank against its dna/ rules; each finding names its fix (≤100).",
         _obj([], scope=_s("Only this folder."), severity=_s("Only this severity.", enum=["error", "warning"]),
              rule=_s("Only this rule.")), "validate:validate_for_agents", read_only=True),
    Tool("bank_drift", "check",
         "Documents whose anchored code changed after them (git); with files, documents covering them.",
         _obj([], threshold_days=_i("Lag tolerated.", 90, 0, 36500), scope=_s("Only this folder."),
              files=_a("Repo-relative files.")), "drift:drift", read_only=True),
    Tool("bank_guard", "check",
         "Check changed code against rule guards; violations carry the rule's do/don't.",
         _obj([], files=_a("Repo-relative files."), staged=_b("Only staged files."),
              changed_lines=_b("Only changed lines.")),
         "guard:guard", read_only=True),
    Tool("bank_edit", "change", "Replace one exact occurrence of text in a body.",
         _obj(["path", "find", "replace"], path=PATH, find=_s("Exact text, unique."),
              replace=_s("New text."), section=_s("Within this section."), dry_run=DRY, base_version=VER),
         "writers:edit"),
    Tool("bank_update_section", "change", "Replace or append to one ## section's content.",
         _obj(["path", "section"], path=PATH, section=_s("Its name."),
              content=_s("Without the heading."),
              content_file=_s("Or a file."),
              mode=_s("Mode.", enum=["replace", "append"], default="replace"), dry_run=DRY,
              base_version=VER),
         "writers:update_section"),
    Tool("bank_set_status", "change", "Change lifecycle status, running its gates.",
         _obj(["path", "status"], path=PATH, status=_s("New status."),
              release_canonical=_b("Archiving: drop canonical_for."), dry_run=DRY, base_version=VER),
         "writers:set_status"),
    Tool("bank_set_field", "change",
         "Set one scalar frontmatter field (not status, kinds, lists); indexes follow title/purpose.",
         _obj(["path", "field", "value"], path=PATH, field=_s("Field name."),
              value=_s("One line."), dry_run=DRY, base_version=VER), "writers:set_field"),
    Tool("bank_set_list", "change", "Add/remove governed list items, with the create gates.",
         _obj(["path", "field"], path=PATH,
              field=_s("List field.", enum=["derived_from", "canonical_for", "must_not_define", "anchors"]),
              add=_a("Items to add."), remove=_a("Items to remove."), dry_run=DRY, base_version=VER),
         "writers:set_list"),
    Tool("bank_review", "change", "Stamp reviewed: today after checking a document against its code; clears drift.",
         _obj(["path"], path=PATH, dry_run=DRY), "writers:review"),
    Tool("bank_create", "create",
         "Create a document from its template and index it; inbox:true files an _inbox note.",
         _obj(["path", "doc_kind", "title", "purpose"], path=_s("New path."),
              doc_kind=_s("Kind."), title=_s("Title."),
              purpose=_s("When to read."),
              derived_from=_a("Upstream paths."),
              canonical_for=_a("Keys owned."), must_not_define=_a("Keys not owned."),
              anchors=_a("Code paths."), status=_s("Status.", default="draft"),
              body=_s("Body."), body_file=_s("Body file."),
              extra={"type": "object", "description": "Other fields."},
              inbox=_b("To _inbox/."), dry_run=DRY), "writers:create"),
    Tool("bank_promote", "create", "Move an _inbox note into the bank; only when the user asks.",
         _obj(["path", "to"], path=_s("The note."), to=_s("Destination."),
              doc_kind=_s("Kind."), title=_s("Title."), purpose=_s("Purpose."),
              derived_from=_a("Upstream paths."), canonical_for=_a("Keys it owns."),
              status=_s("Status.", default="active"), dry_run=DRY), "writers:promote"),
    Tool("bank_discard", "create", "Delete an _inbox note, recording why; only when the user asks.",
         _obj(["path", "reason"], path=_s("The note."), reason=_s("Why."),
              dry_run=DRY), "writers:discard", destructive=True),
    Tool("bank_materialize_flows", "create", "Copy shipped templates to flows/templates/ for editing.",
         _obj([], force=_b("Overwrite the bank's copies.")), "writers:materialize_flows"),
    Tool("bank_init", "init", "Create the bank from the starter governance set.",
         _obj(["name"], name=_s("Project name."), force=_b("Add missing starter files."),
              dry_run=DRY), "writers:init"),
)
BY_NAME = {tool.name: tool for tool in TOOLS}


def parse_groups(spec: str | None) -> tuple[str, ...]:
    """`--tools find,check` → the allowed groups; None → all; an empty string → none."""
    if spec is None:
        return GROUPS
    groups = tuple(g.strip() for g in spec.split(",") if g.strip())
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise ValueError(f"unknown tool group {', '.join(unknown)}; groups: {', '.join(GROUPS)}")
    return groups
