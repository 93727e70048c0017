"""Parse one markdown document into a `Doc` (§2.2): frontmatter, sections, links, lenient recovery."""

from __future__ import annotations

import bisect
import datetime as _dt
import functools
import re
import sys
from collections.abc import Mapping
from typing import Any

from .echo import echoes
from .headings import scan_lines
from .limits import ALIAS_EXPANSION_LIMIT, BODY_INDEX_MAX, FRONTMATTER_MAX, LINKS_MAX
from .paths import DEFAULT_LAYERS, layer_for, resolve_from
from .records import Doc, Edge, Link, RuleRef, front_row, heads_row, key_lines_row
from .regexes import compiled


@functools.cache
def _loader() -> type:
    """PyYAML's safe loader with YAML 1.2 core-schema implicit typing (built on first use).

    `yes`/`no`/`on`/`off` stay strings, `010` is ten, `1:20` is a string. Dates still load as dates.
    `yaml` is imported here, not at module import: the line scanner (`fast_frontmatter`) reads nearly
    every header, so a cold call that never meets an unusual header never pays for the import.
    """
    import yaml
    try:  # libyaml ships in the manylinux wheels; fall back to the pure loader elsewhere
        base = yaml.CSafeLoader
    except AttributeError:  # pragma: no cover - depends on the platform wheel
        base = yaml.SafeLoader

    class Yaml12Loader(base):  # type: ignore[misc,valid-type]
        pass

    Yaml12Loader.yaml_implicit_resolvers = {
        key: [(tag, rx) for tag, rx in resolvers
              if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
        for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Yaml12Loader.add_implicit_resolver(
        "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    Yaml12Loader.add_implicit_resolver(
        "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789"))
    Yaml12Loader.add_implicit_resolver(
        "tag:yaml.org,2002:float",
        re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)"
                   r"|\.(?:nan|NaN|NAN))$"),
        list("-+0123456789."))
    Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
    return Yaml12Loader


def _construct_int(loader: Any, node: Any) -> int:
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


def _yaml_error(message: str) -> Exception:
    import yaml
    return yaml.YAMLError(message)


def load_yaml(text: str) -> Any:
    """Load one YAML document with the YAML 1.2 typing above (raises `yaml.YAMLError`).

    Aliases are checked when the text uses any: an alias inside its own anchor (`k: &x [1, *x]`)
    builds a structure that contains itself, and nested aliases can expand exponentially (a
    "billion laughs" header). Every later walk (JSON output, comparisons, writers) would run forever
    on either, so both are refused as YAML errors and the document is read leniently like any
    other unparsable header.
    """
    import yaml
    value = yaml.load(text, Loader=_loader())  # noqa: S506 - a safe loader subclass
    if "*" in text:
        _check_aliases(value)
    return value


def _check_aliases(root: Any) -> None:
    """Refuse a loaded value that contains itself or expands past `ALIAS_EXPANSION_LIMIT` values.

    Iterative (headers may nest thousands deep); sizes are memoised per container, so shared
    aliases are counted as often as they expand but walked once.
    """
    size: dict[int, int] = {}
    open_ids: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if not isinstance(node, (dict, list)):
            continue
        key = id(node)
        items = list(node.values()) if isinstance(node, dict) else node
        if done:
            open_ids.discard(key)
            total = 1 + sum(size.get(id(i), 1) for i in items)
            if total > ALIAS_EXPANSION_LIMIT:
                raise _yaml_error(f"YAML aliases expand past {ALIAS_EXPANSION_LIMIT:,} values")
            size[key] = total
            continue
        if key in size:
            continue
        if key in open_ids:
            raise _yaml_error("a YAML alias refers to its own anchor (a structure that contains itself)")
        open_ids.add(key)
        stack.append((node, True))
        stack.extend((item, False) for item in items if isinstance(item, (dict, list)) and id(item) not in size)


_KEY_NAME = compiled(r"[A-Za-z_][A-Za-z0-9_-]*")
_KEY_NAMES: dict[str, bool] = {}  # banks repeat a few dozen keys: each is matched once per process


