"""How each face speaks: a refusal's or a result's pointers (`see`, parameters) in MCP's or the CLI's words.

The core writes the product's words and carries what it points at as data (see `errors.BankError`).
A result that points to a next action carries `see` (action names) beside its text (`hint`,
`message`, `error`), and `param` (parameter names) when the text writes parameters as `{name}`.
`result` renders those in place for one face; `param` is consumed, `see` is kept in the face's
names (tool names over MCP, command names in the CLI, as in a `--json` refusal).
"""

from __future__ import annotations

from typing import Any

from .catalog import BY_NAME, param_for, see_for
from .errors import BankError, said, shown

TEXT_KEYS = ("hint", "message", "error")


def refusal(exc: BankError, face: str, action: str | None = None) -> str:
    """The refusal's message for a face, `action` being the one that refused (it spells its own parameters)."""
    return shown(exc, lambda name: see_for(face, name), lambda name: param_for(face, name, action))


def see_names(face: str, see: tuple[str, ...] | list[str]) -> list[str]:
    """The `see` list as a face's JSON carries it: `bank_search` over MCP, `search` in the CLI."""
    if face == "mcp":
        return [see_for("mcp", name) for name in see]
    return [BY_NAME[name].cli_name for name in see]


def result(value: Any, face: str, action: str | None = None) -> Any:
    """`value` with every pointing text rendered for `face` (a new object where anything changed)."""
    if isinstance(value, list):
        return [result(item, face, action) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: result(item, face, action) if isinstance(item, (dict, list)) else item
           for key, item in value.items()}
    see, names = tuple(out.get("see") or ()), tuple(out.pop("param", None) or ())
    if see or names:
        for key in TEXT_KEYS:
            if isinstance(out.get(key), str):
                out[key] = said(out[key], see, names, lambda name: see_for(face, name),
                                lambda name: param_for(face, name, action))
        if see:
            out["see"] = see_names(face, see)
    return out
