"""install --agents and uninstall on real project files: other servers and user text keep every byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli
from test_deliver import build

from memorybank.bank import Bank
from memorybank.deliver import deliver
from memorybank.errors import BankError
from memorybank.install import install
from memorybank.uninstall import uninstall

ALL_TARGETS = "cursor,agents,claude,copilot,skill,mirror,gemini,cline,windsurf,roo,kiro,junie"
USER_FILES = {
    ".mcp.json": '{\n\t"mcpServers": {\n\t\t"other": {"command": "x", "args": ["a"]}\n\t}\n}\n',
    ".vscode/mcp.json": '{"inputs": [], "servers": {"o": {"type": "stdio", "command": "y"}}}',
    ".gemini/settings.json": '{\n  "theme": "dark"\n}\n',
    ".claude/settings.json": '{\r\n  "hooks": {\r\n    "Stop": [\r\n      {"hooks": [{"type": "command", '
                             '"command": "echo hi"}]}\r\n    ]\r\n  },\r\n  "model": "x"\r\n}\r\n',
    "CLAUDE.md": "# Mine\n\nUser text.\n",
    "AGENTS.md": "Agents: be nice.\n",
    ".junie/guidelines.md": "Junie: keep it short.\n",
}


def _snapshot(project: Path) -> tuple[dict[str, bytes], list[str]]:
    files, folders = {}, []
    for path in sorted(project.rglob("*")):
        rel = path.relative_to(project).as_posix()
        if rel.startswith((".git/", "memory_bank/")) or rel in (".git", "memory_bank"):
            continue
        if path.is_dir():
            folders.append(rel)
        else:
            files[rel] = path.read_bytes()
    return files, folders


def _project(tmp_path: Path) -> tuple[Path, Path]:
    repo, bank = build(tmp_path)
    for rel, text in USER_FILES.items():
        (repo.path / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo.path / rel).write_bytes(text.encode())
    return repo.path, bank


def test_install_then_deliver_then_uninstall_leaves_the_project_byte_identical(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    before = _snapshot(project)
    done = run_cli("--root", str(bank), "--install", "--agents", "claude,cursor,vscode,gemini")
    assert done.returncode == 0, done.stderr
    # install and uninstall as real processes; deliver's real process runs in test_deliver
    assert cli_in_process("--root", str(bank), "--deliver", "--targets", ALL_TARGETS).returncode == 0
    vscode = json.loads((project / ".vscode/mcp.json").read_text())
    assert vscode["servers"]["memorybank"] == {"type": "stdio", "command": "mcp-memorybank",
                                               "args": ["--root", "${workspaceFolder}/memory_bank"]}
    assert vscode["servers"]["o"] == {"type": "stdio", "command": "y"}
    assert json.loads((project / ".cursor/mcp.json").read_text())["mcpServers"]["memorybank"]["command"] == \
        "mcp-memorybank"
    assert "memorybank" in json.loads((project / ".gemini/settings.json").read_text())["mcpServers"]
    assert (project / ".mcp.json").read_text().startswith('{\n\t"mcpServers": {\n\t\t"other"')
    gone = run_cli("--root", str(bank), "--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert _snapshot(project) == before


def test_install_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    install(bank, agents="claude,cursor,vscode,gemini")
    once = _snapshot(project)
    again = install(bank, agents="claude,cursor,vscode,gemini")
    assert {f["action"] for f in again["files"]} == {"unchanged"}
    assert _snapshot(project) == once


def test_install_default_is_claude_like_install_hook(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    result = install(bank, dry_run=True)
    assert result["agents"] == ["claude"]
    assert [f["path"] for f in result["files"]] == [".mcp.json", ".claude/settings.json", "CLAUDE.md"]


def test_user_level_clients_get_a_snippet_and_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project, bank = _project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    before = _snapshot(project)
    result = install(bank, agents="codex,windsurf")
    assert _snapshot(project) == before and not any(home.iterdir())
    codex = next(s for s in result["snippets"] if s["agent"] == "codex")
    assert codex["file"] == "~/.codex/config.toml"
    assert f'args = ["--root", "{Path(bank).resolve()}"]' in codex["text"]
    windsurf = next(s for s in result["snippets"] if s["agent"] == "windsurf")
    assert json.loads(windsurf["text"])["mcpServers"]["memorybank"]["command"] == "mcp-memorybank"


def test_install_refuses_unknown_agent_and_writes_nothing(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    before = _snapshot(project)
    with pytest.raises(BankError, match="Unknown agent: emacs"):
        install(bank, agents="claude,emacs")
    assert _snapshot(project) == before
    out = cli_in_process("--root", str(bank), "--install", "--agents", "emacs")
    assert out.returncode == 2 and "Choose from claude" in out.stderr  # not an allowed value: a usage error


def test_uninstall_keeps_customised_entry_and_hand_edited_file(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    install(bank, agents="cursor")
    deliver(Bank(bank), targets="cline")
    cursor = project / ".cursor/mcp.json"
    cursor.write_text(cursor.read_text().replace('"args"', '"env": {"LOG": "1"}, "args"'))
    rules = project / ".clinerules/memorybank-rules.md"
    rules.write_text(rules.read_text() + "\nMy own line.\n")
    result = uninstall(bank)
    assert rules.exists() and cursor.exists()
    assert any(f["path"] == ".clinerules/memorybank-rules.md" and f["action"] == "refused" for f in result["files"])
    assert result["notes"] and "differs" in result["notes"][0]
    assert not (project / ".clinerules/memorybank-api.md").exists()
    forced = uninstall(bank, force=True)
    assert not rules.exists() and any(f["action"] == "removed" for f in forced["files"])


def test_uninstall_dry_run_writes_nothing(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    install(bank, agents="claude,gemini")
    after = _snapshot(project)
    result = uninstall(bank, dry_run=True)
    assert result["files"] and _snapshot(project) == after


@pytest.mark.parametrize("text", [
    '{\n  "a": 1,\n  "s": {\n    "x": {"c": 2}\n  }\n}\n',
    '{"s": {}}',
    '{\r\n\t"s": {\r\n\t\t"x": 1\r\n\t},\r\n\t"z": [1, 2]\r\n}\r\n',
])
def test_json_remove_undoes_insert_byte_for_byte(text: str) -> None:
    from memorybank import jsonedit
    grown = jsonedit.insert(text, ("s",), {"command": "m", "args": ["--root", "."]}, "memorybank")
    assert json.loads(grown)["s"]["memorybank"]["command"] == "m"
    assert jsonedit.remove(grown, ("s",), "memorybank") == text


def test_json_remove_takes_a_middle_member_with_its_separator() -> None:
    from memorybank import jsonedit
    assert jsonedit.remove('{"a": 1, "b": {"c": [1]}, "d": 2}', (), "b") == '{"a": 1, "d": 2}'
    assert jsonedit.remove('[1, 2, 3]', (), 0) == '[2, 3]'
    with pytest.raises(KeyError):
        jsonedit.remove('{"a": 1}', (), "zz")