def _plain_key(name: str) -> bool:
    """Whether the scanner reads `name:` as a key: a key name, and not one YAML would type (`null`, `true`)."""
    found = _KEY_NAMES.get(name)
    if found is None:
        found = _KEY_NAME.fullmatch(name) is not None and name not in _FAST_NULL and name not in _FAST_BOOL
        if len(_KEY_NAMES) < 4096:
            _KEY_NAMES[name] = found
    return found
_FAST_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_FAST_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_FAST_INT = compiled(r"[-+]?[0-9]+$")
_FAST_DATE = compiled(r"([0-9]{4})-([0-9]{2})-([0-9]{2})$")  # YAML: 2024-1-2 is a string
_FAST_NUMBERISH = compiled(r"[-+]?\.?[0-9]")
_FAST_NUMBER_START = frozenset("+-.0123456789")  # the first characters `_FAST_NUMBERISH` can match
_FAST_UNSAFE_START = frozenset("[]{}&*!|>%@`,?#-'\"")
_MISS = object()


def _fast_scalar(text: str) -> Any:
    """A plain or simply quoted one-line scalar, typed like `Yaml12Loader`; `_MISS` when unsure.

    The tests that need a pass over the text run only when a one-character test says they could
    hold (`": "` only where a `:` is), and the typed forms only where their first character fits
    (issue 15: every value of every header goes through here once per build)."""
    if not text:
        return None
    if "\t" in text:
        return _MISS
    first = text[0]
    if first == "'":
        if len(text) >= 2 and text[-1] == "'" and "'" not in text[1:-1].replace("''", ""):
            return text[1:-1].replace("''", "'")
        return _MISS
    if first == '"':
        if len(text) >= 2 and text[-1] == '"' and '"' not in text[1:-1] and "\\" not in text:
            return text[1:-1]
        return _MISS
    if (first in _FAST_UNSAFE_START or text[-1] == ":" or (":" in text and ": " in text)
            or ("#" in text and " #" in text)):
        return _MISS
    if len(text) <= 5:  # the longest null or bool (`false`)
        if text in _FAST_NULL:
            return None
        if text in _FAST_BOOL:
            return _FAST_BOOL[text]
    if first in _FAST_NUMBER_START and _FAST_NUMBERISH.match(text):
        if _FAST_INT.match(text):
            return int(text)
        date = _FAST_DATE.match(text)
        if date:
            try:
                return _dt.date(int(date.group(1)), int(date.group(2)), int(date.group(3)))
            except ValueError:
                return _MISS
        return _MISS  # floats, times, 0x/0o: let YAML decide
    if first == "." and text.lower() in (".inf", ".nan"):  # (a `0x`/`0o` start is numberish: decided above)
        return _MISS
    return text


_SKIP = (0,)  # a blank line or a comment at column 0
_DEFER = (-1,)  # a line the scanner does not model: YAML reads the block
_LINES: dict[str, tuple] = {}  # line -> what `_scan_line` makes of it, for the lines banks repeat
_LINES_MAX = 8192


def _scan_line(line: str) -> tuple:
    """What one frontmatter line is, on its own: `_SKIP`, `_DEFER`, `(1, item value, indent)` or
    `(2, key, value, opens a list)`. Stateless, so a line seen before (`status: active`, `  - ../x.md`)
    is answered from `_LINES` (issue 15: the cold build; values are immutable scalars, safe to share).

    Blank lines and comments at column 0 are skipped; any other line led by whitespace but a space
    (a tab, an indented comment, which may sit inside a block we do not model) defers to YAML."""
    if not line:
        return _SKIP
    first = line[0]
    if first == "#":
        return _SKIP
    if first == " " or first == "-":  # an item line: `[ ]*- (.*)$`
        if first == " " and line.isspace():
            return _SKIP
        stripped = line.lstrip(" ")
        if not stripped.startswith("- "):
            return _DEFER
        raw_item = stripped[2:].strip(" ")
        value = _fast_scalar(raw_item)
        if value is _MISS or raw_item.startswith("-"):
            return _DEFER
        return (1, value, len(line) - len(stripped))
    if first.isspace():
        return _SKIP if line.isspace() else _DEFER
    name, colon, rest = line.partition(":")  # a key line: `name:( +(.*))?$`
    if not colon or (rest and rest[0] != " ") or not _plain_key(name):
        return _DEFER  # (a typed key, `null:` or `true:`, too: let YAML decide)
    raw = rest.strip(" ")
    value = _fast_scalar(raw)
    if value is _MISS:
        return _DEFER
    return (2, sys.intern(name), value, not raw)


