"""The instructions each surface mode sends (§11.5); the modes themselves are `memorybank.mode`. No MCP import."""

from __future__ import annotations

from pathlib import Path

from ..usage import usage_paragraph


def instructions(mode: str, root: Path) -> str:
    """The server instructions for a mode (≤ 600 characters)."""
    if mode == "off":
        return "memorybank is turned off for this project."
    if mode == "seed":
        return (f"No memory bank exists at {root.name}/ yet. If the user wants one, call bank_init with the "
                "project name; the full bank_* toolset then appears.")
    return usage_paragraph(root.name, long=False)
