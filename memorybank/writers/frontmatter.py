"""Frontmatter edits that touch only the lines they mean to, verified by reading the YAML back.

One scalar: a line edit that keeps the line's quoting when YAML reads the value back unchanged.
A block-style list: item lines are added or removed in the style of the existing items. Anything
else structural (a new list key, a flow list `[a, b]`, a scalar turned into a list) goes through
ruamel.yaml round-trip on the frontmatter block only, with the indentation guessed from the file,
and only the changed key's lines are spliced back, so every other key keeps its exact bytes.
Every edit re-parses the block with `load_yaml` and refuses if anything but the intended key moved.
"""

from __future__ import annotations

import datetime as _dt
import io
import json
import re
from typing import Any

import yaml

from ..errors import BankError
from ..parse import lenient_frontmatter, load_yaml
from .files import Text

KEY_ORDER = ("title", "doc_kind", "doc_function", "purpose", "derived_from", "canonical_for",
             "must_not_define", "anchors", "status")
_TOP_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*|\"[^\"\n]*\"|'[^'\n]*')(?P<sep>[ \t]*:(?:[ \t]+|$))")
_ITEM = re.compile(r"^(?P<indent>[ \t]*)-(?:[ \t]+|$)")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_QUOTED = {"'": re.compile(r"'(?:[^']|'')*'"), '"': re.compile(r'"(?:[^"\\]|\\.)*"')}
REMOVE = object()


class _Unreadable(Exception):
    """The frontmatter block is not valid YAML."""


# -- reading -----------------------------------------------------------------------------------

def _load(block: list[str]) -> dict[str, Any]:
    text = "\n".join(block)
    try:
        data = load_yaml(text) if text.strip() else {}
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        raise _Unreadable(str(exc).split("\n", 1)[0]) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _Unreadable("frontmatter is not a mapping")
    return {str(k): v for k, v in data.items()}


def read_block(text: Text) -> dict[str, Any]:
    """The frontmatter of `text` as loaded by `load_yaml` (empty without frontmatter); refuses invalid YAML."""
    close = text.frontmatter_close()
    if close is None:
        return {}
    try:
        return _load(text.contents()[1:close])
    except _Unreadable as exc:
        raise BankError(f"Refused (frontmatter): the YAML header does not parse ({exc}). Fix it first: quote "
                        f"values containing ': ' (setting a field rewrites one value with safe quoting).",
                        see="set_field") from None


def key_blocks(block: list[str]) -> dict[str, tuple[int, int]]:
    """Top-level keys of a frontmatter block → `(first line, end)` indexes (end exclusive).

    A key's block is its line plus the lines that continue it: indented lines and `- ` items at
    column 0. Blank lines belong to it only when a continuation line follows them.
    """
    out: dict[str, tuple[int, int]] = {}
    index = 0
    while index < len(block):
        match = _TOP_KEY.match(block[index])
        if not match:
            index += 1
            continue
        key = match.group("key").strip("'\"")
        end = index + 1
        probe = end
        while probe < len(block):
            line = block[probe]
            if not line.strip():
                probe += 1
                continue
            if line[0] in " \t" or _ITEM.match(line):
                probe += 1
                end = probe
                continue
            break
        out.setdefault(key, (index, end))
        index = end
    return out


# -- rendering ---------------------------------------------------------------------------------

def _reads_back(rendered: str, want: Any) -> bool:
    try:
        got = load_yaml(f"k: {rendered}")
    except (yaml.YAMLError, ValueError, TypeError):
        return False
    return isinstance(got, dict) and set(got) == {"k"} and type(got["k"]) is type(want) and got["k"] == want