def fast_frontmatter(lines: list[str], key_lines: dict[str, int] | None = None) -> dict[str, Any] | None:
    """Parse the common frontmatter shape without YAML, or return None to defer to YAML.

    Handles top-level `key: scalar` lines and `key:` followed by `- scalar` items — what nearly
    every bank header is — about ten times faster than the C loader. Anything else (nested maps,
    flow collections, block scalars, comments after values, anchors, escapes, floats, times) goes
    to `load_yaml`, so results never differ from it (a property test holds the two together).
    Keys are interned (every document repeats the same few). `key_lines`, when given, receives each
    key's 1-based file line (the block starts on line 2), as `_key_lines` would find them.
    """
    data: dict[str, Any] = {}
    key: str | None = None
    items: list[Any] | None = None
    open_key = False
    item_indent = 0
    memo = _LINES
    for number, line in enumerate(lines, 2):
        kind = memo.get(line)
        if kind is None:
            kind = _scan_line(line)
            if len(memo) < _LINES_MAX and len(line) < 200:
                memo[line] = kind
        tag = kind[0]
        if tag == 1:
            if key is None or (items is None and not open_key):
                return None
            if items is None:
                items = []
                data[key] = items
                item_indent = kind[2]
            elif kind[2] != item_indent:
                return None
            items.append(kind[1])
        elif tag == 2:
            key = kind[1]
            items = None
            open_key = kind[3]
            if key in data:
                return None  # duplicate keys: let YAML decide
            data[key] = kind[2]
            if key_lines is not None:
                key_lines[key] = number
        elif tag < 0:
            return None
    return data


_OPEN = compiled(r"---[ \t]*\r?\n")
_CLOSE = compiled(r"^---[ \t]*\r?$", re.M)  # the closing line, as `_close` finds it
_record = tuple.__new__  # a named tuple built in C, not through its Python `__new__` (fields in order)


def _close(text: str, start: int) -> tuple[int, int] | None:
    """`(start, end)` of the first `_CLOSE` match at or after `start` (which follows a line break),
    found with `str.find` instead of trying the pattern at every character of the frontmatter."""
    at = start - 1
    while True:
        at = text.find("\n---", at)
        if at < 0:
            return None
        begin = at + 1
        stop = text.find("\n", begin + 3)
        end = len(text) if stop < 0 else stop
        tail = text[begin + 3:end]
        if not tail.removesuffix("\r").strip(" \t"):
            return begin, end
        at = begin
