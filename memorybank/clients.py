"""The MCP clients `install --agents` wires, and how each one's project config names our server.

One table (`CLIENTS`): the config file inside the project, the key holding its servers, and the
entry it gets. Clients configured only per user (Codex, Windsurf) are in `SNIPPETS`: install prints
the exact text to paste and never edits a file outside the project.

Paths: Claude Code and Gemini CLI start servers in the project folder, so `--root` is relative
(`./bank`); Cursor and VS Code expand `${workspaceFolder}`, which keeps the entry right whatever
folder the editor starts the process in. User-level snippets carry the absolute bank path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import BankError

SERVER_NAME = "memorybank"
SERVER_COMMAND = "mcp-memorybank"
WORKSPACE = "${workspaceFolder}"


def _relative(root_arg: str) -> list[str]:
    return ["--root", root_arg]


def _workspace(root_arg: str) -> list[str]:
    if root_arg.startswith("./"):
        return ["--root", f"{WORKSPACE}/{root_arg[2:]}"]
    if root_arg == ".":
        return ["--root", WORKSPACE]
    return ["--root", root_arg if os.path.isabs(root_arg) else f"{WORKSPACE}/{root_arg}"]


@dataclass(frozen=True)
class Client:
    """A client wired through a JSON file in the project."""

    name: str
    file: str
    servers_key: str
    args: Callable[[str], list[str]]
    extra: tuple[tuple[str, Any], ...] = ()

    def entry(self, root_arg: str, command: str = SERVER_COMMAND) -> dict[str, Any]:
        """The server entry install writes (`command`: the server's path when it is not on PATH)."""
        return {**dict(self.extra), "command": command, "args": self.args(root_arg)}

    def is_ours(self, entry: Any, root_arg: str) -> bool:
        """Whether `entry` is exactly what install writes, whichever spelling of the command it chose."""
        if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
            return False
        return os.path.basename(entry["command"]) == SERVER_COMMAND and entry == self.entry(root_arg, entry["command"])


CLIENTS: dict[str, Client] = {
    "claude": Client("claude", ".mcp.json", "mcpServers", _relative),
    "cursor": Client("cursor", ".cursor/mcp.json", "mcpServers", _workspace),
    "vscode": Client("vscode", ".vscode/mcp.json", "servers", _workspace, (("type", "stdio"),)),
    "gemini": Client("gemini", ".gemini/settings.json", "mcpServers", _relative),
}
SNIPPETS = ("codex", "windsurf")
AGENTS = (*CLIENTS, *SNIPPETS)
DEFAULT_AGENTS = ("claude",)


def parse_agents(agents: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """Agent names from a list or a comma-separated string, in table order; refuses unknown names."""
    if agents is None:
        return DEFAULT_AGENTS
    items = agents.split(",") if isinstance(agents, str) else list(agents)
    names = {str(a).strip().lower() for a in items if str(a).strip()}
    unknown = sorted(names - set(AGENTS))
    if unknown or not names:
        raise BankError(f"Unknown agent: {', '.join(unknown) or '(none given)'}. Choose from {', '.join(AGENTS)}.",
                        param="agents")
    return tuple(a for a in AGENTS if a in names)


def expand(value: str, project: Path) -> str:
    """A config path with the editors' `${workspaceFolder}` and Claude's `$CLAUDE_PROJECT_DIR` filled in."""
    for token in (WORKSPACE, "${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"):
        value = value.replace(token, str(project))
    return value


def snippet(agent: str, bank: Path) -> dict[str, str]:
    """`{agent, file, text}`: what to paste into a user-level config the installer does not edit."""
    if agent == "codex":
        text = (f"[mcp_servers.{SERVER_NAME}]\ncommand = \"{SERVER_COMMAND}\"\n"
                f"args = [\"--root\", {_toml_string(str(bank))}]\n")
        return {"agent": agent, "file": "~/.codex/config.toml", "text": text}
    import json
    entry = {"mcpServers": {SERVER_NAME: {"command": SERVER_COMMAND, "args": ["--root", str(bank)]}}}
    return {"agent": agent, "file": "~/.codeium/windsurf/mcp_config.json",
            "text": json.dumps(entry, indent=2, ensure_ascii=False) + "\n"}


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
