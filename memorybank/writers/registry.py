"""Index registration (§10.1): entries in the style of the index's own entries, section indexes
created on demand, entries that follow a title or purpose change, and links rewritten on a move."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..bank import Bank
from ..paths import DEFAULT_LAYERS, resolve_from
from ..paths import nearest_index as paths_nearest_index
from .files import Text, Transaction
from .frontmatter import render_frontmatter

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LINK = re.compile(r"(?P<bang>!?)\[(?P<label>(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*)\]"
                   r"\((?P<target><[^<>\n]*>|[^()\s]+)(?P<title>\s+\"[^\"]*\")?\)")
_REF_DEF = re.compile(r"^(?P<lead> {0,3}\[[^\]]+\]:[ \t]*)(?P<target><[^<>\n]*>|\S+)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_BULLET = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>[-*+])(?P<space>[ \t]+)(?P<rest>.*)$")
_NUMBERED = re.compile(r"^(?P<indent>[ \t]*)(?P<number>\d{1,9})(?P<delim>[.)])(?P<space>[ \t]+)(?P<rest>.*)$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_PLACEHOLDER = re.compile(r"^[\s>*_|]*empty(?![a-z])", re.IGNORECASE)
_SEPARATOR_AFTER_LINK = re.compile(r"^(\s*(?:—|–|-{1,2}|:)\s*)")
_ACRONYMS = {"adr": "ADR", "prd": "PRD", "api": "API", "ui": "UI", "dna": "DNA"}


def known_sections(bank: Bank) -> set[str]:
    """Top-level folders that are sections of a bank: the default layer map plus dna's declared rows."""
    return (set(DEFAULT_LAYERS) | set(bank.layers.layer_map)) - {"_inbox"}


def outside_fences(lines: list[str], start: int = 0) -> list[bool]:
    """Per line: True when it is ordinary markdown (not a fence line, not inside fenced code)."""
    out = [False] * len(lines)
    fence: str | None = None
    for index in range(start, len(lines)):
        line = lines[index]
        marker = _FENCE.match(line)
        if marker:
            run = marker.group(1)
            if fence is None:
                fence = run
                continue
            if run[0] == fence[0] and len(run) >= len(fence) and not line.strip()[len(run):].strip():
                fence = None
                continue
        out[index] = fence is None
    return out


def _bare(target: str) -> str:
    return target[1:-1] if target.startswith("<") and target.endswith(">") else target


def _looks_internal(index_path: str, raw: str) -> bool:
    """A relative link to a markdown file that stays inside the bank (cheap checks first)."""
    target = raw.split("#", 1)[0]
    if not target.endswith(".md") or target.startswith("/") or _SCHEME.match(target):
        return False
    return not target.startswith("../") or not resolve_from(index_path, target)[1]


def _internal(index_path: str, raw: str) -> str | None:
    """Bank path a link target points to, or None for URLs, anchors, absolute and external paths."""
    target = _bare(raw).split("#", 1)[0]
    if not target or _SCHEME.match(target) or target.startswith("/") or not target.endswith(".md"):
        return None
    resolved, external = resolve_from(index_path, target)
    return None if external else resolved


# -- reading an index ---------------------------------------------------------------------------

@dataclass
class Entry:
    index_path: str
    line: int  # index into the text's lines
    end: int  # exclusive end of the entry with its continuation lines
    kind: str  # bullet | numbered | table
    raw: str  # link target as written (without angle brackets)
    match: re.Match[str]  # the link inside the line

    @property
    def target(self) -> str:
        """The bank path the entry links (resolved on demand: most entries are never asked)."""
        return resolve_from(self.index_path, self.raw)[0]


def _entry_kind(line: str) -> str | None:
    if line.lstrip().startswith("|"):
        return None if _TABLE_SEPARATOR.match(line) else "table"
    if _NUMBERED.match(line):
        return "numbered"
    if _BULLET.match(line):
        return "bullet"
    return None


def read_entries(index_path: str, contents: list[str], body_start: int) -> list[list[Entry]]:
    """The index's entries grouped into lists/tables: list items or table rows linking a bank document."""
    plain = outside_fences(contents, body_start)
    groups: list[list[Entry]] = []
    current: list[Entry] = []
    index = body_start
    while index < len(contents):
        line = contents[index]
        kind = _entry_kind(line) if plain[index] else None
        entry = None
        if kind:
            for match in _LINK.finditer(line):
                raw = _bare(match.group("target"))
                if not match.group("bang") and _looks_internal(index_path, raw):
                    entry = Entry(index_path, index, index + 1, kind, raw, match)
                    break
        if entry is None:
            if current and _continues(contents, index, plain, current[-1]):
                if contents[index].strip():
                    current[-1].end = index + 1
                index += 1
                continue
            if current:
                groups.append(current)
                current = []
            index += 1
            continue
        if current and current[-1].kind != entry.kind:
            groups.append(current)
            current = []
        current.append(entry)
        index += 1
    if current:
        groups.append(current)
    return groups


