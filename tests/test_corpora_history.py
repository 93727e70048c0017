"""Every real-world corpus, copied into a temporary git repository: graph, drift and changed never crash."""

from __future__ import annotations

import shutil

import pytest
from conftest import CORPORA
from gitrepo import Repo
from test_graph import parse_mermaid

from memorybank.bank import Bank
from memorybank.changed import changed
from memorybank.drift import drift
from memorybank.graph import graph
from memorybank.render import graph_dot as render_dot
from memorybank.render import graph_mermaid as render_mermaid
from memorybank.render import graph_text as render_text

BANKS = sorted(p for p in CORPORA.glob("*/memory*") if p.is_dir()) if CORPORA.is_dir() else []


@pytest.mark.skipif(not BANKS, reason="shared corpora not present")
@pytest.mark.parametrize("source", BANKS, ids=lambda p: p.parent.name)
def test_corpus_graph_drift_and_changed(source, tmp_path):
    repo = Repo(tmp_path / "repo")
    shutil.copytree(source, repo.path / source.name)
    repo.commit("import the bank", "2026-01-10T12:00:00Z")
    bank = Bank(repo.path / source.name)
    bank.refresh()
    assert bank.paths

    for path in bank.paths:
        for direction in ("up", "down", "both"):
            result = graph(bank, path, direction=direction, depth=6)
            assert result["nodes"][0]["path"] == path
            assert len({n["path"] for n in result["nodes"]}) == len(result["nodes"])
            assert len(result["neighbours"]) <= 25
        nodes, _ = parse_mermaid(render_mermaid(result))
        assert len(nodes) >= len(result["nodes"])
        assert render_dot(result).startswith("digraph") and path in render_text(result)

    result = drift(bank)
    assert result["mode"] == "none" and "anchors:" in result["note"]  # no corpus declares anchors
    assert result["anchored"] == 0 and result["unanchored"] > 0
    assert drift(bank, files=["src/index.ts"])["documents"] == []

    first = bank.paths[0]
    repo.git("mv", f"{source.name}/{first}", f"{source.name}/{first[:-3]}-moved.md")
    (repo.path / source.name / bank.paths[-1]).write_text("# rewritten\n", encoding="utf-8")
    result = changed(bank, "HEAD")
    kinds = {c["path"]: (c["change_kind"], c.get("from")) for c in result["changes"]}
    assert kinds[f"{first[:-3]}-moved.md"] == ("renamed", first)
    assert kinds[bank.paths[-1]][0] == "modified"
    assert "root commit" in changed(bank, "HEAD~20")["note"]
    dated = changed(bank, "2000-01-01")  # before the first commit: history says everything is new
    assert dated["mode"] == "git" and {c["change_kind"] for c in dated["changes"]} <= {"added", "renamed"}
