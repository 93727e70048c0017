"""Every action, declared once: the MCP tools, the CLI subcommands, the flag form and usage are built from it.

An `Action` names its capability (`module:function`, called as `(bank, **params)`), its tool group
(None: a CLI-only action such as `stats`), whether it writes, its parameters and a short description.
A `Param` carries its type, default, bounds and help; the MCP schema, the click option and the
flag-form mapping are derived from it. Adding a parameter to an action is one `Param(...)` line
(writers of an existing document take `*BASE`: `base_version`).

Adding an action:
1. Write the capability: `def thing(bank, ..., dry_run=False) -> dict` (`takes="root"` when it
   gets the bank folder, not a `Bank`; `bank="any"` when it may run before the bank exists).
2. Add one `Action("thing", "module:thing", "Short description.", (params...), example="thing …")`
   below. `flag="thing"` also reaches it from the flag form: `cli._flag_form_params` builds
   `--thing` and its options from the same entry; `group=` makes it an MCP tool (mind the
   3,500-token budget: `surface`).
3. Output: `render.<name>(result, style)` is used when it exists; a different exit code or
   renderer goes into `cli.PRESENT`, argument checks before the call into `cli.PREPARE`.
4. Add its success and refusal cases to `SUCCESS` / `REFUSAL` in `tests/test_catalog.py` (which
   also ties every entry to its function's signature) and a row to README's CLI reference.

No MCP and no click import here: the server, the CLI, `--surface` and the tests read this table.
"""
from __future__ import annotations

import importlib
from typing import Any

from .frozen import Value, assign

GROUPS = ("find", "check", "change", "create", "init")
NO_DEFAULT = object()  # a required parameter, or an optional one whose absence means "not given"


class Param(Value):
    """One parameter of an action: how the capability takes it and how each face offers it.

    `default` is the capability's own default and goes into the schema. `implied` is a default the
    capability applies itself when given None (create's status `draft`): shown in the schema, while
    the signature keeps None. `mcp=False` keeps a parameter off the tool schema; `cli` is the option
    name on the command line ("" = MCP only); `arg` makes it positional in the subcommand; `flag` is
    the flag form's destination when it differs (`line_range` for `lines`), "" for the positional that
    is the action flag's own value (`--route QUESTION`);
    `render=True` sends it to the CLI's renderer instead of the capability.
    """

    name: str
    type: str  # string | integer | boolean | array | object
    help: str
    default: Any
    required: bool
    minimum: int | None
    maximum: int | None
    enum: tuple[str, ...]
    implied: Any
    schema: dict[str, Any] | None  # a hand-written schema where the type is a union (read's path)
    mcp: bool
    cli: str | None
    cli_help: str | None
    metavar: str | None
    arg: bool
    flag: str | None
    render: bool

    __slots__ = (
        "name", "type", "help", "default", "required", "minimum", "maximum", "enum", "implied", "schema", "mcp",
        "cli", "cli_help", "metavar", "arg", "flag", "render",
    )

    def __init__(
        self, name: str, type: str, help: str, default: Any = NO_DEFAULT, required: bool = False,
        minimum: int | None = None, maximum: int | None = None, enum: tuple[str, ...] = (), implied: Any = NO_DEFAULT,
        schema: dict[str, Any] | None = None, mcp: bool = True, cli: str | None = None, cli_help: str | None = None,
        metavar: str | None = None, arg: bool = False, flag: str | None = None, render: bool = False
    ) -> None:
        assign(self, "name", name)
        assign(self, "type", type)
        assign(self, "help", help)
        assign(self, "default", default)
        assign(self, "required", required)
        assign(self, "minimum", minimum)
        assign(self, "maximum", maximum)
        assign(self, "enum", enum)
        assign(self, "implied", implied)
        assign(self, "schema", schema)
        assign(self, "mcp", mcp)
        assign(self, "cli", cli)
        assign(self, "cli_help", cli_help)
        assign(self, "metavar", metavar)
        assign(self, "arg", arg)
        assign(self, "flag", flag)
        assign(self, "render", render)

    @property
    def option(self) -> str:
        """The long option name on the command line (without `--`)."""
        return self.cli if self.cli is not None else self.name.replace("_", "-")

    @property
    def flag_dest(self) -> str:
        """The name of the flag form's option that feeds this parameter."""
        return self.flag if self.flag is not None else self.name

    def json_schema(self) -> dict[str, Any]:
        said = {"description": self.help} if self.help else {}
        if self.schema is not None:
            return {**said, **self.schema}
        if self.type == "array":
            return {"type": "array", "items": {"type": "string"}, **said}
        out: dict[str, Any] = {"type": self.type, **said}
        if self.enum:
            out["enum"] = list(self.enum)
        shown = self.implied if self.implied is not NO_DEFAULT else self.default
        if shown is not NO_DEFAULT and shown is not None and shown is not False:  # an absent boolean is false
            out["default"] = shown
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


