"""Human-readable text for CLI output. Pure functions from a capability's dict to text."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

Style = Callable[..., str]


def plain(text: str, **_: Any) -> str:
    return text


def count(n: int, noun: str) -> str:
    """`1 finding`, `2 findings` (regular English plurals only)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def table(rows: Sequence[Sequence[str]], gap: str = "  ") -> list[str]:
    """Left-aligned columns; the last column is not padded."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(max(len(r) for r in rows))]
    out = []
    for row in rows:
        cells = [cell.ljust(widths[i]) if i < len(row) - 1 else cell for i, cell in enumerate(row)]
        out.append(gap.join(cells).rstrip())
    return out


def stats(result: dict[str, Any], style: Style = plain) -> str:
    lines = [style(f"{result['root']}", bold=True),
             f"documents   {result['documents']} ({result['bytes']:,} bytes), refreshed in {result['refresh_ms']} ms"]
    contract = result["contract"]
    if contract is None:
        lines.append("contract    none (degraded mode: no dna/ documents)")
    else:
        lines.append(f"contract    {', '.join(contract['sources']) or '(dna/ present, nothing declared)'}")
        lines.append(f"  doc_kind      {', '.join(contract['doc_kind']) or '-'}")
        lines.append(f"  doc_function  {', '.join(contract['doc_function']) or '-'}")
        lines.append(f"  status        {', '.join(contract['status']) or '-'}")
        lines.append(f"  roots         {', '.join(contract['roots']) or '-'}")
        lines.append(f"  rules         requires derived_from: {'yes' if contract['requires_derived_from'] else 'no'}; "
                     f"cycles forbidden: {'yes' if contract['forbids_cycles'] else 'no'}")
    lines.append("layers      " + ", ".join(f"{k} {v}" for k, v in result["by_layer"].items()))
    lines.append("doc kinds   " + ", ".join(f"{k} {v}" for k, v in result["by_doc_kind"].items()))
    e = result["edges"]
    lines.append(f"edges       {e['total']} derived_from ({e['with_fit']} with fit, {e['external']} external, "
                 f"{e['broken']} broken); {result['index_links']} index links")
    c = result["canonical"]
    lines.append(f"owners      {c['keys']} canonical keys, {c['conflicts']} with more than one owner")
    lines.append(f"parse errs  {len(result['parse_errors'])}" +
                 (": " + ", ".join(result["parse_errors"]) if result["parse_errors"] else ""))
    if result["no_frontmatter"]:
        lines.append(f"no header   {len(result['no_frontmatter'])}: " + ", ".join(result["no_frontmatter"][:10]) +
                     (" …" if len(result["no_frontmatter"]) > 10 else ""))
    for item in result["skipped"]:
        lines.append(f"skipped     {item['path']}: {item['reason']}")
    return "\n".join(lines)


def _read_one(doc: dict[str, Any], style: Style) -> list[str]:
    head = f"{doc['path']} — {doc['title']}"
    if doc.get("section"):
        head += f" § {doc['section']}"
    if "lines" in doc:
        head += f" (lines {doc['lines']} of {doc['line_count']})"
    lines = [style(head, bold=True), doc["content"]]
    if doc.get("truncated"):
        lines.append(style("[truncated]", fg="yellow"))
    return lines


def read(result: dict[str, Any], style: Style = plain) -> str:
    if "documents" not in result:
        return "\n".join(_read_one(result, style))
    lines: list[str] = []
    for doc in result["documents"]:
        lines += _read_one(doc, style) + [""]
    for item in result.get("skipped", []):
        lines.append(style(f"skipped {item['path']} ({item['bytes']:,} bytes, over the budget); sections: "
                           + " | ".join(item["sections"]), fg="yellow"))
    for item in result.get("failed", []):
        lines.append(style(f"failed  {item['path']}: {item['error']}", fg="red"))
    return "\n".join(lines).rstrip()


def validate(result: dict[str, Any], style: Style = plain, summary_only: bool = False) -> str:
    s = result["summary"]
    tail = f"{count(s['total'], 'finding')}: {count(s['errors'], 'error')}, {count(s['warnings'], 'warning')}"
    if s["by_rule"]:
        tail += " (" + ", ".join(f"{k} {v}" for k, v in s["by_rule"].items()) + ")"
    if summary_only:
        return tail
    rows = []
    for f in result["findings"]:
        where = f"{f['path']}:{f['line']}" if f.get("line") else f["path"]
        rows.append([f["severity"], f["rule"], where, f["message"]])
    out = table(rows)
    colour = {"error": "red", "warning": "yellow"}
    out = [style(line, fg=colour[row[0]]) if i < len(rows) else line for i, (line, row) in enumerate(zip(out, rows))]
    return "\n".join(out + [tail])


def install_hook(result: dict[str, Any], style: Style = plain) -> str:
    """One block per file: its fate, then `+`/`~` lines like a diff summary."""
    dry = result["dry_run"]
    verbs = {"created": "would create" if dry else "created", "updated": "would update" if dry else "updated",
             "unchanged": "unchanged"}
    lines = [style(f"project {result['project']} (bank {result['bank']})", bold=True)]
    for item in result["files"]:
        head = f"{item['path']}: {verbs[item['action']]}" + (f" ({item['note']})" if item["note"] else "")
        lines.append(style(head, fg="green") if item["changes"] else head)
        lines += [f"  {change}" for change in item["changes"]]
    lines += [style(f"warning: {w}", fg="yellow") for w in result["warnings"]]
    if dry:
        lines.append("dry run: nothing written")
    return "\n".join(lines)


def adoption(result: dict[str, Any], style: Style = plain) -> str:
    """Sessions as rows, the four counters (plus checks) as right-aligned columns, then the total."""
    heads = ["session", "server reads", "shell reads", "server writes", "shell writes", "checks"]
    keys = ["server_reads", "shell_reads", "server_writes", "shell_writes", "server_checks"]
    total = result["total"]
    rows = [[s["session"], *(str(s[k]) for k in keys)] for s in result["sessions"]]
    rows.append([f"total ({count(total['sessions'], 'session')})", *(str(total[k]) for k in keys)])
    widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]

    def line(row: Sequence[str]) -> str:
        return "  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])])

    out = [style(line(heads), bold=True), *(line(r) for r in rows[:-1]), style(line(rows[-1]), bold=True)]
    reads = total["server_reads"] + total["shell_reads"]
    writes = total["server_writes"] + total["shell_writes"]
    if reads or writes:
        share = [f"{what} through the server: {through}/{all_} ({round(100 * through / all_)}%)"
                 for what, through, all_ in (("reads", total["server_reads"], reads),
                                             ("writes", total["server_writes"], writes)) if all_]
        out.append("; ".join(share))
    if result["by_tool"]:
        out.append("by tool: " + ", ".join(f"{k} {v}" for k, v in result["by_tool"].items()))
    primed = result.get("primed") or {}
    if primed.get("prompts"):
        out.append(f"primed prompts: {primed['prompts']}; a pointed document read after {primed['read']} "
                   f"({round(100 * primed['read'] / primed['prompts'])}%): through the server "
                   f"{primed['through_server']}, around it {primed['around_server']}")
    sk = result["skipped"]
    if sk["lines"] or sk["bad_tool_use"]:
        reasons = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sk.items() if k != "lines" and v)
        out.append(style(f"skipped: {count(sk['lines'], 'line')}, {count(sk['bad_tool_use'], 'tool call')} "
                         f"({reasons})", fg="yellow"))
    if result["duplicates"]:
        out.append(f"{count(result['duplicates'], 'repeated tool call')} counted once (resumed sessions)")
    return "\n".join(out)


def written(result: dict[str, Any], style: Style = plain) -> str:
    """A writer's result: what it did (or would do), file by file, then its warnings."""
    head = "dry run, nothing written" if result.get("dry_run") else "done"
    facts = []
    for key in ("path", "from", "template", "registered_in", "created_index", "log", "reason", "name", "root"):
        if result.get(key):
            facts.append(f"{key.replace('_', ' ')} {result[key]}")
    lines = [style(head + (": " + "; ".join(facts) if facts else ""), bold=True)]
    lines += table([[item["action"], item["path"]] for item in result.get("files", [])])
    if not result.get("files"):
        lines.append("no files changed")
    lines += [style(f"warning: {w}", fg="yellow") for w in result.get("warnings", [])]
    return "\n".join(lines)


