"""Reading (§4): one document, one section, a line range, or a batch within a byte budget."""

from __future__ import annotations

import re
from typing import Any

from .bank import Bank
from .errors import BankError, clip
from .headings import resolve_section, section_bounds
from .jsonout import jsonable
from .records import Doc

BATCH_BUDGET = 40_000
CONTENT_CAP = 400_000
LIST_CAP = 25  # skipped and failed entries listed per batch; the rest are counted
_RANGE = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$")


def _lines(bank: Bank, doc: Doc) -> tuple[list[str], str]:
    """The document's lines as on disk now, and the version (content hash) of those bytes."""
    text, version = bank.read_version(doc.path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines], version


def _content(bank: Bank, doc: Doc, section: str | None) -> tuple[str, str | None, str]:
    lines, version = _lines(bank, doc)
    if section is None:
        return "\n".join(lines[doc.body_line - 1:]).strip("\n").rstrip(), None, version
    found = resolve_section(doc.sections, section, doc.path)
    first, last = section_bounds(doc.sections, found, len(lines))
    return "\n".join(lines[first - 1:last]).rstrip(), found.title, version


def _one(bank: Bank, doc: Doc, section: str | None, cap: int) -> dict[str, Any]:
    content, title, version = _content(bank, doc, section)
    truncated = len(content) > cap
    if truncated:
        content = content[:cap]
    out: dict[str, Any] = {"path": doc.path, "version": version, "title": doc.title,
                           "frontmatter": jsonable(doc.frontmatter)}
    if title is not None:
        out["section"] = title
    out.update(content=content, bytes=len(content.encode("utf-8")), truncated=truncated,
               sections=[s.title for s in doc.sections])
    return out


def _line_range(bank: Bank, doc: Doc, spec: str) -> dict[str, Any]:
    match = _RANGE.match(spec)
    if not match:
        raise BankError(f'Line range "{spec}" is not understood. Use "40-80", "40-" or "40".', param="lines")
    first = int(match.group(1))
    last = int(match.group(3)) if match.group(3) else (None if match.group(2) else first)
    lines, version = _lines(bank, doc)
    if first < 1 or first > len(lines):
        raise BankError(f"Line {first} is outside {doc.path}, which has {len(lines)} lines.")
    last = len(lines) if last is None else min(last, len(lines))
    if last < first:
        raise BankError(f'Line range "{spec}" ends before it starts. Use "first-last".')
    width = len(str(last))
    content = "\n".join(f"{n:>{width}}: {lines[n - 1]}" for n in range(first, last + 1))
    truncated = len(content) > CONTENT_CAP
    return {"path": doc.path, "version": version, "title": doc.title, "lines": f"{first}-{last}",
            "content": content[:CONTENT_CAP], "truncated": truncated, "line_count": len(lines)}


def read(bank: Bank, path: Any, section: str | None = None, lines: str | None = None,
         max_bytes: int | None = None) -> dict[str, Any]:
    """Read one document (or one `## ` section, or a line range), or a batch of them.

    Each document carries its `version` (a content hash of the whole file as read): a writer given
    it as `base_version` refuses when the file no longer matches, so an edit lands on what was read.

    `path` is a string, or a list of strings / `{path, section}` items. A batch shares a byte budget
    (default and ceiling 40,000 bytes of content; `max_bytes` may lower it): a document that would
    overflow it is skipped and listed with its size and sections, except the first, which is always
    read (cut to the budget, `truncated: true`). Bad items land in `failed`; the batch goes on.
    A repeated item is answered once; `skipped` and `failed` list at most 25 entries each and count
    the rest in `skipped_more` / `failed_more`, so a huge batch cannot produce a huge answer.
    """
    bank.refresh()
    if isinstance(path, str):
        doc = bank.doc(path)
        if lines is not None:
            if section is not None:
                raise BankError("Give either `{section}` or `{lines}`, not both.", names=("section", "lines"))
            return _line_range(bank, doc, lines)
        return _one(bank, doc, section, CONTENT_CAP)
    if not isinstance(path, list) or not path:
        raise BankError("`{path}` must be a path or a non-empty list of paths / {path, section} items.",
                        names=("path",))
    if lines is not None:
        raise BankError("`{lines}` works with one path; read ranges one document at a time.", names=("lines",))
    budget = BATCH_BUDGET if max_bytes is None else max(1, min(int(max_bytes), BATCH_BUDGET))
    documents: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    failed: list[dict[str, str]] = []
    used = 0
    seen: set[tuple[Any, ...]] = set()
    more = {"skipped": 0, "failed": 0}  # entries past LIST_CAP are counted, not listed
    for item in path:
        raw, want = (item.get("path"), item.get("section", section)) if isinstance(item, dict) else (item, section)
        try:
            if not isinstance(raw, str):
                raise BankError("each item needs a string `path`: give {path, section}")
            doc = bank.doc(raw)
            if (doc.path, want) in seen:
                continue  # a repeated request is answered once
            seen.add((doc.path, want))
            entry = _one(bank, doc, want, CONTENT_CAP)
            if (doc.path, entry.get("section"), "resolved") in seen:
                continue  # `Last`, `last`, `LAST`: one section, answered once
            seen.add((doc.path, entry.get("section"), "resolved"))
        except BankError as exc:
            if len(failed) < LIST_CAP:
                shown = "(missing)" if raw is None else clip(str(raw))[:200]
                failed.append({"path": shown, "error": clip(exc.message), **({"see": list(exc.see)} if exc.see else {}),
                               **({"param": list(exc.names)} if exc.names else {})})
            else:
                more["failed"] += 1
            continue
        if used + entry["bytes"] > budget:
            if documents:
                if len(skipped) < LIST_CAP:
                    skipped.append({"path": doc.path, "bytes": entry["bytes"], "sections": entry["sections"]})
                else:
                    more["skipped"] += 1
                continue
            cut = entry["content"].encode("utf-8")[:budget].decode("utf-8", errors="ignore")
            entry.update(content=cut, bytes=len(cut.encode("utf-8")), truncated=True)
        used += entry["bytes"]
        documents.append(entry)
    out: dict[str, Any] = {"documents": documents, "bytes": used, "budget": budget}
    if skipped:
        out["skipped"] = skipped
        out["note"] = "Skipped documents exceed the byte budget: read them by section or one at a time."
    if failed:
        out["failed"] = failed
    extra = {f"{k}_more": n for k, n in more.items() if n}
    return {**out, **extra}
