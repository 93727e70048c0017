"""Hostile inputs against the issue 17 surface (rules, drift, guard, review, hooks): real CLI, real git."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import cli_in_process, hook_in_process, run_cli, write_bank
from gitrepo import Repo
from mcp.shared.exceptions import MCPError

HOOK = str(Path(sys.executable).parent / "mcp-memorybank-hook")


def rule(name: str, extra: str) -> str:
    return (f"---\ntitle: {name}\ndoc_kind: rule\nstatus: active\npurpose: Read when testing {name}.\n"
            f"do: Do things right.\n{extra}\n---\n\n# {name}\n")


def test_priority_digit_lookalikes_and_huge_numbers_are_findings_not_crashes(tmp_path):
    # "²".isdigit() is true but int("²") raises; 5,000 digits pass the int conversion limit
    bank = write_bank(tmp_path / "bank", {
        "rules/super.md": rule("super", 'priority: "²"'),
        "rules/huge.md": rule("huge", f'priority: "{"9" * 5000}"'),
        "rules/huge-bare.md": rule("huge-bare", f"priority: {'9' * 5000}"),
    })
    out = cli_in_process("--root", str(bank), "--validate", "--json", "--rule", "incomplete-rule")
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    flagged = {f["path"] for f in json.loads(out.stdout)["findings"]}
    assert flagged == {"rules/super.md", "rules/huge.md", "rules/huge-bare.md"}
    out = cli_in_process("--root", str(bank), "--deliver", "--dry-run", "--json", "--project", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr


def test_nested_repeats_hidden_in_atomic_groups_conditionals_and_possessives_cannot_run(tmp_path):
    # each would hang guard on a line of forty a's: the nesting sits below a node the check skipped
    patterns = {"atomic": "(?>(a+)+b)", "conditional": "(x)?(?(1)(a+)+|c)b", "possessive": "((a+)+)?+b"}
    files = {f"rules/{name}.md": rule(name, f"guard:\n  - pattern: '{p}'\n    files: '**/*.py'")
             for name, p in patterns.items()}
    files["rules/safe.md"] = rule("safe", "guard:\n  - pattern: '((?>a+))+b'\n    files: '**/*.py'")
    bank = write_bank(tmp_path / "bank", files)
    out = cli_in_process("--root", str(bank), "--validate", "--json", "--rule", "incomplete-rule")
    flagged = {f["path"] for f in json.loads(out.stdout)["findings"]}
    assert flagged == {f"rules/{name}.md" for name in patterns}, out.stdout
    (tmp_path / "t.py").write_text("a" * 6 + "\n", encoding="utf-8")
    out = run_cli("--root", str(bank), "--guard", "--json", str(tmp_path / "t.py"))  # real: a hang would time out
    result = json.loads(out.stdout)
    assert out.returncode == 1
    assert {v["rule"] for v in result["violations"] if "incomplete-rule" in v["message"]} == {
        f"rules/{name}.md" for name in patterns}
    assert result["rules_used"] == ["rules/safe.md"]



def test_do_not_keeps_words_that_only_start_like_a_negation(tmp_path):
    # 不安全 "unsafe", 不可变 "immutable", 别名 "alias", No-op: stripping their first character or word
    # inverted the rule ("Do NOT 安全…" = "do not … safe …"); real negations are still replaced
    cases = {
        "unsafe": ("不安全的 eval 调用。", "Do NOT 不安全的 eval 调用。"),
        "immutable": ("不可变对象上的写入。", "Do NOT 不可变对象上的写入。"),
        "alias": ("别名里的中文。", "Do NOT 别名里的中文。"),
        "noop": ("No-op handlers in production.", "Do NOT no-op handlers in production."),
        "net": ("Нет глобальных переменных.", "Do NOT глобальных переменных."),
        "yanjin": ("严禁提交密钥。", "Do NOT 提交密钥。"),
        "buyong": ("不使用 print。", "Do NOT 使用 print。"),
    }
    files = {f"rules/{name}.md": rule(name, "dont: " + json.dumps(dont, ensure_ascii=False))
             for name, (dont, _) in cases.items()}
    write_bank(tmp_path / "memory_bank", files)
    out = cli_in_process("--root", str(tmp_path / "memory_bank"), "--deliver", "--targets", "agents",
                         "--project", str(tmp_path))
    assert out.returncode == 0, out.stderr
    agents = (tmp_path / "AGENTS.md").read_text(encoding="utf-8")
    for _, shown in cases.values():
        assert f"- Do things right. {shown}" in agents, agents


NO_PRINT = ("---\ntitle: No print\ndoc_kind: rule\nstatus: active\npurpose: Read when code prints.\ndo: Log.\n"
            "guard:\n  - pattern: 'print\\('\n    files: '**/*.py'\n---\n\n# No print\n")


def test_changed_lines_sees_a_git_mv_as_moving_lines_not_adding_them(tmp_path):
    repo = Repo(tmp_path / "app")
    legacy = "print('old')\n" + "".join(f"value_{i} = {i}\n" for i in range(12))
    repo.commit("base", "2026-02-01T09:00:00Z", {"memory_bank/rules/no-print.md": NO_PRINT, "src/old.py": legacy})
    repo.git("mv", "src/old.py", "src/moved.py")

    def flagged(*args: str) -> tuple[int, list[tuple[str, int]]]:
        out = cli_in_process("--root", "memory_bank", "--guard", "--json", "--changed-lines", *args, cwd=repo.path)
        return out.returncode, [(v["file"], v["line"]) for v in json.loads(out.stdout)["violations"]]

    assert flagged("--staged") == (0, [])  # a pure move adds no line
    repo.write("src/moved.py", legacy + "print('new')\n")
    repo.git("add", "src/moved.py")
    assert flagged("--staged") == (1, [("src/moved.py", 14)])  # a move with an edit: only the edit
    assert flagged() == (1, [("src/moved.py", 14)])


def _hook(cwd: Path, *args: str, event: dict | None = None, real: bool = False) -> subprocess.CompletedProcess:
    """One payload to the hook: a real process with `real`, else its entry point in this process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORYBANK_", "CLAUDE_"))}
    env["MEMORYBANK_HOOK_STATE_DIR"] = str(cwd.parent / "state")
    payload = {"session_id": "s-1", "cwd": str(cwd), "hook_event_name": "Stop", "stop_hook_active": False,
               "prompt": "how is money stored?", **(event or {})}
    if real:
        proc = subprocess.run([HOOK, *args], input=json.dumps(payload), capture_output=True, text=True, cwd=cwd,
                              env=env, timeout=30)
    else:
        proc = hook_in_process(*args, stdin=json.dumps(payload), cwd=cwd, env=env, text=True)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    return proc