def _continues(contents: list[str], index: int, plain: list[bool], last: Entry) -> bool:
    """Whether a non-entry line still belongs to the list that `last` is in."""
    line = contents[index]
    if not plain[index]:
        return False
    if last.kind == "table":
        return False
    if not line.strip():
        nxt = next((contents[i] for i in range(index + 1, len(contents)) if contents[i].strip()), "")
        return bool(nxt) and (nxt[0] in " \t" or _entry_kind(nxt) == last.kind)
    return line[0] in " \t" and _entry_kind(line) is None


def _score(raw: str, rel: str) -> int:
    raw = raw.split("#", 1)[0]
    score = 0
    if posixpath.dirname(raw) == posixpath.dirname(rel):
        score += 2
    if posixpath.basename(raw) == posixpath.basename(rel):
        score += 1
    if raw.count("/") == rel.count("/"):
        score += 1
    return score


def _pick_group(groups: list[list[Entry]], rel: str) -> list[Entry]:
    if len(groups) == 1:
        return groups[0]
    def key(item: tuple[int, list[Entry]]):
        position, group = item
        scores = [_score(e.raw, rel) for e in group]
        best = max(scores)
        return best, scores.count(best), position
    return max(enumerate(groups), key=key)[1]


# -- writing an entry ----------------------------------------------------------------------------

def escape_inline(text: str) -> str:
    """Caller text made inert on a markdown line: `\\`, `[` and `]` escaped, so it never forms a link.

    Titles and purposes land in index entries and headings; unescaped, `[a](b.md)` in a purpose
    would become an index link (dangling, or a second registration of another document).
    """
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _cell(text: str) -> str:
    return escape_inline(text).replace("|", "\\|")


def _label(template: Entry, rel: str, doc_path: str, title: str) -> str:
    """The new entry's link text, shaped like the template's: its path as linked, as a bank path, or its title.

    In a table row `|` is escaped too (inside backticks as well: GFM splits cells before code spans).
    """
    old_label = template.match.group("label")
    ticked = len(old_label) >= 2 and old_label.startswith("`") and old_label.endswith("`")
    inner = (old_label[1:-1] if ticked else old_label).split("#", 1)[0]
    if inner == template.raw.split("#", 1)[0]:
        text = rel
    elif inner == template.target:
        text = doc_path
    elif inner == posixpath.basename(template.target):
        text = posixpath.basename(doc_path)
    else:
        text = title
    table = template.kind == "table"
    if ticked:
        return "`" + (text.replace("|", "\\|") if table else text) + "`"
    return _cell(text) if table else escape_inline(text)


def _link(template: Entry, rel: str, doc_path: str, title: str) -> str:
    return f"[{_label(template, rel, doc_path, title)}]({rel})"


def _cell_text(cell: str) -> str:
    return cell.strip().strip("`").strip()


def _render_entry(text: Text, template: Entry, rel: str, doc_path: str, title: str, purpose: str,
                  known: dict[str, dict[str, str]]) -> list[str]:
    line = text.content(template.line)
    link = _link(template, rel, doc_path, title)
    if template.kind == "table":
        return [_render_row(line, template, link, rel, purpose, title, known)]
    match = (_NUMBERED if template.kind == "numbered" else _BULLET).match(line)
    assert match is not None
    if template.kind == "numbered":
        lead = f"{match.group('indent')}{int(match.group('number')) + 1}{match.group('delim')}{match.group('space')}"
    else:
        lead = f"{match.group('indent')}{match.group('marker')}{match.group('space')}"
    after = line[template.match.end():]
    continuation = [text.content(i) for i in range(template.line + 1, template.end) if text.content(i).strip()]
    if after.strip():
        sep = _SEPARATOR_AFTER_LINK.match(after)
        glue = sep.group(1) if sep else " "
        return [f"{lead}{link}{glue}{escape_inline(purpose)}"]
    if continuation:
        indent = continuation[0][:len(continuation[0]) - len(continuation[0].lstrip())]
        return [f"{lead}{link}", f"{indent}{escape_inline(purpose)}"]
    return [f"{lead}{link}"]


