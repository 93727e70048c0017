"""One definition of a complete rule (issue 17 §1): validate, deliver and guard agree, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli
from gitrepo import Repo

DAY1 = "2026-03-01T10:00:00Z"
DAY2 = "2026-03-02T10:00:00Z"
CONTRACT = """---
title: Frontmatter
doc_kind: dna
status: active
purpose: The fields.
---

# Frontmatter

| status | meaning |
| --- | --- |
| `draft` | being written |
| `active` | in force |
"""
INDEX = "---\ntitle: Bank\ndoc_function: index\npurpose: Index.\n---\n\n# Bank\n\n- [Frontmatter](dna/frontmatter.md)\n"


def rule_doc(**fields: str) -> str:
    lines = ["---", "title: Money", "doc_kind: rule", "status: active", "purpose: Read for money code."]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    return "\n".join(lines + ["---", "", "# Money", ""]) + "\n"


BROKEN = rule_doc(dont="Use float for money.", priority="high",
                  guard='\n  - pattern: "("\n    files: "src/**"\n    severity: fatal')
GOOD = rule_doc(do="Store money as integer cents.", dont="No float amounts.", why="Floats round.",
                scope="python", priority="4")


def project(tmp_path: Path, rule: str) -> Repo:
    repo = Repo(tmp_path / "app")
    repo.write("memory_bank/README.md", INDEX + "- [Money](rules/money.md)\n")
    repo.write("memory_bank/dna/frontmatter.md", CONTRACT)
    repo.write("memory_bank/rules/money.md", rule)
    repo.write("src/pay.py", "total = 1\n")
    return repo


def cli(repo: Repo, *args: str, real: bool = False):
    """The command in the repository: through the CLI's entry point in this process, or a real process
    (`real`: the check that fails a commit; validate's, deliver's and guard's real processes run in
    test_cli, test_deliver and test_guard)."""
    return (run_cli if real else cli_in_process)("--root", "memory_bank", *args, cwd=repo.path)


def test_validate_deliver_and_guard_name_every_flaw_of_an_incomplete_active_rule(tmp_path):
    repo = project(tmp_path, BROKEN)
    repo.commit("base", DAY1)
    checked = cli(repo, "--validate", "--json", "--rule", "incomplete-rule")
    assert checked.returncode == 1
    messages = [f["message"] for f in json.loads(checked.stdout)["findings"]]
    assert len(messages) == 3, messages
    assert any("no `do`" in m for m in messages)
    assert any("`priority` must be a whole number 1–5, not 'high'" in m for m in messages)
    assert any("guard check 1 cannot run: bad regex '('" in m for m in messages)

    delivered = cli(repo, "--deliver")
    assert delivered.returncode == 0
    assert "withheld rules/money.md (rule, incomplete-rule: no `do`; `priority`" in delivered.stdout
    assert "warning: every rule and recipe is withheld (1)" in delivered.stdout

    guarded = cli(repo, "--guard", "src/pay.py", "--json")
    assert guarded.returncode == 1
    bad = json.loads(guarded.stdout)["violations"]
    assert {v["severity"] for v in bad} == {"error"}
    assert any(v["message"].startswith("incomplete-rule: guard check 1 cannot run: bad regex") for v in bad)


def test_a_placeholder_glob_is_a_validate_finding(tmp_path):
    repo = project(tmp_path, rule_doc(do="Store cents.", applies_to='\n  - "<file glob, such as src/**/*.py>"'))
    out = cli(repo, "--validate", "--json")
    assert out.returncode == 1
    found = [f for f in json.loads(out.stdout)["findings"] if f["rule"] == "incomplete-rule"]
    assert [f["line"] for f in found] == [7] and "placeholder left in `applies_to`" in found[0]["message"]


def test_create_a_rule_with_only_do_leaves_no_placeholder_value_and_keeps_the_guard_example(tmp_path):
    repo = project(tmp_path, GOOD)
    before = (repo.path / "memory_bank/README.md").read_bytes()
    out = cli(repo, "--create", "rules/cents.md", "--kind", "rule", "--title", "Cents", "--purpose",
              "Read for amounts.", "--set", "do=Store money as integer cents.", "--status", "active")
    assert out.returncode == 0, out.stderr
    text = (repo.path / "memory_bank/rules/cents.md").read_text(encoding="utf-8")
    frontmatter = text.split("---\n")[1]
    live = [line for line in frontmatter.splitlines() if not line.startswith("#")]
    assert not any("<" in line for line in live), live
    assert "# dont: <the mistake this rule prevents>" in frontmatter
    assert "# guard:" in frontmatter and '#   - pattern: "<regular expression' in frontmatter
    assert (repo.path / "memory_bank/README.md").read_bytes() != before  # registered
    delivered = cli(repo, "--deliver", "--json")
    assert "rules/cents.md" not in {w["path"] for w in json.loads(delivered.stdout)["withheld"]}
    assert "Store money as integer cents." in (repo.path / "AGENTS.md").read_text(encoding="utf-8")


def test_create_refuses_an_undeclared_status_and_writes_nothing(tmp_path):
    repo = project(tmp_path, GOOD)
    def files():
        return {p: p.read_bytes() for p in (repo.path / "memory_bank").rglob("*.md")}

    before = files()
    out = cli(repo, "--create", "rules/x.md", "--kind", "rule", "--title", "X", "--purpose", "P.",
              "--set", "do=Do it.", "--status", "actv")
    assert out.returncode == 2 and "`actv` is not a declared status" in out.stderr and "active" in out.stderr
    assert files() == before


def test_create_refuses_an_active_rule_without_do(tmp_path):
    repo = project(tmp_path, GOOD)
    out = cli(repo, "--create", "rules/x.md", "--kind", "rule", "--title", "X", "--purpose", "P.",
              "--status", "active")
    assert out.returncode == 1 and "not complete (no `do`)" in out.stderr and "draft" in out.stderr
    assert not (repo.path / "memory_bank/rules/x.md").exists()


@pytest.mark.parametrize("dont, shown", [
    ("No untested code.", "Do NOT untested code."),
    ("Never log secrets.", "Do NOT log secrets."),
    ("Не используйте float для денег.", "Do NOT используйте float для денег."),
    ("Никогда не коммитьте секреты.", "Do NOT коммитьте секреты."),
    ("不要使用浮点数。", "Do NOT 使用浮点数。"),
])
def test_the_channel_line_never_doubles_a_negation(tmp_path, dont, shown):
    repo = project(tmp_path, rule_doc(do="Store cents.", dont=json.dumps(dont, ensure_ascii=False)))
    assert cli(repo, "--deliver").returncode == 0
    agents = (repo.path / "AGENTS.md").read_text(encoding="utf-8")
    assert f"- Store cents. {shown}" in agents, agents


def test_check_fails_on_the_commit_that_makes_a_delivered_rule_withheld(tmp_path):
    repo = project(tmp_path, GOOD)
    assert cli(repo, "--deliver").returncode == 0
    repo.commit("deliver", DAY1)
    assert cli(repo, "--deliver", "--check").returncode == 0
    repo.write("memory_bank/rules/money.md", GOOD.replace("do: Store money as integer cents.\n", ""))
    assert cli(repo, "--deliver").returncode == 0  # a delivery drops the rule from the files …
    checked = cli(repo, "--deliver", "--check", real=True)  # … and the check on this commit says so
    assert checked.returncode == 1
    assert "now withheld, delivered at HEAD: rules/money.md" in checked.stdout
    repo.write("memory_bank/rules/money.md", GOOD.replace("status: active", "status: draft"))
    cli(repo, "--deliver")
    assert cli(repo, "--deliver", "--check").returncode == 0  # retired on purpose: not a regression
