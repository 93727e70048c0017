"""Prime (issue 14.3): `--prime TEXT [--json]`, `mcp-memorybank-hook prime` / `session-start` fed real
Claude Code payloads; silence below the bar, the never-fail rule, token budgets, a lean process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from banks import release_page
from conftest import cli_in_process, doc, git_repo, hook_in_process, run_cli

from memorybank.lang import estimate_tokens

HOOK = str(Path(sys.executable).parent / "mcp-memorybank-hook")
HEADER = "memorybank: likely relevant — read with bank_read(path, section):"

BANK = {
    "memory_bank/README.md": "# Bank\n\nStart here.\n",
    "memory_bank/domain/sync.md": doc("Sync", "How the session syncs with the homeserver.",
                                      canonical_for=["sync_persistence"],
                                      body="## Cold start\n\nThe stored sync token lets the first screen render "
                                           "from local data after a relaunch.\n"),
    "memory_bank/domain/media.md": doc("Media", "Fetching and uploading attachments.",
                                       body="## Thumbnails\n\nImage bubbles request a thumbnail sized for the "
                                            "bubble, never the original file.\n"),
    "memory_bank/engineering/testing.md": doc("Testing", "How the suites are split.",
                                              body="## Suites\n\nUnit tests run with fake timers; integration "
                                                   "tests need the local homeserver.\n"),
    "memory_bank/ops/release.md": release_page(),
    "memory_bank/adr/ADR-001-no-deps.md": doc("No runtime dependencies", "Why the package ships no dependencies.",
                                              doc_kind="adr", body="## Decision\n\nPeer dependencies only.\n"),
    "memory_bank/_inbox/n1.md": doc("A note", "An observation.", body="thumbnail sizes were wrong once\n"),
    "src/app.py": "print('hi')\n",
}

OFF_TOPIC = ["bump the version number", "add a docstring here", "再来一次", "thanks!", "fix the typo in line 3",
             "ok", "спасибо, отлично", "好的，继续", "rename this variable", "make it shorter"]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return git_repo(tmp_path_factory.mktemp("prime") / "proj", BANK)


def prime_json(project: Path, text: str, real: bool = False) -> dict:
    """`--prime TEXT --json` through the CLI's entry point: in this process, or a real one (`real`)."""
    proc = (run_cli if real else cli_in_process)("--root", str(project / "memory_bank"), "--prime", text, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def hook(command: str, stdin: str | bytes, cwd: Path, *args: str, real: bool = False,
         **env: str) -> subprocess.CompletedProcess:
    """One payload to the hook: a real process with `real`, else its entry point in this process."""
    full_env = {k: v for k, v in os.environ.items()  # keep the test parse-cache folder, drop the rest
                if k == "MEMORYBANK_CACHE_DIR" or not (k.startswith("MEMORYBANK_") or k == "CLAUDE_PROJECT_DIR")}
    full_env.update(env)
    data = stdin.encode() if isinstance(stdin, str) else stdin
    if real:
        proc = subprocess.run([HOOK, command, *args], input=data, capture_output=True, cwd=str(cwd), env=full_env,
                              timeout=60)
    else:
        proc = hook_in_process(command, *args, stdin=data, cwd=cwd, env=full_env)
    assert proc.returncode == 0, proc.stderr
    return proc


def payload(project: Path, prompt: str) -> str:
    return json.dumps({"session_id": "s-1", "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
                       "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": prompt})


def test_cli_prime_points_at_the_document_and_says_how_to_read_it(project):
    out = prime_json(project, "how do we render the first screen from local data after a relaunch?", real=True)
    assert out["documents"][0]["path"] == "domain/sync.md"
    assert set(out["documents"][0]) == {"path", "title", "section", "why"}
    lines = out["text"].splitlines()
    assert lines[0] == HEADER
    assert lines[1].startswith("- domain/sync.md § Cold start — Sync (")
    assert len(out["documents"]) <= 3 and estimate_tokens(out["text"]) <= 200


def test_cli_prime_text_form_is_the_injection(project):
    proc = run_cli("--root", str(project / "memory_bank"), "--prime", "what size of thumbnail do image bubbles ask for")
    assert proc.stdout.splitlines()[:2] == [HEADER, "- domain/media.md § Thumbnails — Media (" +
                                            proc.stdout.splitlines()[1].split(" (", 1)[1]]


@pytest.mark.parametrize("prompt", OFF_TOPIC)
def test_prime_is_silent_on_small_talk_and_generic_coding_requests(project, prompt):
    # both faces' real processes run in the two tests above; these are variants of their input
    assert prime_json(project, prompt) == {"documents": [], "text": ""}
    proc = cli_in_process("--root", str(project / "memory_bank"), "--prime", prompt)
    assert proc.returncode == 0 and proc.stdout == ""


def test_prime_never_points_into_the_inbox_or_templates(project):
    out = prime_json(project, "thumbnail sizes were wrong once")
    assert all(not d["path"].startswith("_inbox/") for d in out["documents"])


def test_hook_prime_prints_the_injection_for_a_real_payload(project):
    proc = hook("prime", payload(project, "which suites need the local homeserver?"), project / "src", real=True)
    text = proc.stdout.decode()
    assert text.startswith(HEADER + "\n- engineering/testing.md § Suites — Testing (")
    assert estimate_tokens(text) <= 200 and proc.stderr == b""


def test_hook_prime_is_silent_off_topic(project):
    for prompt in ("thanks!", "再来一次", "bump the version number"):
        proc = hook("prime", payload(project, prompt), project)
        assert proc.stdout == b"" and proc.stderr == b"", prompt


@pytest.mark.parametrize("stdin", ["not json", "[1, 2]", "", "{\"prompt\": 42}", b"\xff\xfe{"],
                         ids=["garbage", "array", "empty", "prompt-not-text", "bad-utf8"])
def test_hook_prime_never_fails_on_bad_input(project, stdin):
    proc = hook("prime", stdin, project, real=stdin == b"\xff\xfe{")
    assert proc.stdout == b""
    assert len(proc.stderr.splitlines()) <= 1


def test_hook_prime_without_a_bank_is_silent(tmp_path):
    proc = hook("prime", payload(tmp_path, "how does sync work"), tmp_path)
    assert proc.stdout == b"" and proc.stderr == b""
    proc = hook("prime", payload(tmp_path, "how does sync work"), tmp_path, "--root", str(tmp_path / "nope"))
    assert proc.stdout == b""


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs permissions that bind (not root)")
def test_hook_prime_on_an_unreadable_bank_exits_0_with_no_output(tmp_path):
    proj = git_repo(tmp_path / "proj", {"memory_bank/domain/a.md": doc("Sync", "How sync works.")})
    folder = proj / "memory_bank" / "domain"
    folder.chmod(0)
    try:
        proc = hook("prime", payload(proj, "how does sync work"), proj)
    finally:
        folder.chmod(0o755)
    assert proc.stdout == b"" and len(proc.stderr.splitlines()) <= 1


def test_hook_prime_on_a_bank_path_that_is_a_file_exits_0_with_one_stderr_line(tmp_path):
    (tmp_path / "bank").write_text("not a folder")
    proc = hook("prime", payload(tmp_path, "how does sync work"), tmp_path, MEMORYBANK_ROOT=str(tmp_path / "bank"))
    assert proc.stdout == b"" and len(proc.stderr.splitlines()) <= 1


def test_hook_prime_honours_the_off_switch(project):
    proc = hook("prime", payload(project, "which suites need the local homeserver?"), project, MEMORYBANK_HOOK="off")
    assert proc.stdout == b""


def test_session_start_prints_a_short_overview(project):
    event = json.dumps({"session_id": "s-1", "transcript_path": "t", "cwd": str(project),
                        "hook_event_name": "SessionStart", "source": "startup"})
    text = hook("session-start", event, project, real=True).stdout.decode()
    assert text.startswith("memorybank: this project has a bank (6 documents: knowledge 4, ")
    assert "1 inbox note awaits review." in text and "bank_route" in text and "bank_read" in text
    assert estimate_tokens(text) <= 120


def test_session_start_never_fails(tmp_path):
    assert hook("session-start", "garbage", tmp_path).stdout == b""
    assert hook("session-start", json.dumps({"cwd": str(tmp_path)}), tmp_path).stdout == b""


def test_hook_help_lists_the_subcommands():
    proc = hook_in_process("prime", "--help", text=True)
    assert proc.returncode == 0 and "session-start" in proc.stdout


def test_the_prime_path_imports_neither_mcp_nor_gitpython_nor_click(project):
    code = ("import io, json, sys\nfrom memorybank import hook_prime\n"
            "event = {'cwd': sys.argv[1], 'prompt': 'which suites need the local homeserver?'}\n"
            "print(bool(hook_prime.respond('prime', event, None)), file=sys.stderr)\n"
            "print([m for m in ('mcp', 'git', 'click') if m in sys.modules], file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(project)], capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip().splitlines()[-2:] == ["True", "[]"], proc.stderr
