"""The `mcp-memorybank` command: serve MCP (no action flag) or run one action and print its result.

A thin adapter: parse flags, call the capability, render its dict (text, or `--json` for exactly the
dict). Refusals go to stderr with exit 1; usage errors exit 2 with one line. The MCP SDK is imported
only when serving, because importing it costs ~0.4 s of cold start.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable
from typing import Any

import click

from . import __version__
from .errors import BankError, clip

PROG = "mcp-memorybank"
ACTIONS = ("stats", "route", "search", "prime", "read", "validate", "surface", "install_hook", "adoption", "create",
           "promote", "discard", "list_inbox", "init", "materialize_flows", "graph", "drift", "changed", "deliver",
           "guard", "review", "adopt", "import", "install", "uninstall")
WRITERS = ("create", "promote", "discard", "init", "materialize_flows", "review")
NEEDS_NO_BANK = ("install_hook", "init", "install", "uninstall")  # wiring may come before `bank_init` creates the bank


SERVE = "serve"  # the pseudo-action when no action flag is given
_FIND = ("route", "search")
_NEW = ("create", "promote")
# Which actions each option belongs to: an option given to any other action is a usage error, so a
# forgotten action flag (`--section X` without `--read`) never silently starts the MCP server.
OPTION_ACTIONS: dict[str, tuple[str, ...]] = {
    "layer": _FIND, "kind": _FIND + _NEW, "status": _FIND + _NEW, "limit": _FIND + ("graph",),
    "section": ("read",), "line_range": ("read",), "max_bytes": ("read",),
    "scope": ("validate", "drift"), "rule": ("validate",), "severity": ("validate",), "summary": ("validate",),
    "off_paths": (SERVE, "surface"), "tool_groups": (SERVE, "surface"),
    "project": ("install_hook", "adoption", "deliver", "import", "install", "uninstall"),
    "no_claude_md": ("install_hook", "install"), "agents": ("install",), "write": ("adopt",), "name": ("adopt",),
    "title": _NEW, "purpose": _NEW, "derived": _NEW, "canonical": _NEW,
    "anchors": ("create",), "extra": ("create",), "body_file": ("create",), "inbox": ("create",),
    "to_path": ("promote",), "reason": ("discard",), "base_version": ("promote", "discard"),
    "force": ("init", "materialize_flows", "deliver", "uninstall"),
    "dry_run": ("create", "promote", "discard", "init", "materialize_flows", "install_hook", "deliver", "review",
                "import", "install", "uninstall"),
    "direction": ("graph",), "depth": ("graph",), "graph_format": ("graph",),
    "threshold_days": ("drift", "deliver"), "changed_since": ("drift",),
    "targets": ("deliver",), "check": ("deliver", "drift"), "staged": ("guard",), "changed_lines": ("guard",),
    "files": ("adoption", "guard", "drift"), "as_json": ACTIONS,
}


def _misplaced_options(action: str) -> None:
    """Refuse options that do nothing for the chosen action (explicitly given ones only)."""
    ctx = click.get_current_context()
    for param in ctx.command.params:
        allowed = OPTION_ACTIONS.get(param.name or "")
        if allowed is None or action in allowed:
            continue
        if ctx.get_parameter_source(param.name) is not click.core.ParameterSource.COMMANDLINE:
            continue
        if param.name == "files":
            value = ctx.params["files"][0]
            raise Usage(f"unexpected argument {value!r}: FILES are only for --adoption, --guard and --drift")
        flag = param.opts[0]
        goes_with = "any action" if allowed == ACTIONS else ", ".join(
            "no action (serving)" if a == SERVE else "--" + a.replace("_", "-") for a in allowed)
        where = "without an action flag" if action == SERVE else "with --" + action.replace("_", "-")
        raise Usage(f"{flag} does nothing {where}; it goes with {goes_with}")


class WholeNumber(click.IntRange):
    """An integer option: click's IntRange, named so that a typo reads "'abc' is not a valid whole number"."""

    name = "whole number"


class Usage(Exception):
    """A usage error: printed as one line, exit 2."""