def inbox(result: dict[str, Any], style: Style = plain) -> str:
    """Inbox notes, oldest first, with their age."""
    if not result["notes"]:
        return "inbox is empty"
    rows = [[f"{n['age_days']}d", n["path"], n["title"]] for n in result["notes"]]
    return "\n".join(table(rows) + [count(result['count'], 'note')])


def _facets(item: dict[str, Any]) -> str:
    return " · ".join(value or "-" for value in (item.get("doc_kind"), item.get("layer"), item.get("status")))


def route(result: dict[str, Any], style: Style = plain) -> str:
    """One block per result: score, path and title; a status other than active and the section; `why`."""
    if not result["results"]:
        return style(result.get("hint", "No match."), fg="yellow")
    lines: list[str] = []
    for item in result["results"]:
        lines.append(f"{item['score']:>7.2f}  " + style(item["path"], bold=True) + f"  {item['title']}")
        facets = [f"({item['status']})"] if item.get("status") else []
        if item.get("section"):
            facets.append(f"→ read § {item['section']}")
        if facets:
            lines.append("         " + "  ".join(facets))
        lines.append(f"         {item['why']}")
    return "\n".join(lines)


def search(result: dict[str, Any], style: Style = plain) -> str:
    """One block per result: score, path and title with kind · layer · status; `path:line` and the excerpt."""
    if not result["results"]:
        return style(result.get("hint", "No match."), fg="yellow")
    lines: list[str] = []
    for item in result["results"]:
        lines.append(f"{item['score']:>7.2f}  " + style(item["path"], bold=True) + f"  {item['title']}"
                     + f"  ({_facets(item)})")
        lines.append(f"         {item['path']}:{item['line']}  {item['excerpt']}")
    return "\n".join(lines)


