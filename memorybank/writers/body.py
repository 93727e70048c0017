"""bank_edit (§10.2) and bank_update_section (§10.3): body changes that leave every other byte alone."""

from __future__ import annotations

from typing import Any

from ..bank import Bank
from ..headings import resolve_section, section_bounds
from ..parse import parse_document
from ..records import Doc
from .create import check_body
from .files import Text
from .gates import no_nul, refuse
from .markdown import body_lines
from .registry import outside_fences
from .session import editing, load, result

CONTEXT_LINES = 2


def _missing_links(bank: Bank, doc: Doc, data: bytes, warnings: list[str]) -> None:
    """Warn (not refuse) when the new bytes link bank documents that do not exist and the old text did not.

    In an index such a link is a dangling-index-entry; elsewhere it is a link to nothing. A draft
    may link a document about to be created, so this is a warning.
    """
    if b"](" not in data:
        return
    before = {link.target for link in doc.links}
    shown: list[str] = []
    for link in parse_document(doc.path, data).links:
        if link.external or link.target in before or link.target in bank.docs or (bank.root / link.target).exists():
            continue
        item = link.raw if link.raw == link.target else f"{link.raw} ({link.target})"
        if item not in shown:
            shown.append(item)
    if shown:
        warnings.append(f"the new text links documents that do not exist: {', '.join(shown)}. "
                        "Create them or fix the links.")


def _native(text: str, newline: str) -> str:
    text = text.replace("\r\n", "\n")
    return text.replace("\n", "\r\n") if newline == "\r\n" else text


def _header(text: Text) -> tuple[str, ...] | None:
    """The frontmatter block as exact lines (None when there is none; an unclosed opener counts as one)."""
    close = text.frontmatter_close()
    if close is not None:
        return tuple(text.lines[:close + 1])
    return ("---",) if text.lines and text.content(0).rstrip() == "---" else None


def _body_opens_block(text: Text) -> bool:
    """Whether the first body line is a `---` line (read as a frontmatter opener by some tools)."""
    close = text.frontmatter_close()
    first = close + 1 if close is not None else 0
    return first < len(text.lines) and text.content(first).rstrip() == "---"


def _keeps_frontmatter(path: str, before: Text, after: Text) -> None:
    """Refuse an edit after which the frontmatter block differs (bytes, presence) or the body starts with `---`."""
    if _header(before) != _header(after) or (_body_opens_block(after) and not _body_opens_block(before)):
        raise refuse("frontmatter", f"this edit would create or change the frontmatter of {path}; an edit "
                     "changes body text only.", "Change metadata with the field writers, and keep `---` off the "
                     "body's first line.", see=("set_field", "set_list", "set_status"))