def _render_row(line: str, template: Entry, link: str, rel: str, purpose: str, title: str,
                known: dict[str, dict[str, str]]) -> str:
    cells = _cells(line)
    meta = known.get(template.target, {})
    out: list[str | None] = []
    used_purpose = False
    for cell in cells:
        plain = _cell_text(cell)
        ticked = cell.strip().startswith("`")
        if template.match.group(0) in cell:
            out.append(link)
        elif plain and plain in _forms(meta.get("purpose")):
            out.append(_cell(purpose))
            used_purpose = True
        elif plain and plain in _forms(meta.get("title")):
            out.append(_cell(title))
        elif plain and plain in (template.raw, template.target):
            out.append(f"`{rel}`" if ticked else rel)
        else:
            out.append(None)
    filled = []
    for value in out:
        if value is None and not used_purpose:
            value, used_purpose = _cell(purpose), True
        filled.append(value or "")
    return "| " + " | ".join(filled) + " |"


def _cells(line: str) -> list[str]:
    """A table row's cells: split at every `|` no backslash escapes, the outer bars dropped."""
    cells, cell, escaped = [], [], False
    for char in line.strip():
        if char == "|" and not escaped:
            cells.append("".join(cell))
            cell = []
        else:
            cell.append(char)
        escaped = char == "\\" and not escaped
    cells.append("".join(cell))
    if len(cells) > 1 and not cells[0].strip():
        cells.pop(0)
    if len(cells) > 1 and not cells[-1].strip():
        cells.pop()
    return cells


def _forms(text: str | None) -> list[str]:
    """How a known title or purpose may appear in a table cell: as written, or escaped by a writer."""
    return _written_forms(text, table=True) if text else []


def _placeholder_row(line: str, link: str, purpose: str) -> str:
    count = max(len(_cells(line)), 1)
    cells = [link] + ([_cell(purpose)] if count > 1 else []) + [""] * max(count - 2, 0)
    return "| " + " | ".join(cells) + " |"


def add_entry(bank: Bank, tx: Transaction, index_path: str, doc_path: str, title: str, purpose: str) -> bool:
    """Register `doc_path` in the index at `index_path`, imitating its last entry; False if already listed.

    The new entry goes right after the last entry of the list (or table) whose links look most like
    the new one (same folder, same file name, same depth), in that entry's shape: bullet, numbered
    or table row, label backticked or not, `— purpose` after the link or on a continuation line.
    An index with no entries gets its `Empty…` placeholder line swapped for the entry.
    """
    data = tx.read(index_path)
    assert data is not None
    text = Text.decode(data, index_path)
    contents = text.contents()
    close = text.frontmatter_close()
    body_start = close + 1 if close is not None else 0
    plain = outside_fences(contents, body_start)
    if tx.staged(index_path):
        for index in range(body_start, len(contents)):
            if plain[index] and "](" in contents[index]:
                for match in _LINK.finditer(contents[index]):
                    if _internal(index_path, match.group("target")) == doc_path:
                        return False
    elif index_path in bank.registered_in.get(doc_path, ()):  # the index on disk, as just refreshed
        return False
    rel = posixpath.relpath(doc_path, posixpath.dirname(index_path) or ".")
    groups = read_entries(index_path, contents, body_start)
    if groups:
        group = _pick_group(groups, rel)
        template = group[-1]
        listed = bank.docs.get(template.target)
        known = {template.target: {"title": listed.title, "purpose": listed.purpose or ""}} if listed else {}
        lines = _render_entry(text, template, rel, doc_path, title, purpose, known)
        loose = len(group) > 1 and not contents[template.line - 1].strip()
        at = template.end
        text.insert(at, ([""] if loose else []) + lines)
    else:
        link = f"[{escape_inline(title)}]({rel})"
        holder = next((i for i in range(body_start, len(contents)) if plain[i] and _PLACEHOLDER.match(contents[i])),
                      None)
        if holder is not None:
            line = contents[holder]
            entry = _placeholder_row(line, f"[{_cell(title)}]({rel})", purpose) if line.lstrip().startswith("|") \
                else f"- {link} — {escape_inline(purpose)}"
            text.set_content(holder, entry)
        else:
            tail = [] if not contents or not contents[-1].strip() else [""]
            text.insert(len(text.lines), tail + [f"- {link} — {escape_inline(purpose)}"])
    tx.write(index_path, text.encode())
    return True


# -- choosing and creating indexes ---------------------------------------------------------------