# A link's text may hold backslash escapes (`\]`, `\[`, `\\`) and one level of balanced brackets.
_LINK = compiled(r"\[(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_SCHEME = compiled(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_CODE_SPAN = compiled(r"(`+)(?:(?!\1).)+?\1")
_RULE_REF = compiled(
    r"\b(?:defined|described|specified|owned|governed)\s+(?:by|in)\s+(?:the\s+)?"
    r"(?:`([^`\s]+\.md)`|\[[^\]]*\]\(([^)\s]+\.md)(?:#[^)]*)?\)|\[`?([^`\]\s]+\.md)`?\]|([\w./-]+\.md)\b)",
    re.IGNORECASE)
_CLAIM_VERBS = ("defined", "described", "specified", "owned", "governed")
_CLAIM_VERB_BYTES = tuple(verb.encode("ascii") for verb in _CLAIM_VERBS)
# The only non-ASCII characters `_RULE_REF`'s case-blind matching takes for one of its verbs' letters
# (İ and ı for i, ſ for s: every code point tried against each letter, tests/test_cold_build7.py).
_CLAIM_LOOKALIKES = ("\u0130", "\u0131", "\u017f")


def _may_claim(line: str) -> bool:
    """False when `line` holds none of `_RULE_REF`'s verbs, so its (slow) pass cannot match.

    An ASCII line is tested on its lower case. A non-ASCII one holding none of the three non-ASCII
    letters the pattern reads as a verb's letter is tested on its ASCII letters (each other character
    made `?`, which no verb holds); one holding any of them always goes to the regex.
    """
    if line.isascii():
        low = line.lower()
        return any(verb in low for verb in _CLAIM_VERBS)
    if any(char in line for char in _CLAIM_LOOKALIKES):
        return True
    low_bytes = line.encode("ascii", "replace").lower()
    return any(verb in low_bytes for verb in _CLAIM_VERB_BYTES)


_LENIENT_KEY = compiled(r"^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$")
_LENIENT_ITEM = compiled(r"^[ \t]*-[ \t]+(.*?)[ \t]*$")
_LENIENT_SUB = compiled(r"^[ \t]+([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$")


def text_of(value: Any) -> str | None:
    """A scalar frontmatter value as display text; lists and mappings give None."""
    if type(value) is str:  # nearly every value: what the checks below would make of it
        text = value.strip()
        return text or None
    if value is None or isinstance(value, (list, dict)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    text = str(value).strip()
    return text or None


def text_list(value: Any) -> tuple[str, ...]:
    """A scalar or list frontmatter value as a tuple of non-empty texts (other items dropped)."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        text = text_of(item)
        if text:
            out.append(text)
    return tuple(out)


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def lenient_frontmatter(text: str) -> dict[str, Any]:
    """Recover what a broken YAML header clearly says, line by line.

    `key: value` lines (one pair of matching quotes stripped), following `- item` lines form a list,
    and `- path: X` followed by an indented `fit: Y` forms an edge object.
    """
    data: dict[str, Any] = {}
    key: str | None = None
    for line in text.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _LENIENT_ITEM.match(line)
        if item and key is not None:
            value = item.group(1)
            current = data.get(key)
            if not isinstance(current, list):
                current = data[key] = []
            sub = _LENIENT_KEY.match(value)
            if sub and sub.group(1) == "path":
                current.append({"path": _unquote(sub.group(2) or "")})
            else:
                current.append(_unquote(value))
            continue
        sub = _LENIENT_SUB.match(line)
        if sub and key is not None and isinstance(data.get(key), list) and data[key] \
                and isinstance(data[key][-1], dict):
            data[key][-1][sub.group(1)] = _unquote(sub.group(2))
            continue
        top = _LENIENT_KEY.match(line)
        if top and not line[0].isspace():
            key = top.group(1)
            value = top.group(2)
            data[key] = _unquote(value) if value else None
    return data


def split_frontmatter(lines: list[str]) -> tuple[int | None, str | None]:
    """Find the frontmatter block. Returns `(closing line index, error)`.

    The block opens on a first line `---` and closes on the next line that is `---`. Index is None
    when the file has no frontmatter; an opening without a close is an error.
    """
    if not lines or lines[0].rstrip() != "---":
        return None, None
    for i in range(1, len(lines)):
        if lines[i].rstrip() == "---":
            return i, None
    return None, "frontmatter opened on line 1 is never closed by a `---` line"


def _key_lines(lines: list[str], close: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for index in range(1, close):
        match = _LENIENT_KEY.match(lines[index])
        if match and not lines[index][0].isspace() and match.group(1) not in out:
            out[match.group(1)] = index + 1
    return out


_ITEM_WINDOW = 64  # lines looked ahead for the next item: items are in order, so the walk stays linear


def _item_line(lines: list[str], start: int | None, end: int, raw: str, cursor: int) -> tuple[int | None, int]:
    """The line of the next item mentioning `raw`, at or after `cursor` (a 0-based index into `lines`).

    Returns `(1-based line, new cursor)`. Items are written in order, so each search starts where the
    last one was found and looks a bounded distance ahead: a 300,000-item list is one pass, not a
    scan from the key per item. An item not found there is placed at its key's line.
    """
    if start is None:
        return None, cursor
    for index in range(max(cursor, start - 1), min(end, max(cursor, start - 1) + _ITEM_WINDOW)):
        if raw in lines[index]:
            return index + 1, index
    return start, cursor


def _edges(path: str, value: Any, lines: list[str] | None = None, start: int | None = None,
           end: int = 0) -> tuple[Edge, ...]:
    """The `derived_from` items as edges; `lines` (the header's, from `---`), `start` (the key's line)
    and `end` place each item on its line as `_item_line` does (written out here, with the memo's
    look-up and `text_of` of a string item: the cold build meets several edges a document)."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    edges = []
    cursor = 0
    memo = _RESOLVED
    folder = path.rpartition("/")[0]
    place = lines is not None and start is not None
    for index, item in enumerate(items):
        fit = None
        if type(item) is str:
            raw = item.strip() or None  # text_of(item)
        elif isinstance(item, dict):
            raw = text_of(item.get("path"))
            fit = text_of(item.get("fit"))
        else:
            raw = text_of(item)
        if not raw:
            continue
        found = memo.get((folder, raw))
        target, external = found if found is not None else _resolved(path, raw)
        if target in (".", "") or target.endswith("/.."):
            continue
        line = None
        if place:  # _item_line(lines, start, end, raw, cursor)
            line = start
            at = cursor if cursor > start - 1 else start - 1  # type: ignore[operator]
            if at + 1 < end and raw not in lines[at] and raw in lines[at + 1]:  # type: ignore[index]
                line, cursor = at + 2, at + 1  # the usual: the line after the key's or the last item's
            else:
                for at in range(at, min(end, at + _ITEM_WINDOW)):
                    if raw in lines[at]:  # type: ignore[index]
                        line, cursor = at + 1, at
                        break
        # interned: a bank's edges name a few thousand targets tens of thousands of times (issue 15: memory)
        raw = sys.intern(raw)
        if items is value and type(item) is str and item == raw:
            value[index] = raw  # the frontmatter's list holds the same (equal) string once, not twice
        edges.append(_record(Edge, (raw, target, fit, external, line)))  # Edge(raw, target, fit, ...)
    return tuple(edges)


_RESOLVED: dict[tuple[str, str], tuple[str, bool]] = {}  # (folder, raw) -> `_resolve`, interned
_RESOLVED_MAX = 16384


def _resolved(path: str, raw: str) -> tuple[str, bool]:
    """`_resolve(path, raw)` with its target interned, remembered per (folder, raw): the documents of
    a folder name the same targets again and again (issue 15: the cold build resolves every edge)."""
    key = (path.rpartition("/")[0], raw)
    found = _RESOLVED.get(key)
    if found is None:
        target, external = _resolve(path, raw)
        found = (sys.intern(target), external)
        if len(_RESOLVED) < _RESOLVED_MAX and "//" not in path:  # `//` would make dirname differ
            _RESOLVED[key] = found
    return found


def drop_memos() -> None:
    """Forget the remembered lines and targets (a few MB at their caps): after a bulk build, so a
    server holds only its documents (issue 15: RSS); the next parses fill them again as needed."""
    _LINES.clear()
    _RESOLVED.clear()


def _resolve(path: str, raw: str) -> tuple[str, bool]:
    """`resolve_from(path, raw)` for a bank document's path, without `posixpath` for the common
    `../folder/name.md` or `name.md` target: leading `../` parts climb the document's folders, and
    a rest without `.`, `..` or empty parts is what `normpath` leaves of it. Anything else (and a
    target climbing above the root) goes to `resolve_from` (issue 15: a cold parse resolves every
    edge and link)."""
    rest = raw
    ups = 0
    while rest.startswith("../"):
        rest = rest[3:]
        ups += 1
    if (not rest or rest[0] in "./ \t" or rest[-1] in "/. \t" or "//" in rest or "/." in rest or "#" in rest
            or "\\" in rest or rest != rest.strip()):
        return resolve_from(path, raw)
    folder = path.rpartition("/")[0]
    depth = folder.count("/") + 1 if folder else 0
    if ups > depth:
        return resolve_from(path, raw)
    if ups == depth:  # up to the root (or from it): the rest is the path
        return rest, False
    if not ups:
        return folder + "/" + rest, False
    parts = folder.split("/")
    del parts[len(parts) - ups:]
    parts.append(rest)
    return "/".join(parts), False


def _in_ranges(line: int, ranges: list[tuple[int, int]]) -> bool:
    index = bisect.bisect_right(ranges, (line, 1 << 62)) - 1
    return index >= 0 and ranges[index][0] <= line <= ranges[index][1]


def _line_at(text: str, pos: int) -> str:
    begin = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[begin:] if end < 0 else text[begin:end]


def _in_code_span(text: str, pos: int) -> bool:
    begin = text.rfind("\n", 0, pos) + 1
    line = _line_at(text, pos)
    offset = pos - begin
    return any(m.start() < offset < m.end() for m in _CODE_SPAN.finditer(line))


def _scan_body(path: str, body: str, first_line: int
               ) -> tuple[list[tuple[str, int]], str | None, list[Link], list[RuleRef], int, int]:
    """Sections, first H1, links and rule references of a body, by regex passes over the whole text.

    At most `LINKS_MAX` links are kept; the fifth item is how many more were found (0 when none), the
    last the body's count of line breaks (`scan_lines` counts them).
    """
    sections: list[tuple[str, int]] = []
    headings, fences, breaks = scan_lines(body, first_line, sections)  # (level 2 into `sections`)
    h1 = next((title for level, title, _ in headings if level == 1), None)
    links: list[Link] = []
    refs: list[RuleRef] = []
    more_links = 0
    if "]" in body and "](" in body:  # (a one-character search first: bodies without links skip the slow pair search)
        ticks = "`" in body  # no backtick in the body: no link can sit in a code span
        line, pos = first_line, 0
        for match in _LINK.finditer(body):
            line += body.count("\n", pos, match.start())
            pos = match.start()
            raw = match.group(1)
            bare = raw.split("#", 1)[0]
            if not bare.endswith(".md") or _SCHEME.match(raw) or raw.startswith("/"):
                continue
            if (fences and _in_ranges(line, fences)) or (
                    ticks and "`" in _line_at(body, pos) and _in_code_span(body, pos)):
                continue
            if len(links) >= LINKS_MAX:
                more_links += 1
                continue
            target, external = _resolved(path, bare)
            links.append(_record(Link, (target, raw, line, external)))
    at = body.find(".md")
    if at >= 0 and _may_claim(body):
        # (a body none of whose lines can claim, as `_may_claim` on the whole body tells, is skipped)
        # Claims are rare and always end in ".md": find those, then match only their lines.
        seen_lines: set[int] = set()
        line, pos = first_line, 0
        while at >= 0:
            begin = body.rfind("\n", 0, at) + 1
            line += body.count("\n", pos, begin)
            pos = begin
            if begin not in seen_lines:
                seen_lines.add(begin)
                text = _line_at(body, at)
                if not (fences and _in_ranges(line, fences)) and _may_claim(text):
                    for match in _RULE_REF.finditer(text):
                        refs.append(RuleRef(raw=next(g for g in match.groups() if g), line=line))
            at = body.find(".md", at + 3)
    return sections, h1, links, refs, more_links, breaks


_WRAPPED = compiled(r"^(\*\*|__|\*|_|`)((?:(?!\1).)+)\1$")


def _plain_title(h1: str | None) -> str | None:
    """An H1 used as the title, without emphasis wrapping the whole heading (`**Status**` → `Status`)."""
    if not h1:
        return h1
    match = _WRAPPED.match(h1.strip())
    return match.group(2).strip() if match and match.group(2).strip() else h1


def _read_frontmatter(lines: list[str], block: str, close: int
                      ) -> tuple[dict[str, Any], str | None, int | None, dict[str, int] | None]:
    """`(values, YAML error, error line, key lines)` of a frontmatter block; a broken one is read line by line.

    Key lines come back only when the line scanner read the block (it meets every key line on its
    way); otherwise they are None and the caller finds them with `_key_lines`.
    """
    key_lines: dict[str, int] = {}
    try:
        loaded = fast_frontmatter(lines, key_lines)
        if loaded is not None:
            return loaded, None, None, key_lines
        loaded = load_yaml(block) if block.strip() else {}
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise _yaml_error(f"frontmatter is a {type(loaded).__name__}, not a mapping of keys")
        return {sys.intern(str(k)): v for k, v in loaded.items()}, None, None, None
    except Exception as exc:  # noqa: BLE001 - YAML's own errors and the few built-in ones it lets through
        if not isinstance(exc, (ValueError, TypeError, RecursionError)) and not _is_yaml_error(exc):
            raise
        first = str(exc).strip().split("\n", 1)[0] or type(exc).__name__
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        # YAML also breaks lines at U+0085/U+2028/U+2029, so its count can run past ours: clamp
        # to the frontmatter, where the error is (close + 1 is the closing `---` line)
        error_line = min(mark.line + 2, close + 1) if mark is not None else 2
        return lenient_frontmatter(block), first, error_line, None


def _is_yaml_error(exc: Exception) -> bool:
    yaml = sys.modules.get("yaml")  # raised only once YAML ran, so the module is loaded
    return yaml is not None and isinstance(exc, yaml.YAMLError)


def parse_document(path: str, data: bytes, mtime_ns: int = 0,
                   layer_map: Mapping[str, str] | None = None, whole: tuple[int, int] | None = None,
                   version: str = "") -> Doc:
    """Parse raw file bytes into a `Doc`. Never raises on content: problems land in `parse_error`.

    `whole` is `(size, line count)` of the file when `data` is only its head (whole lines of a file
    over BODY_INDEX_MAX, see `bank._read_head`): such a file's body is not indexed, so its head is all
    the parse needs; a frontmatter not closed within the head is over its cap and read line by line.
    """
    errors: list[str] = []
    bad_line = 1  # where the first error is: the first byte that is not UTF-8, else line 1
    size = len(data) if whole is None else whole[0]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        bad_line = data.count(b"\n", 0, exc.start) + 1
        errors.append(f"not valid UTF-8 (byte {exc.start}, line {bad_line}); decoded with replacement characters")
    if "\x00" in text:
        errors.append("contains NUL bytes; is this a binary file?")
    # a CR is rare: one memchr finds none, where the two-character search of a 4 KB slice costs ~30× as much
    newline = "\r\n" if text.find("\r", 0, 4096) >= 0 and "\r\n" in text[:4096] else "\n"
    meta: dict[str, Any] = {}
    has_frontmatter = False
    body_offset = 0
    close = None
    key_lines: dict[str, int] = {}
    fm_lines: list[str] = []
    error_line: int | None = None
    header_breaks = 0  # line breaks before the body (its own are counted by its scan)
    same_keys = False  # `key_lines` has `meta`'s keys in `meta`'s order (the line scanner read both)
    head = _OPEN.match(text)
    if head:
        end_match = _close(text, head.end())
        if end_match is None and whole is not None:  # the close lies past the head, so the block is over its
            block = text[head.end():].replace("\r\n", "\n")  # cap: read its start line by line, as below
            kept = block[:FRONTMATTER_MAX].rpartition("\n")[0]
            has_frontmatter = True
            fm_lines = ["---", *kept.split("\n")] if kept else ["---"]
            errors.insert(0, f"frontmatter is over the {FRONTMATTER_MAX:,}-character limit (not closed in the "
                             f"first {len(data):,} bytes); its first {len(fm_lines) - 1:,} lines were read "
                             "line by line")
            key_lines = _key_lines(fm_lines, len(fm_lines))
            meta, error_line = lenient_frontmatter(kept), 2
            body_offset = len(text)
        elif end_match is None:
            errors.append("frontmatter opened on line 1 is never closed by a `---` line")
        else:
            has_frontmatter = True
            block = text[head.end():end_match[0]]
            lines = block.split("\n")
            crs = "\r" in block
            if crs:
                lines = [line[:-1] if line.endswith("\r") else line for line in lines]
            if lines and lines[-1] == "":
                lines.pop()
            close = len(lines) + 1
            body_offset = end_match[1]
            if body_offset < len(text) and text[body_offset] == "\n":
                body_offset += 1
            header_breaks = close + body_offset - end_match[1]  # the opening line's and the block's, then the close's
            fm_lines = ["---", *lines]
            # the lines joined again: a block without CRs ends with its last line's break (or is empty)
            block = "\n".join(lines) if crs else block[:-1]
            if len(block) > FRONTMATTER_MAX:
                # Bounded work for any header: only what fits the cap is read, line by line, never by YAML
                kept = block[:FRONTMATTER_MAX].rpartition("\n")[0]
                fm_lines = fm_lines[:kept.count("\n") + 2] if kept else fm_lines[:1]
                errors.insert(0, f"frontmatter is {len(block):,} characters, over the {FRONTMATTER_MAX:,}-character "
                                 f"limit; its first {len(fm_lines) - 1:,} lines were read line by line")
                key_lines = _key_lines(fm_lines, len(fm_lines))
                meta, error_line = lenient_frontmatter(kept), 2
            else:
                meta, problem, error_line, found_lines = _read_frontmatter(lines, block, close)
                key_lines = found_lines if found_lines is not None else _key_lines(fm_lines, close)
                same_keys = found_lines is not None
                if problem:
                    errors.insert(0, problem)
    body_line = (close + 2) if close is not None else 1
    notes: list[str] = []
    metadata_only = size > BODY_INDEX_MAX
    if metadata_only:  # bounded work for any file: its body is neither scanned nor indexed
        sections, h1, links, refs, more_links, body = [], None, [], [], 0, ""
        breaks = text.count("\n", body_offset) if whole is None else 0
        notes.append(f"the file is {size:,} bytes, over the {BODY_INDEX_MAX:,}-byte body limit; only its "
                     "frontmatter is indexed (no sections, links or body search)")
    else:
        body = text[body_offset:]
        sections, h1, links, refs, more_links, breaks = _scan_body(path, body, body_line)
    if whole is None:  # the body's line breaks came from its scan: only the header's are counted here
        line_count = header_breaks + breaks + (1 if text and not text.endswith("\n") else 0)
    else:
        line_count = whole[1]
    if more_links:
        notes.append(f"it has {len(links) + more_links:,} links; only the first {LINKS_MAX:,} are indexed")
    stem = path.rpartition("/")[2][:-3] if path.endswith(".md") else path.rpartition("/")[2]
    title = text_of(meta.get("title")) or _plain_title(h1) or stem
    purpose = text_of(meta.get("purpose"))
    front = front_row(meta)
    # positional, in `Doc`'s field order: binding 31 keywords cost ~4 µs a document (issue 15: the cold build)
    return Doc(
        path, title,  # path, title
        text_of(meta.get("doc_kind")), text_of(meta.get("doc_function")), purpose,  # doc_kind, doc_function, purpose
        text_of(meta.get("status")), text_of(meta.get("delivery_status")),  # status, delivery_status
        text_of(meta.get("decision_status")),  # decision_status
        _edges(path, meta.get("derived_from"), fm_lines if has_frontmatter else None,  # derived_from
               key_lines.get("derived_from"), len(fm_lines) if has_frontmatter else 0),
        text_list(meta.get("canonical_for")), text_list(meta.get("must_not_define")),  # canonical_for, must_not_define
        text_list(meta.get("anchors")),  # anchors
        front, heads_row(sections), tuple(links), tuple(refs),  # front, heads, links, rule_refs
        size, mtime_ns,  # bytes, mtime_ns
        layer_for(path, layer_map if layer_map is not None else DEFAULT_LAYERS),  # layer
        "; ".join(errors) if errors else None,  # parse_error
        has_frontmatter, body_line, line_count, h1,  # has_frontmatter, body_line, line_count, h1
        version, newline,  # version, newline
        (front[0], tuple(key_lines.values())) if same_keys else key_lines_row(key_lines),  # key_rows
        error_line if error_line is not None else (bad_line if errors else None),  # error_line
        metadata_only, "; ".join(notes) if notes else None,  # metadata_only, limit_note
        not metadata_only and echoes(purpose, body),  # purpose_echo
    )
