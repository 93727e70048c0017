"""Immutable records the index is made of: documents, edges, sections, links, findings."""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

from .frozen import Frozen, Value, assign

TEMPLATE_FOLDER = "flows/templates/"  # the bank's own templates (SPEC §10: the create writer reads them first)

# Edges, sections, links and rule references are named tuples, not dataclasses: a bank holds tens of
# thousands of them, and a tuple is built in C (`tuple.__new__`), so the parse cache restores them
# about 5× faster than a frozen dataclass's `__init__` (issue 15: ready, cold build).


class Edge(NamedTuple):
    """One `derived_from` item, resolved relative to the declaring document's folder.

    `target` is the normalised POSIX path relative to the bank root; for an external edge (one that
    climbs above the root) it keeps its leading `../` parts.
    """

    raw: str
    target: str
    fit: str | None = None
    external: bool = False
    line: int | None = None  # 1-based file line of the item, when it could be located


class Section(NamedTuple):
    """A level-2 heading outside fenced code; `line` is 1-based in the whole file."""

    title: str
    line: int


class Link(NamedTuple):
    """A markdown link to a `.md` file; `target` is resolved like an edge (may be external)."""

    target: str
    raw: str
    line: int
    external: bool = False


class RuleRef(NamedTuple):
    """Prose such as "defined in `x.md`": the claimed path as written, and its line."""

    raw: str
    line: int


class Doc(Frozen):
    """One parsed markdown document. Replaced (never mutated) when its file changes.

    Compared and hashed by identity, so a cache can tell a re-parsed document from the old one.
    """

    path: str
    title: str
    doc_kind: str | None
    doc_function: str | None
    purpose: str | None
    status: str | None
    delivery_status: str | None
    decision_status: str | None
    derived_from: tuple[Edge, ...]
    canonical_for: tuple[str, ...]
    must_not_define: tuple[str, ...]
    anchors: tuple[str, ...]
    front: tuple[tuple[str, ...], tuple[Any, ...]]  # the frontmatter as (keys, values): `frontmatter`
    heads: tuple[tuple[str, ...], tuple[int, ...]]  # the sections as (titles, lines): `sections`
    links: tuple[Link, ...]
    rule_refs: tuple[RuleRef, ...]
    bytes: int
    mtime_ns: int
    layer: str
    parse_error: str | None
    has_frontmatter: bool
    body_line: int  # 1-based line of the first body line (after the closing `---`)
    line_count: int
    h1: str | None  # first `# ` heading outside fences, if any
    version: str  # short content hash of the bytes parsed (`confined.version_of`)
    newline: str
    key_rows: tuple  # (keys, 1-based file lines) of the top-level frontmatter keys: `key_lines`
    error_line: int | None  # 1-based file line a YAML error points at
    metadata_only: bool  # over the body limit: frontmatter indexed, body not scanned nor searched
    limit_note: str | None  # what a limit left out of the index (body, links), for validate
    purpose_echo: bool  # the purpose only repeats the body's prose (`echo.py`): routed as body

    __slots__ = (
        "path", "title", "doc_kind", "doc_function", "purpose", "status", "delivery_status", "decision_status",
        "derived_from", "canonical_for", "must_not_define", "anchors", "front", "heads", "links", "rule_refs",
        "bytes", "mtime_ns", "layer", "parse_error", "has_frontmatter", "body_line", "line_count", "h1", "version",
        "newline", "key_rows", "error_line", "metadata_only", "limit_note", "purpose_echo",
    )

    def __init__(
        self, path: str, title: str, doc_kind: str | None, doc_function: str | None, purpose: str | None,
        status: str | None, delivery_status: str | None, decision_status: str | None, derived_from: tuple[Edge, ...],
        canonical_for: tuple[str, ...], must_not_define: tuple[str, ...], anchors: tuple[str, ...],
        front: tuple[tuple[str, ...], tuple[Any, ...]], heads: tuple[tuple[str, ...], tuple[int, ...]],
        links: tuple[Link, ...], rule_refs: tuple[RuleRef, ...], bytes: int, mtime_ns: int, layer: str,
        parse_error: str | None, has_frontmatter: bool, body_line: int, line_count: int, h1: str | None = None,
        version: str = "", newline: str = "\n", key_rows: tuple = (), error_line: int | None = None,
        metadata_only: bool = False, limit_note: str | None = None, purpose_echo: bool = False
    ) -> None:
        assign(self, "path", path)
        assign(self, "title", title)
        assign(self, "doc_kind", doc_kind)
        assign(self, "doc_function", doc_function)
        assign(self, "purpose", purpose)
        assign(self, "status", status)
        assign(self, "delivery_status", delivery_status)
        assign(self, "decision_status", decision_status)
        assign(self, "derived_from", derived_from)
        assign(self, "canonical_for", canonical_for)
        assign(self, "must_not_define", must_not_define)
        assign(self, "anchors", anchors)
        assign(self, "front", front)
        assign(self, "heads", heads)
        assign(self, "links", links)
        assign(self, "rule_refs", rule_refs)
        assign(self, "bytes", bytes)
        assign(self, "mtime_ns", mtime_ns)
        assign(self, "layer", layer)
        assign(self, "parse_error", parse_error)
        assign(self, "has_frontmatter", has_frontmatter)
        assign(self, "body_line", body_line)
        assign(self, "line_count", line_count)
        assign(self, "h1", h1)
        assign(self, "version", version)
        assign(self, "newline", newline)
        assign(self, "key_rows", key_rows)
        assign(self, "error_line", error_line)
        assign(self, "metadata_only", metadata_only)
        assign(self, "limit_note", limit_note)
        assign(self, "purpose_echo", purpose_echo)

    # The frontmatter and its key lines are held as two tuples each, the keys' tuple shared by every
    # document with the same keys in the same order (`key_row`), and built into dicts only when read:
    # a dict per document was ~1 KB of the ~3.9 KB a parsed document holds, and route and search read
    # only `"title" in frontmatter` (issue 15: server RSS). Each read builds a new dict.

    @property
    def sections(self) -> tuple[Section, ...]:
        """The level-2 headings, built from `heads` on each read (a named tuple each: ~56 bytes)."""
        titles, lines = self.heads
        return tuple(map(_section, zip(titles, lines))) if titles else ()

    @property
    def frontmatter(self) -> dict[str, Any]:
        keys, values = self.front
        return dict(zip(keys, values))

    @property
    def key_lines(self) -> dict[str, int] | None:
        """Top-level frontmatter key -> 1-based file line."""
        if not self.key_rows:
            return None
        keys, lines = self.key_rows
        return dict(zip(keys, lines))

    def line_of(self, key: str) -> int | None:
        """The file line of a top-level frontmatter key, if present."""
        if not self.key_rows:
            return None
        keys, lines = self.key_rows
        try:
            return lines[keys.index(key)]
        except ValueError:
            return None

    @property
    def folder(self) -> str:
        """The document's folder relative to the root ('' at the root)."""
        head, _, _ = self.path.rpartition("/")
        return head

    @property
    def is_template(self) -> bool:
        """Declared `doc_function: template`, or any page but the index in the bank's template folder
        (§10: the create writer reads the bank's templates from there): banks write a template as the
        page to be created, frontmatter and all, so such a page is never routed as knowledge."""
        if self.doc_function == "template":
            return True
        return self.path.startswith(TEMPLATE_FOLDER) and not self.is_index

    @property
    def is_index(self) -> bool:
        return self.path.rpartition("/")[2] == "README.md" or self.doc_function == "index"

    @property
    def in_inbox(self) -> bool:
        return self.path.startswith("_inbox/")

    @property
    def is_knowledge(self) -> bool:
        """Routable and searchable: not a template and not quarantined."""
        return not self.is_template and not self.in_inbox