class Action(Value):
    """One action: a capability and the faces it is offered on."""

    name: str  # the product's word: `update_section`; tool `bank_update_section`, command `update-section`
    target: str  # `module:function` under memorybank
    description: str  # the MCP tool description (short: it is paid for in tokens every session)
    params: tuple[Param, ...]
    group: str | None  # MCP tool group; None = not an MCP tool
    read_only: bool
    destructive: bool
    cli_help: str | None  # the subcommand's one-line help (default: the description)
    example: str  # an example invocation for `--help`, after the program name
    cli_target: str | None  # where the CLI calls when it differs (validate lists every finding)
    takes: str  # what the capability's first argument is: bank | root | none
    bank: str  # exists: refused without a bank folder; any: may come before it
    flag: str | None  # the flag form's action option (`--list-inbox` → list_inbox); None: no flag form
    command: str | None  # subcommand name when it differs from the tool's (`inbox` for list_inbox)
    resource: str | None  # the MCP resource that serves the same data, for a CLI-only action

    __slots__ = (
        "name", "target", "description", "params", "group", "read_only", "destructive", "cli_help", "example",
        "cli_target", "takes", "bank", "flag", "command", "resource",
    )

    def __init__(
        self, name: str, target: str, description: str, params: tuple[Param, ...] = (), group: str | None = None,
        read_only: bool = False, destructive: bool = False, cli_help: str | None = None, example: str = "",
        cli_target: str | None = None, takes: str = "bank", bank: str = "exists", flag: str | None = None,
        command: str | None = None, resource: str | None = None
    ) -> None:
        assign(self, "name", name)
        assign(self, "target", target)
        assign(self, "description", description)
        assign(self, "params", params)
        assign(self, "group", group)
        assign(self, "read_only", read_only)
        assign(self, "destructive", destructive)
        assign(self, "cli_help", cli_help)
        assign(self, "example", example)
        assign(self, "cli_target", cli_target)
        assign(self, "takes", takes)
        assign(self, "bank", bank)
        assign(self, "flag", flag)
        assign(self, "command", command)
        assign(self, "resource", resource)

    @property
    def tool(self) -> str:
        return "bank_" + self.name

    @property
    def cli_name(self) -> str:
        return self.command or self.name.replace("_", "-")

    @property
    def mcp_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.mcp)

    def schema(self) -> dict[str, Any]:
        """The tool's JSON Schema (2020-12): exactly the MCP parameters, no others."""
        props = {p.name: p.json_schema() for p in self.mcp_params}
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        required = [p.name for p in self.mcp_params if p.required]
        if required:
            out["required"] = required
        return out

    def capability(self, face: str = "mcp") -> Any:
        target = self.cli_target if face == "cli" and self.cli_target else self.target
        module, _, func = target.partition(":")
        return getattr(importlib.import_module(f"memorybank.{module}"), func)


def _s(name: str, help: str, **kw: Any) -> Param:
    return Param(name, "string", help, **kw)


def _i(name: str, help: str, default: int, lo: int, hi: int, **kw: Any) -> Param:
    return Param(name, "integer", help, default=default, minimum=lo, maximum=hi, **kw)


def _b(name: str, help: str, default: bool = False, **kw: Any) -> Param:
    return Param(name, "boolean", help, default=default, **kw)


def _a(name: str, help: str, **kw: Any) -> Param:
    return Param(name, "array", help, **kw)


def _path(help: str = "Bank path.", **kw: Any) -> Param:
    """The document an action works on."""
    return _s("path", help, required=True, arg=True, cli_help="Path in the bank." if help == "Bank path." else help,
              **kw)


DRY = _b("dry_run", "No write.", cli_help="Run every check, write nothing, print what would change.")
# The parameters every writer of an existing document takes beyond dry_run: issue 13's conditional
# write (the `version` bank_read returned; refused when the file changed since).
VER = _s("base_version", "If-Match.", default=None, metavar="VERSION",
         cli_help="Refuse unless the document is still this version (`version` in read --json).")