def _style(enabled: bool) -> Callable[..., str]:
    if not enabled:
        from .render import plain
        return plain
    return lambda text, **kw: click.style(text, **kw)


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--root", type=click.Path(file_okay=False), default=None,
              help="Bank folder (default: $MEMORYBANK_ROOT, else ./memory_bank).")
@click.option("--stats", "a_stats", is_flag=True, help="Print what the index holds.")
@click.option("--route", "a_route", metavar="QUESTION", help="Rank documents by metadata for a question.")
@click.option("--search", "a_search", metavar="QUERY", help="Find where words or literals occur in bodies.")
@click.option("--prime", "a_prime", metavar="TEXT",
              help="Pointers a prompt hook would inject for TEXT (≤ 3 documents), or nothing below the bar.")
@click.option("--layer", help="With --route/--search: only this layer (dna, knowledge, decision, …).")
@click.option("--read", "a_read", multiple=True, metavar="PATH", help="Read a document (repeat for a batch).")
@click.option("--section", help="With --read: one ## section.")
@click.option("--lines", "line_range", metavar="A-B", help="With --read: a line range such as 40-80.")
@click.option("--max-bytes", type=WholeNumber(min=1), help="With a batch --read: lower the 40,000-byte budget.")
@click.option("--validate", "a_validate", is_flag=True, help="Check the bank; exit 1 when errors exist.")
@click.option("--scope", help="With --validate or --drift: only documents under this folder.")
@click.option("--rule", help="With --validate: only this rule.")
@click.option("--severity", type=click.Choice(["error", "warning"]), help="With --validate: only this severity.")
@click.option("--summary", is_flag=True, help="With --validate: print only the summary.")
@click.option("--surface", "a_surface", is_flag=True, help="Print the MCP surface's token cost per tool and group.")
@click.option("--off", "off_paths", multiple=True, metavar="PATH",
              help="Serve nothing for banks under PATH (repeatable).")
@click.option("--tools", "tool_groups", metavar="GROUPS",
              help="Serve only these tool groups: find,check,change,create,init.")
@click.option("--install-hook", "a_install_hook", is_flag=True,
              help="Wire the bank into Claude Code: .mcp.json, the Stop hook, the CLAUDE.md block.")
@click.option("--project", type=click.Path(file_okay=False),
              help="With --install-hook, --adoption or --deliver: the project folder "
              "(default: the git top-level containing the bank, else its parent).")
@click.option("--no-claude-md", is_flag=True, help="With --install-hook: leave CLAUDE.md alone.")
@click.option("--adoption", "a_adoption", is_flag=True,
              help="Count bank use through vs around the server in transcript FILES (default: this project's).")
@click.option("--create", "a_create", metavar="PATH",
              help="Create a governed document (needs --kind --title --purpose).")
@click.option("--kind", help="With --create/--promote: doc_kind. With --route/--search: only this doc_kind.")
@click.option("--title", help="With --create/--promote: title.")
@click.option("--purpose", help="With --create/--promote: one line on when to read it.")
@click.option("--derived", metavar="A,B", help="With --create/--promote: derived_from paths, comma-separated.")
@click.option("--canonical", metavar="K,L", help="With --create/--promote: canonical_for keys, comma-separated.")
@click.option("--anchors", metavar="P,Q", help="With --create: code paths, comma-separated.")
@click.option("--status", help="With --create (default draft) / --promote (default active): status. "
              "With --route/--search: only this status.")
@click.option("--set", "extra", multiple=True, metavar="KEY=VALUE", help="With --create: another frontmatter key.")
@click.option("--body-file", type=click.Path(dir_okay=False), help="With --create: the body, from a file.")
@click.option("--inbox", is_flag=True, help="With --create: file the note in _inbox/.")
@click.option("--promote", "a_promote", metavar="NOTE", help="Move an _inbox/ note into the bank (needs --to).")
@click.option("--to", "to_path", metavar="PATH", help="With --promote: destination path or folder.")
@click.option("--discard", "a_discard", metavar="NOTE", help="Delete an _inbox/ note (needs --reason).")
@click.option("--reason", help="With --discard: why; recorded in _inbox/DISCARDED.md.")
@click.option("--base-version", metavar="VERSION",
              help="With --promote/--discard: refuse unless the note is still this version (from --read --json).")
