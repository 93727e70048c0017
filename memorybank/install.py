"""One-command wiring (§13.2): the server in `.mcp.json`, the hooks in `.claude/settings.json` (Stop:
`mcp-memorybank-hook`; UserPromptSubmit: `… prime`; SessionStart: `… session-start`), and the usage
paragraph in CLAUDE.md.

Every file is planned first and written only when all plans succeeded, so a refusal (a file that is
not valid JSON, a CLAUDE.md with broken markers, a file where a folder belongs) writes nothing; the
writes then go through `atomic.replace_files` (folders made and every temp written before any
rename), so a write failing partway leaves every file as it was. A JSON merge inserts the new text
before the container's closing bracket, in the layout of its siblings (`jsonedit`), so every other
key, the key order, the indentation, inline arrays and line endings stay byte for byte; a file that
needs no change is not rewritten, so a second run is byte-identical. Writes are atomic (temp file + `os.replace`) and
keep the file's permission bits; a symlinked file is written through to its target.

Choices the spec leaves open:
- The project folder is the git top-level containing the bank, else the bank's parent (`project`
  overrides). `.mcp.json` gets `--root ./<bank relative to the project>`.
- An existing server entry that already runs `mcp-memorybank` on this bank, under any name, counts
  as installed. An entry named `memorybank` that differs is kept as it is, with a warning (it may
  be deliberately customised); delete it and re-run to replace it.
- Each of the three hooks counts as installed when its event holds a command running
  `mcp-memorybank-hook` with that event's subcommand (none for Stop) on this bank, read
  the way the hook will (its `--root`, else a leading `MEMORYBANK_ROOT=…`, resolved against the
  project, where Claude Code runs hooks; without either it finds `memory_bank/` at the project
  top). A hook for another bank is kept and ours is added beside it; a missing event is added
  without touching the ones present. Entries carry no `matcher` (UserPromptSubmit has none;
  SessionStart without one answers startup, resume, clear and compact alike). The hooks get
  `--root <bank>` only when it could not find the bank by itself, i.e. unless the bank is a folder
  named `memory_bank` at the project top (the hook looks in its working folder and upward).
- "Offer the usage paragraph" means: write it. The paragraph multiplied routing eightfold in the
  field, and it lives only between `<!-- memorybank:begin -->` and `<!-- memorybank:end -->`: the
  block is created (new file or appended to the user's file) or replaced in place, and no byte
  outside it changes. A block `--deliver` wrote (its begin marker carries a digest) already holds
  the paragraph and is left to delivery. `claude_md=False` (`--no-claude-md`) skips it. An existing `.claude/CLAUDE.md`
  is used when there is no `CLAUDE.md` at the project top.
- Refused, before anything is written, when a file it manages would land inside the bank (the bank
  is the project top: CLAUDE.md would be indexed as a document); the fix is `--project DIR`.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import jsonedit
from .atomic import CHANGED, ReplaceFailed, replace_files
from .blocks import BEGIN, END, BlockShapeError, find_block
from .errors import BankError
from .project import bank_relpath, git_toplevel, link_out_of, outside_refusal, project_folder
from .projectfiles import collision, load_json, read_only, size_refusal, too_large
from .usage import usage_paragraph

SERVER_NAME = "memorybank"
SERVER_COMMAND = "mcp-memorybank"
HOOK_COMMAND = "mcp-memorybank-hook"


@dataclass
class _Plan:
    """One file's planned change: its new text (None = unchanged) and the summary lines."""

    rel: str
    path: Path
    exists: bool
    new_text: str | None = None
    changes: list[str] = field(default_factory=list)
    note: str = ""
    base: bytes | None = None  # the bytes planned against (None: absent), checked again right before the write

    def read(self) -> str | None:
        """The file's text (None when absent), remembered as the base of the final check."""
        text = _read_text(self.path, self.rel)
        self.base = None if text is None else text.encode("utf-8")
        return text


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _check_place(project: Path, rel: str, bank: Path) -> None:
    """Refuse a file that would land inside the bank or outside the project, or whose folders on the way are files."""
    link = link_out_of(project, rel)
    if link is not None:
        raise outside_refusal("touch", rel, link)
    real_bank = os.path.realpath(bank)
    if os.path.commonpath([real_bank, os.path.realpath(project / rel)]) == real_bank:
        raise BankError(f"Refusing to write {rel}: it would land inside the bank ({real_bank}), where it would be "
                        "indexed as a document. Pass `{project}` (a folder outside the bank); nothing was written.",
                        names=("project",))
    folder = project
    for part in rel.split("/")[:-1]:
        folder = folder / part
        if os.path.lexists(folder) and not folder.is_dir():
            raise BankError(f"Refusing to touch {rel}: {folder.relative_to(project).as_posix()} is a file, not a "
                            "folder. Move it aside, then re-run; nothing was written.")


