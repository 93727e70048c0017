"""Rule and recipe documents as delivery sources (§14.1): fields, scope globs, selection and rank.

Choices the SPEC leaves open:
- An active rule or recipe with any flaw of `rules.flaws` (no `do`, a placeholder left, a bad
  type, a guard that cannot run) is withheld as `incomplete-rule: <flaws>`, the same finding
  validate reports: no channel ever carries template text. Templates and `_inbox/` notes are never
  sources.
- `priority` is a whole number 1–5; numbers outside are clamped, anything else counts as 3.
  Recipes rank the same way (their `priority`, default 3).
- A recipe without `topic:` belongs to the topic `general`. Topics are grouped by their slug, so
  `API` and `api` are one topic.
- Anchors are relative to the git top-level (as for drift), or to the project folder outside git.
  A folder anchor (trailing `/` or an existing folder) scopes `folder/**`; a file anchor scopes
  itself. Anchor globs come first, then `applies_to:` globs, without repeats. Globs that would
  leave the project folder are dropped.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bank import Bank
from ..headings import normalize_heading, scan_text, section_bounds
from ..parse import text_list, text_of
from ..records import Doc
from ..rules import Check, checks, flaws, priority_number, withheld_reason
from .globs import clean_glob

SKELETON_LINES = 15
DEFAULT_PRIORITY = 3
DEFAULT_TOPIC = "general"
KINDS = ("rule", "recipe")
_SPACE = re.compile(r"\s+")
# A leading negation the `Do NOT` prefix replaces, in the languages banks are written in (en, ru, zh).
# Chinese has no spaces: a bare 不 or 别 also starts ordinary words (不安全 "unsafe", 不一致
# "inconsistent", 别名 "alias"), and stripping it there turned "Do NOT unsafe…" into "Do NOT safe…",
# so those compounds are kept whole. English words must end there: `No-op` is not `No`.
_DONT_PREFIX = re.compile(
    r"^(?:(?:don['’]t|do\s+not|never|avoid|not|no)(?![\w'’-])"
    r"|(?:никогда\s+не|не\s+надо|не\s+нужно|нельзя|не|нет|никаких|никогда|избегайте|избегать)(?=\s|$)"
    r"|不要|不得|不能|不可(?![变见靠信逆读写])|不许|不准|不应该|不应|不该|不用|不允许|严禁|请勿|切勿|禁止|避免|别(?![人名处的样称致])|勿|不(?![安必稳正同锈良当好合明足确完清规一兼对相透存公真可]))"
    r"[\s:,，：-]*", re.IGNORECASE)
_SLUG_DROP = re.compile(r"[^\w]+")
_FENCE_LINE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[ \t]*$")


@dataclass(frozen=True, slots=True)
class Source:
    """A rule or recipe ready for delivery. Text fields are single-line; `score` is the §14.1 rank."""

    kind: str
    path: str
    title: str
    status: str | None
    do: str | None
    dont: str | None
    why: str | None
    when: str | None
    scope: str | None
    topic: str
    priority: int
    score: float
    anchors: tuple[str, ...]
    globs: tuple[str, ...]
    checks: tuple[Check, ...]
    guard_line: int | None
    example: tuple[str, tuple[str, ...]] | None = None  # recipes: (language, skeleton lines)

    @property
    def topic_slug(self) -> str:
        return topic_slug(self.topic)


@dataclass(frozen=True, slots=True)
class Selection:
    """What delivery may use: active rules and recipes in rank order, and what was held back.

    `unfit` maps a path to `drifted` or `missing anchor`: such documents stay out of the always-on
    channels. `withheld` lists documents no channel gets (`not active`, `incomplete`).
    """

    rules: tuple[Source, ...]
    recipes: tuple[Source, ...]
    unfit: dict[str, str]
    withheld: tuple[dict[str, str], ...]


def one_line(value: Any) -> str | None:
    """A frontmatter scalar as one line of text (folded whitespace), or None."""
    text = text_of(value)
    if text is None:
        return None
    return _SPACE.sub(" ", text).strip() or None


def topic_slug(topic: str) -> str:
    """The file-name form of a topic: lowercase word characters joined by `-`.

    `rules` would collide with the always-on file, so it becomes `topic-rules`.
    """
    slug = _SLUG_DROP.sub("-", topic.lower()).strip("-_") or DEFAULT_TOPIC
    return "topic-rules" if slug == "rules" else slug


def sentence(text: str) -> str:
    """`text` ending with sentence punctuation."""
    return text if text[-1:] in ".!?。！？" else text + "."


def dont_clause(text: str) -> str:
    """`Don't call print()` → `call print()`, `No untested code` → `untested code`, `Не используйте` → `используйте`.

    The clause that follows `Do NOT`, with its own leading negation stripped so it is never doubled.
    """
    rest = _DONT_PREFIX.sub("", text).strip() or text
    if len(rest) > 1 and rest[0].isupper() and rest[1].islower():
        rest = rest[0].lower() + rest[1:]
    return rest


def _priority(value: Any) -> int:
    if isinstance(value, bool):
        return DEFAULT_PRIORITY
    value = priority_number(value)
    if isinstance(value, int):
        return min(5, max(1, value))
    return DEFAULT_PRIORITY


def scope_globs(doc: Doc, project: Path, anchor_base: Path) -> tuple[str, ...]:
    """Project-relative globs for a document: from `anchors:` (folder → `folder/**`), then `applies_to:`."""
    out: list[str] = []
    for raw in doc.anchors:
        text = raw.strip().replace("\\", "/")
        full = Path(os.path.normpath(anchor_base / text))
        rel = os.path.relpath(full, project).replace(os.sep, "/")
        if rel == ".." or rel.startswith("../"):
            continue
        if rel == ".":
            glob = "**"
        elif text.endswith("/") or full.is_dir():
            glob = rel + "/**"
        else:
            glob = rel
        if glob not in out:
            out.append(glob)
    for raw in text_list(doc.frontmatter.get("applies_to")):
        glob = clean_glob(raw)
        if glob and glob not in out:
            out.append(glob)
    return tuple(out)


def source_of(bank: Bank, doc: Doc, project: Path, anchor_base: Path) -> Source:
    """Read one rule or recipe document's delivery fields and its rank (§14.1)."""
    fm = doc.frontmatter
    globs = scope_globs(doc, project, anchor_base)
    priority = _priority(fm.get("priority"))
    in_degree = min(len(bank.incoming.get(doc.path, ())), 10)
    weight = bank.layer_weights.get(doc.layer, 1.0)
    score = priority * 20 + (10 if doc.status == "active" else 0) + in_degree * 2 + weight * 5
    is_rule = doc.doc_kind == "rule"
    return Source(
        kind=doc.doc_kind or "", path=doc.path, title=doc.title, status=doc.status,
        do=one_line(fm.get("do")), dont=one_line(fm.get("dont")), why=one_line(fm.get("why")),
        when=one_line(fm.get("when")), scope=one_line(fm.get("scope")) if is_rule else None,
        topic=(one_line(fm.get("topic")) or DEFAULT_TOPIC) if not is_rule else "",
        priority=priority, score=round(score, 2), anchors=doc.anchors, globs=globs,
        checks=checks(fm.get("guard"), globs) if is_rule else (), guard_line=doc.line_of("guard"),
        example=None if is_rule else skeleton(bank, doc),
    )