@click.option("--list-inbox", "a_list_inbox", is_flag=True, help="List _inbox/ notes, oldest first.")
@click.option("--init", "a_init", metavar="NAME", help="Seed a new bank for project NAME.")
@click.option("--materialize-flows", "a_materialize_flows", is_flag=True,
              help="Copy the shipped templates into flows/templates/.")
@click.option("--force", is_flag=True, help="With --init/--materialize-flows: overwrite; with --deliver: "
              "overwrite generated files edited by hand.")
@click.option("--dry-run", is_flag=True, help="Run every check, write nothing, print what would change.")
@click.option("--graph", "a_graph", metavar="PATH", help="Walk derived_from from one document.")
@click.option("--direction", type=click.Choice(["up", "down", "both"]), default="down", show_default=True,
              help="With --graph: up = what it builds on, down = what depends on it.")
@click.option("--depth", type=WholeNumber(1, 6), default=2, show_default=True, help="With --graph: hops to walk.")
@click.option("--format", "graph_format", type=click.Choice(["text", "mermaid", "dot"]), default="text",
              show_default=True, help="With --graph: output as text, a Mermaid flowchart or Graphviz DOT.")
@click.option("--limit", type=WholeNumber(min=1),
              help="Cap on results (--route 5, max 25; --search 10, max 50; --graph: nodes, default 60).")
@click.option("--drift", "a_drift", is_flag=True,
              help="Documents whose anchored code moved on (git); with FILES, the documents covering them.")
@click.option("--threshold-days", type=WholeNumber(min=0), default=90, show_default=True,
              help="With --drift or --deliver: days the code may be ahead of its document.")
@click.option("--changed-since", metavar="REF",
              help="With --drift: list the documents covering files changed since REF (plus untracked).")
@click.option("--changed", "a_changed", metavar="REF|DATE", help="Documents changed since a git ref or ISO date.")
@click.option("--deliver", "a_deliver", is_flag=True,
              help="Compile rules and recipes into IDE files (§14); --check exits 1 when any is stale.")
@click.option("--targets", metavar="LIST", help="With --deliver: cursor,agents,claude,copilot,skill,mirror,gemini,"
              "cline,windsurf,roo,kiro,junie (default cursor,agents,copilot).")
@click.option("--check", is_flag=True, help="With --deliver: write nothing; exit 1 when a file is out of date. "
              "With --drift: exit 1 when a document drifted or lost an anchor.")
@click.option("--guard", "a_guard", is_flag=True,
              help="Check FILES (default: git's changed files) against the rules' guard patterns; exit 1 on errors.")
@click.option("--staged", is_flag=True, help="With --guard: only staged files (for pre-commit).")
@click.option("--changed-lines", is_flag=True, help="With --guard: only added or changed lines (legacy code).")
@click.option("--review", "a_review", metavar="PATH",
              help="Stamp `reviewed: today` on a document checked against its code (clears its drift).")
@click.option("--adopt", "a_adopt", is_flag=True,
              help="Give a folder of plain markdown governed frontmatter, dna/ and indexes (dry run; --write applies).")
@click.option("--write", is_flag=True, help="With --adopt: apply the changes (the default only shows them).")
@click.option("--name", help="With --adopt: the project name in the added dna/ (default: the project folder's).")
@click.option("--import", "a_import", is_flag=True,
              help="File the project's agent instructions (CLAUDE.md, .cursor/rules, …) as _inbox/ notes.")
@click.option("--install", "a_install", is_flag=True,
              help="Wire the bank into agents' project configs (--agents; default claude = --install-hook).")
@click.option("--agents", metavar="LIST", help="With --install: claude,cursor,vscode,gemini,codex,windsurf.")
@click.option("--uninstall", "a_uninstall", is_flag=True,
              help="Remove what --install and --deliver added to the project, keeping every user byte.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as compact JSON (the tool's dict).")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.version_option(__version__, prog_name=PROG)