def edit(bank: Bank, path: str, find: str, replace: str, section: str | None = None,
         dry_run: bool = False, base_version: str | None = None) -> dict[str, Any]:
    """Replace exactly one occurrence of `find` in the body (optionally inside one `## ` section).

    The frontmatter is out of reach: an edit after which the block's bytes (or its absence) differ
    is refused, and so is one that puts a `---` line first in the body (it would open a block in a
    file without one). `find`/`replace` written with LF match a CRLF file (and keep it CRLF).
    A new link to a bank document that does not exist is a warning. Returns `{path, line, context,
    changed, …}`: the 1-based line where the change starts and a few lines of the result around it.
    """
    warnings: list[str] = []
    with editing(bank, path, dry_run, base_version) as (tx, doc):
        if not isinstance(find, str) or find == "":
            raise refuse("find", "`{find}` is empty.", "Copy the exact text to replace from the document.", see="read",
                         names=("find",))
        if not isinstance(replace, str):
            raise refuse("replace", "`{replace}` is missing.", "Pass the new text (may be empty to delete).",
                         names=("replace",))
        no_nul("replace", replace)
        text = load(tx, doc.path)
        close = text.frontmatter_close()
        first = close + 1 if close is not None else 0
        last = len(text.lines)
        where = ""
        if section is not None:  # sections of the text read now, never line numbers the index took earlier
            seen = parse_document(doc.path, text.encode())
            found = resolve_section(seen.sections, section, doc.path)
            start, end = section_bounds(seen.sections, found, seen.line_count)
            first, last = start - 1, end
            where = f' in section "{found.title}"'
        region = "".join(text.lines[first:last])
        needle, swap = _native(find, text.newline), _native(replace, text.newline)
        count = region.count(needle)
        if count == 0 and needle != find:
            needle, swap = find, replace
            count = region.count(needle)
        if count == 0:
            raise refuse("find", f'no match for "{find[:80]}" in {doc.path}{where}.',
                         "Read the document first and copy the exact text, whitespace included.", see="read")
        if count > 1:
            raise refuse("find", f'"{find[:80]}" occurs {count} times in {doc.path}{where}.',
                         "Add surrounding context to `{find}` so it matches once, or name a `{section}`.",
                         names=("find", "section"))
        offset = region.index(needle)
        head = "".join(text.lines[:first]) + region[:offset]
        rebuilt = head + swap + region[offset + len(needle):] + "".join(text.lines[last:])
        changed = needle != swap
        new = Text.from_text(rebuilt, text.bom, text.newline)
        _keeps_frontmatter(doc.path, text, new)
        line = head.count("\n") + 1
        span = swap.count("\n")
        lo, hi = max(line - 1 - CONTEXT_LINES, 0), min(line + span + CONTEXT_LINES, len(new.lines))
        context = "\n".join(new.content(i) for i in range(lo, hi))
        if changed:
            data = new.encode()
            _missing_links(bank, doc, data, warnings)
            tx.write(doc.path, data)
        return result(tx, dry_run, warnings, path=doc.path, line=line, context=context, changed=changed)


def update_section(bank: Bank, path: str, section: str, content: str | None = None, content_file: str | None = None,
                   mode: str = "replace", dry_run: bool = False, base_version: str | None = None) -> dict[str, Any]:
    """Replace (or append to) the content of one existing `## ` section.

    Only the section is rewritten: its content loses surrounding blank lines, gets one blank line
    after the heading and one before the next section, and takes the file's line endings. Every
    byte outside the section stays as it was. A missing section is refused with the headings; a new
    link to a bank document that does not exist is a warning.
    """
    warnings: list[str] = []
    with editing(bank, path, dry_run, base_version) as (tx, doc):
        given = check_body(content, content_file, "content")
        if given is None:
            raise refuse("content", "neither `{content}` nor `{content_file}` was given.", "Pass the new section text.",
                         names=("content", "content_file"))
        if mode not in ("replace", "append"):
            raise refuse("mode", f"`{mode}` is not a mode.", "Use `replace` or `append`.", param="mode")
        text = load(tx, doc.path)
        seen = parse_document(doc.path, text.encode())  # the sections of the text read, not the index's lines
        found = resolve_section(seen.sections, section, doc.path)
        start, end = section_bounds(seen.sections, found, seen.line_count)
        new_lines = body_lines(given)
        plain = outside_fences(new_lines)
        if any(plain[i] and new_lines[i].startswith("## ") for i in range(len(new_lines))):
            warnings.append("the content has its own `## ` heading, which starts a new section.")
        if mode == "append":
            kept = [text.content(i) for i in range(start, end)]
            while kept and not kept[-1].strip():
                kept.pop()
            while kept and not kept[0].strip():
                kept.pop(0)
            new_lines = kept + ([""] if kept and new_lines else []) + new_lines
        rebuilt = [text.content(start - 1)] + ([""] + new_lines if new_lines else [])
        if end < len(text.lines):
            rebuilt.append("")
        old = [text.content(i) for i in range(start - 1, end)]
        changed = old != rebuilt
        if changed:
            text.delete(start - 1, end)
            text.insert(start - 1, rebuilt)
            data = text.encode()
            _missing_links(bank, doc, data, warnings)
            tx.write(doc.path, data)
        return result(tx, dry_run, warnings, path=doc.path, section=found.title, mode=mode,
                      lines=[start, start + len(rebuilt) - 1], changed=changed)
