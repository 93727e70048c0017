"""import: file a project's existing agent instructions as draft rule notes in `_inbox/`.

Sources (all read-only; none is ever written): CLAUDE.md, AGENTS.md, GEMINI.md and
.github/copilot-instructions.md outside our managed block; .cursorrules; .cursor/rules/*.mdc
(`globs` → `applies_to`, `alwaysApply` → `always_apply`); .github/instructions/*.instructions.md
(`applyTo` → `applies_to`); .clinerules (a file, or a folder of .md/.txt); .windsurfrules and
.windsurf/rules/*.md. Files memorybank generated (digest marker) are skipped.

An instruction group is a heading and the lines up to the next heading (text before the first
heading is a group of its own); a heading with no text under it joins the next group. Each group
becomes `_inbox/import-<slug>-<fingerprint>.md` with `doc_kind: rule`, `status: draft`, the
source path and 1-based line range (`source`, `source_lines`) and `import_fingerprint`: the
SHA-256 (16 hex) of the group's text with whitespace collapsed. A fingerprint already present in
any document's frontmatter (promote keeps the key), in the discard log, or earlier in the same run
is not filed again. All notes land in one transaction; a dry run only plans.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

from .bank import Bank
from .blocks import BlockShapeError, find_block
from .deliver import delivery_project
from .deliver.files import owner_digest
from .errors import BankError
from .headings import scan_headings
from .limits import IMPORT_FILES_MAX, IMPORT_NOTES_MAX, INPUT_LIMIT, VALUE_MAX
from .parse import load_yaml
from .project import link_out_of
from .writers.create import DISCARD_LOG, INBOX
from .writers.frontmatter import render_frontmatter
from .writers.registry import escape_inline
from .writers.session import result, writing

TITLE_CAP = 120  # well under TITLE_MAX: a note's title is a heading or "<file> lines a-b"
_SLUG = re.compile(r"[^a-z0-9]+")
_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")

# (relative path, kind): kind says how to read it; "folder:<suffixes>" lists a folder's files.
SOURCES: tuple[tuple[str, str], ...] = (
    ("CLAUDE.md", "shared"), ("AGENTS.md", "shared"), ("GEMINI.md", "shared"),
    (".github/copilot-instructions.md", "shared"), (".cursorrules", "plain"), (".cursor/rules", "folder:.mdc"),
    (".github/instructions", "folder:.instructions.md"), (".clinerules", "plain|folder:.md,.txt"),
    (".windsurfrules", "plain"), (".windsurf/rules", "folder:.md"),
)


def fingerprint(text: str) -> str:
    """The 16-hex fingerprint of an instruction's text, whitespace-insensitive."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


def _files(project: Path, rel: str, kind: str, warnings: list[str]) -> list[str]:
    path = project / rel
    link = link_out_of(project, rel)
    if link is not None:  # never read outside the project
        warnings.append(f"{rel} is reached through the symlink {link}, which leads outside the project; not imported.")
        return []
    if path.is_symlink():
        return []
    if path.is_file() and ("plain" in kind or kind == "shared"):
        return [rel]
    if path.is_dir() and "folder:" in kind:
        suffixes = tuple(kind.split("folder:", 1)[1].split(","))
        names = sorted(n for n in os.listdir(path) if n.endswith(suffixes) and (path / n).is_file()
                       and not (path / n).is_symlink())
        return [f"{rel}/{n}" for n in names[:IMPORT_FILES_MAX]]
    return []


def _front(lines: list[str]) -> tuple[dict[str, Any], int]:
    """A leading frontmatter's mapping and the index of the first body line."""
    if not lines or lines[0].strip() != "---":
        return {}, 0
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            try:
                data = load_yaml("\n".join(lines[1:i])) or {}
            except Exception:  # a broken header is the user's; read the body anyway
                data = {}
            return (data if isinstance(data, dict) else {}), i + 1
    return {}, 0


def _globs(value: Any) -> list[str]:
    if isinstance(value, str):
        return [g.strip() for g in value.split(",") if g.strip()]
    if isinstance(value, list):
        return [str(g).strip() for g in value if str(g).strip()]
    return []


def groups(lines: list[str], start: int) -> list[tuple[int, int, str | None]]:
    """`(first, last, heading)` 0-based inclusive line spans of the instruction groups from `start`."""
    heads = [(i, title) for _, title, i in scan_headings(lines, start)]
    cuts = [(start, None)] + heads
    spans = []
    pending: tuple[int, str | None] | None = None
    for n, (first, title) in enumerate(cuts):
        end = (cuts[n + 1][0] if n + 1 < len(cuts) else len(lines)) - 1
        body_from = first + (1 if title is not None else 0)
        has_text = any(line.strip() for line in lines[body_from:end + 1])
        if pending is not None:
            first, title = pending[0], pending[1] if title is None else f"{pending[1]}: {title}"
        if not has_text:
            if title is not None:
                pending = (first, title)
            continue
        pending = None
        while end > first and not lines[end].strip():
            end -= 1
        spans.append((first, end, title))
    return spans


def _title(heading: str | None, rel: str, first: int, last: int) -> str:
    text = " ".join((heading or "").replace("`", "'").split()) or f"{rel} lines {first + 1}-{last + 1}"
    return text if len(text) <= TITLE_CAP else text[:TITLE_CAP - 1].rstrip() + "…"