def deliver(result: dict[str, Any], style: Style = plain) -> str:
    """Per-channel delivery report: file, action, tokens used/budget, kept, and every drop with its reason."""
    verb = {"write": "delivered", "dry_run": "plan (dry run, nothing written)", "check": "check (nothing written)"}
    lines = [style(f"{verb[result['mode']]}: {result['project']} (bank {result['bank']}/; "
                   f"targets {', '.join(result['targets'])})", bold=True)]
    rows = []
    for entry in result["channels"]:
        budget = f"/{entry['budget']}" if entry["budget"] else ""
        rows.append([entry["channel"], entry["file"], entry["action"], f"{entry['tokens']}{budget} tokens",
                     f"{len(entry['kept'])} kept" + (f", {len(entry['dropped'])} dropped" if entry["dropped"] else "")])
    colour = {"refused": "red", "skipped": "yellow", "create": "green", "update": "green", "remove": "green"}
    for row, line, entry in zip(rows, table(rows), result["channels"]):
        lines.append(style(line, fg=colour[row[2]]) if row[2] in colour else line)
        if entry.get("reason"):
            lines.append(f"    {entry['reason']}")
        if entry["dropped"]:
            lines.append("    dropped: " + ", ".join(f"{d['path']} ({d['reason']})" for d in entry["dropped"]))
    for item in result["withheld"]:
        lines.append(f"withheld {item['path']} ({item['kind']}, {item['reason']})")
    if result.get("warning"):
        lines.append(style(f"warning: {result['warning']}", fg="yellow"))
    newly = result.get("newly_withheld") or []
    if newly:
        lines.append(style("now withheld, delivered at HEAD: " + ", ".join(i["path"] for i in newly), fg="red"))
    if result["mode"] == "check":
        stale = count(len(result["stale"]), "file")
        lines.append(style(f"{stale} out of date: " + ", ".join(result["stale"]), fg="red")
                     if result["stale"] else "all delivered files are up to date")
    elif result["refused"]:
        lines.append(style(f"refused {count(len(result['refused']), 'file')} edited by hand; --force overwrites them",
                           fg="red"))
    return "\n".join(lines)


def guard(result: dict[str, Any], style: Style = plain) -> str:
    """Guard violations with the rule's guidance, then a one-line verdict."""
    lines = []
    colour = {"error": "red", "warning": "yellow"}
    for v in result["violations"]:
        where = f"{v['file']}:{v['line']}" if v["line"] else v["file"]
        lines.append(style(f"{where}  {v['severity']}  {v['message']}  [{v['rule']}]", fg=colour[v["severity"]]))
        if v["do"]:
            lines.append(f"    do: {v['do']}")
        if v["dont"]:
            lines.append(f"    don't: {v['dont']}")
    errors = sum(1 for v in result["violations"] if v["severity"] == "error")
    warnings = len(result["violations"]) - errors
    verdict = "passed" if result["passed"] else "failed"
    lines.append(f"{verdict}: {count(result['files_checked'], 'file')} checked against "
                 f"{count(len(result['rules_used']), 'rule')}; {count(errors, 'error')}, {count(warnings, 'warning')}")
    return "\n".join(lines)