def test_every_hook_reports_a_root_typo_and_unknown_arguments_instead_of_going_silent(tmp_path):
    repo = Repo(tmp_path / "repo")
    repo.commit("base", "2026-02-01T09:00:00Z", {"memory_bank/domain/money.md": rule("money", ""), "app.py": "x\n"})
    (repo.path / "app.py").write_text("y\n")  # dirty: a working Stop hook asks
    for args in (("--root", "./memroy_bank"), ("--root=",)):
        out = _hook(repo.path, *args, real=args[0] == "--root")
        assert out.stdout == "" and "nothing was checked" in out.stderr, (args, out.stderr)
    for sub in ("prime", "session-start"):
        for args in (("--rot", "memory_bank"), ("extra",), ("--root", "nope")):
            out = _hook(repo.path, sub, *args)
            assert out.stdout == "" and f"mcp-memorybank-hook {sub}:" in out.stderr, (sub, args, out.stderr)
        assert _hook(repo.path, sub, "--root", "memory_bank").stdout  # the right spelling still works
    assert json.loads(_hook(repo.path, "--root", "memory_bank").stdout)["decision"] == "block"


def test_install_hook_off_path_writes_hooks_that_can_run(tmp_path):
    # .mcp.json got the absolute server path, but the hooks stayed bare names the shell cannot find
    repo = Repo(tmp_path / "repo")
    repo.commit("base", "2026-02-01T09:00:00Z", {"memory_bank/README.md": "# Bank\n", "app.py": "x\n"})
    off_path = {"PATH": "/usr/bin:/bin"}
    assert run_cli("--root", "memory_bank", "--install-hook", cwd=repo.path, env=off_path).returncode == 0
    settings = json.loads((repo.path / ".claude/settings.json").read_text())
    commands = {event: groups[0]["hooks"][0]["command"] for event, groups in settings["hooks"].items()}
    assert set(commands) == {"Stop", "UserPromptSubmit", "SessionStart"}
    for command in commands.values():
        program = command.split()[0]
        assert os.path.isabs(program) and os.access(program, os.X_OK), command
    (repo.path / "app.py").write_text("y\n")
    event = {"session_id": "s-2", "cwd": str(repo.path), "hook_event_name": "Stop", "stop_hook_active": False}
    env = {k: v for k, v in os.environ.items() if k == "MEMORYBANK_CACHE_DIR" or not k.startswith("MEMORYBANK_")}
    env.update(off_path, MEMORYBANK_HOOK_STATE_DIR=str(tmp_path / "state"))
    ran = subprocess.run(commands["Stop"], shell=True, input=json.dumps(event), capture_output=True, text=True,
                         cwd=repo.path, env=env, timeout=30)
    assert json.loads(ran.stdout)["decision"] == "block", ran.stderr
    again = cli_in_process("--root", "memory_bank", "--install-hook", "--json", cwd=repo.path, env=off_path)
    assert [f["action"] for f in json.loads(again.stdout)["files"]] == ["unchanged"] * 3
    gone = cli_in_process("--root", "memory_bank", "--uninstall", cwd=repo.path, env=off_path)
    assert gone.returncode == 0, gone.stderr
    assert not (repo.path / ".claude/settings.json").exists()  # the absolute-path hooks were ours too


