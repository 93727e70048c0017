"""README's pre-commit story, run as written on a real repository (issue 17: done means)."""

from __future__ import annotations

import shlex

import yaml
from banks import money_rule
from conftest import REPO, cli_in_process, run_cli
from gitrepo import Repo

OLD = "2025-01-02T10:00:00Z"
RULE = money_rule("No float amounts.", "guard:\n  - pattern: 'float\\('\n    files: 'src/**/*.py'\n"
                  "    message: float() on money\n")


def readme_commands() -> list[list[str]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("### Pre-commit", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [shlex.split(line.split("#", 1)[0]) for line in block.splitlines() if line.strip()]


def test_the_readme_commands_are_the_hooks_and_pass_then_catch_a_bad_commit(tmp_path):
    commands = readme_commands()
    hooks = {h["entry"] for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert hooks <= {" ".join(c[:2]) if c[1] == "--guard" else " ".join(c) for c in commands}
    assert all(c[0] == "mcp-memorybank" for c in commands)

    repo = Repo(tmp_path / "app")
    repo.write("memory_bank/README.md", "---\ntitle: Bank\ndoc_function: index\npurpose: Index.\n---\n\n# Bank\n\n"
                                        "- [No float money](rules/no-float-money.md)\n")
    repo.write("memory_bank/rules/no-float-money.md", RULE)
    repo.write("src/money.py", "CENTS = 100\n")
    assert cli_in_process("--deliver", cwd=repo.path).returncode == 0
    repo.commit("base", OLD)
    for command in commands:  # a clean tree passes every hook (in-process; the failing run below is real)
        out = cli_in_process(*command[1:], cwd=repo.path)
        assert out.returncode == 0, (command, out.stdout, out.stderr)

    repo.write("src/money.py", "CENTS = 100\nprice = float(amount)\n")
    repo.git("add", "src/money.py")  # the commit being made changes anchored code and breaks the guard
    # each hook as pre-commit runs it: a real process whose exit code stops the commit
    results = {" ".join(c[1:]): run_cli(*c[1:], cwd=repo.path).returncode for c in commands}
    assert results == {"--validate": 0, "--deliver --check": 1, "--drift --check": 1, "--guard --staged": 1,
                       "--guard --staged --changed-lines": 1}