def command(root: str | None, as_json: bool, **opts: Any) -> None:
    """Serve a memory bank over MCP (no action flag), or run one action on it."""
    chosen = [name for name in ACTIONS if opts.get(f"a_{name}") not in (None, False, ())]
    if len(chosen) > 1:
        raise Usage(f"choose one action, not {' and '.join('--' + c.replace('_', '-') for c in chosen)}")
    _misplaced_options(chosen[0] if chosen else SERVE)
    if root is not None and not root.strip():
        raise Usage("--root is empty; give the bank folder, e.g. --root ./memory_bank")
    bank_root = root or os.environ.get("MEMORYBANK_ROOT") or "memory_bank"
    if opts["tool_groups"] is not None:
        from .server.tools import parse_groups
        try:
            parse_groups(opts["tool_groups"])
        except ValueError as exc:
            raise Usage(str(exc)) from None
    if not chosen:
        from .server.app import serve  # the only path that imports the MCP SDK
        serve(bank_root, opts["off_paths"], opts["tool_groups"])
        # The client closed the connection and every write is already on disk (atomic, fsynced):
        # skip the interpreter's teardown of the SDK's module graph, which costs ~0.3 s per exit.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    if chosen[0] == "surface":
        _surface(bank_root, opts, as_json)
        return
    from .bank import bank_for

    bank = bank_for(bank_root)
    if not bank.root.is_dir() and chosen[0] not in NEEDS_NO_BANK:
        raise BankError(f"No bank at {bank.root}: the folder does not exist. Pass --root <bank folder>.")
    style = _style(sys.stdout.isatty() and not as_json)
    action = chosen[0]
    result, text, code = _run(action, bank, opts, style)
    if as_json:
        from .jsonout import dumps
        click.echo(dumps(result))
    elif text or action != "prime":  # a prime below the bar prints nothing at all
        click.echo(text)
    from .cache import save
    save(bank)
    sys.exit(code)


