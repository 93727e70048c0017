"""The `mcp-memorybank` command: one subcommand per catalog action, plus the flag form kept as it was.

`mcp-memorybank route "…"`, `read PATH`, `create PATH --kind …`: each subcommand is generated from
`catalog.py` (its arguments, options, help and example). The flag form (`--root B --route Q`, and
the bare `--root B` that serves MCP from `.mcp.json`) translates its flags into the same catalog
call. A thin adapter: parse, call the capability, render its dict (text, or `--json` for exactly
the dict). Exit codes: 0 ok, 1 findings or a refusal, 2 a usage error. The MCP SDK is imported
only when serving, because importing it costs ~0.4 s of cold start.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .catalog import ACTIONS, BY_COMMAND, BY_NAME, NO_DEFAULT, Action, Param, parse_groups
from .errors import BankError, clip
from .stdio import echo

if TYPE_CHECKING:
    import click

PROG = "mcp-memorybank"
BANK_FOLDER = "memory_bank"
_CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
SERVE = "serve"  # the flag form's pseudo-action when no action flag is given
LEGACY = tuple(a for a in ACTIONS if a.flag)  # actions the flag form reaches, by their flag


@functools.cache
def _whole_number() -> type:
    """`WholeNumber`, built on first use: click is imported only when click parses the command line."""
    import click

    class WholeNumber(click.IntRange):
        """An integer option: click's IntRange, named so that a typo reads "'abc' is not a valid whole number"."""

        name = "whole number"

    return WholeNumber


class Usage(Exception):
    """A usage error: printed as one line, exit 2."""


def _option_actions() -> dict[str, tuple[str, ...]]:
    """The flag map: which flag-form actions each option feeds, built from the catalog's parameters."""
    out: dict[str, list[str]] = {}
    for action in LEGACY:
        for param in action.params:
            if param.flag_dest and not param.arg:
                out.setdefault(param.flag_dest, []).append(action.flag or "")
            elif param.arg and param.type == "array" and param.name == "files":
                out.setdefault("files", []).append(action.flag or "")
    for dest in ("off_paths", "tool_groups"):
        out[dest] = [SERVE, *out.get(dest, [])]
    out["as_json"] = [a.flag or "" for a in LEGACY]
    return {k: tuple(v) for k, v in out.items()}


def __getattr__(name: str) -> Any:
    """`OPTION_ACTIONS`, the flag form's `command`, the subcommands' group `commands` and `WholeNumber`, built
    on first use (a subcommand never needs the flag form, and the flag form's fast path needs no click)."""
    if name == "OPTION_ACTIONS":
        return _option_map()
    if name == "command":
        return _flag_command()
    if name == "commands":
        return _commands()
    if name == "WholeNumber":
        return _whole_number()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _option_map() -> dict[str, tuple[str, ...]]:
    return _option_actions()


def _misplaced_options(action: str) -> None:
    """Refuse options that do nothing for the chosen action (explicitly given ones only).

    A forgotten action flag (`--section X` without `--read`) must never silently start the MCP server.
    """
    import click

    ctx = click.get_current_context()
    OPTION_ACTIONS = _option_map()
    every = OPTION_ACTIONS["as_json"]
    for param in ctx.command.params:
        allowed = OPTION_ACTIONS.get(param.name or "")
        if allowed is None or action in allowed:
            continue
        if ctx.get_parameter_source(param.name) is not click.core.ParameterSource.COMMANDLINE:
            continue
        if param.name == "files":
            value = ctx.params["files"][0]
            flags = sorted(f"--{a.replace('_', '-')}" for a in OPTION_ACTIONS["files"])
            raise Usage(f"unexpected argument {value!r}: FILES are only for {', '.join(flags[:-1])} and {flags[-1]}")
        flag = param.opts[0]
        goes_with = "any action" if allowed == every else ", ".join(
            "no action (serving)" if a == SERVE else "--" + a.replace("_", "-") for a in allowed)
        where = "without an action flag" if action == SERVE else "with --" + action.replace("_", "-")
        raise Usage(f"{flag} does nothing {where}; it goes with {goes_with}")


def _style(enabled: bool) -> Callable[..., str]:
    if not enabled:
        from .render import plain
        return plain
    import click

    return lambda text, **kw: click.style(text, **kw)