_KEY_ROWS: dict[tuple[str, ...], tuple[str, ...]] = {}


def key_row(keys: Any) -> tuple[str, ...]:
    """One shared tuple for every equal sequence of frontmatter keys (most documents repeat a few)."""
    found = tuple(keys)
    return _KEY_ROWS.setdefault(found, found) if len(_KEY_ROWS) < 4096 else found


_section = partial(tuple.__new__, Section)
NO_HEADS: tuple[tuple[str, ...], tuple[int, ...]] = ((), ())


def heads_row(sections: list[tuple[str, int]]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """(title, line) pairs as `Doc.heads`."""
    return tuple(zip(*sections)) if sections else NO_HEADS  # type: ignore[return-value]


def front_row(meta: dict[str, Any]) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """A frontmatter dict as `Doc.front`."""
    return (key_row(meta), tuple(meta.values()))


def key_lines_row(found: dict[str, int] | None) -> tuple:
    """A key -> line map as `Doc.key_rows`."""
    return () if found is None else (key_row(found), tuple(found.values()))


class Finding(Value):
    """One validation finding."""

    severity: str
    rule: str
    path: str
    message: str
    line: int | None
    see: tuple[str, ...]  # the actions the fix points at, named by each face (see `faces`)

    __slots__ = ("severity", "rule", "path", "message", "line", "see")

    def __init__(
        self, severity: str, rule: str, path: str, message: str, line: int | None = None, see: tuple[str, ...] = ()
    ) -> None:
        assign(self, "severity", severity)
        assign(self, "rule", rule)
        assign(self, "path", path)
        assign(self, "message", message)
        assign(self, "line", line)
        assign(self, "see", see)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"severity": self.severity, "rule": self.rule, "path": self.path}
        if self.line is not None:
            out["line"] = self.line
        out["message"] = self.message
        if self.see:
            out["see"] = list(self.see)
        return out