def _run(action: str, bank: Any, opts: dict[str, Any], style: Callable[..., str]) -> tuple[dict, str, int]:
    from . import render

    if action == "stats":
        from .stats import stats
        result = stats(bank)
        return result, render.stats(result, style), 0
    if action == "prime":
        from .prime import prime
        result = prime(bank, opts["a_prime"])
        return result, result["text"], 0
    if action in ("route", "search"):
        filters = {"doc_kind": opts["kind"], "layer": opts["layer"], "status": opts["status"]}
        if opts["limit"] is not None:
            filters["limit"] = opts["limit"]
        if action == "route":
            from .route import route
            result = route(bank, opts["a_route"], **filters)
            return result, render.route(result, style), 0
        from .search import search
        result = search(bank, opts["a_search"], **filters)
        return result, render.search(result, style), 0
    if action == "read":
        from .read import read
        paths = list(opts["a_read"])
        if len(paths) == 1 and opts["max_bytes"] is not None:
            raise Usage("--max-bytes is the budget of a batch: give two or more --read PATHs")
        result = read(bank, paths[0] if len(paths) == 1 else paths, section=opts["section"],
                      lines=opts["line_range"], max_bytes=opts["max_bytes"])
        return result, render.read(result, style), 0
    if action == "validate":
        from .validate import validate
        result = validate(bank, scope=opts["scope"], severity=opts["severity"], rule=opts["rule"])
        code = 1 if result["summary"]["errors"] else 0
        if opts["summary"]:
            result = {"summary": result["summary"]}
        return result, render.validate(result if "findings" in result else {**result, "findings": []},
                                       style, summary_only=opts["summary"]), code
    if action == "install_hook":
        from .install import install_hook
        result = install_hook(bank.root, project=opts["project"], dry_run=opts["dry_run"],
                              claude_md=not opts["no_claude_md"])
        return result, render.install_hook(result, style), 0
    if action == "adoption":
        from .adoption import adoption, default_transcripts
        files = list(opts["files"]) or default_transcripts(bank.root, opts["project"])
        result = adoption(bank.root, files, project=opts["project"])
        return result, render.adoption(result, style), 0
    if action in WRITERS or action == "list_inbox":
        return _write(action, bank, opts, style)
    if action == "graph":
        from . import graph as g
        result = g.graph(bank, opts["a_graph"], direction=opts["direction"], depth=opts["depth"],
                         **({"limit": opts["limit"]} if opts["limit"] else {}))
        renderer = {"text": g.render_text, "mermaid": g.render_mermaid, "dot": g.render_dot}[opts["graph_format"]]
        return result, renderer(result).rstrip("\n"), 0
    if action == "drift":
        from .drift import drift, render_text
        files = [os.path.abspath(f) for f in opts["files"]]  # FILES are relative to the caller's folder
        if opts["check"] and (files or opts["changed_since"]):
            raise Usage("--drift --check judges the whole bank; give it no FILES or --changed-since")
        result = drift(bank, threshold_days=opts["threshold_days"], scope=opts["scope"], files=files or None,
                       changed_since=opts["changed_since"])
        failed = opts["check"] and bool(result.get("drifted") or result.get("missing"))
        return result, render_text(result, style), 1 if failed else 0
    if action == "changed":
        from .changed import changed, render_text
        result = changed(bank, opts["a_changed"])
        return result, render_text(result, style), 0
    if action == "deliver":
        from .deliver import deliver
        result = deliver(bank, project=opts["project"], targets=opts["targets"], dry_run=opts["dry_run"],
                         check=opts["check"], force=opts["force"], threshold_days=opts["threshold_days"])
        code = 1 if ((result["stale"] or result["newly_withheld"]) if opts["check"] else result["refused"]) else 0
        return result, render.deliver(result, style), code
    if action == "adopt":
        from .adopt import adopt
        result = adopt(bank, name=opts["name"], write=opts["write"])
        return result, render.adopt(result, style), 0
    if action == "import":
        from .importer import import_instructions
        result = import_instructions(bank, project=opts["project"], dry_run=opts["dry_run"])
        return result, render.imported(result, style), 0
    if action == "install":
        from .install import install
        result = install(bank.root, project=opts["project"], agents=opts["agents"], dry_run=opts["dry_run"],
                         claude_md=not opts["no_claude_md"])
        return result, render.install(result, style), 0
    if action == "uninstall":
        from .uninstall import uninstall
        result = uninstall(bank.root, project=opts["project"], force=opts["force"], dry_run=opts["dry_run"])
        code = 1 if any(f["action"] == "refused" for f in result["files"]) else 0
        return result, render.uninstall(result, style), code
    if action == "guard":
        from .guard import guard
        files = [os.path.abspath(f) for f in opts["files"]]  # FILES are relative to the caller's folder
        result = guard(bank, files=files or None, staged=opts["staged"], changed_lines=opts["changed_lines"])
        return result, render.guard(result, style), 0 if result["passed"] else 1
    raise Usage(f"unknown action {action}")  # pragma: no cover - ACTIONS and _run agree


def _items(value: str | None) -> list[str] | None:
    """A comma-separated flag value as a list (None when the flag was not given)."""
    if value is None:
        return None
    return [item.strip() for item in value.split(",") if item.strip()]


def _extra(pairs: tuple[str, ...]) -> dict[str, str] | None:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise Usage(f"--set takes KEY=VALUE, not {pair!r}")
        out[key.strip()] = value
    return out or None


def _write(action: str, bank: Any, opts: dict[str, Any], style: Callable[..., str]) -> tuple[dict, str, int]:
    from . import render, writers

    dry = opts["dry_run"]
    if action == "create":
        missing = [f"--{n}" for n in ("kind", "title", "purpose") if not opts[n]]
        if missing:
            raise Usage(f"--create needs {', '.join(missing)}")
        result = writers.create(bank, path=opts["a_create"], doc_kind=opts["kind"], title=opts["title"],
                              purpose=opts["purpose"], derived_from=_items(opts["derived"]),
                              canonical_for=_items(opts["canonical"]), anchors=_items(opts["anchors"]),
                              status=opts["status"], body_file=opts["body_file"], extra=_extra(opts["extra"]),
                              inbox=opts["inbox"], dry_run=dry)
    elif action == "promote":
        if not opts["to_path"]:
            raise Usage("--promote needs --to PATH")
        result = writers.promote(bank, path=opts["a_promote"], to=opts["to_path"], doc_kind=opts["kind"],
                               title=opts["title"], purpose=opts["purpose"], derived_from=_items(opts["derived"]),
                               canonical_for=_items(opts["canonical"]), status=opts["status"], dry_run=dry,
                               base_version=opts["base_version"])
    elif action == "discard":
        if not opts["reason"]:
            raise Usage("--discard needs --reason R")
        result = writers.discard(bank, path=opts["a_discard"], reason=opts["reason"], dry_run=dry,
                                 base_version=opts["base_version"])
    elif action == "init":
        result = writers.init(bank, name=opts["a_init"], force=opts["force"], dry_run=dry)
        return result, render.written(result, style) + ("" if dry else "\n" + render.init_next(result)), 0
    elif action == "materialize_flows":
        result = writers.materialize_flows(bank, force=opts["force"], dry_run=dry)
    elif action == "review":
        result = writers.review(bank, path=opts["a_review"], dry_run=dry)
    else:
        result = writers.list_inbox(bank)
        return result, render.inbox(result, style), 0
    return result, render.written(result, style), 0


