"""uninstall: take out exactly what `install` and `deliver` put into a project, keep every user byte.

- Server entries: `<servers key>.memorybank` in each client file (`clients.CLIENTS`) when it is
  still exactly the entry install writes; a customised one is kept (reported). The member goes with
  the separator install added (`jsonedit.remove`), so other servers keep their bytes.
- Hooks in `.claude/settings.json`: each event's group that holds only our command, or our command
  item inside a shared group. A container left empty by that (`hooks.Stop`, `hooks`, `mcpServers`)
  goes too. A JSON file left as `{}` is removed when it is in the layout install creates files in
  (`install.created_json`: indented, one member a line); a merge into a file that existed writes
  inline into `{}`, so such a file is given back as it was, `{}` included.
- Managed blocks (CLAUDE.md, AGENTS.md, copilot-instructions.md, GEMINI.md, .junie/guidelines.md):
  the block and the blank line install or deliver put before it; a file left blank is removed. A
  block edited by hand (deliver's digest, or install's paragraph, no longer matches) is kept and
  reported as refused unless `force`.
- Never touched: a file reached through a symlink leading outside the project, one over
  `PROJECT_FILE_MAX`, one that is not strict JSON (each named in `notes`), a read-only one (refused);
  every file is compared once more with what was read right before the renames.
- Generated files (`memorybank-*` in each target folder, the skill): removed when their digest
  still matches; a hand-edited one is kept and reported as refused unless `force`.
- Folders left empty by those removals are removed, up to the project folder.

Caveats of undoing without a record: a JSON file that was already an empty object written over
several lines (`{\n}`), or blank, gets install's created layout and is removed too; an empty
container that was there before (`"mcpServers": {}`, `"hooks": {}`, an empty hook list) goes with
our entry (the file stays, as `{}` if nothing else is left); a blank CLAUDE.md is removed.
All files change together (`atomic.replace_files`) or none do.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

from . import jsonedit
from .atomic import CHANGED, ReplaceFailed, replace_files
from .blocks import BlockShapeError, find_block
from .clients import CLIENTS, SERVER_NAME
from .deliver.channels import OWNED_PATTERNS, RULES_FILE, SHARED, SKILL_FILE
from .deliver.files import digest, owner_digest
from .errors import BankError
from .install import HOOK_EVENTS, claude_hook_root, claude_md_block, created_json, hook_command_for, wiring_place
from .limits import PROJECT_FILE_MAX
from .project import bank_relpath, link_out_of
from .projectfiles import load_json, read_only, too_large

_CLAUDE_MD = ("CLAUDE.md", ".claude/CLAUDE.md")


def _read(project: Path, rel: str, notes: list[str]) -> str | None:
    """A project file's text, or None (absent, a symlink, not ours to read); why it is left alone goes to `notes`."""
    path = project / rel
    if not os.path.lexists(path):
        return None
    link = link_out_of(project, rel)
    if link is not None:
        notes.append(f"{rel}: reached through the symlink {link}, which leads outside the project; left alone")
        return None
    if path.is_symlink() or not path.is_file():
        return None
    size = too_large(path)
    if size is not None:
        notes.append(f"{rel}: {size:,} bytes, over the {PROJECT_FILE_MAX:,}-byte limit; left alone")
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        notes.append(f"{rel}: not readable as UTF-8 text; left alone")
        return None


def _drop_empty(text: str, path: tuple[str, ...], key: str) -> str:
    """Remove `key` from the object at `path` when it holds an empty object or list."""
    data: Any = json.loads(text)
    for part in path:
        data = data[part]
    if key in data and data[key] in ({}, []):
        return jsonedit.remove(text, path, key)
    return text


def _servers(text: str, agent: str, root_arg: str, notes: list[str]) -> str:
    client = CLIENTS[agent]
    data = json.loads(text)
    servers = data.get(client.servers_key) if isinstance(data, dict) else None
    if not isinstance(servers, dict) or SERVER_NAME not in servers:
        return text
    if not client.is_ours(servers[SERVER_NAME], root_arg):
        notes.append(f"{client.file}: {client.servers_key}.{SERVER_NAME} differs from what install writes; kept")
        return text
    text = jsonedit.remove(text, (client.servers_key,), SERVER_NAME)
    return _drop_empty(text, (), client.servers_key)


