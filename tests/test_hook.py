"""The Stop hook (§13.1), driven through the real installed `mcp-memorybank-hook` in real git repositories.

A few events go to a real hook process (silence, a block, bad stdin, an internal error); the other
variants go through the same entry point in this process (`conftest.hook_in_process`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import GIT_ENV, doc, git, git_repo, hook_in_process
from gitrepo import Repo

HOOK = str(Path(sys.executable).parent / "mcp-memorybank-hook")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return git_repo(tmp_path_factory.mktemp("hook") / "proj", {"src/app.py": "print('hi')\n",
                                                               "memory_bank/README.md": "# Bank\n",
                                                               "memory_bank/domain/money.md": doc("Money")})


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    """A committed project with a small bank at memory_bank/: a private copy (work tree and history) of
    one built per module."""
    return Repo(built, init=False).copy(tmp_path / "proj").path


def stop(cwd: Path, tmp_path: Path, session: str = "s-1", active: bool = False, stdin: str | None = None,
         args: tuple[str, ...] = (), real: bool = False, **env: str) -> subprocess.CompletedProcess[str]:
    """Send one Stop event to the hook, a real process with `real`; state lives under tmp_path so tests
    never share it."""
    event = {"session_id": session, "transcript_path": str(tmp_path / "t.jsonl"), "cwd": str(cwd),
             "hook_event_name": "Stop", "stop_hook_active": active}
    full_env = {k: v for k, v in os.environ.items()
                if k == "MEMORYBANK_CACHE_DIR" or not (k.startswith("MEMORYBANK_") or k == "CLAUDE_PROJECT_DIR")}
    full_env.update(GIT_ENV)
    full_env.update({"MEMORYBANK_HOOK_STATE_DIR": str(tmp_path / "state"), "MEMORYBANK_CAPTURE_COOLDOWN_MIN": "30"})
    full_env.update(env)
    data = json.dumps(event) if stdin is None else stdin
    if real:
        proc = subprocess.run([HOOK, *args], input=data, capture_output=True, text=True, cwd=str(cwd), env=full_env,
                              timeout=30)
    else:
        proc = hook_in_process(*args, stdin=data, cwd=cwd, env=full_env, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc


def block_reason(proc: subprocess.CompletedProcess[str]) -> str:
    data = json.loads(proc.stdout)
    assert set(data) == {"decision", "reason"} and data["decision"] == "block"
    assert proc.stdout.count("\n") == 1
    return data["reason"]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_clean_tree_is_silent(project, tmp_path):
    proc = stop(project, tmp_path)  # the Stop hook's real process: the dirty tree and the internal error below
    assert proc.stdout == "" and proc.stderr == ""


def test_dirty_tree_asks_once_then_fingerprint_keeps_it_silent(project, tmp_path):
    bank_before = snapshot(project / "memory_bank")
    (project / "src" / "app.py").write_text("print('changed')\n")
    reason = block_reason(stop(project, tmp_path, real=True))
    for phrase in ("durable fact", "decision, constraint, gotcha or changed contract", "one note per fact",
                   "bank_create", "inbox: true", "memory_bank/", "stop without comment"):
        assert phrase in reason
    assert "_inbox/ (" not in reason  # no queue reminder for an empty inbox
    assert len(reason) < 700
    assert stop(project, tmp_path).stdout == ""  # same dirty state
    assert stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0").stdout == ""  # fingerprint, not cooldown
    assert snapshot(project / "memory_bank") == bank_before  # never writes into the bank


def test_new_change_waits_for_the_cooldown(project, tmp_path):
    (project / "src" / "app.py").write_text("one\n")
    block_reason(stop(project, tmp_path))
    (project / "src" / "app.py").write_text("two\n")  # same status line, new content
    assert stop(project, tmp_path).stdout == ""
    block_reason(stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0"))


def test_untracked_file_content_is_part_of_the_fingerprint(project, tmp_path):
    (project / "notes.txt").write_text("a\n")
    block_reason(stop(project, tmp_path))
    assert stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0").stdout == ""
    (project / "notes.txt").write_text("b\n")
    block_reason(stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0"))


def test_state_is_per_session(project, tmp_path):
    (project / "src" / "app.py").write_text("changed\n")
    block_reason(stop(project, tmp_path, session="a"))
    block_reason(stop(project, tmp_path, session="b"))
    assert stop(project, tmp_path, session="a").stdout == ""


def test_stop_hook_active_is_silent(project, tmp_path):
    (project / "src" / "app.py").write_text("changed\n")
    assert stop(project, tmp_path, active=True).stdout == ""
    block_reason(stop(project, tmp_path))  # the silent call recorded nothing


def test_no_bank_is_silent(tmp_path):
    repo = git_repo(tmp_path / "plain", {"a.py": "x\n"})
    (repo / "a.py").write_text("y\n")
    proc = stop(repo, tmp_path)
    assert proc.stdout == "" and proc.stderr == ""


def test_not_a_git_repository_is_silent(tmp_path):
    (tmp_path / "loose" / "memory_bank").mkdir(parents=True)
    (tmp_path / "loose" / "memory_bank" / "a.md").write_text(doc("A"))
    assert stop(tmp_path / "loose", tmp_path, GIT_CEILING_DIRECTORIES=str(tmp_path)).stdout == ""


def test_corrupt_stdin_exits_0_without_output(project, tmp_path):
    (project / "src" / "app.py").write_text("changed\n")
    for stdin in ("{not json", "", "[1, 2]"):
        proc = stop(project, tmp_path, stdin=stdin, real=stdin == "")
        assert proc.stdout == ""
        assert proc.stderr.startswith("mcp-memorybank-hook: ") and proc.stderr.count("\n") == 1


def test_internal_error_is_one_stderr_line_and_exit_0(project, tmp_path):
    (project / "src" / "app.py").write_text("changed\n")
    (tmp_path / "state-file").write_text("not a folder")
    proc = stop(project, tmp_path, MEMORYBANK_HOOK_STATE_DIR=str(tmp_path / "state-file"), real=True)
    assert proc.stdout == ""
    assert proc.stderr.startswith("mcp-memorybank-hook: ") and proc.stderr.count("\n") == 1


def test_nine_inbox_notes_add_the_queue_reminder(project, tmp_path):
    inbox = project / "memory_bank" / "_inbox"
    inbox.mkdir()
    for i in range(7):
        (inbox / f"note-{i}.md").write_text(doc(f"Note {i}"))
    (inbox / "DISCARDED.md").write_text("---\ndoc_function: log\n---\n- x: dropped\n")
    (inbox / "README.md").write_text("# Inbox\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "notes")
    (project / "src" / "app.py").write_text("first\n")
    assert "_inbox/ (" not in block_reason(stop(project, tmp_path))  # 7 notes: the log and index do not count
    for i in (7, 8):
        (inbox / f"note-{i}.md").write_text(doc(f"Note {i}"))
    (project / "src" / "app.py").write_text("second\n")
    reason = block_reason(stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0"))
    assert "9 notes wait in memory_bank/_inbox/ (oldest 0 days)" in reason
    assert "Do not do that yourself" in reason
    (project / "src" / "app.py").write_text("third\n")
    reason = block_reason(stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0", MEMORYBANK_INBOX_MAX="10"))
    assert "notes wait" not in reason


def test_an_old_inbox_note_adds_the_reminder(project, tmp_path):
    inbox = project / "memory_bank" / "_inbox"
    inbox.mkdir()
    note = inbox / "old.md"
    note.write_text(doc("Old"))
    old = time.time() - 20 * 86400
    os.utime(note, (old, old))
    (project / "src" / "app.py").write_text("changed\n")
    reason = block_reason(stop(project, tmp_path, MEMORYBANK_INBOX_MAX_AGE_DAYS="30"))
    assert "note waits" not in reason
    (project / "src" / "app.py").write_text("again\n")
    reason = block_reason(stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0"))
    assert "1 note waits in memory_bank/_inbox/ (oldest 20 days)" in reason


def test_filing_inbox_notes_is_not_a_new_change(project, tmp_path):
    (project / "src" / "app.py").write_text("changed\n")
    block_reason(stop(project, tmp_path))
    (project / "memory_bank" / "_inbox").mkdir()
    (project / "memory_bank" / "_inbox" / "fact.md").write_text(doc("Fact"))
    assert stop(project, tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0").stdout == ""
    git(project, "checkout", "--", "src/app.py")
    assert stop(project, tmp_path, session="fresh").stdout == ""  # only inbox notes dirty: clean for the hook


def test_bank_is_found_from_a_subfolder_and_by_explicit_root(project, tmp_path):
    (project / "src" / "app.py").write_text("changed\n")
    block_reason(stop(project / "src", tmp_path, session="sub"))
    git(project, "mv", "memory_bank", "kb")
    assert stop(project, tmp_path, session="none").stdout == ""
    assert "kb/" in block_reason(stop(project, tmp_path, session="arg", args=("--root", "kb")))
    assert "kb/" in block_reason(stop(project / "src", tmp_path, session="env", MEMORYBANK_ROOT="kb",
                                      CLAUDE_PROJECT_DIR=str(project)))


def test_it_can_be_switched_off(project, tmp_path):
    (project / "src" / "app.py").write_text("changed\n")
    assert stop(project, tmp_path, MEMORYBANK_HOOK="off").stdout == ""
    (project / ".memorybank-off").write_text("")
    assert stop(project, tmp_path).stdout == ""


def test_help_and_stray_arguments_never_fail():
    proc = subprocess.run([HOOK, "--help"], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    assert proc.returncode == 0 and "MEMORYBANK_CAPTURE_COOLDOWN_MIN" in proc.stdout
    assert "MEMORYBANK_INBOX_MAX_AGE_DAYS" in proc.stdout


def test_hook_imports_neither_mcp_nor_gitpython_nor_the_index():
    code = ("import sys, memorybank.hook; bad = [m for m in ('mcp', 'git', 'memorybank.bank', 'yaml', 'click') "
            "if m in sys.modules]; print(bad)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.stdout.strip() == "[]", proc.stderr