def _surface(root: str, opts: dict[str, Any], as_json: bool) -> None:
    import anyio

    from .server.app import MemoryBankServer
    from .server.budget import measure_server, render

    server = MemoryBankServer(root, opts["off_paths"], opts["tool_groups"])
    result = anyio.run(measure_server, server)
    if as_json:
        from .jsonout import dumps
        click.echo(dumps({"mode": server.mode, **result}))
    else:
        click.echo(render(result, server.mode))


_CLI_FLAGS = {"bank_route": "--route", "bank_search": "--search", "bank_read": "--read", "bank_graph": "--graph",
              "bank_changed": "--changed", "bank_validate": "--validate", "bank_drift": "--drift",
              "bank_guard": "--guard", "bank_create": "--create", "bank_promote": "--promote",
              "bank_discard": "--discard", "bank_init": "--init", "bank_review": "--review",
              "bank_materialize_flows": "--materialize-flows"}
_MCP_ONLY = ("bank_edit", "bank_update_section", "bank_set_status", "bank_set_field", "bank_set_list")
_TOOL_NAME = re.compile(r"\b(?:([Cc]all) )?(" + "|".join(sorted([*_CLI_FLAGS, *_MCP_ONLY], key=len, reverse=True))
                        + r")\b")
_FORCE = re.compile(r"\b([Pp]ass|[Uu]se) force\b")


def for_cli(message: str) -> str:
    """A capability's refusal in the CLI's words: tool names become flags, `force` becomes `--force`.

    Capabilities speak MCP (their messages are read by agents); a tool the CLI has no flag for is
    named as an MCP tool, so the fix stays one the reader can act on.
    """
    def flag(match: re.Match[str]) -> str:
        call, name = match.groups()
        if name not in _CLI_FLAGS:
            return match.group()
        return f"{'run' if call == 'call' else 'Run'} {_CLI_FLAGS[name]}" if call else _CLI_FLAGS[name]

    text = _TOOL_NAME.sub(flag, message)
    text = _FORCE.sub(lambda m: f"{m.group(1)} --force", text)
    others = sorted({name for name in _MCP_ONLY if re.search(rf"\b{name}\b", text)})
    if others:
        text += f" ({', '.join(others)}: MCP tools, served without an action flag)"
    return text


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line usage errors (exit 2), refusals on stderr (exit 1).

    Run as the installed script (no `argv`), it ends with `os._exit` once the output is flushed: every
    write is already on disk (atomic, fsynced), and the interpreter's teardown of a large index costs
    more than the call itself on a big bank.
    """
    if argv is None:
        try:
            _main(argv)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if exc.code is not None and not isinstance(exc.code, int):
                print(exc.code, file=sys.stderr)
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            code = code or 1
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os._exit(code)
    _main(argv)


def _main(argv: list[str] | None) -> None:
    try:
        command.main(args=argv, prog_name=PROG, standalone_mode=False)
    except Usage as exc:
        click.echo(f"{PROG}: {exc}", err=True)
        sys.exit(2)
    except click.UsageError as exc:
        click.echo(f"{PROG}: {exc.format_message()} (see --help)", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        sys.exit(130)
    except BankError as exc:
        click.echo(f"{PROG}: {for_cli(clip(exc.message))}", err=True)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
