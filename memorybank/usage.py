"""The "how to use this bank" paragraph, in one place: server instructions, CLAUDE.md, delivery blocks."""

from __future__ import annotations

GROUPS = {
    "find": ("bank_route", "bank_search", "bank_read", "bank_graph", "bank_changed"),
    "check": ("bank_validate", "bank_drift", "bank_guard"),
    "change": ("bank_edit", "bank_update_section", "bank_set_status", "bank_set_field", "bank_set_list"),
    "create": ("bank_create", "bank_promote", "bank_discard", "bank_materialize_flows"),
    "init": ("bank_init",),
}


def usage_paragraph(bank_path: str = "memory_bank", long: bool = True) -> str:
    """Markdown telling an agent how to use the bank through the memorybank tools.

    The long form goes into CLAUDE.md / AGENTS.md blocks; the short form fits server instructions.
    """
    if not long:
        return (f"Project knowledge is in {bank_path}/, served by the bank_* tools. Before opening bank files, "
                "call bank_route with the question as asked (any language) or read memorybank://index, then "
                "bank_read the suggested section. Write through the tools, never the shell. Never promote or "
                "discard _inbox notes unless the user asks.")
    return "\n".join([
        f"## Project memory bank (`{bank_path}/`)",
        "",
        f"Project knowledge — decisions, domain rules, conventions — lives in `{bank_path}/` and is served by the "
        "memorybank MCP tools, all named `bank_*`. Use them instead of cat/grep/Edit on bank files:",
        "",
        "- **Find**: `bank_route` with the question as asked (English, Russian or Chinese) tells you which "
        "documents and sections to read; `bank_read` reads a document, one `## ` section or a line range; "
        "`bank_search` finds a literal (identifier, error text); `bank_graph` shows what a document rests on "
        "and what depends on it; `bank_changed` lists what changed since a ref or date.",
        "- **Change**: `bank_edit`, `bank_update_section`, `bank_set_status`, `bank_set_field`, `bank_set_list` "
        "edit documents all-or-nothing and keep indexes in step.",
        "- **Create**: `bank_create` writes a governed document and registers it in its index; "
        "with `inbox: true` it files a note in `_inbox/` for a human to review.",
        "- **Check**: `bank_validate` before committing bank changes; `bank_drift` lists documents the code "
        "has outrun; `bank_guard` checks changed code against the bank's rules.",
        "",
        "Never promote or discard `_inbox/` notes unless the user asks you to.",
    ])


def files_paragraph(bank_path: str = "memory_bank") -> str:
    """The same guidance for an agent the memorybank server is not wired into: read the files, name no tools."""
    return "\n".join([
        f"## Project memory bank (`{bank_path}/`)",
        "",
        f"Project knowledge — decisions, domain rules, conventions — lives in `{bank_path}/` as markdown. Before "
        f"changing code or answering why the project works the way it does, open `{bank_path}/README.md` (the "
        "index), follow its links to the documents on your question, and read the `## ` sections they name. Each "
        "document's `purpose` line says when to read it.",
        "",
        "Never promote or discard `_inbox/` notes unless the user asks you to.",
    ])
