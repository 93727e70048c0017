"""bank_create (§10.1): a new governed document, every gate in order, registered in its index."""

from __future__ import annotations

import posixpath
from typing import Any

from ..bank import Bank
from ..errors import BankError
from ..limits import PURPOSE_MAX, TITLE_MAX
from ..placeholder import placeholders
from ..rules import refuse_incomplete
from .files import INPUT_LIMIT, Text, read_input_file
from .frontmatter import render_frontmatter, render_key
from .gates import (
    anchors_list,
    as_list,
    declared,
    enum_warnings,
    frontmatter_key,
    keys,
    near_duplicates,
    new_path,
    no_nul,
    not_forbidden,
    one_line,
    owned_elsewhere,
    refuse,
    requires_edges,
    resolve_edges,
)
from .markdown import body_lines, heading, with_heading
from .registry import nearest_index, register
from .session import result, writing
from .templates import find_template, instantiate, template_comments

GOVERNED = ("title", "doc_kind", "doc_function", "purpose", "derived_from", "canonical_for", "must_not_define",
            "anchors", "status", "template_for", "template_target_path")
INBOX = "_inbox/"
DISCARD_LOG = "_inbox/DISCARDED.md"


def _flat(value: Any) -> str:
    """Every string inside a frontmatter value, one per line (to look for placeholders)."""
    if isinstance(value, dict):
        return "\n".join(_flat(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return "\n".join(_flat(v) for v in value)
    return value if isinstance(value, str) else ""


def check_body(body: str | None, body_file: str | None, name: str = "body") -> str | None:
    """Exactly one of body/body_file (or neither); a file is read with the 1 MB regular-file rules."""
    if body is not None and body_file is not None:
        raise refuse(name, f"both `{name}` and `{name}_file` were given.", "Pass only one of them.")
    if body_file is not None:
        return no_nul(f"{name}_file", read_input_file(body_file, f"{name}_file"))
    if body is not None and len(body.encode("utf-8")) > INPUT_LIMIT:
        raise refuse(name, f"`{name}` is over the 1 MB limit.", "Split the content into several documents.")
    return body if body is None else no_nul(name, body)


def check_extra(extra: dict[str, Any] | None) -> dict[str, Any]:
    if extra is None:
        return {}
    if not isinstance(extra, dict):
        raise refuse("extra", "`extra` must be a mapping of frontmatter keys to values.", "Pass {key: value}.")
    for key in extra:
        frontmatter_key("extra", key)
        if key in GOVERNED:
            raise refuse("extra", f"`{key}` is a governed key and cannot be set through {{extra}}.",
                         f"Pass it as its own parameter ({{{key}}}).", names=("extra", key))
    return dict(extra)


def create(bank: Bank, path: str, doc_kind: str, title: str, purpose: str, derived_from: Any = None,
           canonical_for: Any = None, must_not_define: Any = None, anchors: Any = None, status: str | None = None,
           body: str | None = None, body_file: str | None = None, extra: dict[str, Any] | None = None,
           inbox: bool = False, dry_run: bool = False) -> dict[str, Any]:
    """Create a governed document; returns `{path, template, registered_in, created_index, files, dry_run, warnings}`.

    Gates, in §10.1 order: title and purpose → path → derived_from resolves → canonical keys not
    owned elsewhere → the contract's derived_from rule → undeclared doc_kind/status (warning) →
    near-duplicates (warning); then the body/body_file and extra inputs. `inbox` (or a path under
    `_inbox/`) files the note as `_inbox/<name>` with no template and no registration.
    Choices the spec leaves open: the body's first `# ` heading always reads the title; `extra`
    may not set the keys that have their own parameter (nor doc_function or template keys), while
    delivery_status/decision_status go through `extra` and get the same undeclared-value warning
    as status; an inbox note skips the derived_from warning (promote applies the gate).
    """
    warnings: list[str] = []
    with writing(bank, dry_run) as tx:
        title = one_line("title", title, limit=TITLE_MAX)
        purpose = one_line("purpose", purpose, limit=PURPOSE_MAX)
        doc_kind = one_line("doc_kind", doc_kind)
        status = one_line("status", status or "draft")
        raw = str(path or "").strip().replace("\\", "/")
        if not inbox:  # any spelling of a path under _inbox/ (absolute, `a/../_inbox/x.md`) files a note
            try:
                inbox = bank.normalize(raw).startswith(INBOX)
            except BankError:
                pass  # new_path refuses it with the path gate's message
        if inbox:
            raw = INBOX + posixpath.basename(raw)
        target = new_path(bank, raw)
        if target == DISCARD_LOG:
            raise refuse("path", f"{DISCARD_LOG} is the discard log, not a note.", "Choose another name.")
        edges, targets = resolve_edges(bank, target, as_list(derived_from, "derived_from"), warnings)
        canonical = keys("canonical_for", as_list(canonical_for, "canonical_for"))
        must_not = keys("must_not_define", as_list(must_not_define, "must_not_define"))
        owned_elsewhere(bank, canonical)
        not_forbidden(canonical, must_not)
        if not inbox or status == "active":
            requires_edges(bank, target, status, edges, warnings)
        declared(bank, "status", status)  # as set_status: a typo would skip every gate
        enum_warnings(bank, {"doc_kind": doc_kind}, warnings)
        for other in near_duplicates(bank, title, purpose):
            warnings.append(f"near-duplicate: {other} has nearly the same title or purpose. "
                            f"Update it instead of creating a second home for the same fact?")
        given = check_body(body, body_file)
        more = check_extra(extra)
        anchor_items = anchors_list(bank, as_list(anchors, "anchors"), warnings)

        template = None if inbox else find_template(bank, doc_kind, target)
        t_meta: dict[str, Any] = {}
        t_body = None
        t_comments: tuple[str, ...] = ()
        if template is not None:
            t_meta, t_body, t_warnings = instantiate(template)
            t_comments = template_comments(template)
            warnings.extend(t_warnings)
        meta: dict[str, Any] = {"title": title, "doc_kind": doc_kind}
        doc_function = t_meta.get("doc_function")
        meta["doc_function"] = doc_function if isinstance(doc_function, str) and doc_function != "template" \
            else "canonical"
        meta["purpose"] = purpose
        for name, value in (("derived_from", edges), ("canonical_for", canonical), ("must_not_define", must_not),
                            ("anchors", anchor_items)):
            if value:
                meta[name] = value
        meta["status"] = status
        left: list[str] = []
        omitted: list[str] = []
        hints: list[str] = []
        for key, value in t_meta.items():
            if key not in GOVERNED and key not in more and value is not None:
                if placeholders(_flat(value)):  # an optional field the caller did not give: commented out,
                    omitted.append(key)          # never filled with template text that delivery would withhold
                    hints.extend("# " + line for line in render_key(key, value))
                    left.extend(p for p in placeholders(_flat(value)) if p not in left)
                    continue
                meta[key] = value
        meta.update(more)
        enum_warnings(bank, {k: meta.get(k) for k in ("doc_function", "delivery_status", "decision_status")},
                      warnings)
        if status == "active" and not inbox:
            refuse_incomplete(target, doc_kind, meta)

        if given is not None:
            if given.lstrip("\ufeff").startswith("---"):
                raise refuse("body", "the body starts with a `---` frontmatter block.",
                             "Pass only the markdown body; give metadata as parameters (extra for other keys).")
            lines = with_heading(body_lines(given), title)
            if template is not None:
                warnings.append(f"the given body replaces the prose of template {template.source}.")
        elif t_body is not None:
            lines = with_heading(body_lines(t_body), title)
            left.extend(p for p in placeholders("\n".join(lines)) if p not in left)
        else:
            lines = [heading(title)]
        if omitted:
            warnings.append(f"{', '.join(omitted)} left commented out (the template has only placeholders for "
                            "them); set each one as a frontmatter field when it is known.")
        if left:
            shown = ", ".join(p if len(p) <= 40 else p[:37] + "…>" for p in left[:6]) + (" …" if len(left) > 6 else "")
            warnings.append(f"{len(left)} placeholder{'s' if len(left) > 1 else ''} left to fill in {target}: {shown}")

        index = nearest_index(tx, target)  # new files take the line endings of the index they sit under
        newline = Text.decode(tx.read(index) or b"", index).newline if index else "\n"
        comments = list(t_comments) if template is not None else []
        content = newline.join(["---", *render_frontmatter(meta), *hints, *comments, "---", "", *lines]) + newline
        tx.write(target, content.encode("utf-8"))
        registered: dict[str, str | None] = {"registered_in": None, "created_index": None}
        if not inbox:
            registered = register(bank, tx, target, title, purpose, doc_kind, newline)
            if registered["registered_in"] is None:
                warnings.append(f"no index to register {target} in; add a README.md that links it.")
        return result(tx, dry_run, warnings, path=target, template=template.source if template else None,
                      **registered)