def _single(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _double(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


_PLAIN_SAFE = re.compile(r"^[A-Za-z_][A-Za-z0-9_ ./-]*$")
_KEYWORDS = frozenset({"true", "false", "null", "~"})


def quote_string(value: str, style: str = "plain") -> str:
    """Render a string so YAML reads it back as that same string, preferring `style`.

    Order tried: the given style, then plain, single-quoted, double-quoted (always works). Words
    and paths that are plainly safe skip the YAML round trip.
    """
    if style == "plain" and _PLAIN_SAFE.match(value) and value.lower() not in _KEYWORDS \
            and not value.endswith((" ", ":")):
        return value
    order = {"plain": ("plain", "single", "double"), "single": ("single", "double"),
             "double": ("double",)}[style]
    for candidate in order:
        rendered = {"plain": value, "single": _single(value) if "\n" not in value else None,
                    "double": _double(value)}[candidate]
        if rendered is not None and rendered and _reads_back(rendered, value):
            return rendered
    return _double(value)


def render_scalar(value: Any) -> str:
    """A scalar of any YAML type as one line of text (dates stay dates, numbers numbers)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if value is None:
        return "null"
    return quote_string(str(value))


def _render_item(value: Any, indent: str) -> list[str]:
    if isinstance(value, dict) and value:
        lines = []
        for i, (key, item) in enumerate(value.items()):
            lead = f"{indent}- " if i == 0 else indent + "  "
            lines.append(f"{lead}{key}: {render_scalar(item)}")
        return lines
    return [f"{indent}- {render_scalar(value)}"]


def render_key(key: str, value: Any, indent: str = "  ") -> list[str]:
    """One top-level key as frontmatter lines: scalar, block list (items may be flat mappings)."""
    if isinstance(value, (list, tuple)):
        if not value:
            return [f"{key}: []"]
        lines = [f"{key}:"]
        for item in value:
            lines.extend(_render_item(item, indent))
        return lines
    if isinstance(value, dict):
        dumped = yaml.safe_dump({key: value}, default_flow_style=False, sort_keys=False, allow_unicode=True,
                                width=4096)
        return dumped.rstrip("\n").split("\n")
    return [f"{key}: {render_scalar(value)}"]


def render_frontmatter(data: dict[str, Any]) -> list[str]:
    """Frontmatter lines (without the `---` fences) for a new document, verified by reading back."""
    lines: list[str] = []
    for key, value in data.items():
        lines.extend(render_key(key, value))
    try:
        back = _load(lines)
    except _Unreadable as exc:
        raise BankError(f"Refused (frontmatter): the values cannot be written as YAML ({exc}). "
                        f"Simplify the extra values.") from None
    if back != _plain(data):
        raise BankError("Refused (frontmatter): a value would not read back unchanged from YAML. "
                        "Pass plain strings, numbers, lists or flat mappings.")
    return lines


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# -- editing -----------------------------------------------------------------------------------

def _ensure_frontmatter(text: Text) -> int:
    close = text.frontmatter_close()
    if close is None:
        text.insert(0, ["---", "---"])
        close = 1
    return close


def _insert_at(blocks: dict[str, tuple[int, int]], block_len: int, key: str) -> int:
    """Block index where a new key goes: before the first later key of KEY_ORDER, else at the end."""
    if key in KEY_ORDER:
        later = KEY_ORDER[KEY_ORDER.index(key) + 1:]
        starts = [blocks[k][0] for k in later if k in blocks]
        if starts:
            return min(starts)
    if key == "title" and blocks:
        return min(start for start, _ in blocks.values())
    return block_len


def _key_lines(text: Text, close: int, key: str) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """The header's lines (before line `close`) and its key blocks, for a line edit of `key` (held once)."""
    block = text.contents()[1:close]
    _only_once(block, key)
    return block, key_blocks(block)


def _only_once(block: list[str], key: str) -> None:
    """Refuse to edit a key the header holds twice: YAML reads the last, line edits would touch the first."""
    count = 0
    for line in block:
        match = _TOP_KEY.match(line)
        if match and match.group("key").strip("'\"") == key:
            count += 1
    if count > 1:
        raise BankError(f"Refused (frontmatter): `{key}` appears {count} times in the header, and YAML reads only "
                        f"the last. Delete the extra `{key}` lines by hand first.")


def _split_value(rest: str) -> tuple[str, str, str] | None:
    """Split the text after `key:` into `(style, value text, trailing comment)`; None if not one line."""
    if not rest:
        return None
    head = rest[0]
    quoted = _QUOTED.get(head)
    if quoted is not None:
        match = quoted.match(rest)
        if match is None:
            return None  # the quote closes on a later line
        value, trailing = match.group(0), rest[match.end():]
        style = "single" if head == "'" else "double"
    elif head in "|>[{&*!%@`":
        return None
    else:
        match = re.search(r"[ \t]#", rest)
        cut = match.start() if match else len(rest)
        value = rest[:cut].rstrip()
        trailing = rest[len(value):]
        style = "plain"
    if trailing.strip() and not trailing.lstrip().startswith("#"):
        return None
    return style, value, trailing


def _typed(value: str, old: Any) -> Any:
    """The value the new text should read back as: a date stays a date, a number a number."""
    if isinstance(old, str) or old is None:
        if _ISO_DATE.match(value) and old is None:
            try:
                return _dt.date.fromisoformat(value)
            except ValueError:
                return value
        return value
    try:
        candidate = load_yaml(f"k: {value}")["k"]
    except (yaml.YAMLError, ValueError, TypeError, KeyError):
        return value
    if type(candidate) is type(old):
        return candidate
    return value


def _verify(before: list[str], after: list[str], changed: dict[str, Any]) -> None:
    """Refuse unless `after` reads back as `before` with exactly the keys in `changed` changed.

    A header that did not parse before (the usual unquoted `: `) is compared through the lenient
    line reader on both sides, so an edit may repair it but never disturb the other keys.
    """
    try:
        old = _load(before)
        lenient = False
    except _Unreadable:
        lenient = True
    try:
        new = _load(after)
    except _Unreadable:
        if not lenient:
            raise BankError("Refused (frontmatter): the edit would break the YAML header. "
                            "Nothing was written; edit this value by hand.") from None
        new = None
    if lenient:
        old, seen = lenient_frontmatter("\n".join(before)), lenient_frontmatter("\n".join(after))
    else:
        seen = new
    for key in set(old) | set(seen):
        if key in changed:
            want = changed[key]
            if want is REMOVE:
                ok = key not in seen
            else:
                ok = new is None or new.get(key) == _plain(want)
        else:
            ok = old.get(key) == seen.get(key)
        if not ok:
            raise BankError(f"Refused (frontmatter): writing `{next(iter(changed))}` would change how "
                            f"`{key}` reads. Nothing was written; edit the header by hand.")


def _splice(text: Text, block: list[str], start: int, end: int, lines: list[str], changed: dict[str, Any]) -> None:
    """Replace block lines `start:end` (an empty range inserts) with `lines`, after verifying the result.

    Lines that stay the same keep their bytes (and their own line endings).
    """
    _verify(block, block[:start] + lines + block[end:], changed)
    for offset in range(min(end - start, len(lines))):
        if block[start + offset] != lines[offset]:
            text.set_content(1 + start + offset, lines[offset])
    if end - start > len(lines):
        text.delete(1 + start + len(lines), 1 + end)
    elif len(lines) > end - start:
        text.insert(1 + end, lines[end - start:])


def set_scalar(text: Text, key: str, value: str) -> Any:
    """Set one top-level scalar; returns the value YAML now reads. Changes one line when the key exists.

    The line keeps its quoting style when YAML reads the new value back unchanged; otherwise the
    simplest quoting that does is chosen. A missing key is added (title first, governed keys in
    order, others at the end). A value spread over several lines is replaced by one line.
    """
    close = _ensure_frontmatter(text)
    block, blocks = _key_lines(text, close, key)
    try:
        old_value = _load(block).get(key)
    except _Unreadable:
        old_value = lenient_frontmatter("\n".join(block)).get(key)
    want = _typed(value, old_value)
    if key in blocks:
        start, end = blocks[key]
        line = block[start]
        match = _TOP_KEY.match(line)
        assert match is not None
        parts = _split_value(line[match.end():]) if end == start + 1 else None
        if parts is not None:
            style, _, trailing = parts
            rendered = _render_typed(want, style)
            new_line = f"{line[:match.end()]}{rendered}{trailing}"
            _splice(text, block, start, end, [new_line], {key: want})
            return want
        _splice(text, block, start, end, [f"{key}: {_render_typed(want, 'plain')}"], {key: want})
        return want
    at = _insert_at(blocks, len(block), key)
    _splice(text, block, at, at, [f"{key}: {_render_typed(want, 'plain')}"], {key: want})
    return want


def _render_typed(want: Any, style: str) -> str:
    if isinstance(want, str):
        return quote_string(want, style)
    return render_scalar(want)


def remove_key(text: Text, key: str) -> bool:
    """Delete a top-level key and its continuation lines; False when absent."""
    close = text.frontmatter_close()
    if close is None:
        return False
    block, blocks = _key_lines(text, close, key)
    if key not in blocks:
        return False
    start, end = blocks[key]
    _splice(text, block, start, end, [], {key: REMOVE})
    return True


def set_list(text: Text, key: str, items: list[Any]) -> None:
    """Make a top-level list key hold `items` (an empty list removes the key).

    Block lists are edited item by item (kept items keep their bytes, new ones copy the existing
    items' indentation); other shapes go through ruamel round-trip of the block, splicing back
    only this key's lines.
    """
    if not items:
        remove_key(text, key)
        return
    close = _ensure_frontmatter(text)
    block, blocks = _key_lines(text, close, key)
    try:
        current = _load(block).get(key)
    except _Unreadable:
        read_block(text)  # raises the readable refusal
        raise
    if key in blocks and isinstance(current, list) and current:
        start, end = blocks[key]
        if block[start][_TOP_KEY.match(block[start]).end():].split("#", 1)[0].strip() == "":
            new_block = _edit_block_list(block, start, end, current, items)
            if new_block is not None:
                _splice(text, block, start, end, new_block[start:len(new_block) - (len(block) - end)], {key: items})
                return
    new_lines = _ruamel_key_lines(block, key, items)
    if key in blocks:
        _splice(text, block, *blocks[key], new_lines, {key: items})
    else:
        at = _insert_at(blocks, len(block), key)
        _splice(text, block, at, at, new_lines, {key: items})


def _identity(value: Any) -> str:
    """A hashable stand-in for a plain list item (items may be mappings), so matching stays linear."""
    if isinstance(value, str):
        return "s" + value
    return "j" + json.dumps(value, sort_keys=True, default=repr)


def _edit_block_list(block: list[str], start: int, end: int, current: list[Any],
                     items: list[Any]) -> list[str] | None:
    """Line-level edit of a block list: drop removed items' lines, append new items after the last."""
    starts = [i for i in range(start + 1, end) if _ITEM.match(block[i])]
    if not starts:
        return None
    indent = _ITEM.match(block[starts[0]]).group("indent")
    if any(_ITEM.match(block[i]).group("indent") != indent for i in starts) or len(starts) != len(current):
        return None  # nested lists or odd shapes: let ruamel handle it
    extents = [(s, starts[k + 1] if k + 1 < len(starts) else end) for k, s in enumerate(starts)]
    plain_current = _plain(current)
    plain_items = _plain(items)
    wanted = {_identity(v) for v in plain_items}
    kept: list[list[str]] = []
    used: list[Any] = []
    used_ids: set[str] = set()
    for (s, e), value in zip(extents, plain_current):
        ident = _identity(value)
        if ident in wanted and ident not in used_ids:
            used_ids.add(ident)
            used.append(value)
            lines = block[s:e]
            while lines and not lines[-1].strip():
                lines = lines[:-1]
            kept.append(lines)
    pending = set(used_ids)
    remaining = []
    for value in plain_items:  # every item but the first copy of each kept one
        ident = _identity(value)
        if ident in pending:
            pending.discard(ident)
        else:
            remaining.append(value)
    if [v for v in plain_items if _identity(v) in used_ids] != used:
        return None  # reordering: not a line edit
    body = [line for lines in kept for line in lines]
    for value in remaining:
        body.extend(_render_item(value, indent))
    tail = block[extents[-1][0]:end]
    trailing_blank = []
    while tail and not tail[-1].strip():
        trailing_blank.insert(0, tail.pop())
    return block[:start + 1] + body + trailing_blank + block[end:]


def _ruamel_key_lines(block: list[str], key: str, items: list[Any]) -> list[str]:
    """Render one key with ruamel round-trip of the whole block (indentation guessed) and cut its lines out.

    A block ruamel will not round-trip although PyYAML reads it (a duplicate key elsewhere, say)
    gets the key rendered plainly in the indentation of the block's first list item; the caller's
    verification still proves every other key reads as before.
    """
    from ruamel.yaml.error import YAMLError as RuamelError

    try:
        return _ruamel_render(block, key, items)
    except RuamelError:
        item = next((m for m in map(_ITEM.match, block) if m), None)
        return render_key(key, items, item.group("indent") if item else "  ")


def _ruamel_render(block: list[str], key: str, items: list[Any]) -> list[str]:
    from ruamel.yaml import YAML
    from ruamel.yaml.util import load_yaml_guess_indent

    source = "\n".join(block) + "\n"
    _, indent, offset = load_yaml_guess_indent(source) if source.strip() else (None, None, None)
    engine = YAML(typ="rt")
    engine.preserve_quotes = True
    engine.width = 4096
    engine.indent(mapping=2, sequence=indent or 4, offset=offset if offset is not None else 2)
    data = engine.load(source) if source.strip() else None
    if data is None:
        from ruamel.yaml.comments import CommentedMap
        data = CommentedMap()
    if key in data and isinstance(data[key], list):
        data[key][:] = items  # in place: a flow list stays a flow list
    elif key in data:
        data[key] = items
    else:
        keys = list(data.keys())
        position = len(keys)
        if key in KEY_ORDER:
            later = set(KEY_ORDER[KEY_ORDER.index(key) + 1:])
            position = next((i for i, k in enumerate(keys) if k in later), len(keys))
        data.insert(position, key, items)
    out = io.StringIO()
    engine.dump(data, out)
    dumped = out.getvalue().rstrip("\n").split("\n")
    blocks = key_blocks(dumped)
    start, end = blocks[key]
    return dumped[start:end]
