"""install then uninstall gives back a config that was `{}` before install (issue 18, item 5).

Uninstall keeps no record, so it tells a file install created from one it merged into by layout: a
created file is written indented, one member a line (`install.created_json`); a merge into `{}`
writes inline. Before, both were removed once our entry was gone.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import cli_in_process, run_cli, write_bank

EMPTY = {".mcp.json": "{}\n", ".cursor/mcp.json": "{}", ".vscode/mcp.json": "{}\r\n", ".claude/settings.json": "{}\n"}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _project(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path]:
    project = tmp_path / "app"
    write_bank(project / "memory_bank", {"README.md": "# Bank\n"})
    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_bytes(text.encode())
    return project, project / "memory_bank"


def _wire(bank: Path, project: Path, verb: str, real: bool = False) -> dict:
    """`verb` through the CLI: a real process with `real`, else its entry point in this process."""
    extra = ["--agents", "claude,cursor,vscode,gemini"] if verb == "--install" else []
    proc = (run_cli if real else cli_in_process)("--root", str(bank), verb, *extra, "--project", str(project), "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_empty_configs_come_back_byte_identical_and_created_ones_go(tmp_path: Path) -> None:
    project, bank = _project(tmp_path, EMPTY)
    before = _files(project)
    _wire(bank, project, "--install", real=True)
    merged = (project / ".mcp.json").read_text()
    assert merged.startswith('{"mcpServers": {"memorybank": ') and merged.endswith("}\n")  # inline into `{}`
    created = project / ".gemini" / "settings.json"
    assert json.loads(created.read_text())["mcpServers"]["memorybank"]["args"] == ["--root", "./memory_bank"]
    assert created.read_text().startswith('{\n  "mcpServers": {\n')
    done = _wire(bank, project, "--uninstall", real=True)
    actions = {f["path"]: f["action"] for f in done["files"]}
    assert actions == {**dict.fromkeys(EMPTY, "updated"), ".gemini/settings.json": "removed",
                       "CLAUDE.md": "removed"}
    assert _files(project) == before and not (project / ".gemini").exists()


def test_a_created_config_reformatted_by_hand_keeps_what_is_left(tmp_path: Path) -> None:
    project, bank = _project(tmp_path, {})
    _wire(bank, project, "--install")
    created = project / ".cursor" / "mcp.json"
    created.write_text(json.dumps(json.loads(created.read_text())) + "\n")  # a formatter put it on one line
    done = _wire(bank, project, "--uninstall")
    assert {f["path"]: f["action"] for f in done["files"]}[".cursor/mcp.json"] == "updated"
    assert created.read_text() == "{}\n"  # no longer provably ours as a whole: only our entry goes
    assert not (project / ".mcp.json").exists() and not (project / ".vscode").exists()
