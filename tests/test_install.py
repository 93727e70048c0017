"""`--install-hook` (§13.2): merge the server and the Stop, prime and session-start hooks into a project's
Claude Code files."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from conftest import cli_in_process, fail_write_temp, git_repo, run_cli
from gitrepo import Repo

from memorybank.errors import BankError
from memorybank.install import BEGIN, END, install_hook
from memorybank.usage import usage_paragraph

SERVER = {"command": "mcp-memorybank", "args": ["--root", "./memory_bank"]}
STOP = {"hooks": [{"type": "command", "command": "mcp-memorybank-hook"}]}
PRIME = {"hooks": [{"type": "command", "command": "mcp-memorybank-hook prime"}]}
START = {"hooks": [{"type": "command", "command": "mcp-memorybank-hook session-start"}]}
OURS = {"Stop": [STOP], "UserPromptSubmit": [PRIME], "SessionStart": [START]}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return git_repo(tmp_path_factory.mktemp("install") / "proj", {"memory_bank/README.md": "# Bank\n",
                                                                  "src/app.py": "x = 1\n"})


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    """A private copy (work tree and history) of the committed project: git runs once per module."""
    return Repo(built, init=False).copy(tmp_path / "proj").path


def files_of(project: Path) -> dict[str, bytes]:
    return {p.relative_to(project).as_posix(): p.read_bytes() for p in sorted(project.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(project).parts}


def test_empty_project_gets_all_three_files(project):
    proc = run_cli("--root", str(project / "memory_bank"), "--install-hook")
    assert proc.returncode == 0, proc.stderr
    assert (project / ".mcp.json").read_text() == json.dumps({"mcpServers": {"memorybank": SERVER}}, indent=2) + "\n"
    assert json.loads((project / ".claude" / "settings.json").read_text()) == {"hooks": OURS}
    claude = (project / "CLAUDE.md").read_text()
    assert claude == f"{BEGIN}\n{usage_paragraph('memory_bank')}\n{END}\n"
    assert proc.stdout.splitlines() == [
        f"project {os.path.realpath(project)} (bank ./memory_bank)",
        ".mcp.json: created",
        '  + mcpServers.memorybank = {"command":"mcp-memorybank","args":["--root","./memory_bank"]}',
        ".claude/settings.json: created",
        '  + hooks.Stop[0] = {"hooks":[{"type":"command","command":"mcp-memorybank-hook"}]}',
        '  + hooks.UserPromptSubmit[0] = {"hooks":[{"type":"command","command":"mcp-memorybank-hook prime"}]}',
        '  + hooks.SessionStart[0] = {"hooks":[{"type":"command","command":"mcp-memorybank-hook session-start"}]}',
        "CLAUDE.md: created",
        f"  + {BEGIN} usage paragraph {END} (new file)",
    ]


def test_existing_mcp_json_with_another_server_keeps_its_bytes(project):
    original = '{\n\t"mcpServers": {\n\t\t"other": {"command": "x", "args": ["a", "b"]}\n\t},\n\t"zeta": [1, 2]\n}'
    (project / ".mcp.json").write_text(original)
    install_hook(project / "memory_bank")
    text = (project / ".mcp.json").read_text()
    assert text == ('{\n\t"mcpServers": {\n\t\t"other": {"command": "x", "args": ["a", "b"]},\n'
                    '\t\t"memorybank": {\n\t\t\t"command": "mcp-memorybank",\n\t\t\t"args": [\n'
                    '\t\t\t\t"--root",\n\t\t\t\t"./memory_bank"\n\t\t\t]\n\t\t}\n\t},\n\t"zeta": [1, 2]\n}')
    data = json.loads(text)
    assert list(data) == ["mcpServers", "zeta"] and list(data["mcpServers"]) == ["other", "memorybank"]


def test_existing_settings_with_other_hooks_get_ours_appended(project):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = {"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "check-bash"}]}], "Stop": [{"hooks": [{"type": "command", "command": "say"}]}]},
        "permissions": {"allow": ["Bash(ls:*)"]}}
    settings.write_text(json.dumps(original, indent=4) + "\n")
    result = install_hook(project / "memory_bank", claude_md=False)
    data = json.loads(settings.read_text())
    assert data == {**original, "hooks": {**original["hooks"], "Stop": [*original["hooks"]["Stop"], STOP],
                                          "UserPromptSubmit": [PRIME], "SessionStart": [START]}}
    assert list(data) == ["model", "hooks", "permissions"]
    assert settings.read_text().startswith('{\n    "model": "opus",\n    "hooks": {\n        "PreToolUse"')
    assert result["files"][1] == {"path": ".claude/settings.json", "action": "updated",
                                  "changes": ['+ hooks.Stop[1] = {"hooks":[{"type":"command",'
                                              '"command":"mcp-memorybank-hook"}]}',
                                              '+ hooks.UserPromptSubmit[0] = {"hooks":[{"type":"command",'
                                              '"command":"mcp-memorybank-hook prime"}]}',
                                              '+ hooks.SessionStart[0] = {"hooks":[{"type":"command",'
                                              '"command":"mcp-memorybank-hook session-start"}]}'], "note": ""}
    assert [f["path"] for f in result["files"]] == [".mcp.json", ".claude/settings.json"]


def test_settings_without_a_stop_list_and_crlf_line_endings(project):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{\r\n  "hooks": {\r\n    "PreToolUse": []\r\n  }\r\n}\r\n')
    install_hook(project / "memory_bank", claude_md=False)
    raw = settings.read_bytes()
    assert b"\n" not in raw.replace(b"\r\n", b"")
    assert raw.startswith(b'{\r\n  "hooks": {\r\n    "PreToolUse": [],\r\n    "Stop": [\r\n')
    assert json.loads(raw) == {"hooks": {"PreToolUse": [], **OURS}}


def test_second_run_changes_nothing(project):
    (project / ".mcp.json").write_text('{"mcpServers": {"a": {"command": "a"}}}')
    (project / "CLAUDE.md").write_text("# Rules\n\nBe kind.")
    assert cli_in_process("--root", str(project / "memory_bank"), "--install-hook").returncode == 0
    first = files_of(project)
    proc = cli_in_process("--root", str(project / "memory_bank"), "--install-hook", "--json")
    assert files_of(project) == first
    result = json.loads(proc.stdout)
    assert [f["action"] for f in result["files"]] == ["unchanged"] * 3
    assert first["CLAUDE.md"].startswith(b"# Rules\n\nBe kind.\n\n" + BEGIN.encode())
    assert first[".mcp.json"].startswith(b'{"mcpServers": {"a": {"command": "a"}, "memorybank": {"command": ')


@pytest.mark.parametrize("broken", [".mcp.json", ".claude/settings.json"])
def test_invalid_json_is_refused_and_nothing_is_written(project, broken):
    target = project / broken
    target.parent.mkdir(exist_ok=True)
    target.write_text('{"mcpServers": {,}')
    before = files_of(project)
    proc = cli_in_process("--root", str(project / "memory_bank"), "--install-hook")
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"mcp-memorybank: Refusing to touch {broken}: it is not valid JSON")
    assert files_of(project) == before


def test_wrong_shapes_are_refused(project):
    (project / ".mcp.json").write_text('{"mcpServers": []}')
    with pytest.raises(BankError, match="`mcpServers` is not an object"):
        install_hook(project / "memory_bank")
    (project / ".mcp.json").write_text("[]")
    with pytest.raises(BankError, match="top level is not a JSON object"):
        install_hook(project / "memory_bank")
    (project / ".mcp.json").unlink()
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"hooks": {"Stop": {}}}')
    with pytest.raises(BankError, match="`hooks.Stop` is not a list"):
        install_hook(project / "memory_bank")
    assert not (project / ".mcp.json").exists() and not (project / "CLAUDE.md").exists()


def test_dry_run_writes_nothing(project):
    before = files_of(project)
    proc = cli_in_process("--root", str(project / "memory_bank"), "--install-hook", "--dry-run")
    assert proc.returncode == 0
    assert files_of(project) == before
    assert ".mcp.json: would create" in proc.stdout and proc.stdout.rstrip().endswith("dry run: nothing written")


def test_claude_md_block_is_replaced_in_place(project):
    claude = project / "CLAUDE.md"
    claude.write_bytes(b"# Intro\r\n\r\n" + BEGIN.encode() + b"\r\nold words\r\n" + END.encode()
                       + b"\r\n\r\n## Tail\r\n")
    result = install_hook(project / "memory_bank")
    assert result["files"][2]["action"] == "updated"
    raw = claude.read_bytes()
    block = (BEGIN + "\n" + usage_paragraph("memory_bank") + "\n" + END).replace("\n", "\r\n").encode()
    assert raw == b"# Intro\r\n\r\n" + block + b"\r\n\r\n## Tail\r\n"
    claude.write_text(f"{BEGIN}\nx\n")
    with pytest.raises(BankError, match="Refusing to touch CLAUDE.md"):
        install_hook(project / "memory_bank")
    assert claude.read_text() == f"{BEGIN}\nx\n"


def test_bank_elsewhere_gets_explicit_roots(tmp_path):
    project = git_repo(tmp_path / "mono", {"docs/kb/README.md": "# KB\n"})
    result = install_hook(project / "docs" / "kb", claude_md=False)
    assert result["bank"] == "./docs/kb"
    server = json.loads((project / ".mcp.json").read_text())["mcpServers"]["memorybank"]
    assert server["args"] == ["--root", "./docs/kb"]
    hooks = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]["Stop"]
    assert hooks == [{"hooks": [{"type": "command", "command": "mcp-memorybank-hook --root ./docs/kb"}]}]


def test_project_override_and_a_bank_that_does_not_exist_yet(tmp_path):
    (tmp_path / "here").mkdir()
    proc = cli_in_process("--root", str(tmp_path / "here" / "memory_bank"), "--install-hook", "--project",
                          str(tmp_path / "here"), "--no-claude-md", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["bank"] == "./memory_bank"
    assert json.loads((tmp_path / "here" / ".mcp.json").read_text()) == {"mcpServers": {"memorybank": SERVER}}
    assert not (tmp_path / "here" / "CLAUDE.md").exists()


def test_a_differing_memorybank_entry_is_kept_with_a_warning(project):
    custom = {"mcpServers": {"memorybank": {"command": "uvx", "args": ["mcp-memorybank", "--tools", "find"]}}}
    (project / ".mcp.json").write_text(json.dumps(custom))
    result = install_hook(project / "memory_bank", claude_md=False)
    assert json.loads((project / ".mcp.json").read_text()) == custom
    assert result["files"][0]["action"] == "unchanged" and "kept as it is" in result["warnings"][0]


def test_an_entry_under_another_name_already_serving_the_bank_counts(project):
    (project / ".mcp.json").write_text(
        '{"mcpServers": {"kb": {"command": "mcp-memorybank", "args": ["--root=memory_bank"]}}}')
    result = install_hook(project / "memory_bank", claude_md=False)
    assert result["files"][0] == {"path": ".mcp.json", "action": "unchanged", "changes": [],
                                  "note": "mcpServers.kb already serves this bank"}


def test_file_mode_is_kept(project):
    (project / ".mcp.json").write_text("{}")
    os.chmod(project / ".mcp.json", 0o600)
    install_hook(project / "memory_bank", claude_md=False)
    assert stat.S_IMODE((project / ".mcp.json").stat().st_mode) == 0o600
    assert json.loads((project / ".mcp.json").read_text()) == {"mcpServers": {"memorybank": SERVER}}
    assert not [p for p in project.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("blocker", [".claude", "CLAUDE.md/"])
def test_a_file_where_a_folder_belongs_is_refused_before_anything_is_written(project, blocker):
    if blocker.endswith("/"):
        (project / blocker).mkdir()
    else:
        (project / blocker).write_text("x\n")
    before = files_of(project)
    proc = cli_in_process("--root", str(project / "memory_bank"), "--install-hook")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "nothing was written" in proc.stderr and blocker.rstrip("/") in proc.stderr
    assert files_of(project) == before and not (project / ".mcp.json").exists()


def test_a_write_failing_partway_leaves_every_file_as_it_was(project, monkeypatch):
    (project / ".mcp.json").write_text('{"mcpServers": {}}\n')
    before = files_of(project)
    fail_write_temp(monkeypatch, "CLAUDE.md", PermissionError(1, "Operation not permitted", "CLAUDE.md"))
    with pytest.raises(BankError, match=r"cannot write CLAUDE\.md \(Operation not permitted\)"):
        install_hook(project / "memory_bank")
    assert files_of(project) == before and not (project / ".claude").exists()  # no temp left, no folder made


def test_a_bank_at_the_project_top_is_refused_with_the_project_fix(tmp_path):
    top = git_repo(tmp_path / "kb", {"README.md": "# Bank\n", "notes/a.md": "# A\n"})
    before = files_of(top)
    with pytest.raises(BankError, match=r"inside the bank .*Pass `project`"):
        install_hook(top)
    with pytest.raises(BankError, match=r"inside the bank"):
        install_hook(top, dry_run=True, claude_md=False)
    assert files_of(top) == before
    (tmp_path / "app").mkdir()
    result = install_hook(top, project=tmp_path / "app")
    assert result["bank"] == "../kb" and (tmp_path / "app" / "CLAUDE.md").exists()


def test_a_stop_hook_for_another_bank_is_kept_and_ours_added(project):
    theirs = {"hooks": [{"type": "command", "command": "mcp-memorybank-hook --root ./other_bank"}]}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"Stop": [theirs]}}))
    install_hook(project / "memory_bank", claude_md=False)
    assert json.loads((project / ".claude" / "settings.json").read_text())["hooks"]["Stop"] == [theirs, STOP]
    again = install_hook(project / "memory_bank", claude_md=False)
    assert again["files"][1]["action"] == "unchanged"


@pytest.mark.parametrize("command", ["mcp-memorybank-hook --root memory_bank",
                                     "MEMORYBANK_ROOT=./memory_bank mcp-memorybank-hook",
                                     '"$CLAUDE_PROJECT_DIR"/.venv/bin/mcp-memorybank-hook --root '
                                     '"$CLAUDE_PROJECT_DIR/memory_bank"'])
def test_a_stop_hook_naming_this_bank_counts_as_installed(project, command):
    (project / ".claude").mkdir()
    mine = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(mine))
    result = install_hook(project / "memory_bank", claude_md=False)
    assert result["files"][1]["note"] == "Stop hook already present"


def test_prime_and_session_start_join_a_users_hooks_through_the_cli_and_a_rerun_changes_nothing(project):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n\t"hooks": {\n\t\t"UserPromptSubmit": [\n\t\t\t{"hooks": [{"type": "command", '
                        '"command": "remind-me"}]}\n\t\t],\n\t\t"SessionStart": [\n\t\t\t{"matcher": "startup", '
                        '"hooks": [{"type": "command", "command": "cat notes.md"}]}\n\t\t],\n\t\t"Stop": [\n'
                        '\t\t\t{"hooks": [{"type": "command", "command": "mcp-memorybank-hook"}]}\n\t\t]\n\t}\n}\n')
    proc = cli_in_process("--root", str(project / "memory_bank"), "--install-hook", "--no-claude-md")
    assert proc.returncode == 0, proc.stderr
    text = settings.read_text()
    assert json.loads(text)["hooks"] == {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "remind-me"}]}, PRIME],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "cat notes.md"}]}, START],
        "Stop": [STOP]}
    assert '\n\t\t\t{"hooks": [{"type": "command", "command": "remind-me"}]},\n\t\t\t{\n\t\t\t\t"hooks"' in text
    assert proc.stdout.splitlines()[3:6] == [
        ".claude/settings.json: updated (Stop hook already present)",
        '  + hooks.UserPromptSubmit[1] = {"hooks":[{"type":"command","command":"mcp-memorybank-hook prime"}]}',
        '  + hooks.SessionStart[1] = {"hooks":[{"type":"command","command":"mcp-memorybank-hook session-start"}]}']
    again = cli_in_process("--root", str(project / "memory_bank"), "--install-hook", "--no-claude-md")
    assert again.returncode == 0, again.stderr
    assert settings.read_text() == text
    assert ".claude/settings.json: unchanged (Stop, UserPromptSubmit and SessionStart hooks already present)" \
        in again.stdout.splitlines()


def test_every_hook_for_a_bank_elsewhere_names_it_after_its_subcommand(tmp_path):
    project = git_repo(tmp_path / "mono", {"docs/kb/README.md": "# KB\n"})
    proc = cli_in_process("--root", str(project / "docs" / "kb"), "--install-hook", "--no-claude-md")
    assert proc.returncode == 0, proc.stderr
    hooks = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]
    assert {event: groups[0]["hooks"][0]["command"] for event, groups in hooks.items()} == {
        "Stop": "mcp-memorybank-hook --root ./docs/kb",
        "UserPromptSubmit": "mcp-memorybank-hook prime --root ./docs/kb",
        "SessionStart": "mcp-memorybank-hook session-start --root ./docs/kb"}


def test_a_prime_hook_for_another_bank_or_another_subcommand_does_not_count(project):
    theirs = {"hooks": [{"type": "command", "command": "mcp-memorybank-hook prime --root ./other_bank"}]}
    stray = {"hooks": [{"type": "command", "command": "mcp-memorybank-hook session-start"}]}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"UserPromptSubmit": [theirs, stray]}}))
    install_hook(project / "memory_bank", claude_md=False)
    assert json.loads((project / ".claude" / "settings.json").read_text())["hooks"]["UserPromptSubmit"] == [
        theirs, stray, PRIME]


@pytest.mark.parametrize("command", ["mcp-memorybank-hook prime --root memory_bank",
                                     "MEMORYBANK_ROOT=./memory_bank mcp-memorybank-hook prime",
                                     '"$CLAUDE_PROJECT_DIR"/.venv/bin/mcp-memorybank-hook --root '
                                     '"$CLAUDE_PROJECT_DIR/memory_bank" prime'])
def test_a_prime_hook_naming_this_bank_counts_as_installed(project, command):
    (project / ".claude").mkdir()
    mine = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(mine))
    result = install_hook(project / "memory_bank", claude_md=False)
    data = json.loads((project / ".claude" / "settings.json").read_text())["hooks"]
    assert data["UserPromptSubmit"] == mine["hooks"]["UserPromptSubmit"] and data["Stop"] == [STOP]
    assert result["files"][1]["note"] == "UserPromptSubmit hook already present"