def _known(bank: Bank, tx: Any) -> set[str]:
    seen = {str(d.frontmatter.get("import_fingerprint")) for d in bank.docs.values()
            if d.frontmatter.get("import_fingerprint")}
    log = tx.read(DISCARD_LOG)
    if log:
        seen.update(re.findall(r"import-[a-z0-9-]*?-([0-9a-f]{16})\.md", log.decode("utf-8", "replace")))
    return seen


def import_instructions(bank: Bank, project: str | os.PathLike[str] | None = None,
                        dry_run: bool = False) -> dict[str, Any]:
    """File every instruction group found in the project's agent files as a draft rule note in `_inbox/`.

    Returns `{project, sources, filed: [{path, source, lines, title}], skipped: [{source, lines,
    reason}], files, dry_run, warnings}`.
    """
    bank.refresh()
    if not bank.root.is_dir():
        raise BankError(f"No bank at {bank.root}: the folder does not exist. Create it with init (or adopt a "
                        "folder of markdown) first.")
    proj = delivery_project(bank, project)
    real_bank = os.path.realpath(bank.root)
    warnings: list[str] = []
    filed: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    read: list[str] = []
    with writing(bank, dry_run) as tx:
        seen = _known(bank, tx)
        for rel_source, kind in SOURCES:
            for rel in _files(proj, rel_source, kind, warnings):
                path = proj / rel
                if os.path.commonpath([real_bank, os.path.realpath(path)]) == real_bank:
                    continue  # a file inside the bank is already a document
                if path.stat().st_size > INPUT_LIMIT:
                    warnings.append(f"{rel} is over 1 MB; not imported.")
                    continue
                try:
                    text = path.read_bytes().decode("utf-8-sig")
                except UnicodeDecodeError:
                    warnings.append(f"{rel} is not UTF-8 text; not imported.")
                    continue
                if "\x00" in text:  # a note holding NUL would read as binary
                    warnings.append(f"{rel} holds NUL characters (binary); not imported.")
                    continue
                if owner_digest(text) is not None:
                    continue  # generated by deliver
                lines = text.replace("\r\n", "\n").split("\n")
                if kind == "shared":
                    try:
                        block = find_block(text.replace("\r\n", "\n"))
                    except BlockShapeError:
                        warnings.append(f"{rel} has broken memorybank markers; imported as a whole.")
                        block = None
                    if block is not None:
                        flat = text.replace("\r\n", "\n")
                        a = flat.count("\n", 0, block.start)
                        b = flat.count("\n", 0, block.stop)
                        lines = [("" if a <= i <= b else line) for i, line in enumerate(lines)]
                meta, start = _front(lines)
                read.append(rel)
                applies = _globs(meta.get("globs")) or _globs(meta.get("applyTo")) or _globs(meta.get("paths"))
                always = meta.get("alwaysApply") if isinstance(meta.get("alwaysApply"), bool) else None
                for first, last, heading in groups(lines, start):
                    body = "\n".join(lines[first:last + 1])
                    mark = fingerprint(body)
                    where = {"source": rel, "lines": f"{first + 1}-{last + 1}"}
                    if mark in seen:
                        skipped.append({**where, "reason": "already filed (same text)"})
                        continue
                    if len(filed) >= IMPORT_NOTES_MAX:
                        skipped.append({**where, "reason": f"over {IMPORT_NOTES_MAX} notes in one run; import again"})
                        continue
                    seen.add(mark)
                    title = _title(heading, rel, first, last)
                    own_heading = heading is not None and _ATX.match(lines[first]) is not None
                    shown = lines[first + 1:last + 1] if own_heading else lines[first:last + 1]
                    note = _note(title, rel, where["lines"], mark, "\n".join(shown), applies, always,
                                 meta.get("description"))
                    slug = _SLUG.sub("-", title.lower()).strip("-")[:40].strip("-") or "instruction"
                    target = f"{INBOX}import-{slug}-{mark}.md"
                    tx.write(target, note)
                    filed.append({"path": target, **where, "title": title})
        return result(tx, dry_run, warnings, project=str(proj), sources=read, filed=filed, skipped=skipped)


def _note(title: str, rel: str, lines: str, mark: str, body: str, applies: list[str], always: bool | None,
          description: Any) -> bytes:
    meta: dict[str, Any] = {"title": title, "doc_kind": "rule", "doc_function": "canonical",
                            "purpose": f"Read when deciding whether to keep the agent instruction imported "
                                       f"from {rel} (lines {lines}) as a bank rule."}
    if applies:
        meta["applies_to"] = applies
    meta["status"] = "draft"
    meta["source"] = rel
    meta["source_lines"] = lines
    meta["import_fingerprint"] = mark
    if always is not None:
        meta["always_apply"] = always
    if isinstance(description, str) and description.strip() and "\n" not in description.strip() \
            and len(description.strip()) <= VALUE_MAX:
        meta["description"] = description.strip()
    text = "\n".join(["---", *render_frontmatter(meta), "---", "", f"# {escape_inline(title)}", "",
                      body.strip("\n"), ""])
    return text.encode("utf-8")
