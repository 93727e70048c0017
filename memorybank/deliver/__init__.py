"""Delivery (§14): compile the bank's active rules and recipes into the files IDE agents load.

`deliver()` plans every enabled channel, then writes only what changed (never clobbering user
content, §14.3). Its result is the per-channel report the CLI prints and `--json` shows:

`{project, bank, mode, targets, channels: [{channel, target, file, action, reason?, tokens, budget,
kept, dropped: [{path, reason}]}], withheld: [{path, kind, reason}], stale: [file], refused: [file]}`

`action` is one of create / update / remove / unchanged / refused / skipped / none (nothing to
deliver and nothing of ours to remove). In `dry_run` and `check` modes nothing is written and the
actions say what a delivery would do. `stale` lists the files a delivery would change or refuses
to change: `--check` fails when it is not empty, or when `newly_withheld` names a document that
was a complete active rule or recipe in HEAD and is withheld now (it would silently stop shipping).
`warning` says when every rule and recipe is withheld.

A target that is not a regular file (a symlink, a folder, a device) or whose parent path holds a
file is reported as `skipped` with the reason, like any file that is not ours. Writes are
all-or-nothing (`files.apply`).

Choice: delivery refuses, before writing anything, when any file it manages would land inside the
bank (e.g. `--root .` at the project top: `AGENTS.md` would be indexed as a document). Refusing
rather than skipping those files keeps the result the same whether or not they exist yet, and the
fix is one flag: `--project DIR`, a folder outside the bank.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..bank import Bank
from ..errors import BankError
from ..gitutil import same_call
from ..limits import PROJECT_FILE_MAX
from ..project import bank_relpath, git_toplevel, link_out_of, project_folder
from ..projectfiles import collision, read_only, too_large
from .channels import FOLDERS, OWNED_PATTERNS, Output, render_all
from .files import Action, apply, plan_block, plan_owned, plan_remove
from .sources import select

TARGETS = ("cursor", "agents", "claude", "copilot", "skill", "mirror", "gemini", "cline", "windsurf", "roo", "kiro",
           "junie")
DEFAULT_TARGETS = ("cursor", "agents", "copilot")


def parse_targets(targets: str | Sequence[str] | None) -> tuple[str, ...]:
    """Targets from a list or a comma-separated string, in canonical order; refuses unknown names."""
    if targets is None:
        return DEFAULT_TARGETS
    items = targets.split(",") if isinstance(targets, str) else list(targets)
    names = {str(t).strip().lower() for t in items if str(t).strip()}
    unknown = sorted(names - set(TARGETS))
    if unknown:
        raise BankError(f"Unknown delivery target: {', '.join(unknown)}. Choose from {', '.join(TARGETS)}.",
                        param="targets")
    if not names:
        raise BankError(f"No delivery target given. Choose from {', '.join(TARGETS)}.")
    return tuple(t for t in TARGETS if t in names)


def delivery_project(bank: Bank, project: str | os.PathLike[str] | None = None) -> Path:
    """The folder delivered files go into: `project`, else the git top-level holding the bank, else its parent."""
    return project_folder(bank.root, project)


def deliver(bank: Bank, project: str | os.PathLike[str] | None = None, targets: str | Sequence[str] | None = None,
            dry_run: bool = False, check: bool = False, force: bool = False, threshold_days: int = 90) -> dict:
    """Write (or with `dry_run`/`check`, only plan) the delivery channels of the enabled targets.

    `threshold_days` is drift's: an anchored rule whose code is further ahead is left out of the
    always-on channels.
    """
    with same_call():  # the project, the repository and drift's anchors each ask for the git top-level
        return _deliver(bank, project, targets, dry_run, check, force, threshold_days)


def _deliver(bank: Bank, project: str | os.PathLike[str] | None, targets: str | Sequence[str] | None,
             dry_run: bool, check: bool, force: bool, threshold_days: int) -> dict:
    bank.refresh()
    if not bank.root.is_dir():
        raise BankError(f"No bank at {bank.root}: the folder does not exist. Give the bank folder.")
    chosen = parse_targets(targets)
    proj = delivery_project(bank, project)
    top = git_toplevel(bank.root)
    bank_rel = bank_relpath(bank.root, proj)
    anchor_base = Path(os.path.realpath(top)) if top is not None else proj
    selection = select(bank, proj, anchor_base, threshold_days)
    outputs = render_all(selection, chosen, bank_rel, wired_targets(bank, proj))

    entries: list[tuple[Output | None, Action]] = []
    planned: set[str] = set()
    for out in outputs:
        planned.add(out.file)
        _refuse_inside_bank(bank.root, proj, out.file)
        obstacle = _obstacle(proj, out.file)
        if out.content is None:
            action = _plan(plan_remove, proj, out.file, force) if obstacle is None and _is_file(proj / out.file) \
                else None
            entries.append((out, action or Action(out.file, "none")))
        elif obstacle is not None:
            entries.append((out, Action(out.file, "skipped", obstacle)))
        elif out.owned:
            entries.append((out, _plan(plan_owned, proj, out.file, out.content, force)))
        else:
            entries.append((out, _plan(plan_block, proj, out.file, out.content, force)))
    for target in chosen:
        for rel in _our_names(proj, target):
            if rel not in planned:
                _refuse_inside_bank(bank.root, proj, rel)
                action = _plan(plan_remove, proj, rel, force)
                if action is not None:
                    entries.append((None, action))

    mode = "check" if check else "dry_run" if dry_run else "write"
    if mode == "write":
        apply(proj, [action for _, action in entries])
    channels = [_entry(out, action) for out, action in entries]
    result = {"project": str(proj), "bank": bank_rel, "mode": mode, "targets": list(chosen), "channels": channels,
              "withheld": [dict(w) for w in selection.withheld],
              "stale": sorted({a.file for _, a in entries if a.stale}),
              "refused": sorted({a.file for _, a in entries if a.action == "refused"})}
    if selection.withheld and not selection.rules and not selection.recipes:
        result["warning"] = (f"every rule and recipe is withheld ({len(selection.withheld)}): the delivered files "
                             "hold no rule, only the bank's usage paragraph. Fix what validate reports.")
    result["newly_withheld"] = newly_withheld(bank, top, selection.withheld)
    return result


def newly_withheld(bank: Bank, top: Path | None, withheld: Sequence[dict[str, str]]) -> list[dict[str, str]]:
    """Documents withheld for flaws whose committed version (HEAD) was an active, complete rule or recipe.

    Delivery would silently drop a rule that shipped before; `check` fails on them so the commit
    that breaks a rule is the one that is stopped. Outside git there is no earlier version to see.
    """
    if top is None or not withheld:
        return []
    from ..gitutil import GitFailure, relative_to_top, run_git
    from ..parse import parse_document
    from ..rules import FINDING, flaws, judged

    bank_rel = relative_to_top(top, bank.root)
    out = []
    for item in withheld:
        if not item["reason"].startswith(FINDING):
            continue  # moved out of `active` on purpose
        spec = f"HEAD:{bank_rel + '/' if bank_rel else ''}{item['path']}"
        try:
            data = run_git(top, "show", "--no-textconv", spec)
        except GitFailure:
            continue  # not committed (new), or no commit yet
        before = parse_document(item["path"], data)
        if judged(before) and not flaws(before):
            out.append({"path": item["path"], "reason": item["reason"]})
    return out


def _entry(out: Output | None, action: Action) -> dict:
    if out is None:
        channel, target = _channel_of(action.file)
        entry: dict = {"channel": channel, "target": target, "file": action.file, "action": action.action}
        if action.reason:
            entry["reason"] = action.reason
        entry.update({"tokens": 0, "budget": None, "kept": [], "dropped": []})
        return entry
    entry = {"channel": out.channel, "target": out.target, "file": out.file, "action": action.action}
    if action.reason:
        entry["reason"] = action.reason
    entry.update({"tokens": out.tokens, "budget": out.budget, "kept": out.kept, "dropped": out.dropped})
    return entry


# Target → the project MCP config whose server entry gives that agent the bank_* tools (see `clients`).
# AGENTS.md is read by several agents: it names the tools when any of them is wired. Cline, Windsurf
# and Junie keep MCP servers in per-user settings only, so their text never assumes the tools.
_WIRED_BY = {"claude": (".mcp.json", "mcpServers"), "cursor": (".cursor/mcp.json", "mcpServers"),
             "copilot": (".vscode/mcp.json", "servers"), "gemini": (".gemini/settings.json", "mcpServers"),
             "roo": (".roo/mcp.json", "mcpServers"), "kiro": (".kiro/settings/mcp.json", "mcpServers"),
             "skill": (".mcp.json", "mcpServers")}


def wired_targets(bank: Bank, project: Path) -> set[str]:
    """Targets whose agent has a project MCP config with a server running mcp-memorybank on this bank."""
    import json

    from ..install import serves_bank

    real = Path(os.path.realpath(bank.root))
    wired = set()
    for target, (rel, key) in _WIRED_BY.items():
        if link_out_of(project, rel) is not None or too_large(project / rel) is not None:
            continue  # not the project's file, or not one to read whole
        try:
            data = json.loads((project / rel).read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            continue
        servers = data.get(key) if isinstance(data, dict) else None
        if isinstance(servers, dict) and any(serves_bank(e, project, real) for e in servers.values()):
            wired.add(target)
    if wired - {"skill"}:
        wired.add("agents")
    return wired


def _channel_of(rel: str) -> tuple[str, str]:
    for target, folder in FOLDERS.items():
        if rel.startswith(folder + "/"):
            return ("C" if rel.endswith("memorybank-rules.md") else "B"), target
    if rel.startswith(".cursor/"):
        return ("A" if rel.endswith("memorybank-rules.mdc") else "B"), "cursor"
    if rel.startswith(".github/"):
        return "D", "copilot"
    return "mirror", "mirror"


def _refuse_inside_bank(root: Path, project: Path, rel: str) -> None:
    bank = os.path.realpath(root)
    path = os.path.realpath(project / rel)
    if os.path.commonpath([bank, path]) == bank:
        raise BankError(f"Refusing to deliver: {rel} would be written inside the bank ({bank}), where it would be "
                        "indexed as a document. Pass `{project}` (a folder outside the bank); nothing was written.",
                        names=("project",))


def _obstacle(project: Path, rel: str) -> str | None:
    """Why `rel` cannot be delivered in place (reported as skipped), or None when it is absent or a regular file.

    Folders on the way are followed through symlinks, as writing does, while they stay inside the
    project; the file itself is not.
    """
    link = link_out_of(project, rel)
    if link is not None:
        return (f"reached through the symlink {link}, which leads outside the project; left alone (replace the "
                "symlink with a real folder to deliver here)")
    parts = rel.split("/")
    path = project
    for depth, part in enumerate(parts, 1):
        path = path / part
        last = depth == len(parts)
        try:
            mode = os.lstat(path).st_mode if last else os.stat(path).st_mode
        except FileNotFoundError:
            clash = collision(project, rel)
            if clash is not None:
                return (f"collides with the existing {clash}, which differs only in case or Unicode form (one file "
                        f"on macOS and Windows checkouts); left alone (rename or remove {clash} to deliver here)")
            return None
        except OSError as exc:
            return f"cannot inspect {'/'.join(parts[:depth])} ({exc.strerror}); left alone"
        if not last and not stat.S_ISDIR(mode):
            return (f"{'/'.join(parts[:depth])} is a file, not a folder; left alone (to deliver here, make it a "
                    f"folder: move the file into it, e.g. {'/'.join(parts[:depth])}/rules.md)")
    if stat.S_ISLNK(mode):
        return "a symlink; left alone"
    if stat.S_ISDIR(mode):
        return "a folder, not a file; left alone"
    if not stat.S_ISREG(mode):
        return "not a regular file; left alone"
    if read_only(path):
        return f"read-only; left alone (make it writable, chmod u+w {rel}, to deliver here)"
    size = too_large(path)
    if size is not None:
        return f"{size:,} bytes, over the {PROJECT_FILE_MAX:,}-byte limit of a project file; left alone"
    return None


def _plan(planner: Callable[..., Action | None], project: Path, rel: str, *args: Any) -> Action | None:
    """Run a planner; a file that cannot be read is skipped with the OS reason instead of failing the run."""
    try:
        return planner(project, rel, *args)
    except OSError as exc:
        return Action(rel, "skipped", f"cannot read it ({exc.strerror or exc}); left alone")


def _is_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def _our_names(project: Path, target: str) -> list[str]:
    """Files in a target's folders named like ours (`memorybank-*`); only marked ones are ever removed."""
    found = []
    for folder, prefix, suffix in OWNED_PATTERNS.get(target, ()):
        base = project / folder
        if base.is_symlink() or not base.is_dir() or link_out_of(project, folder) is not None:
            continue
        try:
            names = sorted(os.listdir(base))
        except OSError:
            continue
        for name in names:
            if name.startswith(prefix) and name.endswith(suffix) and _is_file(base / name):
                found.append(f"{folder}/{name}")
    return found