BASE: tuple[Param, ...] = (VER,)
FILTERS = (_s("doc_kind", "Filter.", cli="kind", flag="kind", cli_help="Only this doc_kind."),
           _s("layer", "Filter.", cli_help="Only this layer."), _s("status", "Filter.", cli_help="Only this status."))
ROOT_FOLDER = _s("project", "Project folder.", mcp=False, cli_help="The project folder (default: the git top-level "
                 "containing the bank, else its parent).")
SERVE_PARAMS = (Param("off_paths", "array", "Serve nothing for banks under PATH (repeatable).", mcp=False,
                      cli="off", metavar="PATH"),
                _s("tool_groups", "Serve only these tool groups: find,check,change,create,init.", mcp=False,
                   cli="tools", metavar="GROUPS"))
_READ_PATH = {"anyOf": [{"type": "string"},
                        {"type": "array", "minItems": 1, "items": {"anyOf": [
                            {"type": "string"},
                            {"type": "object", "additionalProperties": False,  # no path: lands in `failed`
                             "properties": {"path": {"type": "string"}, "section": {"type": "string"}}}]}}]}



def _query(name: str, description: str, asked: Param, limit: tuple[int, int], cli_help: str, example: str,
           *more: Param) -> Action:
    """route and search: what is asked (the positional), a limit (default, max) and the filters."""
    return Action(name, f"{name}:{name}", description,
                  (asked, _i("limit", "Max results.", limit[0], 1, limit[1]), *FILTERS, *more),
                  group="find", read_only=True, example=example, flag=name, cli_help=cli_help)