def _all_of(problems: list[BankError]) -> BankError:
    """One refusal naming every file to fix, keeping each one's actions and parameters for the faces."""
    if len(problems) == 1:
        return problems[0]
    return BankError(f"{len(problems)} files need fixing first: " + " ".join(p.message for p in problems),
                     see=tuple(dict.fromkeys(s for p in problems for s in p.see)),
                     names=[n for p in problems for n in p.names])


def _read_text(path: Path, rel: str) -> str | None:
    if not path.exists():
        return None
    if not path.is_file():
        raise BankError(f"Refusing to touch {rel}: it is not a regular file. Move it aside, then re-run; "
                        "nothing was written.")
    size = too_large(path)
    if size is not None:
        raise size_refusal(rel, size)
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BankError(f"Refusing to touch {rel}: cannot read it as UTF-8 ({exc}). Fix it, then re-run; "
                        "nothing was written.") from None


class _JsonFile:
    """A JSON object file, edited by inserting text so its layout survives (see `jsonedit`)."""

    def __init__(self, text: str | None, rel: str) -> None:
        self.rel = rel
        self.bom = bool(text) and text.startswith("\ufeff")
        self.body = (text or "").removeprefix("\ufeff")
        self.ops: list[tuple[tuple[str, ...], Any, str | None]] = []
        if not self.body.strip():
            self.data: dict[str, Any] = {}
            return
        data = load_json(self.body, rel)
        if not isinstance(data, dict):
            raise BankError(f"Refusing to touch {rel}: its top level is not a JSON object. Fix or remove it, "
                            "then re-run; nothing was written.")
        self.data = data

    def get(self, path: tuple[str, ...], kind: type) -> Any:
        """The value at `path`, None when a key is missing; refuses when it has another JSON type."""
        value: Any = self.data
        for depth, key in enumerate(path):
            if key not in value:
                return None
            value = value[key]
            want = kind if depth == len(path) - 1 else dict
            if not isinstance(value, want):
                shape = "an object" if want is dict else "a list"
                raise BankError(f"Refusing to touch {self.rel}: `{'.'.join(path[:depth + 1])}` is not {shape}. "
                                "Fix it, then re-run; nothing was written.")
        return value

    def insert(self, path: tuple[str, ...], value: Any, key: str | None = None) -> None:
        """Add member `key` (or, without a key, append an item) to the container at `path`."""
        container: Any = self.data
        for part in path:
            container = container[part]
        if key is None:
            container.append(value)
        else:
            container[key] = value
        self.ops.append((path, value, key))

    def dumps(self) -> str:
        """The edited text: minimal insertions that parse back to the data; a new file is dumped whole.

        An existing file whose insertion would not read back as intended is refused rather than
        re-dumped: a re-dump would rewrite every byte of the user's layout.
        """
        if self.body.strip():
            text = self.body
            try:
                for path, value, key in self.ops:
                    text = jsonedit.insert(text, path, value, key)
                if json.loads(text) == self.data:
                    return ("\ufeff" if self.bom else "") + text
            except (KeyError, ValueError, IndexError, RecursionError):
                pass
            raise BankError(f"Refusing to touch {self.rel}: memorybank's entry cannot be added without rewriting the "
                            "file's layout. Add the entry by hand (see install --dry-run for it); nothing was "
                            "written.")
        text = created_json(self.data)  # a new file, or one holding only blank space
        if "\r\n" in self.body:
            text = text.replace("\n", "\r\n")
        return ("\ufeff" if self.bom else "") + text


