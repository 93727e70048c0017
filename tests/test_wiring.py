"""Wiring that checks what it depends on (issue 17 §4): install-hook, the Stop hook, the walk — real commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import GIT_ENV, cli_in_process, doc, git, git_repo, hook_in_process, run_cli

HOOK = str(Path(sys.executable).parent / "mcp-memorybank-hook")
NO_TOOLS_PATH = "/usr/bin:/bin"  # git is there; mcp-memorybank is not


def bank_in(project: Path) -> Path:
    root = project / "memory_bank"
    root.mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text("# Bank\n")
    return root


def test_install_hook_outside_git_warns_that_the_stop_hook_cannot_fire(tmp_path):
    project = tmp_path / "plain"
    bank_in(project)
    out = run_cli("--root", "memory_bank", "--install-hook", cwd=project)
    assert out.returncode == 0, out.stderr
    assert "is not a git repository: the Stop hook asks only when git sees changed files" in out.stdout
    inside = git_repo(tmp_path / "repo", {"memory_bank/README.md": "# Bank\n"})
    again = cli_in_process("--root", "memory_bank", "--install-hook", cwd=inside)
    assert "not a git repository" not in again.stdout


def test_install_hook_without_the_command_on_path_writes_its_absolute_path(tmp_path):
    project = git_repo(tmp_path / "repo", {"memory_bank/README.md": "# Bank\n"})
    out = run_cli("--root", "memory_bank", "--install-hook", cwd=project, env={"PATH": NO_TOOLS_PATH})
    assert out.returncode == 0, out.stderr
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["memorybank"]
    assert os.path.isabs(entry["command"]) and entry["command"].endswith("/mcp-memorybank")
    assert os.access(entry["command"], os.X_OK)
    assert "mcp-memorybank is not on PATH; .mcp.json runs it by its absolute path" in out.stdout
    on_path = git_repo(tmp_path / "repo2", {"memory_bank/README.md": "# Bank\n"})
    cli_in_process("--root", "memory_bank", "--install-hook", cwd=on_path,
                   env={"PATH": str(Path(sys.executable).parent) + ":" + NO_TOOLS_PATH})
    assert json.loads((on_path / ".mcp.json").read_text())["mcpServers"]["memorybank"]["command"] == "mcp-memorybank"


def test_install_hook_reports_every_invalid_json_file_and_writes_nothing(tmp_path):
    project = git_repo(tmp_path / "repo", {"memory_bank/README.md": "# Bank\n", ".mcp.json": "{oops",
                                           ".claude/settings.json": "[1,"})
    out = cli_in_process("--root", "memory_bank", "--install-hook", cwd=project)
    assert out.returncode == 1
    assert "2 files need fixing first" in out.stderr
    assert ".mcp.json: it is not valid JSON" in out.stderr
    assert ".claude/settings.json: it is not valid JSON" in out.stderr
    assert (project / ".mcp.json").read_text() == "{oops" and not (project / "CLAUDE.md").exists()


def _stop(cwd: Path, tmp_path: Path, *args: str, transcript: Path | None = None,
          real: bool = False) -> subprocess.CompletedProcess:
    """One Stop event to the hook: a real process with `real`, else its entry point in this process."""
    event = {"session_id": "s-1", "transcript_path": str(transcript or tmp_path / "none.jsonl"), "cwd": str(cwd),
             "hook_event_name": "Stop", "stop_hook_active": False}
    env = {k: v for k, v in os.environ.items() if k == "MEMORYBANK_CACHE_DIR" or not k.startswith("MEMORYBANK_")}
    env.update(GIT_ENV)
    env["MEMORYBANK_HOOK_STATE_DIR"] = str(tmp_path / "state")
    if real:
        proc = subprocess.run([HOOK, *args], input=json.dumps(event), capture_output=True, text=True, cwd=cwd,
                              env=env, timeout=30)
    else:
        proc = hook_in_process(*args, stdin=json.dumps(event), cwd=cwd, env=env, text=True)
    assert proc.returncode == 0
    return proc


def test_the_stop_hook_refuses_an_unknown_argument_on_stderr(tmp_path):
    project = git_repo(tmp_path / "repo", {"memory_bank/README.md": "# Bank\n"})
    (project / "src.py").write_text("x = 1\n")  # dirty: a working hook would ask
    typo = _stop(project, tmp_path, "--rot", "memory_bank", real=True)
    assert typo.stdout == "" and "unknown argument '--rot'" in typo.stderr
    assert "nothing was checked" in _stop(project, tmp_path, "--root").stderr
    assert json.loads(_stop(project, tmp_path, "--root", "memory_bank").stdout)["decision"] == "block"


def test_the_stop_hook_asks_about_work_committed_during_the_session(tmp_path):
    project = git_repo(tmp_path / "repo", {"memory_bank/README.md": "# Bank\n", "app.py": "x = 1\n"})  # 2024-01-02
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"type": "user", "timestamp": "2025-05-01T09:00:00.000Z"}) + "\n")
    assert _stop(project, tmp_path, transcript=transcript).stdout == ""  # only older commits: nothing new
    (project / "app.py").write_text("x = 2\n")
    git(project, "add", "-A")
    subprocess.run(["git", "-C", str(project), "commit", "-q", "-m", "work"], check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV, "GIT_AUTHOR_DATE": "2025-05-01T10:00:00Z",
                        "GIT_COMMITTER_DATE": "2025-05-01T10:00:00Z"})
    asked = _stop(project, tmp_path, transcript=transcript)
    reason = json.loads(asked.stdout)["reason"]
    assert "this session made 1 commit" in reason and "bank_create" in reason
    assert _stop(project, tmp_path, transcript=transcript).stdout == ""  # asked once for that HEAD


def test_the_walk_skips_virtualenvs_and_warns_when_the_root_is_a_project(tmp_path):
    project = tmp_path / "app"
    venv = project / "venv" / "lib" / "site-packages" / "pkg"
    venv.mkdir(parents=True)
    (project / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "README.md").write_text("# vendored\n")
    (project / "env2" / "lib").mkdir(parents=True)
    (project / "env2" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (project / "env2" / "lib" / "x.md").write_text("# vendored\n")
    (project / "node_modules" / "a").mkdir(parents=True)
    (project / "node_modules" / "a" / "README.md").write_text("# vendored\n")
    (project / ".git").mkdir()
    (project / ".git" / "x.md").write_text("# internal\n")
    (project / "docs").mkdir()
    (project / "docs" / "guide.md").write_text(doc("Guide"))
    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    stats = json.loads(cli_in_process("--root", ".", "--stats", "--json", cwd=project).stdout)
    assert stats["documents"] == 1
    git_repo(project, {".gitignore": "build/\n", "build/out/api.md": "# generated\n"})
    (project / "build/out/api.md").write_text("# generated\n")
    stats = json.loads(cli_in_process("--root", ".", "--stats", "--json", cwd=project).stdout)
    assert stats["documents"] == 1  # a git-ignored folder is not bank content
    checked = json.loads(cli_in_process("--root", ".", "--validate", "--json", cwd=project).stdout)
    warned = [f for f in checked["findings"] if f["rule"] == "root-looks-like-project"]
    assert warned and "pyproject.toml" in warned[0]["message"] and "./memory_bank" in warned[0]["message"]