ACTIONS: tuple[Action, ...] = (
    _query("route", "Rank documents by metadata and body text. Call before opening bank files; "
           "ask as asked, any language.",
           _s("question", "As asked.", required=True, arg=True, metavar="QUESTION", flag=""), (5, 25),
           "Rank documents by metadata and body text for a question.", 'route "how are refunds approved?"',
           _s("since", "From.", cli_help='Window start: a date, tag or words ("last week").'),
           _s("until", "To.", cli_help="Window end (included).")),
    _query("search", "Search bodies for a literal (identifier, error text).",
           _s("query", "Literal or words.", required=True, arg=True, metavar="QUERY", flag=""), (10, 50),
           "Find where words or literals occur in bodies.", "search INVOICE_LOCKED"),
    Action("read", "read:read",
           "Read a body, one ## section or a line range; a list reads a batch (≤40,000 bytes). "
           "Its version: writers' base_version.",
           (Param("path", "array", "Path, or list of paths / {path, section}.", required=True, schema=_READ_PATH,
                  arg=True, metavar="PATH...", flag=""),
            _s("section", "One ## section (name or part).", cli_help="One `##` section (name or part)."),
            _s("lines", "e.g. 40-80.", metavar="A-B", flag="line_range"),
            _i("max_bytes", "Batch byte budget.", None, 1, 40000, implied=40000)),
           group="find", read_only=True, example="read domain/billing.md --section refunds", flag="read",
           cli_help="Read documents, one section or a line range (a batch within 40,000 bytes)."),
    Action("graph", "graph:graph",
           "Walk derived_from: up (what it rests on), down (what rests on it) or both.",
           (_path(flag=""), _s("direction", "Walk direction.", enum=("up", "down", "both"), default="down"),
            _i("depth", "Hops.", 2, 1, 6), _i("limit", "Max nodes.", 60, 1, 500),
            _b("neighbours", "Read external headers.", True),
            _s("format", "Output format.", enum=("text", "mermaid", "dot"), default="text", mcp=False,
               render=True, flag="graph_format")),
           group="find", read_only=True, example="graph adr/ADR-001.md --direction up --format mermaid",
           flag="graph", cli_help="Walk derived_from from one document."),
    Action("changed", "changed:changed", "Documents added, modified, renamed or deleted since a ref or date.",
           (_s("since", "Ref, date or words.", required=True, arg=True, metavar="REF|DATE", flag=""),),
           group="find", read_only=True, example="changed HEAD~10", flag="changed",
           cli_help="Documents changed since a git ref or ISO date."),
    Action("validate", "validate:validate_for_agents",
           "Check the bank against its dna/ rules; each finding names its fix (≤100).",
           (_s("scope", "Only this folder."),
            _s("severity", "Filter.", enum=("error", "warning"), cli_help="Only this severity."),
            _s("rule", "Filter.", cli_help="Only this rule."),
            _b("summary", "Print only the summary.", mcp=False, render=True)),
           group="check", read_only=True, cli_target="validate:validate", example="validate --severity error",
           flag="validate", cli_help="Check the bank; exit 1 when errors exist."),
    Action("drift", "drift:drift",
           "Documents whose anchored code changed after them; with files, the documents covering them.",
           (_i("threshold_days", "Lag tolerated.", 90, 0, 36500,
               cli_help="Days the code may be ahead of its document."),
            _s("scope", "Only this folder."), _a("files", "Repo-relative files.", arg=True, metavar="[FILES]..."),
            _s("changed_since", "The documents covering files changed since REF (plus untracked).", mcp=False,
               metavar="REF"),
            _b("check", "Exit 1 when a document drifted or lost an anchor.", mcp=False, render=True)),
           group="check", read_only=True, example="drift --changed-since main", flag="drift",
           cli_help="Documents whose anchored code moved on (git); with FILES, the documents covering them."),
    Action("guard", "guard:guard",
           "Check changed code against rule guards; violations carry the rule's do/don't.",
           (_a("files", "Repo-relative files.", arg=True, metavar="[FILES]..."),
            _b("staged", "Only staged files.", cli_help="Only staged files (for pre-commit)."),
            _b("changed_lines", "Only changed lines.", cli_help="Only added or changed lines (legacy code).")),
           group="check", read_only=True, example="guard --staged", flag="guard",
           cli_help="Check FILES (default: git's changed files) against the rules' guards; exit 1 on errors."),
    Action("edit", "writers:edit", "Replace one exact occurrence of text in a body.",
           (_path(), _s("find", "Exact text, unique.", required=True),
            _s("replace", "New text.", required=True), _s("section", "Within this section."), DRY, *BASE),
           group="change", example='edit domain/billing.md --find "30 days" --replace "14 days"'),
    Action("update_section", "writers:update_section", "Replace or append to one ## section's content.",
           (_path(), _s("section", "Its name.", required=True, arg=True),
            _s("content", "Without the heading."), _s("content_file", "Or a file."),
            _s("mode", "Mode.", enum=("replace", "append"), default="replace"), DRY, *BASE),
           group="change", example="update-section domain/billing.md Refunds --content-file new.md"),
    Action("set_status", "writers:set_status", "Change lifecycle status, running its gates.",
           (_path(), _s("status", "New status.", required=True, arg=True),
            _b("release_canonical", "Archiving: drop canonical_for."), DRY, *BASE),
           group="change", example="set-status adr/ADR-002.md active"),
    Action("set_field", "writers:set_field",
           "Set one scalar frontmatter field (not status, kinds, lists).",
           (_path(), _s("field", "Field name.", required=True, arg=True),
            _s("value", "One line.", required=True, arg=True), DRY, *BASE),
           group="change", example='set-field domain/billing.md purpose "Read before changing invoices."',
           cli_help="Set one scalar frontmatter field (not status, kinds, lists); indexes follow title/purpose."),
    Action("set_list", "writers:set_list", "Add/remove governed list items, with the create gates.",
           (_path(), _s("field", "List field.", required=True, arg=True,
                        enum=("derived_from", "canonical_for", "must_not_define", "anchors")),
            _a("add", "Items to add."), _a("remove", "Items to remove."), DRY, *BASE),
           group="change", example="set-list domain/tax.md derived_from --add domain/billing.md"),
    Action("review", "writers:review",
           "Stamp reviewed: today once checked against its code; clears drift.",
           (_path(flag=""), DRY, *BASE), group="change", example="review domain/tax.md", flag="review",
           cli_help="Stamp `reviewed: today` on a document checked against its code (clears its drift)."),
    Action("move", "writers:move",
           "Rename a document; links and edges to it follow.",
           (_path(), _s("new_path", "New path.", required=True, arg=True), DRY, *BASE),
           group="change", example="move domain/tax.md domain/taxes.md",
           cli_help="Rename a document; the derived_from edges, index entries and links pointing at it follow."),
    Action("create", "writers:create",
           "Create a document from its template and index it.",
           (_path("New path.", flag=""), _s("doc_kind", "Kind.", required=True, cli="kind", flag="kind"),
            _s("title", "Title.", required=True), _s("purpose", "When to read.", required=True,
                                                   cli_help="One line on when to read it."),
            _a("derived_from", "Upstream paths.", cli="derived", flag="derived", metavar="A,B"),
            _a("canonical_for", "Keys owned.", cli="canonical", flag="canonical", metavar="K,L"),
            _a("must_not_define", "Keys not owned."),
            _a("anchors", "Code paths.", metavar="P,Q"),
            _s("status", "Status.", default=None, implied="draft"),
            _s("body", "Body."), _s("body_file", "Body file."),
            Param("extra", "object", "Other fields.", cli="set", metavar="KEY=VALUE",
                  cli_help="Another frontmatter key; VALUE is YAML (5 is a number, [a, b] a list)."),
            _b("inbox", "File as an _inbox note.", cli_help="File the note in _inbox/."), DRY),
           group="create", cli_help="Create a governed document from its template and register it in its index.",
           example='create domain/tax.md --kind domain --title Tax --purpose "Read for VAT rules."',
           flag="create"),
    Action("promote", "writers:promote", "Move an _inbox note into the bank; only when the user asks.",
           (_path("The note.", flag=""), _s("to", "Destination.", required=True, flag="to_path", metavar="PATH"),
            _s("doc_kind", "Kind.", cli="kind", flag="kind"), _s("title", "Title."),
            _s("purpose", "Purpose."),
            _a("derived_from", "Upstream paths.", cli="derived", flag="derived", metavar="A,B"),
            _a("canonical_for", "Keys owned.", cli="canonical", flag="canonical", metavar="K,L"),
            _s("status", "Status.", default=None, implied="active"), DRY, *BASE),
           group="create", example="promote _inbox/idea.md --to domain/", flag="promote"),
    Action("discard", "writers:discard", "Delete an _inbox note, recording why; only when the user asks.",
           (_path("The note.", flag=""), _s("reason", "Why.", required=True), DRY, *BASE),
           group="create", destructive=True, example='discard _inbox/idea.md --reason "Already in billing."',
           flag="discard"),
    Action("materialize_flows", "writers:materialize_flows", "Copy shipped templates into flows/templates/.",
           (_b("force", "Overwrite the bank's copies."), DRY),
           group="create", example="materialize-flows --dry-run", flag="materialize_flows",
           cli_help="Copy shipped templates to flows/templates/ for editing."),
    Action("init", "writers:init", "Create the bank from the starter governance set.",
           (_s("name", "Project name.", required=True, arg=True, flag=""),
            _b("force", "Add missing starter files."), DRY),
           group="init", bank="any", example="init Acme", flag="init", cli_help="Seed a new bank for project NAME."),
    # CLI-only actions: not MCP tools
    Action("prime", "prime:prime", "Pointers a prompt hook would inject for TEXT (≤ 3 documents), or nothing "
           "below the bar.", (_s("prompt", "The prompt.", required=True, arg=True, metavar="TEXT", flag=""),),
           example='prime "why was the refund refused?"', flag="prime"),
    Action("stats", "stats:stats", "Print what the index holds.", example="stats", flag="stats"),
    Action("index", "overview:index", "Every document with its purpose, kind, layer and status.", example="index",
           resource="memorybank://index"),
    Action("schema", "overview:schema", "The bank's frontmatter rules (dna/frontmatter.md).", example="schema",
           resource="memorybank://schema/frontmatter"),
    Action("inbox", "writers:list_inbox", "List _inbox/ notes, oldest first.", example="inbox", flag="list_inbox",
           resource="memorybank://inbox"),
    Action("deliver", "deliver:deliver", "Compile rules and recipes into IDE files; --check exits 1 when any is stale.",
           (ROOT_FOLDER, _s("targets", "Targets.", mcp=False, metavar="LIST",
                            cli_help="cursor,agents,claude,copilot,skill,mirror,gemini,cline,windsurf,roo,kiro,junie "
                            "(default cursor,agents,copilot)."),
            _b("dry_run", "Write nothing.", mcp=False), _b("check", "Write nothing; exit 1 when a file is out of date.",
                                                        mcp=False),
            _b("force", "Overwrite generated files edited by hand.", mcp=False),
            _i("threshold_days", "Days the code may be ahead of a rule before it is withheld.", 90, 0, 36500,
               mcp=False)),
           example="deliver --targets cursor,agents --check", flag="deliver"),
    Action("install_hook", "install:install_hook",
           "Wire the bank into Claude Code: .mcp.json, the hooks, the CLAUDE.md block.",
           (ROOT_FOLDER, _b("dry_run", "Write nothing.", mcp=False),
            _b("claude_md", "Write the CLAUDE.md block.", True, mcp=False, flag="no_claude_md")),
           takes="root", bank="any", example="install-hook --dry-run", flag="install_hook"),
    Action("install", "install:install",
           "Wire the bank into agents' project configs (--agents; default claude = install-hook).",
           (ROOT_FOLDER, _s("agents", "Agents.", mcp=False, metavar="LIST",
                            cli_help="claude,cursor,vscode,gemini,codex,windsurf (default claude)."),
            _b("dry_run", "Write nothing.", mcp=False),
            _b("claude_md", "Write the CLAUDE.md block.", True, mcp=False, flag="no_claude_md")),
           takes="root", bank="any", example="install --agents claude,cursor --dry-run", flag="install"),
    Action("uninstall", "uninstall:uninstall",
           "Remove what install and deliver added to the project, keeping every user byte; exit 1 when a "
           "file was refused.",
           (ROOT_FOLDER, _b("force", "Remove generated files edited by hand too.", mcp=False),
            _b("dry_run", "Write nothing.", mcp=False)),
           takes="root", bank="any", example="uninstall --dry-run", flag="uninstall"),
    Action("adopt", "adopt:adopt",
           "Give a folder of plain markdown governed frontmatter, dna/ and indexes (a dry run; --write applies).",
           (_s("name", "Project name.", mcp=False,
               cli_help="The project name in the added dna/ (default: the project folder's)."),
            _b("write", "Apply the changes (the default only shows them).", mcp=False)),
           example="adopt --root docs --write", flag="adopt"),
    Action("import", "importer:import_instructions",
           "File the project's agent instructions (CLAUDE.md, .cursor/rules, …) as _inbox/ notes.",
           (ROOT_FOLDER, _b("dry_run", "Write nothing.", mcp=False)),
           example="import --dry-run", flag="import"),
    Action("adoption", "adoption:adoption",
           "Count bank use through vs around the server in transcript FILES (default: this project's).",
           (_a("files", "Transcript files.", mcp=False, arg=True, metavar="[FILES]..."), ROOT_FOLDER),
           takes="root", example="adoption ~/.claude/projects/my-project/*.jsonl", flag="adoption"),
    Action("surface", "server.budget:measure_root", "Print the MCP surface's token cost per tool and group.",
           SERVE_PARAMS, takes="root", bank="any", example="surface --tools find,check", flag="surface"),
    Action("serve", "server.app:serve", "Serve the bank over MCP on stdio (what .mcp.json runs).",
           SERVE_PARAMS, takes="root", bank="any", example="serve --root memory_bank"),
)