def created_json(data: dict[str, Any]) -> str:
    """The whole text of a JSON file install creates (or fills when it held only blank space).

    A merge into an existing file never has this layout unless the file already had it: into `{}`
    it writes inline (`{"mcpServers": {…}}`). Uninstall reads this layout as "install made the file"
    and removes it once our keys are gone; any other file keeps what is left, even `{}`."""
    return json.dumps(data, ensure_ascii=False, indent="  ") + "\n"


def _root_arg(args: Any) -> str | None:
    if not isinstance(args, list):
        return None
    for i, arg in enumerate(args):
        if arg == "--root" and i + 1 < len(args) and isinstance(args[i + 1], str):
            return args[i + 1]
        if isinstance(arg, str) and arg.startswith("--root="):
            return arg.split("=", 1)[1]
    return None


def _serves_bank(entry: Any, project: Path, bank: Path) -> bool:
    """Whether a `.mcp.json` server entry already runs mcp-memorybank on this bank."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    if os.path.basename(entry["command"]) != SERVER_COMMAND:
        return False
    env = entry.get("env") if isinstance(entry.get("env"), dict) else {}
    root = _root_arg(entry.get("args")) or env.get("MEMORYBANK_ROOT") or "memory_bank"
    if not isinstance(root, str):
        return False
    return os.path.realpath(project / root) == os.path.realpath(bank)


def server_command(warnings: list[str]) -> str:
    """`mcp-memorybank` when it is on PATH, else the absolute path of the running one (with a warning)."""
    if shutil.which(SERVER_COMMAND):
        return SERVER_COMMAND
    beside = Path(sys.executable).parent / SERVER_COMMAND
    running = Path(sys.argv[0]).absolute() if os.path.basename(sys.argv[0]) == SERVER_COMMAND else None
    found = running if running is not None and running.is_file() else beside if beside.is_file() else None
    if found is None:
        warnings.append(f"{SERVER_COMMAND} is not on PATH, so the agent cannot start the server; install it on PATH "
                        "(pipx install .) or edit .mcp.json's command.")
        return SERVER_COMMAND
    warnings.append(f"{SERVER_COMMAND} is not on PATH; .mcp.json runs it by its absolute path {found} (and the "
                    f"hooks {HOOK_COMMAND} beside it). Put both on PATH (pipx install .) to keep the files portable.")
    return str(found)


def hook_program(server: str) -> str:
    """`mcp-memorybank-hook` when it is on PATH, else its absolute path beside an absolute server command.

    A bare name that is not on PATH is a hook that can never run: Claude Code reports "command not
    found" on every prompt and stop, and the Stop hook never asks.
    """
    if shutil.which(HOOK_COMMAND) or not os.path.isabs(server):
        return HOOK_COMMAND
    beside = Path(server).parent / HOOK_COMMAND
    return str(beside) if beside.is_file() else HOOK_COMMAND


def _hook_words(command: str) -> tuple[dict[str, str], list[str]]:
    """A hook command split into its leading `NAME=value` assignments and its words."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    env: dict[str, str] = {}
    while words and "=" in words[0] and not words[0].startswith(("=", "-", "/")):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    return env, words


def _subcommand(args: list[str]) -> str | None:
    """The first word that is neither an option nor the value of `--root`."""
    for i, arg in enumerate(args):
        if not arg.startswith("-") and not (i and args[i - 1] == "--root"):
            return arg
    return None


def _hooks_bank(hook: Any, project: Path, bank: Path, subcommand: str | None = None) -> bool:
    """Whether a hook entry runs `mcp-memorybank-hook [subcommand]` on `bank` (a realpath); see the module doc."""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    env, words = _hook_words(hook["command"])
    if not words or os.path.basename(words[0]) != HOOK_COMMAND or _subcommand(words[1:]) != subcommand:
        return False
    root = _root_arg(words[1:]) or env.get("MEMORYBANK_ROOT")
    if root is None:
        return os.path.realpath(project / "memory_bank") == str(bank)
    root = os.path.expanduser(root.replace("$CLAUDE_PROJECT_DIR", str(project)).replace("${CLAUDE_PROJECT_DIR}",
                                                                                         str(project)))
    return os.path.realpath(project / root) == str(bank)


