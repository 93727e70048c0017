"""`--adoption` (§13.3): reads and writes through vs around the server, counted from transcript JSONL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, git_repo, run_cli
from gitrepo import Repo

from memorybank.adoption import BankPaths, adoption, bash_effects
from memorybank.errors import BankError

_ids = iter(range(1, 10_000))


def assistant(session: str, cwd: str, *calls: tuple[str, dict]) -> dict:
    """An assistant record as Claude Code writes it: tool_use items in message.content[]."""
    content = [{"type": "text", "text": "Let me look."}]
    content += [{"type": "tool_use", "id": f"toolu_{next(_ids):04d}", "name": name, "input": params}
                for name, params in calls]
    return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": cwd, "sessionId": session,
            "version": "1.0.0", "type": "assistant", "uuid": f"u{next(_ids)}", "timestamp": "2025-01-01T00:00:00Z",
            "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
                        "content": content, "stop_reason": "tool_use"}}


def user(session: str, cwd: str, text: str = "hi") -> dict:
    return {"type": "user", "sessionId": session, "cwd": cwd, "uuid": f"u{next(_ids)}",
            "message": {"role": "user", "content": text}}


def bash(command: str) -> tuple[str, dict]:
    return "Bash", {"command": command, "description": "run"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return git_repo(tmp_path_factory.mktemp("adoption") / "proj", {"memory_bank/README.md": "# Bank\n",
                                                                   "src/app.py": "x\n"})


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    """A private copy (work tree and history) of the committed project: git runs once per module."""
    return Repo(built, init=False).copy(tmp_path / "proj").path


def write_jsonl(path: Path, records: list) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n")
    return path


def transcripts(project: Path, tmp_path: Path) -> list[Path]:
    cwd = str(project)
    bank = f"{project}/memory_bank"
    one = [
        {"type": "summary", "summary": "Money work", "leafUuid": "x"},
        user("s1", cwd),
        # server reads: 5 (route, search, read, prefixed graph, resource read)
        assistant("s1", cwd, ("mcp__memorybank__bank_route", {"question": "money?"}),
                  ("mcp__memorybank__bank_search", {"query": "cents"}),
                  ("bank_read", {"path": "adr/a.md"}),
                  ("mcp__mb__bank_graph", {"path": "adr/a.md"}),
                  ("ReadMcpResourceTool", {"server": "memorybank", "uri": "memorybank://index"})),
        # not counted: a resource of another server, a Read outside the bank, ListMcpResourcesTool, a grep for the
        # bank's name in code, a Bash write outside the bank
        assistant("s1", cwd, ("ReadMcpResourceTool", {"server": "other", "uri": "other://x"}),
                  ("Read", {"file_path": f"{cwd}/src/app.py"}),
                  ("ListMcpResourcesTool", {}),
                  bash("grep -rn memory_bank src/"),
                  bash("echo hi > /tmp/out.txt 2>&1")),
        # shell reads: 9
        assistant("s1", cwd, ("Read", {"file_path": f"{bank}/adr/a.md"}),
                  ("Grep", {"pattern": "cents", "path": bank}),
                  ("Glob", {"pattern": "memory_bank/**/*.md"}),
                  bash("cat memory_bank/adr/a.md"),
                  bash("grep -rn cents memory_bank/ | head -5"),
                  bash("cd memory_bank && ls"),
                  bash("sed -n '1,20p' ./memory_bank/domain/money.md"),
                  bash(f"find {bank} -name '*.md'"),
                  bash("rg -e cents memory_bank")),
        '{"type": "assistant", "message": {"content": [',  # truncated line: invalid JSON
        "[1, 2, 3]",  # valid JSON, not an object
    ]
    two = [
        user("s2", cwd),
        # server writes: 3; a check: 1
        assistant("s2", cwd, ("mcp__memorybank__bank_create", {"path": "x.md", "inbox": True}),
                  ("mcp__memorybank__bank_edit", {"path": "x.md", "find": "a", "replace": "b"}),
                  ("bank_set_status", {"path": "x.md", "status": "active"}),
                  ("mcp__memorybank__bank_validate", {})),
        # shell writes: 8 (the last Bash both reads and writes: also 1 shell read)
        assistant("s2", cwd, ("Write", {"file_path": f"{bank}/_inbox/n.md", "content": "x"}),
                  ("Edit", {"file_path": "memory_bank/adr/a.md", "old_string": "a", "new_string": "b"}),
                  ("MultiEdit", {"file_path": f"{bank}/adr/a.md", "edits": []}),
                  bash("echo '- new' >> memory_bank/README.md"),
                  bash("cat <<'EOF' > memory_bank/_inbox/fact.md\n# Fact\n> quoted memory_bank/zz.md\nEOF"),
                  bash("printf x | tee memory_bank/log.md"),
                  bash("sed -i 's/draft/active/' memory_bank/adr/a.md"),
                  bash("cat memory_bank/a.md > memory_bank/b.md")),
        {"type": "assistant", "sessionId": "s2", "message": "not an object"},  # unknown shape
        # a malformed tool_use item (no input) and a repeat of an earlier call id (a resumed session's copy)
        {"type": "assistant", "sessionId": "s2", "cwd": cwd, "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_bad", "name": "Read"},
            {"type": "tool_use", "id": one[2]["message"]["content"][1]["id"], "name": "bank_route",
             "input": {"question": "money?"}}]}},
        "",
        "not json at all",
    ]
    return [write_jsonl(tmp_path / "one.jsonl", one), write_jsonl(tmp_path / "two.jsonl", two)]


def test_counts_are_exact(project, tmp_path):
    result = adoption(project / "memory_bank", transcripts(project, tmp_path))
    assert result["sessions"] == [
        {"session": "s1", "server_reads": 5, "shell_reads": 9, "server_writes": 0, "shell_writes": 0,
         "server_checks": 0},
        {"session": "s2", "server_reads": 0, "shell_reads": 1, "server_writes": 3, "shell_writes": 8,
         "server_checks": 1},
    ]
    assert result["total"] == {"sessions": 2, "server_reads": 5, "shell_reads": 10, "server_writes": 3,
                               "shell_writes": 8, "server_checks": 1}
    assert result["skipped"] == {"lines": 4, "invalid_json": 2, "not_object": 1, "unknown_shape": 1,
                                 "bad_tool_use": 1}
    assert result["duplicates"] == 1
    assert result["by_tool"] == {"Bash": 11, "Edit": 1, "Glob": 1, "Grep": 1, "MultiEdit": 1, "Read": 1,
                                 "ReadMcpResourceTool": 1, "Write": 1, "bank_create": 1, "bank_edit": 1,
                                 "bank_graph": 1, "bank_read": 1, "bank_route": 1, "bank_search": 1,
                                 "bank_set_status": 1, "bank_validate": 1}
    assert result["files"] == 2


def test_cli_table_and_json(project, tmp_path):
    # the one real process of --adoption; its other runs here go through the entry point in this process
    files = [str(p) for p in transcripts(project, tmp_path)]
    proc = run_cli("--root", str(project / "memory_bank"), "--adoption", *files)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split("  ")[0] == "session" and lines[0].endswith("checks")
    assert lines[1].split() == ["s1", "5", "9", "0", "0", "0"]
    assert lines[3].split() == ["total", "(2", "sessions)", "5", "10", "3", "8", "1"]
    assert len({len(line) for line in lines[:4]}) == 1  # aligned columns
    assert "reads through the server: 5/15 (33%); writes through the server: 3/11 (27%)" in proc.stdout
    assert "skipped: 4 lines, 1 tool call" in proc.stdout
    data = json.loads(cli_in_process("--root", str(project / "memory_bank"), "--adoption", *files, "--json").stdout)
    assert data["total"]["shell_writes"] == 8


def test_transcripts_from_another_checkout_still_count(project, tmp_path):
    path = write_jsonl(tmp_path / "far.jsonl", [
        assistant("s9", "/home/other/proj", ("Read", {"file_path": "/home/other/proj/memory_bank/a.md"}),
                  bash("cat memory_bank/b.md"), ("Read", {"file_path": "/home/other/proj/src/a.py"}))])
    assert adoption(project / "memory_bank", [path])["total"]["shell_reads"] == 2


def test_records_without_session_ids_use_the_file_name(project, tmp_path):
    path = write_jsonl(tmp_path / "abc-123.jsonl", [
        {"type": "tool_use", "id": "t1", "name": "bank_route", "input": {"question": "q"}},
        {"message": {"content": [{"type": "tool_use", "name": "mcp__memorybank__bank_read",
                                  "input": {"path": "a.md"}}]}}])
    result = adoption(project / "memory_bank", [path])
    assert result["sessions"] == [{"session": "abc-123", "server_reads": 2, "shell_reads": 0, "server_writes": 0,
                                   "shell_writes": 0, "server_checks": 0}]


def test_default_transcripts_come_from_the_claude_config_folder(project, tmp_path):
    config = tmp_path / "claude"
    folder = config / "projects" / str(project.resolve()).replace("/", "-").replace("_", "-").replace(".", "-")
    folder.mkdir(parents=True)
    write_jsonl(folder / "s.jsonl", [assistant("s", str(project), ("bank_route", {"question": "q"}))])
    proc = cli_in_process("--root", str(project / "memory_bank"), "--adoption", "--json",
                   env={"CLAUDE_CONFIG_DIR": str(config)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"]["server_reads"] == 1
    proc = cli_in_process("--root", str(project / "memory_bank"), "--adoption",
                   env={"CLAUDE_CONFIG_DIR": str(tmp_path / "none")})
    assert proc.returncode == 1 and "No transcripts given" in proc.stderr


def test_missing_file_is_refused(project, tmp_path):
    with pytest.raises(BankError, match="Cannot read transcript"):
        adoption(project / "memory_bank", [tmp_path / "nope.jsonl"])
    proc = cli_in_process("--root", str(project / "memory_bank"), "--stats", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 2 and "FILES are only for --adoption" in proc.stderr


@pytest.mark.parametrize(("command", "effects"), [
    ("cat memory_bank/a.md 2>/dev/null", (True, False)),
    ("wc -l < memory_bank/a.md", (True, False)),
    ("ls", (False, False)),
    ("cd memory_bank; tail -n 3 adr/a.md", (True, False)),
    ("sed -e 's/a/b/' memory_bank/a.md", (True, False)),
    ("sed -ni 's/a/b/p' memory_bank/a.md", (False, True)),
    ("cp /tmp/x.md memory_bank/x.md", (False, True)),
    ("mv memory_bank/a.md /tmp/", (True, False)),
    ("rm -f memory_bank/_inbox/n.md", (False, True)),
    ("FOO=1 sudo cat 'memory_bank/a b.md'", (True, False)),
    ("git diff memory_bank/", (False, False)),
    ("python - <<EOF\nopen('memory_bank/a.md', 'w')\nEOF", (False, False)),
    ("cat 'unterminated memory_bank/a.md", (True, False)),
])
def test_bash_patterns(tmp_path, command, effects):
    bank = BankPaths(tmp_path / "memory_bank", tmp_path)
    assert bash_effects(command, str(tmp_path), bank) == effects


def test_a_huge_command_and_a_cr_inside_a_line_are_handled_exactly(project, tmp_path):
    # A 5 MB pasted Bash command made shlex run for minutes; a raw CR split one bad line in two.
    import time

    cwd = str(project)
    path = write_jsonl(tmp_path / "t.jsonl", [
        assistant("s1", cwd, bash("cat memory_bank/README.md " + "a" * 5_000_000)),
        '{"type":"x","bad\r":1}',
    ])
    began = time.monotonic()
    result = adoption(project / "memory_bank", [path])
    assert time.monotonic() - began < 10
    assert result["total"]["shell_reads"] == 1 and result["skipped"]["invalid_json"] == 1


def test_a_non_markdown_file_under_a_folder_of_the_same_name_elsewhere_is_no_bank_read(project, tmp_path):
    # `site-packages/memory_bank/x.py` matched the bank by its folder name.
    cwd = str(project)
    path = write_jsonl(tmp_path / "t.jsonl", [assistant(
        "s1", cwd, ("Read", {"file_path": "/usr/lib/python3/site-packages/memory_bank/x.py"}),
        ("Read", {"file_path": "/home/other/checkout/memory_bank/adr/ADR-001.md"}))])
    assert adoption(project / "memory_bank", [path])["total"]["shell_reads"] == 1


HEADER = "memorybank: likely relevant — read with bank_read(path, section):"


def injected(*lines: str) -> str:
    return "\n".join([HEADER, *lines])


def hook_records(session: str, cwd: str, parent: str, text: str) -> list[dict]:
    """What Claude Code writes for a UserPromptSubmit hook printing `text`: a success record with its
    stdout, then the additional-context record (content as a list of strings), chained by parentUuid."""
    first = {"parentUuid": parent, "type": "attachment", "sessionId": session, "cwd": cwd, "uuid": f"a{next(_ids)}",
             "timestamp": "2025-01-01T00:00:01Z",
             "attachment": {"type": "hook_success", "hookName": "UserPromptSubmit", "hookEvent": "UserPromptSubmit",
                            "command": "mcp-memorybank-hook prime", "exitCode": 0, "stdout": text + "\n",
                            "stderr": "", "content": text + "\n"}}
    second = {"parentUuid": first["uuid"], "type": "attachment", "sessionId": session, "cwd": cwd,
              "uuid": f"a{next(_ids)}", "timestamp": "2025-01-01T00:00:01Z",
              "attachment": {"type": "hook_additional_context", "hookName": "UserPromptSubmit",
                             "hookEvent": "UserPromptSubmit", "content": text.split("\n")}}
    return [first, second]


def primed_transcripts(project: Path, tmp_path: Path) -> list[Path]:
    cwd = str(project)
    ask = user("p1", cwd, "how does a relaunch resume sync?")
    first_turn = [ask, *hook_records("p1", cwd, ask["uuid"], injected(
        "- domain/sync.md § Cold start — Sync (body: L12 \"resumes from next_batch\")",
        "- adr/ADR-002-session.md — Session instance (purpose: session)")),
        assistant("p1", cwd, ("mcp__memorybank__bank_read", {"path": "domain/sync.md", "section": "Cold start"}))]
    media = user("p1", cwd, "and the media rules?")
    records = [
        {"type": "summary", "summary": "Sync questions", "leafUuid": "x"},
        *first_turn,
        # read around the server, by a shell reader in a later tool call of the same turn
        media, *hook_records("p1", cwd, media["uuid"], injected("- domain/media.md — Media (title: media)")),
        assistant("p1", cwd, ("Glob", {"pattern": "**/*.md"})),
        assistant("p1", cwd, bash("sed -n 1,40p memory_bank/domain/media.md")),
        # not primed (prime stayed silent): a read now is no pointer followed
        user("p1", cwd, "thanks"),
        assistant("p1", cwd, ("Read", {"file_path": f"{cwd}/memory_bank/domain/sync.md"})),
    ]
    release = user("p1", cwd, "how do we release?")
    records += [
        release, *hook_records("p1", cwd, release["uuid"], injected("- ops/release.md § Checklist — Release (x)")),
        assistant("p1", cwd, ("Read", {"file_path": f"{cwd}/memory_bank/domain/push.md"})),
        user("p1", cwd, "ok"),  # the next prompt closes the window: a later read of the pointer does not count
        assistant("p1", cwd, ("bank_read", {"path": "ops/release.md"})),
        # an older Claude Code: the hook output inside the user record itself, read with the Read tool
        {"type": "user", "sessionId": "p2", "cwd": cwd, "uuid": f"u{next(_ids)}",
         "message": {"role": "user", "content": [
            {"type": "text", "text": "what about push?"},
            {"type": "text", "text": "<user-prompt-submit-hook>" + injected("- domain/push.md — Push (title: push)")
             + "</user-prompt-submit-hook>"}]}},
        assistant("p2", cwd, ("Read", {"file_path": f"{cwd}/memory_bank/domain/push.md"})),
    ]
    resumed = [{"type": "summary", "summary": "resumed", "leafUuid": "y"}, *first_turn]  # a resume copies history
    return [write_jsonl(tmp_path / "primed.jsonl", records), write_jsonl(tmp_path / "resumed.jsonl", resumed)]


def test_primed_prompts_and_the_pointers_read_after_them_are_counted(project, tmp_path):
    result = adoption(project / "memory_bank", primed_transcripts(project, tmp_path))
    assert result["primed"] == {"prompts": 4, "read": 3, "through_server": 1, "around_server": 2}
    assert result["duplicates"] == 1  # the resumed bank_read is one call


def test_adoption_cli_reports_the_primed_loop(project, tmp_path):
    files = [str(p) for p in primed_transcripts(project, tmp_path)]
    proc = cli_in_process("--root", str(project / "memory_bank"), "--adoption", *files)
    assert proc.returncode == 0, proc.stderr
    assert "primed prompts: 4; a pointed document read after 3 (75%): through the server 1, around it 2" \
        in proc.stdout.splitlines()
    data = json.loads(cli_in_process("--root", str(project / "memory_bank"), "--adoption", *files, "--json").stdout)
    assert data["primed"]["prompts"] == 4


def test_a_transcript_without_priming_reports_no_primed_line(project, tmp_path):
    files = map(str, transcripts(project, tmp_path))
    proc = cli_in_process("--root", str(project / "memory_bank"), "--adoption", *files)
    assert proc.returncode == 0 and "primed prompts" not in proc.stdout