def find_root(explicit: str | None) -> str:
    """The bank folder: --root, else $MEMORYBANK_ROOT, else the nearest `memory_bank/` (or Cline's `memory-bank/`)
    up to the git top-level.

    The same walk as the Stop hook's, so a command run from any subfolder of the project finds the
    bank; with none found, `./memory_bank` (where `init` creates one).
    """
    if explicit is not None:
        if not explicit.strip():
            raise Usage("--root is empty; give the bank folder, e.g. --root ./memory_bank")
        return explicit
    env = os.environ.get("MEMORYBANK_ROOT")
    if env:
        return env
    if Path(BANK_FOLDER).is_dir():
        return BANK_FOLDER
    from .hook import find_bank
    from .project import git_toplevel

    cwd = Path.cwd()
    found = find_bank(None, cwd, git_toplevel(cwd))
    return str(found) if found is not None else BANK_FOLDER


# -- values: the same conversion for both command-line forms ----------------------------------

def _typed(key: str, value: str) -> Any:
    """A `--set` value as the bank reads YAML (`5` → 5, `[a, b]` → a list, `yes` stays text); a value YAML
    cannot read stays text, and one whose aliases expand without bound (a "billion laughs") is refused."""
    import yaml

    from .parse import load_yaml

    try:
        loaded = load_yaml(value)
    except yaml.YAMLError as exc:
        try:
            yaml.safe_load(value)
        except yaml.YAMLError:
            return value
        raise Usage(f"--set {key}: {exc}; give a plain value") from None
    return value if loaded is None and value.strip() not in ("null", "~") else loaded


def _convert(param: Param, raw: Any) -> Any:
    """A command-line value as the capability takes it; None when not given."""
    if raw is None or raw == () or raw is False and param.type != "boolean":
        return None
    if param.type == "object":  # KEY=VALUE pairs, in the order given
        out: dict[str, Any] = {}
        for pair in raw:
            key, sep, value = pair.partition("=")
            if not sep or not key.strip():
                raise Usage(f"--{param.option} takes KEY=VALUE, not {pair!r}")
            if key.strip() == "applies_to" and "," in value and not value.lstrip().startswith("["):
                out[key.strip()] = [item.strip() for item in value.split(",") if item.strip()]
            else:
                out[key.strip()] = _typed(key.strip(), value)
        return out or None
    if param.type == "array":
        items = [raw] if isinstance(raw, str) else list(raw)
        if param.metavar and "," in param.metavar:  # comma-separated lists (`--derived a.md,b.md`)
            items = [part.strip() for item in items for part in item.split(",") if part.strip()]
        return items or None
    return raw


def _call(action: Action, root: str, values: dict[str, Any], as_json: bool, one_shape: bool = False) -> int:
    """Run one action: call its capability with `values` (by parameter name), print, return the exit code."""
    from .project import linked_out

    escape = linked_out(root)  # a committed symlink leading out of the project: refused before anything
    if escape is not None:
        raise escape
    if action.name == SERVE:
        _serve(root, values)
    bank_root = root
    kwargs = {}
    shown_with: dict[str, Any] = {}
    for param in action.params:
        value = _convert(param, values.get(param.name))
        if param.render:
            shown_with[param.name] = value
        elif value is not None:
            kwargs[param.name] = value
    prepare = PREPARE.get(action.name)
    if prepare is not None:
        prepare(kwargs, root, one_shape, shown_with)
    if action.takes == "root":
        subject: Any = bank_root
    else:
        from .bank import bank_for

        subject = bank_for(bank_root)
        if not subject.root.is_dir() and action.bank == "exists":
            if subject.root.exists():
                raise BankError(f"{subject.root} is a file, not a bank folder; give the bank folder.")
            raise BankError(f"No bank at {subject.root}: the folder does not exist. Give the bank folder "
                            "(--root), or create one.", see="init")
    capability = action.capability("cli")
    try:
        if action.takes == "root":
            result = capability(subject, **kwargs)
        else:  # a malformed part of the cache file found mid-call: answered from the files (`bank.answered`)
            from .bank import answered

            subject, result = answered(bank_root, lambda bank: capability(bank, **kwargs), action.read_only)
    except BankError as exc:
        _refusal(exc, as_json, action.name)
    from . import faces

    result = faces.result(result, "cli", action.name)
    if one_shape and action.name == "read" and "documents" not in result:  # one path: the batch's shape
        from .read import BATCH_BUDGET
        result = {"documents": [result], "bytes": len(result.get("content", "").encode("utf-8")),
                  "budget": kwargs.get("max_bytes") or BATCH_BUDGET}
    style = _style(sys.stdout.isatty() and not as_json and not os.environ.get("NO_COLOR"))
    present = PRESENT.get(action.name, _default_present)
    result, text, code = present(action, result, style, shown_with)
    if as_json:
        from .jsonout import dumps
        echo(dumps(result))
    elif text or action.name != "prime":  # a prime below the bar prints nothing at all
        echo(text)
    if action.takes != "root":
        from .cache import save
        save(subject)
    from .regexes import flush

    flush()  # prime-lean: the patterns this call compiled are taken ready-made by the next process
    return code