# Claude Code event → the hook subcommand that answers it (None: the bare command, the Stop hook).
HOOK_EVENTS: tuple[tuple[str, str | None], ...] = (("Stop", None), ("UserPromptSubmit", "prime"),
                                                   ("SessionStart", "session-start"))


def hook_command_for(root_arg: str | None, subcommand: str | None, program: str = HOOK_COMMAND) -> str:
    """The settings.json command for one event: `mcp-memorybank-hook [sub] [--root BANK]`."""
    words = [shlex.quote(program), *([subcommand] if subcommand else []),
             *(["--root", shlex.quote(root_arg)] if root_arg else [])]
    return " ".join(words)


def _plan_settings(project: Path, root_arg: str | None, bank: Path, program: str = HOOK_COMMAND) -> _Plan:
    path = project / ".claude" / "settings.json"
    plan = _Plan(".claude/settings.json", path, path.exists())
    doc = _JsonFile(plan.read(), plan.rel)
    real_bank = Path(os.path.realpath(bank))
    missing: list[tuple[str, dict]] = []
    present: list[str] = []
    for event, subcommand in HOOK_EVENTS:
        groups = doc.get(("hooks", event), list)
        for group in groups or ():
            inner = group.get("hooks") if isinstance(group, dict) else None
            if _hooks_bank(group, project, real_bank, subcommand) or (
                    isinstance(inner, list) and any(_hooks_bank(h, project, real_bank, subcommand) for h in inner)):
                present.append(event)
                break
        else:
            command = hook_command_for(root_arg, subcommand, program)
            missing.append((event, {"hooks": [{"type": "command", "command": command}]}))
    if present:
        plan.note = f"{_listed(present)} hook{'s' if len(present) > 1 else ''} already present"
    if not missing:
        return plan
    if "hooks" not in doc.data:
        doc.insert((), {event: [entry] for event, entry in missing}, "hooks")
    else:
        for event, entry in missing:
            if event in doc.data["hooks"]:
                doc.insert(("hooks", event), entry)
            else:
                doc.insert(("hooks",), [entry], event)
    for event, entry in missing:
        plan.changes.append(f"+ hooks.{event}[{len(doc.data['hooks'][event]) - 1}] = {_compact(entry)}")
    plan.new_text = doc.dumps()
    return plan


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def claude_md_block(bank_label: str, newline: str = "\n") -> str:
    """The usage paragraph between the memorybank markers (no trailing newline)."""
    return newline.join([BEGIN, *usage_paragraph(bank_label).split("\n"), END])


def _plan_claude_md(project: Path, bank_label: str) -> _Plan:
    path = project / "CLAUDE.md"
    if not path.exists() and (project / ".claude" / "CLAUDE.md").is_file():
        path = project / ".claude" / "CLAUDE.md"
    rel = path.relative_to(project).as_posix()
    plan = _Plan(rel, path, path.exists())
    text = plan.read()
    if text is None:
        plan.new_text = claude_md_block(bank_label) + "\n"
        plan.changes.append(f"+ {BEGIN} usage paragraph {END} (new file)")
        return plan
    newline = "\r\n" if "\r\n" in text else "\n"
    block = claude_md_block(bank_label, newline)
    try:
        found = find_block(text)
    except BlockShapeError as exc:
        raise BankError(f"Refusing to touch {rel}: it has {exc.begins} `{BEGIN}` and {exc.ends} `{END}` markers in "
                        "the wrong shape. Keep exactly one begin/end pair (or none), then re-run; "
                        "nothing was written.") from None
    if found is None:
        if not text.strip():
            plan.new_text = block + newline
        elif text.endswith("\n"):
            plan.new_text = text + newline + block + newline
        else:  # no line break after the block either, so uninstall can give the file's last byte back
            plan.new_text = text + newline * 2 + block
        plan.changes.append(f"+ {BEGIN} usage paragraph {END} (appended)")
        return plan
    if found.digest is not None:  # `--deliver` keeps this block (the usage paragraph and the rules) current
        plan.note = "memorybank block maintained by delivery"
        return plan
    start, stop = found.start, found.stop
    if text[start:stop] == block:
        plan.note = "memorybank block up to date"
        return plan
    old_lines = text[start:stop].count("\n") + 1
    plan.new_text = text[:start] + block + text[stop:]
    plan.changes.append(f"~ {BEGIN} … {END} replaced ({old_lines} → {block.count(chr(10)) + 1} lines)")
    return plan