def drift(result: dict[str, Any], style: Style = plain) -> str:
    """Readable drift output: one aligned row per drifted document or missing anchor, then the note."""
    if result["mode"] == "reverse":
        head = (f"{len(result['documents'])} document(s) to review for {len(result['files'])} changed file(s) "
                f"({result['anchored']} anchored)")
        rows = [[d["path"], d["title"], ", ".join(d["anchors"]) + " ← " + ", ".join(d["files"])]
                for d in result["documents"]]
        lines = [style(head, bold=True), *("  " + row for row in table(rows))]
    else:
        lines = [style(f"drift ({result['mode']}): {result['anchored']} anchored, {result['unanchored']} "
                       f"unanchored, threshold {result['threshold_days']} days", bold=True)]
        if result["drifted"]:
            lines.append("drifted (code ahead of its document):")
            lines += ["  " + row for row in table([[d["path"], d["anchor"], f"doc {d['doc_touched']}",
                                                     f"code {d['code_touched']}", f"{d['ahead_days']} days ahead"
                                                     + (f" (uncommitted: {', '.join(d['uncommitted'])})"
                                                        if d.get("uncommitted") else "")]
                                                    for d in result["drifted"]])]
        if result["missing"]:
            lines.append(style("missing anchors (the path no longer exists):", fg="yellow"))
            lines += ["  " + row for row in table([[m["path"], m["anchor"]] for m in result["missing"]])]
        if result["mode"] == "git" and not result["drifted"] and not result["missing"]:
            lines.append("no drift")
    if result.get("note"):
        lines.append(style(f"note: {result['note']}", fg="yellow"))
    return "\n".join(lines)


def changed(result: dict[str, Any], style: Style = plain) -> str:
    """Readable changes: one aligned row per document (kind, path, previous path, title), then the note."""
    window = result.get("window")  # issue 19: a window of days names its words and days
    when = (f"{window['words']} [{window.get('since', '…')} – {window.get('until', 'now')}]" if window
            else f"since {result['since']}")
    lines = [style(f"{when} ({result['mode']}): {len(result['changes'])} change(s)", bold=True)]
    rows = []
    for change in result["changes"]:
        where = f"{change['path']} ← {change['from']}" if change.get("from") else change["path"]
        rows.append([change["change_kind"], where, change.get("title", "")])
    lines += ["  " + row for row in table(rows)]
    if result.get("note"):
        lines.append(style(f"note: {result['note']}", fg="yellow"))
    return "\n".join(lines)


# -- graph (pure: graph dict in, text out) ----------------------------------------------------


def graph_text(result: dict) -> str:
    """A readable listing: one line per node (indented by depth; ↑ upstream, ↓ downstream), then edges."""
    nodes = f"{len(result['nodes'])} node{'' if len(result['nodes']) == 1 else 's'}"
    lines = [f"{result['root']}  ({result['direction']}, depth {result['depth']}, "
             f"{nodes}{', truncated' if result['truncated'] else ''})"]
    pairs = {(e["from"], e["to"]) for e in result["edges"]}
    for node in result["nodes"]:
        if node["depth"] == 0:
            continue
        meta = " · ".join(x for x in (node["doc_kind"], node["layer"], node["status"]) if x)
        # ↑ the node is something `via` rests on; ↓ it rests on `via` (both matter in `both` mode)
        arrow = "↑ " if (node["via"], node["path"]) in pairs else "↓ " if (node["path"], node["via"]) in pairs else ""
        lines.append(f"{'  ' * node['depth']}{arrow}{node['path']}  — {node['title']}  ({meta})  via {node['via']}")
    if result["edges"]:
        lines.append("edges (from derives from to):")
        lines += [f"  {e['from']} -> {e['to']}{_fit(e)}" for e in result["edges"]]
    if result["external"]:
        lines.append("external (outside the bank root):")
        lines += [f"  {e['from']} -> {e['to']}{_fit(e)}" for e in result["external"]]
    if result["broken"]:
        lines.append("broken (no such document):")
        lines += [f"  {e['from']} -> {e['to']}" for e in result["broken"]]
    if result["neighbours"]:
        lines.append("neighbours (header only):")
        for item in result["neighbours"]:
            if "note" in item:
                lines.append(f"  {item['path']}: {item['note']}")
            else:
                meta = ", ".join(x for x in (item.get("doc_kind"), item.get("status")) if x)
                lines.append(f"  {item['path']} — {item['title']}" + (f"  [{meta}]" if meta else ""))
    layers = ", ".join(f"{k} {v}" for k, v in result["by_layer"].items())
    lines.append(f"by layer: {layers}")
    return "\n".join(lines) + "\n"