def _our_hook(hook: Any, hook_root: str | None, subcommand: str | None) -> bool:
    """Whether a hook entry is one install writes: `mcp-memorybank-hook …` by name or by absolute path."""
    if not isinstance(hook, dict) or set(hook) != {"type", "command"} or hook["type"] != "command":
        return False
    try:
        words = shlex.split(hook["command"]) if isinstance(hook["command"], str) else []
    except ValueError:
        return False
    expected = shlex.split(hook_command_for(hook_root, subcommand))
    return bool(words) and os.path.basename(words[0]) == expected[0] and words[1:] == expected[1:]


def _hooks(text: str, hook_root: str | None) -> str:
    for event, subcommand in HOOK_EVENTS:
        data = json.loads(text)
        groups = data.get("hooks", {}).get(event) if isinstance(data.get("hooks"), dict) else None
        if not isinstance(groups, list):
            continue
        for index in range(len(groups) - 1, -1, -1):
            group = groups[index]
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list):
                continue
            if set(group) == {"hooks"} and len(inner) == 1 and _our_hook(inner[0], hook_root, subcommand):
                text = jsonedit.remove(text, ("hooks", event), index)
            elif len(inner) > 1:
                mine = [i for i, hook in enumerate(inner) if _our_hook(hook, hook_root, subcommand)]
                if mine:
                    text = jsonedit.remove(text, ("hooks", event, index, "hooks"), mine[0])
        text = _drop_empty(text, ("hooks",), event)
    if "hooks" in json.loads(text):
        text = _drop_empty(text, (), "hooks")
    return text


def _json_file(project: Path, rel: str, edit: Any, notes: list[str]) -> tuple[str, bytes | None, bytes] | None:
    """`(rel, new bytes or None to remove, bytes read)` for a JSON file `edit` changes; None when unchanged."""
    raw = _read(project, rel, notes)
    if raw is None:
        return None
    bom, body = ("\ufeff", raw[1:]) if raw.startswith("\ufeff") else ("", raw)
    if not body.strip():
        return None
    try:
        data = load_json(body, rel)
    except BankError as exc:
        notes.append(f"{rel}: {exc.message.removeprefix(f'Refusing to touch {rel}: ')} Left alone")
        return None
    try:
        if not isinstance(data, dict):
            return None
        new = edit(body)
    except (ValueError, KeyError, RecursionError):
        return None
    if new == body:
        return None
    if json.loads(new) == {} and body.replace("\r\n", "\n") == created_json(data):
        return rel, None, raw.encode("utf-8")  # in the layout install creates files in: it made this one
    return rel, (bom + new).encode("utf-8"), raw.encode("utf-8")


def _without_block(text: str) -> str | None:
    """The text with our block (and the separator before it) taken out; None when it has none.

    A block appended to a file that did not end in a line break was written without one after it
    (and two before it), so taking it out gives back the file's last byte as it was.
    """
    try:
        found = find_block(text)
    except BlockShapeError:
        return None
    if found is None:
        return None
    head, tail = text[:found.start], text[found.stop:]
    ended = False
    for newline in ("\r\n", "\n"):
        if tail.startswith(newline):
            tail, ended = tail[len(newline):], True
            break
    if not tail:
        for newline in ("\r\n", "\n"):
            if head.endswith(newline * 2):
                head = head[:-len(newline) * (1 if ended else 2)]
                break
    return head + tail


def _block_edited(text: str, label: str) -> bool:
    """Whether the block in `text` holds anything but what install or deliver wrote there (a person's edit).

    Deliver's begin marker carries the digest of the lines it wrote; install's block has none and
    must equal the usage paragraph install writes for this bank.
    """
    found = find_block(text)
    if found is None:
        return False
    if found.digest is not None:
        return found.digest != digest(text[found.body_start:found.body_end])
    newline = "\r\n" if "\r\n" in text else "\n"
    return text[found.start:found.stop] != claude_md_block(label, newline)


