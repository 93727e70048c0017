"""The MCP tool list (§11.1), generated from the catalog: names, groups, schemas, descriptions, targets.

No MCP import here: the server, `--surface` and the tests read this table. Each tool is a thin
adapter — its arguments, validated against the schema, are passed as keyword arguments to the
capability named by `target` (`module:function`), whose parameter names match the schema's.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from ..catalog import GROUPS, parse_groups
from ..catalog import TOOLS as _ACTIONS

__all__ = ["GROUPS", "TOOLS", "BY_NAME", "Tool", "parse_groups"]


@dataclass(frozen=True)
class Tool:
    name: str
    group: str
    description: str
    schema: dict[str, Any]
    target: str
    read_only: bool = False
    destructive: bool = False

    def capability(self):
        module, _, func = self.target.partition(":")
        return getattr(importlib.import_module(f"memorybank.{module}"), func)


TOOLS: tuple[Tool, ...] = tuple(
    Tool(a.tool, a.group or "", a.description, a.schema(), a.target, a.read_only, a.destructive) for a in _ACTIONS)
BY_NAME = {tool.name: tool for tool in TOOLS}