BY_NAME: dict[str, Action] = {a.name: a for a in ACTIONS}
TOOLS: tuple[Action, ...] = tuple(a for a in ACTIONS if a.group is not None)
BY_TOOL: dict[str, Action] = {a.tool: a for a in TOOLS}
BY_COMMAND: dict[str, Action] = {a.cli_name: a for a in ACTIONS}


def tools_in(group: str) -> tuple[str, ...]:
    """The MCP tool names of one group, in catalog order."""
    return tuple(a.tool for a in TOOLS if a.group == group)


def parse_groups(spec: str | None) -> tuple[str, ...]:
    """`--tools find,check` → the allowed groups; None → all; an empty string → none."""
    if spec is None:
        return GROUPS
    groups = tuple(g.strip() for g in spec.split(",") if g.strip())
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise ValueError(f"unknown tool group {', '.join(unknown)}; groups: {', '.join(GROUPS)}")
    return groups


def see_for(face: str, name: str) -> str:
    """How a face names an action a refusal points at: `bank_search` over MCP, `mcp-memorybank search` in the CLI.

    Over MCP a CLI-only action is named by the resource that serves the same data, else as a command.
    """
    action = BY_NAME[name]
    if face == "mcp":
        if action.group is not None:
            return action.tool
        if action.resource:
            return f"the {action.resource} resource"
    return f"`mcp-memorybank {action.cli_name}`"


def param_for(face: str, name: str, action: str | None = None) -> str:
    """How a face spells a parameter a message names: `base_version` over MCP, `--base-version` in the CLI.

    In the CLI the running action's own spelling wins (`status` is an option of `route` but the
    STATUS argument of `set-status`); else the first action that declares the parameter.
    """
    if face == "mcp":
        return name
    ordered = ([BY_NAME[action]] if action in BY_NAME else []) + list(ACTIONS)
    param = next((p for a in ordered for p in a.params if p.name == name), None)
    if param is None:
        return name
    if param.arg:
        return (param.metavar or param.name.upper()).strip("[].")
    return f"--no-{param.option}" if param.type == "boolean" and param.default is True else f"--{param.option}"
