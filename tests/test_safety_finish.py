"""Issue 13 leftovers: a committed symlink leading out of the project, bounded prompt arguments and hook
stdin, a JSON null meaning "not given", and base_version on every MCP writer of an existing document.

End-to-end: the real CLI, the real server over stdio, the real hook commands in real git repositories.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GIT_ENV, cli_in_process, cli_path, git, hook_in_process, run_cli
from mcpkit import Session
from writekit import make_bank, tree_hash

from memorybank import limits

HOOK = str(Path(sys.executable).parent / "mcp-memorybank-hook")
V = "product/vision.md"


def hook(cwd: Path, tmp_path: Path, *args: str, stdin: str | bytes | None = None,
         real: bool = False) -> subprocess.CompletedProcess:
    """One run of the hook command with a Stop/prompt payload (a real process with `real`, else its entry
    point in this process); its state lives under tmp_path."""
    event = {"session_id": "s-1", "cwd": str(cwd), "hook_event_name": "Stop", "prompt": "what is the vision?"}
    env = {k: v for k, v in os.environ.items()
           if k == "MEMORYBANK_CACHE_DIR" or not (k.startswith("MEMORYBANK_") or k == "CLAUDE_PROJECT_DIR")}
    env.update({**GIT_ENV, "MEMORYBANK_HOOK_STATE_DIR": str(tmp_path / "state")})
    data = json.dumps(event).encode() if stdin is None else stdin if isinstance(stdin, bytes) else stdin.encode()
    if real:
        proc = subprocess.run([HOOK, *args], input=data, capture_output=True, cwd=str(cwd), env=env, timeout=60)
    else:
        proc = hook_in_process(*args, stdin=data, cwd=cwd, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc


# -- a bank folder that is a committed symlink ------------------------------------------------------

@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """A cloned-looking project whose committed `memory_bank` symlink leads to a bank outside it."""
    outside = make_bank(tmp_path / "outside-bank").root
    project = tmp_path / "proj"
    project.mkdir()
    git(project, "init", "-q")
    (project / "src.py").write_text("print('hi')\n")
    (project / "memory_bank").symlink_to(outside, target_is_directory=True)
    git(project, "add", "-A")
    git(project, "commit", "-qm", "clone me")
    (project / "src.py").write_text("changed\n")  # a dirty tree, so the Stop hook would ask
    return project, outside


def test_a_committed_bank_symlink_leading_out_of_the_project_is_refused_by_cli_server_and_hooks(linked, tmp_path):
    project, outside = linked
    before = tree_hash(outside)
    for args in (("--root", "memory_bank", "--stats"),
                 ("--root", "memory_bank", "--create", "adr/ADR-050-x.md", "--kind", "adr", "--title", "Fifty",
                  "--purpose", "Why fifty.", "--derived", "dna/principles.md"),
                 ("read", V),  # found by the resolver, no --root
                 ("--root", "memory_bank")):  # serving
        real = args in (("--root", "memory_bank", "--stats"), ("--root", "memory_bank"))  # serving: always real
        run = run_cli if real else cli_in_process
        proc = run(*args, cwd=project, stdin="")
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert "symlink committed to the repository" in proc.stderr and "memory_bank" in proc.stderr, proc.stderr
        assert "Replace the symlink with the folder itself" in proc.stderr and str(outside) in proc.stderr
    for args in ((), ("prime",), ("session-start",)):
        proc = hook(project, tmp_path, *args, real=True)
        assert proc.stdout == b"" and b"symlink committed to the repository" in proc.stderr, (args, proc.stderr)
    assert tree_hash(outside) == before
    # the fix the message names: the folder's own path as the root
    assert cli_in_process("--root", str(outside), "--stats", cwd=project).returncode == 0


def test_a_bank_symlink_the_user_made_or_one_inside_the_project_is_followed(linked, tmp_path):
    project, outside = linked
    git(project, "rm", "-q", "--cached", "memory_bank")  # the same link, made locally: the user's choice
    assert run_cli("--root", "memory_bank", "--stats", cwd=project).returncode == 0
    (project / "memory_bank").unlink()
    inner = make_bank(project / "docs" / "bank").root
    (project / "memory_bank").symlink_to(Path("docs") / "bank", target_is_directory=True)
    git(project, "add", "-A")
    git(project, "commit", "-qm", "link inside")
    proc = cli_in_process("--root", "memory_bank", "--create", "adr/ADR-051-y.md", "--kind", "adr", "--title", "Inner",
                          "--purpose", "Why inner.", "--derived", "dna/principles.md", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (inner / "adr/ADR-051-y.md").is_file()


# -- the MCP face: prompt arguments, null, base_version on every writer ------------------------------

@pytest.fixture
def served(writable_server):
    """The worker's server over a `make_bank` bank, as built (conftest `writable_server`)."""
    return writable_server


def version(session: Session, path: str) -> str:
    return session.ok("bank_read", {"path": path})["version"]


