"""The real `mcp-memorybank` command for --graph, --drift and --changed (text, formats and --json)."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURE, cli_in_process, doc, run_cli
from gitrepo import Repo
from test_graph import parse_mermaid

from memorybank.bank import Bank
from memorybank.graph import graph


def test_graph_json_is_exactly_the_capability_dict():
    proc = run_cli("--root", str(FIXTURE), "--graph", "engineering/shared-contracts.md", "--direction", "up",
                   "--depth", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    expected = graph(Bank(FIXTURE), "engineering/shared-contracts.md", direction="up", depth=3)
    assert json.loads(proc.stdout) == expected
    assert proc.stdout.count("\n") == 1


def test_graph_formats():
    args = ("--root", str(FIXTURE), "--graph", "engineering/architecture.md", "--direction", "both")
    text = cli_in_process(*args)  # the graph's real process: the JSON face above
    assert text.returncode == 0 and text.stdout.startswith("engineering/architecture.md  (both, depth 2")
    mermaid = cli_in_process(*args, "--format", "mermaid")
    nodes, edges = parse_mermaid(mermaid.stdout)
    assert any(label.endswith("<br/>domain/billing.md") for label in nodes.values())
    assert any(fit == "the billing run only" for _, _, fit, _ in edges)
    dot = cli_in_process(*args, "--format", "dot", "--limit", "3")
    assert dot.stdout.startswith("digraph bank_graph {") and dot.stdout.rstrip().endswith("}")
    assert sum(1 for line in dot.stdout.splitlines() if line.startswith("  \"") and " -> " not in line) == 3


def test_graph_refusals_and_usage_errors():
    proc = cli_in_process("--root", str(FIXTURE), "--graph", "nowhere.md")
    assert proc.returncode == 1 and "No document at nowhere.md" in proc.stderr and proc.stdout == ""
    proc = cli_in_process("--root", str(FIXTURE), "--graph", "README.md", "--depth", "9")
    assert proc.returncode == 2 and "--depth" in proc.stderr


@pytest.fixture
def repo(tmp_path) -> Repo:
    r = Repo(tmp_path / "repo")
    r.write("memory_bank/domain/billing.md", doc("Billing", anchors=["src/billing/"]))
    r.write("memory_bank/domain/users.md", doc("Users", anchors=["src/users.py"]))
    r.write("src/billing/tax.py", "RATE = 1\n")
    r.write("src/users.py", "U = 1\n")
    r.commit("one", "2026-01-10T12:00:00Z")
    r.write("src/billing/tax.py", "RATE = 2\n")
    r.commit("two", "2026-07-10T12:00:00Z")
    return r


def test_drift_text_and_json(repo):
    bank = str(repo.path / "memory_bank")
    proc = run_cli("--root", bank, "--drift")
    assert proc.returncode == 0, proc.stderr
    assert "domain/billing.md" in proc.stdout and "181 days ahead" in proc.stdout
    data = json.loads(cli_in_process("--root", bank, "--drift", "--json").stdout)
    assert data["mode"] == "git" and [d["path"] for d in data["drifted"]] == ["domain/billing.md"]
    assert data["threshold_days"] == 90
    scoped = json.loads(cli_in_process("--root", bank, "--drift", "--scope", "domain", "--threshold-days", "365",
                                       "--json").stdout)
    assert scoped["anchored"] == 2 and scoped["drifted"] == [] and scoped["threshold_days"] == 365


def test_drift_changed_since_lists_documents_to_review(repo):
    bank = str(repo.path / "memory_bank")
    repo.write("src/users.py", "U = 2\n")
    data = json.loads(cli_in_process("--root", bank, "--drift", "--changed-since", "HEAD", "--json").stdout)
    assert data["files"] == ["src/users.py"]
    assert [d["path"] for d in data["documents"]] == ["domain/users.md"]
    bad = cli_in_process("--root", bank, "--drift", "--changed-since", "no-such-ref")
    assert bad.returncode == 1 and "Unknown git ref: no-such-ref" in bad.stderr


def test_drift_outside_git_says_why(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "a.md").write_text(doc("A"))
    proc = cli_in_process("--root", str(tmp_path / "b"), "--drift")
    assert proc.returncode == 0 and "drift (none)" in proc.stdout and "anchors:" in proc.stdout


def test_changed_text_and_json(repo):
    bank = str(repo.path / "memory_bank")
    repo.write("memory_bank/domain/new.md", doc("New"))
    proc = run_cli("--root", bank, "--changed", "HEAD")
    assert proc.returncode == 0 and "added" in proc.stdout and "domain/new.md" in proc.stdout
    data = json.loads(cli_in_process("--root", bank, "--changed", "HEAD", "--json").stdout)
    assert data == {"since": "HEAD", "mode": "git", "changes": [
        {"path": "domain/new.md", "change_kind": "added", "title": "New", "doc_kind": None, "layer": "knowledge",
         "status": "active"}]}
    bad = cli_in_process("--root", bank, "--changed", "no-such-ref")
    assert bad.returncode == 1 and "Unknown git ref: no-such-ref" in bad.stderr