def nearest_index(tx: Transaction, doc_path: str) -> str | None:
    """The index that lists a document, as the transaction sees the files (see `paths.nearest_index`)."""
    return paths_nearest_index(doc_path, lambda candidate: tx.read(candidate) is not None)


def section_title(folder: str) -> str:
    words = re.split(r"[-_ ]+", folder)
    return " ".join(_ACRONYMS.get(w.lower(), w.capitalize()) for w in words if w)


def _sibling_edges(bank: Bank, folder: str) -> list[str]:
    """Upstream targets a sibling section index uses, so a new section index derives like its peers."""
    for path in bank.paths:
        parts = path.split("/")
        if len(parts) != 2 or parts[1] != "README.md" or parts[0] == folder or parts[0] in ("_inbox", "dna"):
            continue
        edges = bank.docs[path].derived_from
        if edges and all(not e.external and e.target in bank.docs for e in edges):
            return [e.target for e in edges]
    return ["README.md"] if "README.md" in bank.docs else []


def _index_kind(bank: Bank, doc_kind: str) -> str:
    """The doc_kind of a new section index: the first document's kind when dna/ declares it (or declares none),
    else the root index's kind — an undeclared kind warned about once must not spread to a file nobody named."""
    allowed = bank.contract.allowed("doc_kind") if bank.contract is not None else frozenset()
    if not allowed or doc_kind in allowed:
        return doc_kind
    root = bank.docs.get("README.md")
    return root.doc_kind if root is not None and root.doc_kind in allowed else sorted(allowed)[0]


def section_index_bytes(bank: Bank, folder: str, doc_kind: str, newline: str) -> tuple[bytes, str, str]:
    """A new section index for `folder`: `(bytes, title, purpose)`; derived_from copies its siblings."""
    doc_kind = _index_kind(bank, doc_kind)
    title = section_title(folder)
    purpose = f"Read when you need the list of documents in {folder}/."
    targets = _sibling_edges(bank, folder)
    edges = [posixpath.relpath(t, folder) for t in targets]
    contract = bank.contract
    status = "active" if edges or contract is None or not contract.requires_derived_from else "draft"
    meta: dict[str, object] = {"title": title, "doc_kind": doc_kind, "doc_function": "index", "purpose": purpose}
    if edges:
        meta["derived_from"] = edges
    meta["status"] = status
    lines = ["---", *render_frontmatter(meta), "---", "", f"# {title}", "", purpose, "", "## Documents", ""]
    return newline.join(lines).encode("utf-8"), title, purpose


def register(bank: Bank, tx: Transaction, doc_path: str, title: str, purpose: str, doc_kind: str,
             newline: str = "\n") -> dict[str, str | None]:
    """Register a new document in its nearest index, creating a known section's index first if missing.

    Returns `{registered_in, created_index}` (None when there was nothing to do or no index exists).
    """
    created = None
    top, sep, _ = doc_path.partition("/")
    if sep and top in known_sections(bank) and tx.read(f"{top}/README.md") is None \
            and doc_path != f"{top}/README.md":
        created = f"{top}/README.md"
        data, index_title, index_purpose = section_index_bytes(bank, top, doc_kind, newline)
        tx.write(created, data)
        if tx.read("README.md") is not None:
            add_entry(bank, tx, "README.md", created, index_title, index_purpose)
    index = nearest_index(tx, doc_path)
    if index is None:
        return {"registered_in": None, "created_index": created}
    added = add_entry(bank, tx, index, doc_path, title, purpose)
    return {"registered_in": index if added else None, "created_index": created}


# -- keeping entries in step ------------------------------------------------------------------

def _replace_outside_targets(line: str, old: str, new: str) -> str:
    """Replace `old` with `new` in a line, never inside a link target."""
    out = []
    last = 0
    for match in _LINK.finditer(line):
        out.append(line[last:match.start("target")].replace(old, new))
        out.append(line[match.start("target"):match.end("target")])
        last = match.end("target")
    out.append(line[last:].replace(old, new))
    return "".join(out)


def _replace_in_entry(line: str, entry: Entry, old: str, new: str, in_label: bool) -> str:
    """`old` replaced on an entry's own line, never in its markup: the list marker, the link's brackets
    and target stay as they are. A title lives in the link label (and, in a table, in a cell after it);
    a purpose only after the link, so a purpose such as `[` or `1` never eats the syntax that makes
    the line an entry."""
    match = entry.match
    if line[match.start():match.end()] != match.group(0):  # the line moved since it was read: leave it
        return line
    label = line[match.start("label"):match.end("label")]
    tail = line[match.end():]
    if in_label:
        label = label.replace(old, new)
    if not in_label or entry.kind == "table":
        tail = _replace_outside_targets(tail, old, new)
    return line[:match.start("label")] + label + line[match.end("label"):match.end()] + tail