def test_mcp_errors_echo_an_unknown_name_or_uri_bounded(shared_servers):
    session = shared_servers("legacy")  # read-only: the worker's shared server over fixture-bank/
    huge = "memorybank://" + "z" * 50_000
    with pytest.raises(MCPError) as resource:
        session.run(session.client.read_resource, huge)
    assert resource.value.code == -32002 and len(resource.value.message) < 1_000
    assert "memorybank://index" in resource.value.message
    with pytest.raises(MCPError) as prompt:
        session.run(session.client.get_prompt, "p" * 50_000, {})
    assert prompt.value.code == -32602 and len(prompt.value.message) < 1_000


def test_create_refuses_a_folder_git_ignores_instead_of_writing_a_document_nobody_sees(tmp_path):
    # Python's stock .gitignore has `lib/`: the walk skips it, so the new document could never be read
    repo = Repo(tmp_path / "repo")
    repo.commit("base", "2026-02-01T09:00:00Z", {".gitignore": "lib/\n", "memory_bank/README.md": "# Bank\n"})
    assert cli_in_process("--root", "memory_bank", "--init", "Demo", "--force", cwd=repo.path).returncode == 0
    before = {p: p.read_bytes() for p in (repo.path / "memory_bank").rglob("*") if p.is_file()}
    out = cli_in_process("--root", "memory_bank", "--create", "engineering/lib/build-notes.md", "--kind", "note",
                         "--title", "Build notes", "--purpose", "Read when the build breaks.", cwd=repo.path)
    assert out.returncode == 1 and "git ignores the folder engineering/lib/" in out.stderr, out.stderr
    assert {p: p.read_bytes() for p in (repo.path / "memory_bank").rglob("*") if p.is_file()} == before
    made = cli_in_process("--root", "memory_bank", "--create", "engineering/build-notes.md", "--kind", "note",
                          "--title", "Build notes", "--purpose", "Read when the build breaks.", cwd=repo.path)
    assert made.returncode == 0, made.stderr
    assert cli_in_process("--root", "memory_bank", "--read", "engineering/build-notes.md",
                          cwd=repo.path).returncode == 0


def test_a_reviewed_date_in_the_future_does_not_mute_drift(tmp_path):
    repo = Repo(tmp_path / "repo")
    doc_text = ("---\ntitle: M\npurpose: Read when money moves.\nstatus: active\nanchors: [src/a.py]\n"
                "reviewed: {date}\n---\n\n# M\n")
    repo.commit("doc", "2025-01-01T00:00:00Z", {"memory_bank/domain/m.md": doc_text.format(date="2099-01-01"),
                                                "src/a.py": "a\n"})
    repo.commit("code", "2025-12-01T00:00:00Z", {"src/a.py": "b\n"})
    out = cli_in_process("--root", "memory_bank", "--drift", "--check", "--json", cwd=repo.path)
    assert out.returncode == 1 and [d["path"] for d in json.loads(out.stdout)["drifted"]] == ["domain/m.md"]
    repo.commit("review", "2025-12-02T00:00:00Z", {"memory_bank/domain/m.md": doc_text.format(date="2025-12-02")})
    assert cli_in_process("--root", "memory_bank", "--drift", "--check", cwd=repo.path).returncode == 0