def _fit(edge: dict) -> str:
    return f"  ({edge['fit']})" if edge.get("fit") else ""


_MERMAID_ESCAPES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "`": "#96;", "|": "#124;"}


def _mermaid_text(text: str) -> str:
    """Text safe inside a quoted Mermaid label (entity codes for the characters that break it)."""
    text = " ".join(str(text).split())
    return "".join(_MERMAID_ESCAPES.get(ch, ch) for ch in text)


def _outside(result: dict) -> list[tuple[str, str]]:
    """Targets outside the graph, each once: `(path, "external" | "missing")`."""
    seen: dict[str, str] = {}
    for kind, note in (("external", "external"), ("broken", "missing")):
        for edge in result[kind]:
            seen.setdefault(edge["to"], note)
    return list(seen.items())


def _drawn_edges(result: dict) -> Iterator[tuple[dict, bool]]:
    """Every edge to draw, and whether it leaves the graph (external or broken: drawn dashed)."""
    for edge in result["edges"]:
        yield edge, False
    for kind in ("external", "broken"):
        for edge in result[kind]:
            yield edge, True


def graph_mermaid(result: dict) -> str:
    """A Mermaid flowchart (`graph TD`): arrows point from a document to what it derives from.

    Node ids are generated (`n0`, `n1`, …; `ext…` external, `miss…` missing) so no path character can
    break the syntax; every label is quoted with entity codes for `"`, `#`, `<`, `>`, backtick and `|`.
    """
    ids: dict[str, str] = {}
    out = ["graph TD"]
    for i, node in enumerate(result["nodes"]):
        ids[node["path"]] = f"n{i}"
        out.append(f'  n{i}["{_mermaid_text(node["title"])}<br/>{_mermaid_text(node["path"])}"]')
    members: dict[str, list[str]] = {"external": [], "missing": []}
    for path, note in _outside(result):
        group = members[note]
        ids[path] = node_id = f"{'ext' if note == 'external' else 'miss'}{len(group)}"
        group.append(node_id)
        out.append(f'  {node_id}["{_mermaid_text(path)}<br/>({note})"]')
    for edge, dashed in _drawn_edges(result):
        out.append(f"  {ids[edge['from']]} {'-.->' if dashed else '-->'}{_mermaid_label(edge)} {ids[edge['to']]}")
    out.append("  classDef root stroke-width:3px")
    out.append("  classDef external stroke-dasharray:4 4")
    out.append("  classDef missing stroke:#c00,stroke-dasharray:4 4")
    out.append(f"  class {ids[result['root']]} root")
    out += [f"  class {','.join(group)} {note}" for note, group in members.items() if group]
    return "\n".join(out) + "\n"


def _mermaid_label(edge: dict) -> str:
    return f'|"{_mermaid_text(edge["fit"])}"|' if edge.get("fit") else ""


def _dot_text(text: str) -> str:
    """A DOT double-quoted string body."""
    text = " ".join(str(text).split())
    return text.replace("\\", "\\\\").replace('"', '\\"')


def graph_dot(result: dict) -> str:
    """A Graphviz DOT digraph: arrows point from a document to what it derives from."""
    out = ["digraph bank_graph {", "  rankdir=TB;", '  node [shape=box, fontname="Helvetica"];']
    for node in result["nodes"]:
        style = ", penwidth=2" if node["depth"] == 0 else ""
        out.append(f'  "{_dot_text(node["path"])}" [label="{_dot_text(node["title"])}\\n{_dot_text(node["path"])}"'
                   f"{style}];")
    for path, note in _outside(result):
        color = "gray40" if note == "external" else "red"
        out.append(f'  "{_dot_text(path)}" [label="{_dot_text(path)}\\n({note})", style=dashed, color={color}];')
    for edge, dashed in _drawn_edges(result):
        out.append(f'  "{_dot_text(edge["from"])}" -> "{_dot_text(edge["to"])}"'
                   f'{_dot_label(edge, "dashed" if dashed else "")};')
    out.append("}")
    return "\n".join(out) + "\n"


