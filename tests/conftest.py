"""Shared test helpers: small banks in tmp_path, the fixture bank, and the real installed CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "fixture-bank"
CORPORA = REPO.parent / "shared" / "corpora"


def cli_path() -> str:
    """The installed `mcp-memorybank` script beside this interpreter (not a module import)."""
    candidate = Path(sys.executable).parent / "mcp-memorybank"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("mcp-memorybank")
    if not found:
        pytest.fail("mcp-memorybank is not installed; run `pip install -e '.[test]'` first")
    return found


def run_cli(*args: str, cwd: str | os.PathLike[str] | None = None,
            env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Spawn the real command; returns the completed process (text mode)."""
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run([cli_path(), *args], capture_output=True, text=True, cwd=cwd, env=full_env,
                          input=stdin, timeout=60)


def write_bank(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create a bank from `{relative path: text or bytes}`; returns the root."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


def doc(title: str = "T", purpose: str = "P", status: str = "active", derived: list[str] | None = None,
        body: str = "", **extra: object) -> str:
    """A small markdown document with a frontmatter header."""
    lines = ["---", f"title: {title}", f"purpose: {purpose}", f"status: {status}"]
    if derived:
        lines.append("derived_from:")
        lines += [f"  - {d}" for d in derived]
    for key, value in extra.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines += [f"  - {v}" for v in value]
        else:
            lines.append(f"{key}: {value}")
    lines += ["---", "", f"# {title}", "", body]
    return "\n".join(lines) + "\n"


@pytest.fixture
def fixture_copy(tmp_path: Path) -> Path:
    """A writable copy of fixture-bank/."""
    target = tmp_path / "fixture-bank"
    shutil.copytree(FIXTURE, target)
    return target
