"""Guard (§15): changed code checked against the rules' guard patterns, with the rule's advice inline."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURE, REPO, cli_in_process, run_cli
from gitrepo import Repo

from memorybank.bank import Bank
from memorybank.deliver import deliver
from memorybank.errors import BankError
from memorybank.guard import guard

DAY = "2026-02-01T09:00:00Z"
NO_PRINT = """---
title: No print
doc_kind: rule
status: active
do: Log through the module logger.
dont: Call print() in library code.
guard:
  - pattern: 'print\\('
    files: 'src/**/*.py'
    severity: error
    message: print() in src
---

# No print
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    repo = Repo(tmp_path_factory.mktemp("guard") / "project")
    repo.write("memory_bank/rules/no-print.md", NO_PRINT)
    repo.write("src/old.py", "print('untouched and old')\n")
    repo.write("src/pkg/new.py", "import logging\n")
    repo.write("scripts/tool.py", "print('not under src')\n")
    repo.commit("base", DAY)
    return repo


@pytest.fixture
def repo(built: Repo, tmp_path: Path) -> Repo:
    """A private copy (work tree and history) of the committed project: git runs once per module."""
    return built.copy(tmp_path / "project")


def test_guard_flags_exactly_the_changed_files_offending_lines_and_passes_when_fixed(repo):
    root = repo.path / "memory_bank"
    repo.write("src/pkg/new.py",
               "import logging\nlog = logging.getLogger()\nprint('a')\nx = 1\n  print ('b') ; print(2)\n")
    result = guard(Bank(root))
    assert result["passed"] is False and result["rules_used"] == ["rules/no-print.md"]
    assert result["files_checked"] == 1
    assert [(v["file"], v["line"]) for v in result["violations"]] == [("src/pkg/new.py", 3), ("src/pkg/new.py", 5)]
    first = result["violations"][0]
    assert first == {"file": "src/pkg/new.py", "line": 3, "rule": "rules/no-print.md", "severity": "error",
                     "message": "print() in src", "do": "Log through the module logger.",
                     "dont": "Call print() in library code."}
    repo.write("src/pkg/new.py", "import logging\nlog = logging.getLogger()\nlog.info('a')\n")
    fixed = guard(Bank(root))
    assert fixed["passed"] is True and fixed["violations"] == []


def test_guard_on_given_files_checks_them_whole_and_respects_the_glob(repo):
    root = repo.path / "memory_bank"
    result = guard(Bank(root), files=["src/old.py", str(repo.path / "scripts/tool.py")])
    assert result["files_checked"] == 2
    assert [(v["file"], v["line"]) for v in result["violations"]] == [("src/old.py", 1)]
    with pytest.raises(BankError, match="No file at src/missing.py"):
        guard(Bank(root), files=["src/missing.py"])
    with pytest.raises(BankError, match="outside the project"):
        guard(Bank(root), files=[str(repo.path.parent) + "/elsewhere.py"])


def test_staged_sees_only_staged_files_and_untracked_count_without_it(repo):
    root = repo.path / "memory_bank"
    repo.write("src/pkg/new.py", "print('staged')\n")
    repo.git("add", "src/pkg/new.py")
    repo.write("src/old.py", "print('unstaged edit')\n")
    repo.write("src/fresh.py", "print('untracked')\n")
    staged = guard(Bank(root), staged=True)
    assert {v["file"] for v in staged["violations"]} == {"src/pkg/new.py"}
    everything = guard(Bank(root))
    assert {v["file"] for v in everything["violations"]} == {"src/pkg/new.py", "src/old.py", "src/fresh.py"}


def test_binary_files_and_bank_documents_are_skipped(repo):
    root = repo.path / "memory_bank"
    (repo.path / "src/blob.py").write_bytes(b"print(\x00\x01binary")
    repo.write("memory_bank/rules/extra.md", NO_PRINT.replace("No print", "Also no print()"))
    result = guard(Bank(root))
    assert result["passed"] is True and result["files_checked"] == 0


def test_a_bad_regex_is_a_finding_of_its_rule_not_a_crash(repo):
    root = repo.path / "memory_bank"
    repo.write("memory_bank/rules/broken.md", NO_PRINT.replace("'print\\('", "'print('").replace(
        "severity: error", "severity: warning"))
    repo.write("src/pkg/new.py", "print('x')\n")
    result = guard(Bank(root))
    bad = [v for v in result["violations"] if v["rule"] == "rules/broken.md"]
    assert len(bad) == 1 and bad[0]["file"] == "memory_bank/rules/broken.md" and bad[0]["line"] == 7
    assert bad[0]["severity"] == "warning" and "bad regex" in bad[0]["message"]
    assert [v["file"] for v in result["violations"] if v["rule"] == "rules/no-print.md"] == ["src/pkg/new.py"]
    assert result["rules_used"] == ["rules/no-print.md"]


