"""Parse one markdown document into a `Doc` (§2.2): frontmatter, sections, links, lenient recovery."""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

import yaml

from .headings import scan_headings
from .paths import DEFAULT_LAYERS, layer_for, resolve_from
from .records import Doc, Edge, Link, RuleRef, Section

try:  # libyaml ships in the manylinux wheels; fall back to the pure loader elsewhere
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the platform wheel
    _BaseLoader = yaml.SafeLoader  # type: ignore[misc]


class Yaml12Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """PyYAML's safe loader with YAML 1.2 core-schema implicit typing.

    `yes`/`no`/`on`/`off` stay strings, `010` is ten, `1:20` is a string. Dates still load as dates.
    """


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
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def _construct_int(loader: yaml.SafeLoader, node: yaml.Node) -> int:
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def load_yaml(text: str) -> Any:
    """Load one YAML document with the YAML 1.2 typing above (raises `yaml.YAMLError`)."""
    return yaml.load(text, Loader=Yaml12Loader)  # noqa: S506 - a safe loader subclass


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_RULE_REF = re.compile(
    r"\b(?:defined|described|specified|owned|governed)\s+(?:by|in)\s+(?:the\s+)?"
    r"(?:`([^`\s]+\.md)`|\[[^\]]*\]\(([^)\s]+\.md)(?:#[^)]*)?\)|\[`?([^`\]\s]+\.md)`?\]|([\w./-]+\.md)\b)",
    re.IGNORECASE)
_LENIENT_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$")
_LENIENT_ITEM = re.compile(r"^[ \t]*-[ \t]+(.*?)[ \t]*$")
_LENIENT_SUB = re.compile(r"^[ \t]+([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$")


def text_of(value: Any) -> str | None:
    """A scalar frontmatter value as display text; lists and mappings give None."""
    if value is None or isinstance(value, (list, dict)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    text = str(value).strip()
    return text or None


def _text_list(value: Any) -> tuple[str, ...]:
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


def _edges(path: str, value: Any) -> tuple[Edge, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    edges = []
    for item in items:
        fit = None
        if isinstance(item, dict):
            raw = text_of(item.get("path"))
            fit = text_of(item.get("fit"))
        else:
            raw = text_of(item)
        if not raw:
            continue
        target, external = resolve_from(path, raw)
        if target in (".", "") or target.endswith("/.."):
            continue
        edges.append(Edge(raw=raw, target=target, fit=fit, external=external))
    return tuple(edges)


def _scan_body(path: str, lines: list[str], start: int) -> tuple[list[Section], str | None, list[Link], list[RuleRef]]:
    sections: list[Section] = []
    links: list[Link] = []
    refs: list[RuleRef] = []
    h1: str | None = None
    for level, title, index in scan_headings(lines, start):
        if level == 2:
            sections.append(Section(title=title, line=index + 1))
        elif level == 1 and h1 is None:
            h1 = title
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
        if fence is not None:
            continue
        if "](" in line:
            plain = _CODE_SPAN.sub("", line) if "`" in line else line
            for match in _LINK.finditer(plain):
                raw = match.group(1)
                bare = raw.split("#", 1)[0]
                if not bare.endswith(".md") or _SCHEME.match(raw) or raw.startswith("/"):
                    continue
                target, external = resolve_from(path, bare)
                links.append(Link(target=target, raw=raw, line=index + 1, external=external))
        if ".md" in line:
            for match in _RULE_REF.finditer(line):
                raw = next(g for g in match.groups() if g)
                refs.append(RuleRef(raw=raw, line=index + 1))
    return sections, h1, links, refs


def parse_document(path: str, data: bytes, mtime_ns: int = 0,
                   layer_map: dict[str, str] | None = None) -> Doc:
    """Parse raw file bytes into a `Doc`. Never raises on content: problems land in `parse_error`."""
    errors: list[str] = []
    size = len(data)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        errors.append(f"not valid UTF-8 (byte {exc.start}); decoded with replacement characters")
    if "\x00" in text:
        errors.append("contains NUL bytes; is this a binary file?")
    newline = "\r\n" if "\r\n" in text[:4096] else "\n"
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]

    close, fm_error = split_frontmatter(lines)
    meta: dict[str, Any] = {}
    has_frontmatter = close is not None
    body_start = 0
    if fm_error:
        errors.append(fm_error)
    if close is not None:
        body_start = close + 1
        block = "\n".join(lines[1:close])
        try:
            loaded = load_yaml(block) if block.strip() else {}
            if loaded is None:
                loaded = {}
            if not isinstance(loaded, dict):
                raise yaml.YAMLError(f"frontmatter is a {type(loaded).__name__}, not a mapping of keys")
            meta = {str(k): v for k, v in loaded.items()}
        except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
            first = str(exc).strip().split("\n", 1)[0] or type(exc).__name__
            errors.insert(0, first)
            meta = lenient_frontmatter(block)

    sections, h1, links, refs = _scan_body(path, lines, body_start)
    stem = path.rpartition("/")[2][:-3] if path.endswith(".md") else path.rpartition("/")[2]
    title = text_of(meta.get("title")) or h1 or stem
    return Doc(
        path=path,
        title=title,
        doc_kind=text_of(meta.get("doc_kind")),
        doc_function=text_of(meta.get("doc_function")),
        purpose=text_of(meta.get("purpose")),
        status=text_of(meta.get("status")),
        delivery_status=text_of(meta.get("delivery_status")),
        decision_status=text_of(meta.get("decision_status")),
        derived_from=_edges(path, meta.get("derived_from")),
        canonical_for=_text_list(meta.get("canonical_for")),
        must_not_define=_text_list(meta.get("must_not_define")),
        anchors=_text_list(meta.get("anchors")),
        frontmatter=meta,
        sections=tuple(sections),
        links=tuple(links),
        rule_refs=tuple(refs),
        bytes=size,
        mtime_ns=mtime_ns,
        layer=layer_for(path, layer_map if layer_map is not None else DEFAULT_LAYERS),
        parse_error="; ".join(errors) if errors else None,
        has_frontmatter=has_frontmatter,
        body_line=body_start + 1,
        line_count=len(lines),
        h1=h1,
        newline=newline,
    )