def test_prompt_arguments_are_bounded_with_a_clear_error(served):
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as caught:
        served.run(served.client.get_prompt, "route-then-read", {"question": "q" * (limits.MAX_QUESTION + 1)})
    text = str(caught.value)
    assert f"{limits.MAX_QUESTION + 1:,} characters" in text and f"{limits.MAX_QUESTION:,}-character limit" in text
    assert len(text) < 400
    fine = served.run(served.client.get_prompt, "route-then-read", {"question": "q" * limits.MAX_QUESTION})
    assert "q" * limits.MAX_QUESTION in fine.messages[0].content.text


def test_a_json_null_for_an_optional_argument_means_not_given(served):
    done = served.ok("bank_set_field", {"path": V, "field": "owner", "value": "Ops", "base_version": None,
                                        "dry_run": None})
    assert done["changed"] and "owner: Ops" in (served.root / V).read_text()
    missing = served.call("bank_set_field", {"path": V, "field": "owner", "value": None})
    assert missing.is_error and "value" in missing.content[0].text


def test_every_writer_of_an_existing_document_takes_base_version_over_mcp(served):
    tools = {t.name: t for t in served.run(served.client.list_tools).tools}
    for name in ("bank_promote", "bank_discard", "bank_review", "bank_move"):
        assert "base_version" in tools[name].input_schema["properties"], name
    for i in range(2):
        served.ok("bank_create", {"path": f"idea-{i}.md", "doc_kind": "note", "title": f"Idea {i}",
                                  "purpose": f"An idea {i}.", "inbox": True})
    stale = "0" * 12
    for name, args in (("bank_set_status", {"path": V, "status": "archived"}),
                       ("bank_set_list", {"path": V, "field": "anchors", "add": ["src/x/"]})):
        refused = served.call(name, {**args, "base_version": stale})
        assert refused.is_error and f"now version {version(served, V)}" in refused.content[0].text, name
    calls = [("bank_set_list", {"path": V, "field": "anchors", "add": ["src/x/"]}), ("bank_review", {"path": V}),
             ("bank_move", {"path": V, "new_path": "product/vision-2.md"}),
             ("bank_discard", {"path": "_inbox/idea-0.md", "reason": "No."}),
             ("bank_promote", {"path": "_inbox/idea-1.md", "to": "product/idea-1.md", "doc_kind": "product",
                               "derived_from": ["vision-2.md"]})]
    for name, args in calls:
        before = tree_hash(served.root)
        current = version(served, args["path"])
        refused = served.call(name, {**args, "base_version": stale})
        assert refused.is_error and f"now version {current}" in refused.content[0].text, refused.content[0].text
        assert tree_hash(served.root) == before
    for name, args in calls:
        served.ok(name, {**args, "base_version": version(served, args["path"])})
    assert (served.root / "product/vision-2.md").is_file() and (served.root / "product/idea-1.md").is_file()
    assert not (served.root / "_inbox/idea-0.md").exists()


# -- hook stdin is bounded ----------------------------------------------------------------------------

def test_every_hook_skips_an_oversized_payload_unread_and_never_fails_the_session(tmp_path):
    project = tmp_path / "proj"
    make_bank(project / "memory_bank")
    git(project, "init", "-q")
    huge = b'{"cwd": "' + b"x" * limits.HOOK_STDIN_MAX + b'"}'
    for args in ((), ("prime",), ("session-start",)):
        proc = hook(project, tmp_path, *args, stdin=huge)
        assert proc.stdout == b"", args
        assert proc.stderr.count(b"\n") == 1 and b"over 4 MB; skipped" in proc.stderr, (args, proc.stderr)


def test_the_server_never_starts_on_a_committed_symlink_even_with_stdin_closed(linked):
    project, outside = linked
    proc = subprocess.run([cli_path(), "--root", str(project / "memory_bank")], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "symlink committed to the repository" in proc.stderr
    assert not (outside / ".memorybank.lock").exists()


# -- a file that never settles while it is read ---------------------------------------------------------

@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_a_file_whose_stamp_never_settles_while_read_is_retried_then_refused():
    # /proc files are regular files whose size says 0 while a read returns bytes: every read differs from
    # the stamp around it, exactly like a file being saved in place during each try.
    from memorybank.confined import SETTLE_TRIES, Unsettled, read_file

    with pytest.raises(Unsettled, match="kept changing while it was read") as caught:
        read_file("/proc/self", "status")
    assert "nothing was written" in str(caught.value) and SETTLE_TRIES > 1


def test_move_through_the_cli_refuses_a_name_that_collides_after_case_folding(tmp_path):
    root = make_bank(tmp_path / "bank").root
    before = tree_hash(root)
    proc = cli_in_process("move", "--root", str(root), V, "Product/vision-3.md")
    assert proc.returncode == 1 and "collides with the existing product" in proc.stderr, proc.stderr
    assert tree_hash(root) == before