def install_hook(root: str | os.PathLike[str], project: str | os.PathLike[str] | None = None,
                 dry_run: bool = False, claude_md: bool = True) -> dict[str, Any]:
    """Wire a bank into Claude Code for its project; returns what changed (or would change).

    Result: `{project, bank, dry_run, files: [{path, action: created|updated|unchanged, changes, note}],
    warnings}`. `bank` is the `--root` value written to `.mcp.json`. Same as `install(agents="claude")`.
    """
    done = install(root, project=project, agents=("claude",), dry_run=dry_run, claude_md=claude_md)
    return {key: done[key] for key in ("project", "bank", "dry_run", "files", "warnings")}


def wiring_place(root: str | os.PathLike[str], project: str | os.PathLike[str] | None) -> tuple[Path, Path, str]:
    """`(bank, project, root_arg)`: the resolved bank and project, and the `--root` value configs carry."""
    bank = Path(os.path.realpath(root))
    proj = project_folder(bank, project)
    rel = bank_relpath(bank, proj)
    root_arg = rel if rel == "." or rel.startswith("..") or os.path.isabs(rel) else "./" + rel.removeprefix("./")
    return bank, proj, root_arg


def claude_hook_root(bank: Path, project: Path, root_arg: str) -> str | None:
    """The `--root` the hooks get: none when the hook finds the bank alone (`memory_bank/` at the project top)."""
    return None if bank.name == "memory_bank" and bank.parent == project else root_arg


def install(root: str | os.PathLike[str], project: str | os.PathLike[str] | None = None,
            agents: str | list[str] | tuple[str, ...] | None = None, dry_run: bool = False,
            claude_md: bool = True) -> dict[str, Any]:
    """Wire a bank into each agent's project config (default: claude, i.e. `install_hook`); all-or-nothing.

    claude: `.mcp.json`, the three hooks and the CLAUDE.md block; cursor/vscode/gemini: their
    project MCP file (`clients.CLIENTS`); codex/windsurf (user-level configs): a `snippets` entry to
    paste, no file touched. Result: `{project, bank, agents, dry_run, files, snippets, warnings}`.
    """
    from .clients import CLIENTS, parse_agents, snippet

    chosen = parse_agents(agents)
    bank, proj, root_arg = wiring_place(root, project)
    rel = bank_relpath(bank, proj)
    warnings: list[str] = []
    places: list[str] = []
    if "claude" in chosen:
        places += [".mcp.json", ".claude/settings.json", *(("CLAUDE.md", ".claude/CLAUDE.md") if claude_md else ())]
    places += [CLIENTS[a].file for a in chosen if a in CLIENTS and a != "claude"]
    misplaced = []
    for place in places:  # every file is checked, so one run names each one to fix
        try:
            _check_place(proj, place, bank)
        except BankError as exc:
            misplaced.append(exc)
    if misplaced:
        raise _all_of(misplaced)
    command = server_command(warnings) if any(a in CLIENTS for a in chosen) else SERVER_COMMAND
    if "claude" in chosen and git_toplevel(proj) is None:
        warnings.append(f"{proj} is not a git repository: the Stop hook asks only when git sees changed files, so "
                        "it will never fire here. Run `git init` (and commit) in the project.")
    makers = []
    if "claude" in chosen:
        makers += [lambda: _plan_client(proj, bank, "claude", root_arg, warnings, command),
                   lambda: _plan_settings(proj, claude_hook_root(bank, proj, root_arg), bank,
                                                  hook_program(command))]
        if claude_md:
            makers.append(lambda: _plan_claude_md(proj, rel.removeprefix("./")))
    for agent in chosen:
        if agent in CLIENTS and agent != "claude":
            makers.append(lambda agent=agent: _plan_client(proj, bank, agent, root_arg, warnings, command))
    plans, problems = [], []
    for make in makers:  # every file is checked, so one run reports every file that needs fixing
        try:
            plans.append(make())
        except BankError as exc:
            problems.append(exc)
    for plan in plans:  # a change to a file a person marked read-only, or a new name colliding elsewhere
        if plan.new_text is None:
            continue
        if plan.exists and read_only(plan.path):
            problems.append(BankError(f"Refusing to touch {plan.rel}: it is read-only. Make it writable "
                                      f"(chmod u+w {plan.rel}), then re-run; nothing was written."))
        clash = None if plan.exists else collision(proj, plan.rel)
        if clash is not None:
            problems.append(BankError(f"Refusing to create {plan.rel}: it collides with the existing {clash}, which "
                                      "differs only in case or Unicode form (one file on macOS and Windows "
                                      f"checkouts). Rename or remove {clash}, then re-run; nothing was written."))
    if problems:
        raise _all_of(problems)
    if not dry_run:
        writes = {plan.path: plan.new_text.encode("utf-8") for plan in plans if plan.new_text is not None}
        try:
            replace_files(writes, expected={plan.path: plan.base for plan in plans if plan.new_text is not None})
        except ReplaceFailed as exc:
            rel_of = {os.path.realpath(plan.path): plan.rel for plan in plans}
            name = rel_of.get(str(exc.path), str(exc.path))
            fix = "Re-run install to plan against the saved file" if exc.reason == CHANGED else \
                "Fix its permissions, then re-run"
            raise BankError(f"Refusing to finish install: cannot write {name} ({exc.reason}). {fix}; nothing was "
                            "written.") from None
    files = [{"path": plan.rel,
              "action": "unchanged" if plan.new_text is None else ("updated" if plan.exists else "created"),
              "changes": plan.changes, "note": plan.note} for plan in plans]
    snippets = [snippet(agent, bank) for agent in chosen if agent not in CLIENTS]
    return {"project": str(proj), "bank": root_arg, "agents": list(chosen), "dry_run": dry_run, "files": files,
            "snippets": snippets, "warnings": warnings}


