"""Guard that fits a real codebase (issue 17 §3): exclude globs, inline suppression, changed lines — real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli
from gitrepo import Repo

DAY = "2026-02-01T09:00:00Z"
RULE = """---
title: DB through the session
doc_kind: rule
status: active
purpose: Read when code touches the database.
do: Get connections from app.db.session.
dont: Create engines in feature code.
guard:
  - pattern: 'create_engine\\('
    files: 'app/**/*.py'
    exclude: ['app/db/session.py']
    message: create_engine outside app/db/session.py
---

# DB through the session
"""


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "app")
    repo.write("memory_bank/rules/db-through-session.md", RULE)
    repo.write("app/db/session.py", "engine = create_engine(URL)\n")
    repo.write("app/legacy.py", "e = create_engine(OLD)\n")
    repo.commit("base", DAY)
    return repo


def guard(repo: Repo, *args: str) -> tuple[int, list[tuple[str, int]]]:
    out = cli_in_process("--root", "memory_bank", "--guard", "--json", *args, cwd=repo.path)
    assert out.returncode in (0, 1), out.stderr
    return out.returncode, [(v["file"], v["line"]) for v in json.loads(out.stdout)["violations"]]


def test_exclude_exempts_the_one_file_the_rule_allows(repo):
    assert guard(repo, "app/db/session.py") == (0, [])
    assert guard(repo, "app/legacy.py") == (1, [("app/legacy.py", 1)])


def test_an_inline_comment_suppresses_one_rule_on_its_line_or_the_next(repo):
    repo.write("app/tool.py", "a = create_engine(X)  # memorybank: ignore db-through-session\n"
                              "# memorybank: ignore rules/db-through-session.md\n"
                              "b = create_engine(Y)\n"
                              "c = create_engine(Z)  # memorybank: ignore some-other-rule\n")
    assert guard(repo, "app/tool.py") == (1, [("app/tool.py", 4)])


def test_changed_lines_checks_only_what_this_change_adds(repo):
    repo.write("app/legacy.py", "e = create_engine(OLD)\nx = 1\nf = create_engine(NEW)\n")
    assert guard(repo, "app/legacy.py") == (1, [("app/legacy.py", 1), ("app/legacy.py", 3)])
    assert guard(repo, "--changed-lines") == (1, [("app/legacy.py", 3)])
    assert guard(repo, "--staged", "--changed-lines") == (0, [])  # nothing staged yet
    repo.git("add", "app/legacy.py")
    assert guard(repo, "--staged", "--changed-lines") == (1, [("app/legacy.py", 3)])
    repo.write("app/new.py", "g = create_engine(N)\n")  # untracked: every line is new
    assert guard(repo, "--changed-lines") == (1, [("app/legacy.py", 3), ("app/new.py", 1)])


def test_changed_lines_outside_git_is_refused_with_the_fix(tmp_path):
    plain = tmp_path / "plain"
    (plain / "memory_bank/rules").mkdir(parents=True)
    (plain / "memory_bank/rules/db.md").write_text(RULE)
    (plain / "app").mkdir()
    (plain / "app/x.py").write_text("create_engine(1)\n")
    out = run_cli("--root", "memory_bank", "--guard", "app/x.py", "--changed-lines", cwd=plain)
    assert out.returncode == 1 and "not in a git repository" in out.stderr and "whole files" in out.stderr