def _dot_label(edge: dict, style: str) -> str:
    attrs = []
    if edge.get("fit"):
        attrs.append(f'label="{_dot_text(edge["fit"])}"')
    if style:
        attrs.append(f"style={style}")
    return f" [{', '.join(attrs)}]" if attrs else ""


def index(result: dict[str, Any], style: Style = plain) -> str:
    """One row per document: path, kind · status, title."""
    rows = [[doc["path"], " · ".join(v for v in (doc.get("doc_kind"), doc.get("status")) if v), doc["title"]]
            for doc in result["documents"]]
    return "\n".join([*table(rows), f"{count(result['count'], 'document')}"])


def schema(result: dict[str, Any], style: Style = plain) -> str:
    return result["text"].rstrip("\n")


def adopt(result: dict[str, Any], style: Style = plain) -> str:
    """Each document with its kind, layer and the keys adopt adds; then the files and the next step."""
    lines = [style("dry run, nothing written (add --write to apply)" if result["dry_run"] else "adopted",
                   bold=True)]
    lines += table([[a["path"], a["doc_kind"], a["layer"], "+" + ",".join(a["added"]) if a["added"] else "kept"]
                    for a in result["adopted"]])
    if result["contract"]:
        lines.append(f"contract: {count(len(result['contract']), 'dna/ document')} from the starter")
    if result["indexes"]:
        lines.append("new indexes: " + ", ".join(result["indexes"]))
    lines += [style(f"warning: {w}", fg="yellow") for w in result["warnings"]]
    return "\n".join(lines)


def imported(result: dict[str, Any], style: Style = plain) -> str:
    """Notes filed (or that would be) with their source lines; what was skipped and why."""
    head = "dry run, nothing written" if result["dry_run"] else "filed"
    lines = [style(f"{head}: {count(len(result['filed']), 'note')} from {count(len(result['sources']), 'file')}",
                   bold=True)]
    lines += table([[f["path"], f"{f['source']}:{f['lines']}"] for f in result["filed"]])
    lines += [f"skipped {s['source']}:{s['lines']} ({s['reason']})" for s in result["skipped"]]
    lines += [style(f"warning: {w}", fg="yellow") for w in result["warnings"]]
    if result["filed"] and not result["dry_run"]:
        lines.append("next: review them with `inbox`, then `promote` or `discard` each")
    return "\n".join(lines)


def install(result: dict[str, Any], style: Style = plain) -> str:
    """install_hook's file blocks, then each user-level snippet to paste."""
    lines = [install_hook(result, style)]
    for item in result.get("snippets", []):
        lines += ["", style(f"{item['agent']}: add to {item['file']} (not edited by memorybank):", bold=True),
                  item["text"].rstrip("\n")]
    return "\n".join(lines)


def uninstall(result: dict[str, Any], style: Style = plain) -> str:
    """What was (or would be) taken out, file by file."""
    lines = [style(f"project {result['project']} (bank {result['bank']})", bold=True)]
    lines += table([[f["action"] if not result["dry_run"] or f["action"] == "refused" else "would be " + f["action"],
                     f["path"]] + ([f["reason"]] if f.get("reason") else []) for f in result["files"]])
    if not result["files"]:
        lines.append("nothing of memorybank's found")
    lines += [f"removed empty folder {f}" for f in result["folders"]]
    lines += [style(f"note: {n}", fg="yellow") for n in result["notes"]]
    refused = sum(f["action"] == "refused" for f in result["files"])
    if refused:
        lines.append(style(f"refused {count(refused, 'file')} edited by hand; --force removes them", fg="red"))
    if result["dry_run"]:
        lines.append("dry run: nothing written")
    return "\n".join(lines)


def init_next(result: dict[str, Any]) -> str:
    """The steps after `init`: fill the bank, wire the agents, deliver the rules."""
    root = result.get("root", "memory_bank")
    return "\n".join([
        "next steps:",
        f"  1. write what the project knows into {root} (start with product/context.md), or bring it in:",
        f"     mcp-memorybank import --root {root}         # CLAUDE.md, .cursor/rules, … as _inbox/ notes",
        f"  2. wire your agents:  mcp-memorybank install --root {root} --agents claude,cursor,vscode,gemini",
        f"  3. deliver the rules: mcp-memorybank deliver --root {root} --targets cursor,agents,claude,copilot",
        f"  4. check it:          mcp-memorybank validate --root {root}",
    ])
