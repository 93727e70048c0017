"""Drift that answers at the right moment and can be cleared (issue 17 §2), through the real CLI and MCP.

Commits have fixed dates in 2025; "now" is the machine's clock, which is later, so a change being
made today is always more than 90 days ahead of a document last committed in January 2025.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path

import pytest
from banks import money_rule
from conftest import cli_in_process, run_cli
from gitrepo import Repo

JAN = "2025-01-02T10:00:00Z"
JUN = "2025-06-01T10:00:00Z"
RULE = money_rule("Use float for money.")
INDEX = ("---\ntitle: Bank\ndoc_function: index\npurpose: Index.\n---\n\n# Bank\n\n"
         "- [No float money](rules/no-float-money.md)\n")


def app(tmp_path: Path) -> Repo:
    """The repository every test starts from: a bank with one anchored rule, committed in January."""
    repo = Repo(tmp_path / "app")
    repo.write("memory_bank/README.md", INDEX)
    repo.write("memory_bank/rules/no-float-money.md", RULE)
    repo.write("src/money.py", "CENTS = 100\n")
    repo.write("src/other.py", "x = 1\n")
    repo.commit("base", JAN)
    return repo


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Repo:
    return app(tmp_path_factory.mktemp("drift-now"))


@pytest.fixture
def repo(built, tmp_path) -> Repo:
    """A private copy of the built repository (history too): git runs once per module, not per test."""
    return built.copy(tmp_path / "app")


def cli(repo: Repo, *args: str, real: bool = False):
    """The command in the repository: through the CLI's entry point in this process, or a real process
    (`real`: the two checks that fail a commit)."""
    return (run_cli if real else cli_in_process)("--root", "memory_bank", *args, cwd=repo.path)


def test_the_commit_that_changes_anchored_code_is_the_one_that_fails(repo):
    assert cli(repo, "--deliver").returncode == 0
    repo.commit("deliver", JAN)
    assert cli(repo, "--drift", "--check").returncode == 0
    assert cli(repo, "--deliver", "--check").returncode == 0

    repo.write("src/money.py", "CENTS = 100\nprice = 0.1\n")
    repo.git("add", "src/money.py")  # staged: the commit being made
    drifted = cli(repo, "--drift", "--check", real=True)
    assert drifted.returncode == 1
    assert "rules/no-float-money.md" in drifted.stdout and "uncommitted: src/money.py" in drifted.stdout
    plain = cli(repo, "--drift")
    assert plain.returncode == 0 and "rules/no-float-money.md" in plain.stdout  # without --check: a report
    check = cli(repo, "--deliver", "--check", real=True)
    assert check.returncode == 1
    cli(repo, "--deliver")
    assert "dropped: rules/no-float-money.md (drifted)" in cli(repo, "--deliver", "--dry-run").stdout

    # an unrelated working-tree change does not drift it
    repo.git("checkout", "-q", "--", ".")
    repo.git("reset", "-q", "--hard")
    repo.write("src/other.py", "x = 2\n")
    assert cli(repo, "--drift", "--check").returncode == 0


def test_review_clears_drift_with_a_one_line_stamp_and_drift_uses_the_later_date(repo):
    repo.commit("code moves on", JUN, {"src/money.py": "CENTS = 1000\n"})
    drifted = json.loads(cli(repo, "--drift", "--json").stdout)["drifted"]
    assert [d["path"] for d in drifted] == ["rules/no-float-money.md"] and drifted[0]["ahead_days"] == 150
    assert cli(repo, "--drift", "--check").returncode == 1

    path = repo.path / "memory_bank/rules/no-float-money.md"
    before = path.read_bytes()
    out = cli(repo, "--review", "rules/no-float-money.md", "--json")
    assert out.returncode == 0, out.stderr
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert json.loads(out.stdout)["reviewed"] == today
    after = path.read_bytes()
    assert after.replace(f"reviewed: {today}\n".encode(), b"") == before  # one line added, nothing else moved
    repo.commit("reviewed", JAN)  # committed with an old date: only the `reviewed` stamp can clear it
    assert json.loads(cli(repo, "--drift", "--json").stdout)["drifted"] == []
    assert cli(repo, "--drift", "--check").returncode == 0
    assert json.loads(cli(repo, "--review", "rules/no-float-money.md", "--json").stdout)["changed"] is False


def test_drift_check_fails_on_a_missing_anchor_and_deliver_takes_threshold_days(repo):
    repo.commit("code moves on", JUN, {"src/money.py": "CENTS = 1000\n"})
    lenient = json.loads(cli(repo, "--deliver", "--dry-run", "--threshold-days", "365", "--json").stdout)
    agents = next(c for c in lenient["channels"] if c["file"] == "AGENTS.md")
    assert "rules/no-float-money.md" in agents["kept"]
    strict = json.loads(cli(repo, "--deliver", "--dry-run", "--json").stdout)
    agents = next(c for c in strict["channels"] if c["file"] == "AGENTS.md")
    assert {"path": "rules/no-float-money.md", "reason": "drifted"} in agents["dropped"]
    assert cli(repo, "--drift", "--check", "--threshold-days", "365").returncode == 0
    repo.git("rm", "-q", "src/money.py")
    repo.commit("gone", JUN)
    gone = cli(repo, "--drift", "--check", "--threshold-days", "365")
    assert gone.returncode == 1 and "missing anchors" in gone.stdout


def test_drift_takes_files_like_bank_drift_inside_and_outside_git(repo, tmp_path):
    data = json.loads(cli(repo, "--drift", "src/money.py", "src/other.py", "--json").stdout)
    assert data["mode"] == "reverse" and [d["path"] for d in data["documents"]] == ["rules/no-float-money.md"]
    plain = tmp_path / "plain"
    shutil.copytree(repo.path, plain, symlinks=True)
    shutil.rmtree(plain / ".git")
    out = cli_in_process("--root", "memory_bank", "--drift", "src/money.py", "--json", cwd=plain)
    assert out.returncode == 0 and [d["path"] for d in json.loads(out.stdout)["documents"]] == \
        ["rules/no-float-money.md"]
    refused = cli_in_process("--root", "memory_bank", "--drift", "--changed-since", "HEAD~1", cwd=plain)
    assert refused.returncode == 1 and "Pass the code files instead" in refused.stderr
    changed = cli_in_process("--root", "memory_bank", "--changed", "HEAD~1", cwd=plain)
    assert changed.returncode == 1 and "not inside a git repository" in changed.stderr
    assert "ISO date" in changed.stderr and "git init" in changed.stderr


def test_head_naming_a_missing_branch_is_said_so(repo):
    repo.git("symbolic-ref", "HEAD", "refs/heads/nope")
    for args in (("--changed", "HEAD"), ("--changed", "HEAD~1"), ("--drift", "--changed-since", "HEAD")):
        out = cli(repo, *args)
        assert out.returncode == 1 and "HEAD names the branch nope, which does not exist" in out.stderr, args


def test_changed_and_drift_agree_on_head_1(repo):
    # one commit: HEAD~1 reaches past it
    changed = json.loads(cli(repo, "--changed", "HEAD~1", "--json").stdout)
    drift = json.loads(cli(repo, "--drift", "--changed-since", "HEAD~1", "--json").stdout)
    assert "reaches past the first commit" in changed["note"] and "reaches past the first commit" in drift["note"]
    repo.commit("two", JUN, {"src/money.py": "CENTS = 1\n", "memory_bank/rules/no-float-money.md":
                             RULE.replace("integer cents", "whole cents")})
    changed = json.loads(cli(repo, "--changed", "HEAD~1", "--json").stdout)
    drift = json.loads(cli(repo, "--drift", "--changed-since", "HEAD~1", "--json").stdout)
    assert [c["path"] for c in changed["changes"]] == ["rules/no-float-money.md"] and "note" not in changed
    assert drift["files"] == ["memory_bank/rules/no-float-money.md", "src/money.py"] and "note" not in drift


def test_changed_date_inside_git_reads_history_not_mtimes(repo):
    repo.write("memory_bank/notes.md", "---\ntitle: Notes\nstatus: draft\npurpose: P.\n---\n\n# Notes\n")
    repo.commit("notes", JUN)
    for path in (repo.path / "memory_bank").rglob("*.md"):
        os.utime(path, (1_000_000_000, 1_000_000_000))  # 2001: mtimes would say nothing changed
    out = json.loads(cli(repo, "--changed", "2025-03-01", "--json").stdout)
    assert out["mode"] == "git" and [c["path"] for c in out["changes"]] == ["notes.md"]
    early = json.loads(cli(repo, "--changed", "2024-01-01", "--json").stdout)
    assert {c["change_kind"] for c in early["changes"]} == {"added"} and len(early["changes"]) == 3