def rank_key(source: Source) -> tuple[float, str]:
    """Highest score first; ties by path."""
    return (-source.score, source.path)


def select(bank: Bank, project: Path, anchor_base: Path, threshold_days: int = 90) -> Selection:
    """Active rules and recipes in rank order, with drifted or missing-anchor documents marked unfit."""
    rules: list[Source] = []
    recipes: list[Source] = []
    withheld: list[dict[str, str]] = []
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.doc_kind not in KINDS or not doc.is_knowledge or doc.is_index:
            continue
        if doc.status != "active":
            withheld.append({"path": path, "kind": doc.doc_kind, "reason": "not active"})
            continue
        found = flaws(doc)
        if found:
            withheld.append({"path": path, "kind": doc.doc_kind, "reason": withheld_reason(found)})
            continue
        source = source_of(bank, doc, project, anchor_base)
        (rules if source.kind == "rule" else recipes).append(source)
    rules.sort(key=rank_key)
    recipes.sort(key=rank_key)
    unfit = _unfit(bank, {s.path: s.anchors for s in rules + recipes if s.anchors}, anchor_base, threshold_days)
    return Selection(tuple(rules), tuple(recipes), unfit, tuple(withheld))


def _unfit(bank: Bank, anchored: dict[str, tuple[str, ...]], anchor_base: Path,
           threshold_days: int = 90) -> dict[str, str]:
    """`{path: 'missing anchor' | 'drifted'}` for anchored sources.

    A missing anchor is seen on disk (so it counts outside git too); drift comes from the drift
    capability (§8.2).
    """
    if not anchored:
        return {}
    from ..drift import drift, repo_path

    out: dict[str, str] = {}
    for path, anchors in anchored.items():
        rels = [repo_path(anchor_base, a) for a in anchors]  # read as drift reads anchors
        if any(rel is None or (rel and not os.path.lexists(anchor_base / rel)) for rel in rels):
            out[path] = "missing anchor"
    report = drift(bank, threshold_days=threshold_days)
    for item in report.get("missing", ()):
        if item["path"] in anchored:
            out.setdefault(item["path"], "missing anchor")
    for item in report.get("drifted", ()):
        if item["path"] in anchored:
            out.setdefault(item["path"], "drifted")
    return out


def skeleton(bank: Bank, doc: Doc) -> tuple[str, tuple[str, ...]] | None:
    """`(language, lines)` of the first code block in a recipe's `## Example` section (≤ 15 lines)."""
    section = next((s for s in doc.sections if normalize_heading(s.title) == "example"), None)
    if section is None:
        return None
    first, last = section_bounds(doc.sections, section, doc.line_count)
    lines = bank.read_text(doc.path).split("\n")
    block = lines[first - 1:last]
    _, fences = scan_text("\n".join(block), first)
    if not fences:
        return None
    start, end = fences[0]
    opening = lines[start - 1].strip()
    language = opening.lstrip("`~").strip().split(" ")[0]
    closed = end > start and _FENCE_LINE.match(lines[end - 1].rstrip("\r")) is not None
    body = [line.rstrip("\r") for line in lines[start:end - 1 if closed else end]]
    while body and not body[-1].strip():
        body.pop()
    return language, tuple(body[:SKELETON_LINES])