def test_cli_guard_exit_codes_and_json(repo):
    root = str(repo.path / "memory_bank")
    clean = run_cli("--root", root, "--guard")
    assert clean.returncode == 0 and clean.stdout.startswith("passed: 0 files")
    repo.write("src/pkg/new.py", "print('x')\n")
    dirty = cli_in_process("--root", root, "--guard", "--json")
    assert dirty.returncode == 1
    assert json.loads(dirty.stdout)["violations"][0]["line"] == 1


def test_pre_commit_hooks_run_as_declared(tmp_path):
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"memorybank-validate", "memorybank-deliver-check", "memorybank-drift-check",
                          "memorybank-guard"}
    assert all(h["language"] == "python" for h in hooks.values())
    assert hooks["memorybank-guard"]["pass_filenames"] is True
    assert hooks["memorybank-validate"]["pass_filenames"] is False
    assert hooks["memorybank-deliver-check"]["pass_filenames"] is False
    assert hooks["memorybank-drift-check"]["pass_filenames"] is False
    repo = Repo(tmp_path / "p")
    shutil.copytree(FIXTURE, repo.path / "memory_bank")
    repo.write("src/app.py", "print('hello')\n")
    repo.write("src/ok.py", "x = 1\n")
    repo.commit("init", DAY)

    def run(hook: str, *files: str):
        # the guard as a real process, as pre-commit runs it; the other entries' real processes run in
        # test_readme_precommit, here their entry point in this process
        command, *args = shlex.split(hooks[hook]["entry"])
        assert command == "mcp-memorybank"
        return (run_cli if hook == "memorybank-guard" else cli_in_process)(*args, *files, cwd=repo.path)

    assert run("memorybank-validate").returncode == 1  # the fixture bank plants errors
    assert run("memorybank-deliver-check").returncode == 1
    deliver(Bank(repo.path / "memory_bank"))
    assert run("memorybank-deliver-check").returncode == 0
    guarded = run("memorybank-guard", "src/app.py", "src/ok.py")
    assert guarded.returncode == 1 and "ok.py" not in guarded.stdout
    assert "src/app.py:1  error  print() in service code  [rules/no-print.md]" in guarded.stdout
    assert "    do: Log through the module logger." in guarded.stdout


@pytest.mark.parametrize("pattern, files, problem", [
    ("'(a+)+$'", "'src/**'", "repeats a group that itself repeats"),  # used to hang for minutes
    ("'a{4294967296}'", "'src/**'", "bad regex"),  # OverflowError used to escape
    ("'x'", "'[z-a].py'", "bad glob in `files`"),  # re.error from the glob used to escape
])
def test_a_pattern_or_glob_that_cannot_run_safely_is_a_finding_and_delivery_still_works(repo, pattern, files,
                                                                                        problem):
    import time

    root = repo.path / "memory_bank"
    repo.write("memory_bank/rules/risky.md", NO_PRINT.replace("'print\\('", pattern)
               .replace("'src/**/*.py'", files).replace("No print", "Risky"))
    repo.write("src/slow.py", "a" * 40 + "b\n")
    began = time.monotonic()
    result = guard(Bank(root))
    assert time.monotonic() - began < 5
    bad = [v for v in result["violations"] if v["rule"] == "rules/risky.md"]
    assert len(bad) == 1 and problem in bad[0]["message"], bad
    assert deliver(Bank(root), dry_run=True)["channels"]


def test_an_untracked_symlink_is_not_followed_out_of_the_project(repo, tmp_path):
    outside = tmp_path / "secret.py"
    outside.write_text("print('outside the project')\n")
    (repo.path / "src/leak.py").symlink_to(outside)
    result = guard(Bank(repo.path / "memory_bank"))
    assert "src/leak.py" not in {v["file"] for v in result["violations"]}


def test_a_bank_symlinked_into_the_project_guards_the_projects_changes(tmp_path):
    # With memory_bank -> a folder outside the repository, guard said "not in a git repository".
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "rules").mkdir(parents=True)
    (elsewhere / "rules/no-print.md").write_text(NO_PRINT)
    repo = Repo(tmp_path / "project")
    repo.write("src/pkg/new.py", "import logging\n")
    repo.commit("base", DAY)
    (repo.path / "memory_bank").symlink_to(elsewhere)
    repo.write("src/pkg/new.py", "print('x')\n")
    result = guard(Bank(repo.path / "memory_bank"))
    assert [(v["file"], v["line"]) for v in result["violations"]] == [("src/pkg/new.py", 1)]
