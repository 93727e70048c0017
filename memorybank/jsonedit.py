"""Add one member or one array item to JSON text without re-formatting anything else.

Users hand-format `.mcp.json` and `.claude/settings.json` (inline arrays, tabs, CRLF). Re-dumping
the parsed document would rewrite all of it; these edits insert the new text right before the
container's closing bracket, imitating the layout of its existing items (one per line with their
indentation, or inline), so every other byte stays as it was. The caller checks the result parses
to what it expects (see `insert`).
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")

Path = tuple[str | int, ...]


def _skip(text: str, i: int) -> int:
    return _WS.match(text, i).end()


Spans = dict[Path, tuple[int, int]]
Members = dict[Path, list[tuple[int, int]]]


def _scan(text: str, i: int, path: Path, spans: Spans, members: Members) -> int:
    """Scan one value starting at or after `i`; return its end.

    Records, by key path, each container's `(start, end)` in `spans` and each of its direct members'
    `(start, end)` in `members` (an object member starts at its key, an array item at its value).
    """
    i = _skip(text, i)
    opener = text[i]
    if opener in "{[":
        start, closer, index = i, "}" if opener == "{" else "]", 0
        items = members.setdefault(path, [])
        i = _skip(text, i + 1)
        while text[i] != closer:
            item = i
            if opener == "{":
                key, i = scanstring(text, _skip(text, i) + 1)
                i = _skip(text, i) + 1  # the colon
                i = _scan(text, i, (*path, key), spans, members)
            else:
                i = _scan(text, i, (*path, index), spans, members)
                index += 1
            items.append((item, i))
            i = _skip(text, i)
            if text[i] == ",":
                i = _skip(text, i + 1)
        spans[path] = (start, i + 1)
        return i + 1
    if opener == '"':
        return scanstring(text, i + 1)[1]
    found = _SCALAR.match(text, i)
    if not found:
        raise ValueError(f"unexpected {text[i]!r} at offset {i}")
    return found.end()


def _layout(text: str) -> tuple[Spans, Members]:
    spans: Spans = {}
    members: Members = {}
    _scan(text, 0, (), spans, members)
    return spans, members


def container_spans(text: str) -> Spans:
    """`{key path: (start, end)}` of every object and array in a valid JSON document; `()` is the top."""
    return _layout(text)[0]


def indent_unit(text: str) -> str | None:
    """The file's indentation step (the first indented line's whitespace), or None for a one-line file."""
    found = re.search(r"\n([ \t]+)\S", text)
    if found:
        return found.group(1)
    return None if "\n" not in text.strip() else "  "


def _render(value: Any, unit: str | None, indent: str, newline: str) -> str:
    if unit is None:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, indent=unit).replace("\n", newline + indent)


def insert(text: str, path: Path, value: Any, key: str | None = None) -> str:
    """Insert `value` (as member `key` of an object, or as the last item of an array) at `path`.

    Raises KeyError when `path` is not a container in `text`. Layout: a multi-line container gets the
    item on its own line with its siblings' indentation; an inline one gets `, item` inline; an empty
    one opens onto new lines when the file is multi-line.
    """
    start, end = container_spans(text)[path]
    newline = "\r\n" if "\r\n" in text else "\n"
    unit = indent_unit(text)
    head = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
    inner = text[start + 1:end - 1]
    if not inner.strip():
        if unit is None:
            return text[:start + 1] + head + _render(value, None, "", newline) + text[end - 1:]
        line_start = text.rfind("\n", 0, start) + 1
        base = re.match(r"[ \t]*", text[line_start:start]).group(0)
        body = base + unit
        return (text[:start + 1] + newline + body + head + _render(value, unit, body, newline) + newline + base
                + text[end - 1:])
    lead = inner[:len(inner) - len(inner.lstrip())]
    last = end - 1
    while text[last - 1] in " \t\r\n":
        last -= 1
    if "\n" in lead:
        body = lead.rsplit("\n", 1)[1]
        item = "," + newline + body + head + _render(value, unit or "  ", body, newline)
    else:
        item = ", " + head + _render(value, None, "", newline)
    return text[:last] + item + text[last:]


def remove(text: str, path: Path, member: str | int) -> str:
    """Remove member `member` (a key, or an array index) of the container at `path`, undoing `insert`.

    The last member goes with the separator before it (exactly what `insert` added); another one
    with the separator after it; an only member leaves the container empty (`{}` / `[]`). Raises
    KeyError when `path` is not a container or the member is absent.
    """
    containers, members = _layout(text)
    start, end = containers[path]
    spans = members[path]
    value = json.loads(text[start:end])
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    if member not in keys:
        raise KeyError(member)
    at = keys.index(member)
    if len(spans) == 1:
        return text[:start + 1] + text[end - 1:]
    if at == len(spans) - 1:
        return text[:spans[at - 1][1]] + text[spans[at][1]:]
    return text[:spans[at][0]] + text[spans[at + 1][0]:]