def serves_bank(entry: Any, project: Path, bank: Path) -> bool:
    """Whether a server entry in any client's config runs mcp-memorybank on this bank (`${workspaceFolder}` set)."""
    from .clients import expand

    if not isinstance(entry, dict):
        return False
    args = entry.get("args")
    if isinstance(args, list):
        entry = {**entry, "args": [expand(a, project) if isinstance(a, str) else a for a in args]}
    return _serves_bank(entry, project, bank)


def _plan_client(project: Path, bank: Path, agent: str, root_arg: str, warnings: list[str],
                 command: str = SERVER_COMMAND) -> _Plan:
    """One agent's project MCP file (`.mcp.json` for claude): our server entry added beside the others.

    Claude Code's `.mcp.json` knows no `${workspaceFolder}`, so its entries are matched unexpanded.
    """
    from .clients import CLIENTS

    client = CLIENTS[agent]
    serves = _serves_bank if agent == "claude" else serves_bank
    path = project / client.file
    plan = _Plan(client.file, path, path.exists())
    doc = _JsonFile(plan.read(), plan.rel)
    key = client.servers_key
    servers = doc.get((key,), dict) or {}
    present = [name for name, entry in servers.items() if serves(entry, project, bank)]
    if present:
        plan.note = f"{key}.{present[0]} already serves this bank"
        return plan
    if SERVER_NAME in servers:
        warnings.append(f"{client.file}: {key}.{SERVER_NAME} exists with other settings "
                        f"({_compact(servers[SERVER_NAME])}); kept as it is. Delete it and re-run to replace it.")
        plan.note = f"{key}.{SERVER_NAME} kept (differs)"
        return plan
    entry = client.entry(root_arg, command)
    if key in doc.data:
        doc.insert((key,), entry, SERVER_NAME)
    else:
        doc.insert((), {SERVER_NAME: entry}, key)
    plan.changes.append(f"+ {key}.{SERVER_NAME} = {_compact(entry)}")
    plan.new_text = doc.dumps()
    return plan
