"""Token cost of the surface (§11.6): characters of the real list responses and instructions ÷ 3.5.

Responses are measured as they arrived (`exclude_unset`): fields the client model fills with
defaults (`ttlMs`, `cacheScope`, `resultType`) are not on a handshake-era wire and are not counted.
"""

from __future__ import annotations

import json
from typing import Any

CHARS_PER_TOKEN = 3.5
BUDGETS = {"full": 3500, "seed": 300, "off": 40, "tool": 350}


def _chars(model: Any) -> int:
    data = model.model_dump(by_alias=True, exclude_none=True, exclude_unset=True, mode="json")
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def tokens(chars: int) -> float:
    return chars / CHARS_PER_TOKEN


async def measure(client: Any) -> dict[str, Any]:
    """Measure a connected `mcp.Client`: per tool, per group, lists and instructions, in tokens."""
    from .tools import BY_NAME

    tools = await client.list_tools()
    resources = await client.list_resources()
    prompts = await client.list_prompts()
    per_tool = {tool.name: round(tokens(_chars(tool)), 1) for tool in tools.tools}
    per_group: dict[str, float] = {}
    for name, cost in per_tool.items():
        group = BY_NAME[name].group if name in BY_NAME else "other"
        per_group[group] = round(per_group.get(group, 0) + cost, 1)
    parts = {
        "tools/list": round(tokens(_chars(tools)), 1),
        "resources/list": round(tokens(_chars(resources)), 1),
        "prompts/list": round(tokens(_chars(prompts)), 1),
        "instructions": round(tokens(len(client.instructions or "")), 1),
    }
    return {"tools": per_tool, "groups": per_group, "parts": parts, "total": round(sum(parts.values()), 1)}


def render(result: dict[str, Any], mode: str) -> str:
    """The `--surface` table."""
    from ..render import table

    rows = [["tool", "group", "tokens"]]
    from .tools import BY_NAME
    for name, cost in result["tools"].items():
        rows.append([name, BY_NAME[name].group if name in BY_NAME else "?", f"{cost:.0f}"])
    lines = table(rows)
    lines.append("")
    lines += table([["group", "tokens"]] + [[g, f"{c:.0f}"] for g, c in result["groups"].items()])
    lines.append("")
    lines += table([["part", "tokens"]] + [[p, f"{c:.0f}"] for p, c in result["parts"].items()])
    budget = BUDGETS.get(mode)
    verdict = "" if budget is None else f" (budget {budget}: {'ok' if result['total'] <= budget else 'OVER'})"
    lines.append(f"total {result['total']:.0f} tokens in mode {mode}{verdict}; largest tool "
                 f"{max(result['tools'].values(), default=0):.0f} (budget {BUDGETS['tool']})")
    return "\n".join(lines)


async def measure_server(server: Any) -> dict[str, Any]:
    """Measure a `MemoryBankServer` in process through the SDK's own client (handshake mode)."""
    from mcp import Client

    async with Client(server.server, mode="legacy") as client:
        return await measure(client)


def measure_root(root: Any, off_paths: Any = (), tool_groups: str | None = None) -> dict[str, Any]:
    """The surface a bank would be served with, measured in process: `{mode, tools, groups, parts, total}`."""
    import anyio

    from .app import MemoryBankServer

    server = MemoryBankServer(root, tuple(off_paths or ()), tool_groups)
    return {"mode": server.mode, **anyio.run(measure_server, server)}