def _default_present(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    renderer = getattr(render, action.name, None) if action.group is None or action.read_only else None
    renderer = renderer or render.written
    return result, renderer(result, style), 0


def _validate(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    code = 1 if result["summary"]["errors"] else 0
    if opts.get("summary"):
        result = {"summary": result["summary"]}
    return result, render.validate(result if "findings" in result else {**result, "findings": []}, style,
                                   summary_only=bool(opts.get("summary"))), code


def _graph(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    renderer = {"text": render.graph_text, "mermaid": render.graph_mermaid,
                "dot": render.graph_dot}[opts.get("format") or "text"]
    return result, renderer(result).rstrip("\n"), 0


def _deliver(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    stale = result["stale"] or result.get("newly_withheld")
    code = 1 if (stale if result["mode"] == "check" else result["refused"]) else 0
    return result, render.deliver(result, style), code


def _drift(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    failed = opts.get("check") and bool(result.get("drifted") or result.get("missing"))
    return result, render.drift(result, style), 1 if failed else 0


def _guard(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    return result, render.guard(result, style), 0 if result["passed"] else 1


def _surface(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from .server.budget import render

    return result, render(result, result["mode"]), 0


def _prime(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    return result, result["text"], 0


def _init(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    text = render.written(result, style)
    return result, text if result.get("dry_run") else text + "\n" + render.init_next(result), 0


def _imported(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    return result, render.imported(result, style), 0


def _uninstall(action: Action, result: dict, style: Callable[..., str], opts: dict) -> tuple[dict, str, int]:
    from . import render

    refused = any(f["action"] == "refused" for f in result["files"])
    return result, render.uninstall(result, style), 1 if refused else 0


PRESENT: dict[str, Callable[..., tuple[dict, str, int]]] = {
    "init": _init, "import": _imported, "uninstall": _uninstall,
    "prime": _prime, "validate": _validate, "graph": _graph, "drift": _drift, "deliver": _deliver, "guard": _guard,
    "surface": _surface,
}


def _prepare_read(kwargs: dict, root: str, one_shape: bool, shown: dict) -> None:
    paths = kwargs["path"]
    if len(paths) == 1:
        kwargs["path"] = paths[0]
        if kwargs.get("max_bytes") is not None and not one_shape:
            raise Usage("--max-bytes is the budget of a batch: give two or more --read PATHs")


def _prepare_guard(kwargs: dict, root: str, one_shape: bool, shown: dict) -> None:
    if kwargs.get("files"):
        kwargs["files"] = [os.path.abspath(f) for f in kwargs["files"]]  # relative to the caller's folder


def _prepare_drift(kwargs: dict, root: str, one_shape: bool, shown: dict) -> None:
    if shown.get("check") and (kwargs.get("files") or kwargs.get("changed_since")):
        raise Usage("drift --check judges the whole bank; give it no FILES or --changed-since")
    _prepare_guard(kwargs, root, one_shape, shown)


def _prepare_groups(kwargs: dict, root: str, one_shape: bool, shown: dict | None = None) -> None:
    try:
        parse_groups(kwargs.get("tool_groups"))
    except ValueError as exc:
        raise Usage(str(exc)) from None


PREPARE: dict[str, Callable[[dict, str, bool, dict], None]] = {
    "read": _prepare_read, "guard": _prepare_guard, "drift": _prepare_drift, "surface": _prepare_groups,
}


def _serve(root: str, values: dict[str, Any]) -> None:
    groups = values.get("tool_groups")
    try:
        parse_groups(groups)
    except ValueError as exc:
        raise Usage(str(exc)) from None
    from .server.prefetch import begin
    begin(root, tuple(values.get("off_paths") or ()))  # the index loads while the SDK imports (issue 15)
    from .server.app import serve  # the only path that imports the MCP SDK

    serve(root, tuple(values.get("off_paths") or ()), groups)
    # The client closed the connection and every write is already on disk (atomic, fsynced):
    # skip the interpreter's teardown of the SDK's module graph, which costs ~0.3 s per exit.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


# -- the flag form --------------------------------------------------------------------------------

ROOT_HELP = "Bank folder (default: $MEMORYBANK_ROOT, else the nearest memory_bank/ up to the git top-level)."


def _flag_option(dest: str, fed: list[tuple[Action, Param]]) -> click.Option:
    """The flag form's option for one destination, from every catalog parameter it feeds.

    Spelled as in the subcommands (`--kind`, `--no-claude-md`); bounds, choices and a default are
    shown only where every parameter it feeds agrees (`--limit`'s maximum differs: each capability
    clamps); the value given is passed as is, so each capability keeps its own default.
    """
    import click

    first = fed[0][1]
    said: dict[str, list[str]] = {}
    for action, param in fed:
        help_text = (param.cli_help or param.help).rstrip(".")
        help_text = help_text[0].lower() + help_text[1:]
        if param.type == "boolean" and param.default is True:
            help_text = "do not " + help_text
        said.setdefault(help_text, []).append(f"--{action.flag.replace('_', '-')}" if action.flag else "no action")
    text = " ".join(f"With {'/'.join(flags)}: {help_text}." for help_text, flags in said.items())
    params = [p for _, p in fed]
    if first.type == "boolean":
        decl = f"--no-{first.option}" if first.default is True else f"--{first.option}"
        return click.Option([decl, dest], is_flag=True, help=text)
    if first.type in ("array", "object"):
        return click.Option([f"--{first.option}", dest], multiple=True, metavar=first.metavar, help=text)
    kind: click.ParamType = click.STRING
    if first.type == "integer":
        agreed = len({(p.minimum, p.maximum) for p in params}) == 1
        kind = _whole_number()(min(p.minimum or 0 for p in params), first.maximum if agreed else None)
    elif first.enum and len({p.enum for p in params}) == 1:
        kind = click.Choice(list(first.enum))
    defaults = {p.default for p in params}
    if len(defaults) == 1 and first.default not in (NO_DEFAULT, None):
        text += f" [default: {first.default}]"
    return click.Option([f"--{first.option}", dest], type=kind, metavar=first.metavar, help=text)


def _flag_form_params() -> list[click.Parameter]:
    """Every option of the flag form, generated from the catalog: one `--ACTION` per action with `flag=`, then
    the options of its parameters (shared by name: `--limit` feeds route, search and graph), FILES and --json."""
    import click

    out: list[click.Parameter] = [click.Option(["--root"], type=click.Path(file_okay=False), default=None,
                                               help=ROOT_HELP)]
    fed: dict[str, list[tuple[Action, Param]]] = {}
    order: list[str] = []
    for action in (*LEGACY, BY_NAME[SERVE]):  # serving is the flag form without an action flag
        value = next((p for p in action.params if p.arg and p.flag == ""), None)
        decls = [f"--{(action.flag or '').replace('_', '-')}", f"a_{action.flag}"]
        help_text = action.cli_help or action.description
        if action.flag:
            out.append(click.Option(decls, is_flag=True, help=help_text) if value is None else
                       click.Option(decls, metavar=(value.metavar or value.name.upper()).removesuffix("..."),
                                    multiple=value.type == "array", help=help_text))
        for param in action.params:
            if param.arg or not param.flag_dest:
                continue
            if param.flag_dest not in fed:
                order.append(param.flag_dest)
            fed.setdefault(param.flag_dest, []).append((action, param))
    out += [_flag_option(dest, fed[dest]) for dest in order]
    out.append(click.Option(["--json", "as_json"], is_flag=True,
                            help="Print the result as compact JSON (the tool's dict); a refusal as {\"error\": …}."))
    out.append(click.Argument(["files"], nargs=-1, type=click.Path(dir_okay=False)))
    return out


def _flag_run(root: str | None, as_json: bool, **opts: Any) -> None:
    """Serve a memory bank over MCP (no action flag), or run one action on it (the flag form).

    Prefer the subcommands: `mcp-memorybank COMMAND --help` (commands: see `mcp-memorybank help`).
    """
    chosen = [a for a in LEGACY if opts.get(f"a_{a.flag}") not in (None, False, ())]
    if len(chosen) > 1:
        raise Usage(f"choose one action, not {' and '.join('--' + (c.flag or '').replace('_', '-') for c in chosen)}")
    if not opts.pop("_checked", False):  # the fast path gave only options the action takes
        _misplaced_options(chosen[0].flag or "" if chosen else SERVE)
    bank_root = find_root(root)
    if opts["tool_groups"] is not None:
        _prepare_groups({"tool_groups": opts["tool_groups"]}, bank_root, False)
    action = chosen[0] if chosen else BY_NAME[SERVE]
    values: dict[str, Any] = {}
    for param in action.params:
        if param.arg and param.flag == "":  # the action flag's own value (`--route QUESTION`)
            values[param.name] = opts[f"a_{action.flag}"]
        elif param.name == "files":
            values[param.name] = opts["files"]
        elif param.flag_dest in opts:
            given = opts[param.flag_dest]
            values[param.name] = not given if param.type == "boolean" and param.default is True else given
    missing = [f"--{p.option}" + (f" {p.metavar}" if p.metavar else "") for p in action.params
               if p.required and not p.arg and not values.get(p.name)]
    if missing:
        raise Usage(f"--{(action.flag or '').replace('_', '-')} needs {', '.join(missing)}")
    sys.exit(_call(action, bank_root, values, as_json))


@functools.cache
def _flag_command() -> click.Command:
    """The flag form's command, built only when click parses the flag form (its ~100 options cost a cold start)."""
    import click

    built = click.command("command", context_settings=_CONTEXT)(
        click.version_option(__version__, prog_name=PROG)(_flag_run))
    built.params[:0] = _flag_form_params()
    return built


# -- subcommands, generated from the catalog ---------------------------------------------------

def _click_param(param: Param) -> click.Parameter:
    import click

    if param.arg:
        many = param.type == "array"
        kind = click.Path(dir_okay=False) if param.name == "files" else None
        return click.Argument([param.name], nargs=-1 if many else 1, required=param.required, type=kind,
                              metavar=param.metavar or param.name.upper())
    text = param.cli_help or param.help
    shown_default = param.implied if param.implied is not None and param.implied is not NO_DEFAULT else param.default
    kw: dict[str, Any] = {"help": text, "required": param.required}
    if param.type == "boolean":
        decls = [f"--{param.option}/--no-{param.option}" if param.default is True else f"--{param.option}",
                 param.name]
        return click.Option(decls, is_flag=True, default=param.default is True, show_default=False, **kw)
    decls = [f"--{param.option}", param.name]
    if param.type in ("array", "object"):
        return click.Option(decls, multiple=True, metavar=param.metavar, **kw)
    if param.type == "integer":
        kind = _whole_number()(param.minimum, param.maximum)
    elif param.enum:
        kind = click.Choice(list(param.enum))
    else:
        kind = click.STRING
    if shown_default is not NO_DEFAULT and shown_default is not None:
        kw["help"] = f"{text} [default: {shown_default}]"
    return click.Option(decls, type=kind, metavar=param.metavar, **kw)


def _subcommand(action: Action) -> click.Command:
    import click

    params: list[click.Parameter] = [click.Option(["--root"], type=click.Path(file_okay=False), default=None,
                                                  help=ROOT_HELP)]
    params += [_click_param(p) for p in action.params]
    if action.name != SERVE:
        params.append(click.Option(["--json", "as_json"], is_flag=True,
                                   help="Print the result as compact JSON; a refusal as {\"error\": …}."))

    def run(root: str | None, as_json: bool = False, **values: Any) -> None:
        click.get_current_context().meta["as_json"] = as_json
        sys.exit(_call(action, find_root(root), values, as_json, one_shape=True))

    help_text = action.cli_help or action.description
    if action.example:
        help_text += f"\n\nExample:\n\n\b\n    {PROG} {action.example}"
    return click.Command(action.cli_name, params=params, callback=run, help=help_text,
                         short_help=_summary(action.cli_help or action.description),
                         context_settings=_CONTEXT)


def _summary(text: str) -> str:
    """A command's line in `--help`'s list: its help up to the first `;` outside parentheses, as a sentence
    (`adopt … (a dry run; --write applies).` was cut to `… (a dry run`)."""
    depth = 0
    for at, char in enumerate(text):
        depth += char == "(" and 1 or char == ")" and -1
        if char == ";" and depth <= 0:
            return text[:at].rstrip() + "."
    return text


@functools.cache
def _commands() -> click.Group:
    """The subcommands' group (`mcp-memorybank COMMAND …`), built on first use."""
    import click

    class _Commands(click.Group):
        """The subcommands, one per catalog action, each built only when asked for (help and completion ask for all)."""

        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted(BY_COMMAND)

        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            if cmd_name not in self.commands and cmd_name in BY_COMMAND:
                self.add_command(_subcommand(BY_COMMAND[cmd_name]))
            return self.commands.get(cmd_name)

        def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
            formatter.write_paragraph()
            formatter.write_text(
                "The flag form still works: `--root B --route Q`, and a bare `--root B` serves MCP. "
                "Exit codes: 0 ok, 1 findings or a refusal, 2 a usage error. Shell completion: "
                f"eval \"$(_MCP_MEMORYBANK_COMPLETE=bash_source {PROG})\" (zsh_source, fish_source).")

    @click.group(cls=_Commands, context_settings=_CONTEXT, invoke_without_command=False)
    @click.version_option(__version__, prog_name=PROG)
    def commands() -> None:
        """A memory bank for a project: route, read, check and change it; serve it over MCP."""

    return commands


# -- entry point ------------------------------------------------------------------------------

def _refusal(exc: BankError, as_json: bool, action: str | None = None) -> None:
    from . import faces

    message = clip(faces.refusal(exc, "cli", action))
    if as_json:
        echo(json.dumps({"error": {"message": message, "see": faces.see_names("cli", exc.see)}},
                        ensure_ascii=False, separators=(",", ":")))
    echo(f"{PROG}: {message}", err=True)
    sys.exit(2 if exc.param else 1)


def _usage(message: str, as_json: bool) -> None:
    if as_json:
        echo(json.dumps({"error": {"message": message, "see": []}}, separators=(",", ":")))
    echo(f"{PROG}: {message}", err=True)
    sys.exit(2)


def main(argv: list[str] | None = None) -> None:
    """Entry point: subcommands or the flag form; one-line usage errors (exit 2), refusals (exit 1).

    Run as the installed script (no `argv`), it ends with `os._exit` once the output is flushed: every
    write is already on disk (atomic, fsynced), and the interpreter's teardown of a large index costs
    more than the call itself on a big bank.
    """
    if argv is None:
        from .stdio import plug_streams

        plug_streams()
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


def _help_or_values(cmd: click.Command, args: list[str]) -> list[str]:
    """`args` as click should see them: help when `-h`/`--help` is anywhere before `--`, and refused when an
    option's value is another of the command's options (`--route --json`, `--root --stats`), which click
    would take as the value. `--kind=--json` and anything after `--` stay values."""
    import click

    names = {n for p in cmd.params if isinstance(p, click.Option) for n in (*p.opts, *p.secondary_opts)}
    takes = {n for p in cmd.params if isinstance(p, click.Option) and not p.is_flag for n in p.opts}
    head = args[:args.index("--")] if "--" in args else args
    if any(a in ("-h", "--help") for a in head):
        return [args[0], "--help"] if cmd is not _flag_command() else ["--help"]
    for option, value in zip(head, head[1:]):
        if option in takes and value in names:
            raise Usage(f"{option} needs a value, not the option {value} (write {option}={value} for that text)")
    return args


def _main(argv: list[str] | None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    sub = bool(args) and (args[0] in BY_COMMAND or args[0] in ("-h", "--help", "help"))
    if sub and args[0] == "help":
        args = ["--help"]
    if not sub and any(a in ("-h", "--help") for a in args):  # `--route --help` asks for help, not a route
        args = ["--help"]
    as_json = "--json" in args
    try:
        if "_MCP_MEMORYBANK_COMPLETE" not in os.environ:
            if not sub:
                fast = _fast_flag_values(args)
                if fast is not None:
                    _run_fast(functools.partial(_flag_run, _checked=True, **fast))
                    return
            elif args[0] in BY_COMMAND:
                values = _fast_sub_values(args[0], args[1:])
                if values is not None:
                    _run_fast(functools.partial(_sub_run, BY_COMMAND[args[0]], values))
                    return
        import click

        if sub:
            args = _help_or_values(_commands().get_command(None, args[0]), args) if args[0] in BY_COMMAND else args
        else:
            args = _help_or_values(_flag_command(), args)
        if sub or "_MCP_MEMORYBANK_COMPLETE" in os.environ:
            _commands().main(args=args, prog_name=PROG, standalone_mode=False)
        else:
            _flag_command().main(args=args, prog_name=PROG, standalone_mode=False)
    except Usage as exc:
        _usage(str(exc), as_json)
    except BankError as exc:
        _refusal(exc, as_json)
    except Exception as exc:
        click = sys.modules.get("click")  # a click error can only come from click, so it is loaded then
        if click is not None and isinstance(exc, click.UsageError):
            _usage(f"{exc.format_message()} (see --help)", as_json)
        elif click is not None and isinstance(exc, click.exceptions.Abort):
            sys.exit(130)
        else:
            raise


# -- the flag form's fast path: the common calls parsed without click ------------------------------

@functools.cache
def _flag_spec() -> dict[str, tuple[str, str, Any]]:
    """The flag form's options as `_flag_form_params` builds them, without click: `--option` → (dest, kind,
    detail), kind one of flag | many | text | whole (detail: bounds) | choice (detail: the choices) | root.
    A test holds this table equal to the click command's options."""
    spec: dict[str, tuple[str, str, Any]] = {"--root": ("root", "root", None)}
    fed: dict[str, list[Param]] = {}
    for action in (*LEGACY, BY_NAME[SERVE]):
        value = next((p for p in action.params if p.arg and p.flag == ""), None)
        if action.flag:
            kind = "flag" if value is None else "many" if value.type == "array" else "text"
            spec[f"--{action.flag.replace('_', '-')}"] = (f"a_{action.flag}", kind, None)
        for param in action.params:
            if not param.arg and param.flag_dest:
                fed.setdefault(param.flag_dest, []).append(param)
    for dest, params in fed.items():
        first = params[0]
        if first.type == "boolean":
            spec[f"--no-{first.option}" if first.default is True else f"--{first.option}"] = (dest, "flag", None)
            continue
        detail: Any = None
        if first.type in ("array", "object"):
            kind = "many"
        elif first.type == "integer":
            agreed = len({(p.minimum, p.maximum) for p in params}) == 1
            kind, detail = "whole", (min(p.minimum or 0 for p in params), first.maximum if agreed else None)
        elif first.enum and len({p.enum for p in params}) == 1:
            kind, detail = "choice", first.enum
        else:
            kind = "text"
        spec[f"--{first.option}"] = (dest, kind, detail)
    spec["--json"] = ("as_json", "flag", None)
    return spec


def _fast_flag_values(args: list[str]) -> dict[str, Any] | None:
    """The values click would hand `_flag_run` for a flag-form command line, or None to let click parse it.

    Only the plain shapes are taken: long options the chosen action uses, each value-taking one once
    (`--opt VALUE` or `--opt=VALUE`, a value not starting with `-`), a whole number within its bounds,
    a listed choice, a `--root` that is no file and is readable. Anything else — FILES, `--`, short
    options, `--version`, an unknown or misplaced option, a value click would refuse — goes to click,
    which answers exactly as before (help and usage errors included).
    """
    spec = _flag_spec()
    values: dict[str, Any] = {dest: False if kind == "flag" else () if kind == "many" else None
                              for dest, kind, _ in spec.values()}
    values["files"] = ()
    given: set[str] = set()
    at = 0
    while at < len(args):
        step = _option_at(args, at, spec, given)
        if step is None:
            return None
        dest, kind, detail, value, at = step
        if kind == "flag":
            values[dest] = True
        elif kind == "many":
            values[dest] = (*values[dest], value)
        elif kind == "whole":
            number = _fast_value(kind, detail, value)
            if number is None:
                return None
            values[dest] = number
        elif kind == "choice":
            if value not in detail:
                return None
            values[dest] = value
        elif kind == "root":
            if not _plain_root(value):
                return None
            values[dest] = value
        else:
            values[dest] = value
    chosen = [a for a in LEGACY if values[f"a_{a.flag}"] not in (False, (), None)]
    action = chosen[0].flag or "" if len(chosen) == 1 else SERVE if not chosen else None
    if action is None:
        return None
    option_actions = _option_map()
    if any(dest in option_actions and action not in option_actions[dest] for dest in given):
        return None  # `_misplaced_options` refuses it: through click, as before
    return values


_FLAG_KINDS = frozenset(("flag", "on", "off"))


def _option_at(args: list[str], at: int, spec: dict[str, tuple[str, str, Any]],
               given: set[str]) -> tuple[str, str, Any, str, int] | None:
    """The long option at `args[at]` as `(dest, kind, detail, value, index after it)`, `dest` added to
    `given` (a flag's value is ""); None, for click to answer, when the option is unknown or short, a flag
    has `=VALUE`, a value is missing or starts with `-`, or a one-value option comes twice."""
    name, eq, inline = args[at].partition("=")
    found = spec.get(name) if name.startswith("--") else None
    if found is None:
        return None
    dest, kind, detail = found
    if kind in _FLAG_KINDS:
        if eq:
            return None
        value, at = "", at + 1
    elif eq:
        value, at = inline, at + 1
    elif at + 1 < len(args):
        value, at = args[at + 1], at + 2
    else:
        return None
    if kind not in _FLAG_KINDS and (value.startswith("-") or (dest in given and kind != "many")):
        return None
    given.add(dest)
    return dest, kind, detail, value, at


def _plain_root(value: str) -> bool:
    """A `--root` click.Path(file_okay=False) takes as given: missing, or there and neither a file nor unreadable."""
    import stat

    try:
        info = os.stat(value)
    except (OSError, ValueError):
        return value != ""  # click takes a missing path as it is ("": refused by `find_root`, via click)
    return not stat.S_ISREG(info.st_mode) and os.access(value, os.R_OK)


@functools.cache
def _sub_spec(name: str) -> tuple[dict[str, tuple[str, str, Any]], dict[str, Any], Param | None] | None:
    """A subcommand's options as `_subcommand` builds them, without click (see `_flag_spec`), its values when
    nothing is given, and its one positional parameter; None for the ones left to click (serve; FILES or
    more than one positional)."""
    action = BY_COMMAND[name]
    positional = [p for p in action.params if p.arg]
    if action.name == SERVE or len(positional) > 1 or any(p.name == "files" for p in positional):
        return None
    spec: dict[str, tuple[str, str, Any]] = {"--root": ("root", "root", None)}
    empty: dict[str, Any] = {"root": None}
    for param in action.params:
        if param.arg:
            empty[param.name] = () if param.type == "array" else None
        elif param.type == "boolean":
            empty[param.name] = param.default is True
            if param.default is True:
                spec[f"--{param.option}"] = (param.name, "on", None)
                spec[f"--no-{param.option}"] = (param.name, "off", None)
            else:
                spec[f"--{param.option}"] = (param.name, "flag", None)
        else:
            empty[param.name] = () if param.type in ("array", "object") else None
            spec[f"--{param.option}"] = (
                (param.name, "many", None) if param.type in ("array", "object") else
                (param.name, "whole", (param.minimum, param.maximum)) if param.type == "integer" else
                (param.name, "choice", param.enum) if param.enum else (param.name, "text", None))
    spec["--json"] = ("as_json", "flag", None)
    empty["as_json"] = False
    return spec, empty, positional[0] if positional else None


def _fast_sub_values(name: str, args: list[str]) -> dict[str, Any] | None:
    """The values click would hand a subcommand's callback, or None to let click parse the line.

    The same plain shapes as `_fast_flag_values`, plus the one positional (`route QUESTION`,
    `read PATH…`): a word not starting with `-`, once unless it takes several; a required parameter
    left out goes to click, which says so."""
    found = _sub_spec(name)
    if found is None:
        return None
    spec, empty, positional = found
    values = dict(empty)
    given: set[str] = set()
    at = 0
    while at < len(args):
        token = args[at]
        if not token.startswith("-"):
            if positional is None or (positional.type != "array" and values[positional.name] is not None):
                return None
            values[positional.name] = (*values[positional.name], token) if positional.type == "array" else token
            at += 1
            continue
        step = _option_at(args, at, spec, given)
        if step is None:
            return None
        dest, kind, detail, value, at = step
        if kind in _FLAG_KINDS:
            values[dest] = kind != "off"
            continue
        converted = _fast_value(kind, detail, value)
        if converted is None:
            return None
        values[dest] = (*values[dest], converted) if kind == "many" else converted
    action = BY_COMMAND[name]
    if any(p.required and values[p.name] in (None, ()) for p in action.params):
        return None
    return values


def _fast_value(kind: str, detail: Any, value: str) -> Any:
    """One option's value as click converts it, or None where click would refuse it (or check more)."""
    if kind == "whole":
        low, high = detail
        try:  # more digits than int() reads (4,300 by default) go to click, which refuses them as any bad number
            number = int(value) if value.isascii() and value.isdigit() else None
        except ValueError:
            return None
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            return None
        return number
    if kind == "choice":
        return value if value in detail else None
    if kind == "root":
        return value if _plain_root(value) else None
    return value


def _sub_run(action: Action, values: dict[str, Any]) -> None:
    """A subcommand's callback (`_subcommand`'s `run`) on parsed values."""
    values = dict(values)
    root, as_json = values.pop("root"), values.pop("as_json")
    sys.exit(_call(action, find_root(root), values, as_json, one_shape=True))


def _run_fast(run: Callable[[], None]) -> None:
    """A command's callback on parsed values, with what click's `main` adds around it: Ctrl-C / EOF → exit
    130 after a newline on stderr, a broken pipe → exit 1."""
    import errno

    try:
        run()
    except (EOFError, KeyboardInterrupt):
        echo("", err=True)
        sys.exit(130)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