def _written_forms(text: str, table: bool) -> list[str]:
    """The ways a writer (this one or an earlier one) may have put `text` on an entry line, most escaped first."""
    forms = [_cell(text), escape_inline(text), text] if table else [escape_inline(text), text]
    return list(dict.fromkeys(forms))


def update_entries(bank: Bank, tx: Transaction, doc_path: str, old: str, new: str,
                   field: str = "purpose") -> list[str]:
    """In every index listing `doc_path`, replace `old` text (its `field`) with `new` inside that document's entries."""
    changed = []
    if not old or old == new:
        return changed
    for index_path in bank.registered_in.get(doc_path, []):
        data = tx.read(index_path)
        if data is None:
            continue
        text = Text.decode(data, index_path)
        contents = text.contents()
        close = text.frontmatter_close()
        body_start = close + 1 if close is not None else 0
        touched = False
        for group in read_entries(index_path, contents, body_start):
            for entry in group:
                if entry.target != doc_path:
                    continue
                table = entry.kind == "table"
                now = _cell(new) if table else escape_inline(new)
                for i in range(entry.line, entry.end):
                    line = text.content(i)
                    for was in _written_forms(old, table):
                        if was in line:
                            done = _replace_in_entry(line, entry, was, now, field == "title") if i == entry.line \
                                else _replace_outside_targets(line, was, now)
                            if done != line:
                                text.set_content(i, done)
                                touched = True
                                break
        if touched:
            tx.write(index_path, text.encode())
            changed.append(index_path)
    return changed


def _map_link_targets(contents: list[str], start: int, change: Callable[[str], str]) -> list[str]:
    """`contents` with every link target from line `start` on passed through `change`.

    Inline links, images and reference definitions; lines inside fenced code are left alone.
    """
    plain = outside_fences(contents, start)
    out = list(contents)
    for index in range(start, len(contents)):
        line = contents[index]
        if not plain[index]:
            continue
        ref = _REF_DEF.match(line)
        if ref:
            out[index] = ref.group("lead") + change(ref.group("target")) + line[ref.end():]
            continue
        if "](" not in line:
            continue
        pieces, last = [], 0
        for match in _LINK.finditer(line):
            pieces.append(line[last:match.start("target")])
            pieces.append(change(match.group("target")))
            last = match.end("target")
        pieces.append(line[last:])
        out[index] = "".join(pieces)
    return out


def rewrite_links(contents: list[str], start: int, old_path: str, new_path: str) -> list[str]:
    """Relative link targets in a body moved from `old_path` to `new_path`, re-aimed at the same files.

    Covers inline links, images and reference definitions outside fenced code; URLs, `#anchors`
    and absolute paths are left alone.
    """
    old_dir, new_dir = posixpath.dirname(old_path), posixpath.dirname(new_path)
    if old_dir == new_dir:
        return list(contents)

    def move(raw: str) -> str:
        bare = _bare(raw)
        if not bare or bare.startswith(("#", "/")) or _SCHEME.match(bare):
            return raw
        path, _, anchor = bare.partition("#")
        target, _ = resolve_from(old_path, path)
        moved = posixpath.relpath(target, new_dir or ".")
        if anchor or "#" in bare:
            moved += "#" + anchor
        return f"<{moved}>" if raw.startswith("<") else moved

    return _map_link_targets(contents, start, move)


def retarget_links(contents: list[str], start: int, file_path: str, old_path: str, new_path: str) -> list[str]:
    """The lines of `file_path` with every relative link that resolves to `old_path` aimed at `new_path`.

    Inline links, images and reference definitions outside fenced code; anchors are kept, and a
    link's form (relative or `/`-rooted, `<…>`) is kept.
    """
    def aim(raw: str) -> str:
        bare = _bare(raw)
        if not bare or bare.startswith("#") or _SCHEME.match(bare):
            return raw
        path, _, anchor = bare.partition("#")
        if resolve_from(file_path, path)[0] != old_path:
            return raw
        moved = "/" + new_path if path.startswith("/") else posixpath.relpath(new_path,
                                                                              posixpath.dirname(file_path) or ".")
        if anchor or "#" in bare:
            moved += "#" + anchor
        return f"<{moved}>" if raw.startswith("<") else moved

    return _map_link_targets(contents, start, aim)
