"""Templates for bank_create: the bank's own `flows/templates/` first, then the shipped `flows/` set.

A template is a wrapper document (`doc_function: template`) whose `## Instantiated Frontmatter`
section holds a yaml fence and whose `## Instantiated Body` section holds a markdown fence. A
template without those sections is used as-is: its own frontmatter (template keys dropped) and body.
"""

from __future__ import annotations

import datetime as _dt
import functools
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..assets import asset_dir
from ..bank import Bank
from ..headings import normalize_heading, scan_headings
from ..parse import load_yaml, parse_document
from ..records import TEMPLATE_FOLDER

TEMPLATE_KEYS = ("template_for", "template_target_path")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_DATE = re.compile(r"<?YYYY-MM-DD>?")
BANK_TEMPLATES = TEMPLATE_FOLDER


@dataclass(frozen=True)
class Template:
    """An instantiable template: where it came from and its raw wrapper parts."""

    source: str  # bank path, or `shipped:flows/<path>`
    template_for: str | None
    folder: str  # the folder the template file sits in (its last segment)
    stem: str
    target_path: str | None
    file: Path  # read only when the template is chosen

    @property
    def text(self) -> str:
        return self.file.read_bytes().decode("utf-8", errors="replace").lstrip("\ufeff")


def today() -> str:
    """Today's date in UTC, ISO form: what `YYYY-MM-DD` placeholders become."""
    return _dt.datetime.now(_dt.timezone.utc).date().isoformat()


@functools.lru_cache(maxsize=256)
def _shipped_file(path: str, mtime_ns: int) -> Template | None:
    data = Path(path).read_bytes()
    rel = Path(path).relative_to(asset_dir("flows")).as_posix()
    doc = parse_document("flows/" + rel, data)
    if not doc.is_template:
        return None
    return Template(f"shipped:flows/{rel}", doc.frontmatter.get("template_for"), posixpath.basename(doc.folder),
                    rel.rpartition("/")[2][:-3], doc.frontmatter.get("template_target_path"), Path(path))


@functools.lru_cache(maxsize=4)
def _shipped_listing(base: str) -> tuple[Template, ...]:
    out = []
    for path in sorted(Path(base).rglob("*.md")):
        found = _shipped_file(str(path), path.stat().st_mtime_ns)
        if found is not None:
            out.append(found)
    return tuple(out)


def shipped_templates() -> list[Template]:
    """Every template in the shipped `flows/` set, sorted by path (read once per process: it ships)."""
    try:
        base = asset_dir("flows")
    except FileNotFoundError:
        return []
    return list(_shipped_listing(str(base)))


def bank_templates(bank: Bank) -> list[Template]:
    out = []
    for path in bank.paths:
        if not path.startswith(BANK_TEMPLATES):
            continue
        doc = bank.docs[path]
        if not doc.is_template:
            continue
        out.append(Template(path, doc.frontmatter.get("template_for"), posixpath.basename(doc.folder),
                            path.rpartition("/")[2][:-3], doc.frontmatter.get("template_target_path"),
                            bank.root / path))
    return out


def _pattern_matches(pattern: Any, target: str) -> bool:
    if not isinstance(pattern, str) or not pattern.strip():
        return False
    parts = re.split(r"(<[^<>]*>|YYYY-MM-DD|N{2,})", pattern.strip())
    rx = "".join("[^/]+" if i % 2 else re.escape(p) for i, p in enumerate(parts))
    return re.fullmatch(rx, target) is not None


def _choose(templates: list[Template], doc_kind: str, target: str) -> Template | None:
    top = target.partition("/")[0] if "/" in target else ""
    stem = target.rpartition("/")[2][:-3]
    for matches in (lambda t: t.template_for == doc_kind, lambda t: t.folder == doc_kind,
                    lambda t: bool(top) and t.folder == top):
        found = [t for t in templates if matches(t)]
        if found:
            found.sort(key=lambda t: (t.stem != stem, not _pattern_matches(t.target_path, target), t.source))
            return found[0]
    return None


def find_template(bank: Bank, doc_kind: str, target: str) -> Template | None:
    """The template for a new document: bank's own first (by template_for, then folder name), then shipped."""
    return _choose(bank_templates(bank), doc_kind, target) or _choose(shipped_templates(), doc_kind, target)


def _fenced_block(lines: list[str], start: int, end: int) -> str | None:
    """Content of the first fenced code block between line indexes `start` and `end`."""
    for index in range(start, end):
        marker = _FENCE_OPEN.match(lines[index])
        if not marker:
            continue
        run = marker.group(1)
        body = []
        for inner in range(index + 1, len(lines)):
            line = lines[inner]
            close = _FENCE_OPEN.match(line)
            if close and close.group(1)[0] == run[0] and len(close.group(1)) >= len(run) \
                    and not line.strip()[len(close.group(1)):].strip():
                return "\n".join(body)
            body.append(line)
        return "\n".join(body)
    return None


def template_comments(template: Template) -> tuple[str, ...]:
    """The top-level `#` comment lines of a wrapper template's frontmatter (e.g. a commented `guard:` example).

    YAML loading drops comments; they are copied after the rendered keys so the example survives.
    """
    lines = [line.rstrip("\r") for line in template.text.split("\n")]
    heads = [(normalize_heading(title), index) for level, title, index in scan_headings(lines) if level == 2]
    for k, (title, index) in enumerate(heads):
        if title == "instantiated frontmatter":
            end = heads[k + 1][1] if k + 1 < len(heads) else len(lines)
            block = _fenced_block(lines, index + 1, end) or ""
            return tuple(line for line in block.split("\n") if line.startswith("#"))
    return ()


def instantiate(template: Template) -> tuple[dict[str, Any], str, list[str]]:
    """`(frontmatter, body, warnings)` of a template, dates filled with today (UTC)."""
    warnings: list[str] = []
    lines = [line.rstrip("\r") for line in template.text.split("\n")]
    heads = [(title, index) for level, title, index in scan_headings(lines) if level == 2]
    spans = {}
    for k, (title, index) in enumerate(heads):
        end = heads[k + 1][1] if k + 1 < len(heads) else len(lines)
        spans[normalize_heading(title)] = (index + 1, end)
    fm_text: str | None = None
    body: str | None = None
    if "instantiated frontmatter" in spans and "instantiated body" in spans:
        fm_text = _fenced_block(lines, *spans["instantiated frontmatter"])
        body = _fenced_block(lines, *spans["instantiated body"])
    if fm_text is None or body is None:
        close = next((i for i in range(1, len(lines)) if lines[0].rstrip() == "---" and lines[i].rstrip() == "---"),
                     None)
        fm_text = "\n".join(lines[1:close]) if close is not None else ""
        body = "\n".join(lines[close + 1:] if close is not None else lines)
        wrapper = False
    else:
        wrapper = True
    date = today()
    fm_text = _DATE.sub(date, fm_text)
    body = _DATE.sub(date, body)
    try:
        loaded = load_yaml(fm_text) if fm_text.strip() else {}
    except yaml.YAMLError as exc:
        warnings.append(f"template {template.source}: its frontmatter does not parse ({str(exc).splitlines()[0]}); "
                        f"defaults ignored")
        loaded = {}
    meta = {str(k): v for k, v in (loaded or {}).items()} if isinstance(loaded, dict) else {}
    if not wrapper:
        for key in TEMPLATE_KEYS:
            meta.pop(key, None)
        if meta.get("doc_function") == "template":
            meta.pop("doc_function")
    return meta, body.strip("\n") + "\n", warnings