def uninstall(root: str | os.PathLike[str], project: str | os.PathLike[str] | None = None,
              force: bool = False, dry_run: bool = False) -> dict[str, Any]:
    """Remove our server entries, hooks, managed blocks and generated files from the project.

    Result: `{project, bank, dry_run, files: [{path, action: updated|removed|refused, reason?}],
    folders: [removed empty folders], notes}`.
    """
    bank, proj, root_arg = wiring_place(root, project)
    notes: list[str] = []
    changes: list[tuple[str, bytes | None, bytes]] = []
    refused: list[dict[str, str]] = []
    hook_root = claude_hook_root(bank, proj, root_arg)
    for agent, client in CLIENTS.items():
        found = _json_file(proj, client.file, lambda text, a=agent: _servers(text, a, root_arg, notes), notes)
        if found:
            changes.append(found)
    found = _json_file(proj, ".claude/settings.json", lambda text: _hooks(text, hook_root), notes)
    if found:
        changes.append(found)
    label = bank_relpath(bank, proj).removeprefix("./")
    for rel in dict.fromkeys([*_CLAUDE_MD, *SHARED.values()]):
        text = _read(proj, rel, notes)
        new = _without_block(text) if text is not None else None
        if new is None:
            continue
        if _block_edited(text, label) and not force:
            refused.append({"path": rel, "action": "refused",
                            "reason": "the memorybank block was edited by hand; force removes it with the edit"})
            continue
        changes.append((rel, None if not new.strip() else new.encode("utf-8"), text.encode("utf-8")))
    owned = {RULES_FILE, SKILL_FILE}
    for patterns in OWNED_PATTERNS.values():
        for folder, prefix, suffix in patterns:
            base = proj / folder
            if base.is_dir() and not base.is_symlink() and link_out_of(proj, folder) is None:
                owned.update(f"{folder}/{n}" for n in os.listdir(base) if n.startswith(prefix) and n.endswith(suffix))
    for rel in sorted(owned):
        text = _read(proj, rel, notes)
        marks = owner_digest(text) if text is not None else None
        if marks is None:
            continue
        if marks[0] != marks[1] and not force:
            refused.append({"path": rel, "action": "refused",
                            "reason": "edited by hand since it was generated"})
            continue
        changes.append((rel, None, text.encode("utf-8")))
    for change in [c for c in changes if read_only(proj / c[0])]:  # a person marked it not to be changed
        changes.remove(change)
        refused.append({"path": change[0], "action": "refused",
                        "reason": f"read-only; make it writable (chmod u+w {change[0]}) and run uninstall again"})
    if not dry_run and changes:
        try:
            replace_files({proj / rel: data for rel, data, _ in changes if data is not None},
                          [proj / rel for rel, data, _ in changes if data is None],
                          {proj / rel: base for rel, _, base in changes})
        except ReplaceFailed as exc:
            fix = "Run uninstall again" if exc.reason == CHANGED else "Fix its permissions, then run uninstall again"
            raise BankError(f"Refusing to finish uninstall: cannot write {exc.path} ({exc.reason}); nothing was "
                            f"changed. {fix}.") from None
    folders = _empty_folders(proj, [rel for rel, data, _ in changes if data is None], dry_run)
    files = [{"path": rel, "action": "removed" if data is None else "updated"} for rel, data, _ in changes]
    return {"project": str(proj), "bank": root_arg, "dry_run": dry_run, "files": files + refused,
            "folders": folders, "notes": notes}


def _empty_folders(project: Path, removed: list[str], dry_run: bool) -> list[str]:
    """Folders that held only removed files (removed unless a dry run), deepest first."""
    gone = set(removed)
    out: list[str] = []
    for folder in sorted({str(Path(rel).parent) for rel in removed if "/" in rel}, key=lambda f: -f.count("/")):
        parts = folder.split("/")
        for depth in range(len(parts), 0, -1):
            rel = "/".join(parts[:depth])
            path = project / rel
            if rel in out or path.is_symlink() or not path.is_dir():
                break
            left = [n for n in os.listdir(path) if f"{rel}/{n}" not in gone and f"{rel}/{n}" not in out]
            if left:
                break
            out.append(rel)
            if not dry_run:
                path.rmdir()
    return out
