"""Adversarial run on session 5's landings (attack-cache5): the cache format 5 (packed postings, lazy
routing rows, documents filled a field at a time), the parse shortcuts, and route's rank fusion.

What held is listed in the branch report; each test here is a defect found, failing before its fix.
"""

from __future__ import annotations

import json

import yaml
from conftest import CORPORA, REPO, run_cli

from memorybank.bank import Bank
from memorybank.route import route

MATRIX = CORPORA / "react-native-matrix" / "memory_bank"


def _paths(answer: dict) -> list[str]:
    return [row["path"] for row in answer["results"]]


def test_a_smaller_route_limit_cuts_the_same_ranking_never_reorders_it(monkeypatch):
    """Fusion ranks by reciprocal rank over the candidates, and the candidates came from `limit` (the
    metadata top `limit`, the body's top `3 × limit`): `limit 1` fused fewer rows and put another
    document first (8 of the relevance questions; 6 fewer right first answers than the default limit)."""
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    question = "What does starting the session do if encryption was requested but the crypto package is missing?"
    answers = {limit: json.loads(run_cli("--root", str(MATRIX), "--route", question, "--limit", str(limit),
                                         "--json").stdout) for limit in (1, 5)}
    assert _paths(answers[1]) == _paths(answers[5])[:1], "the CLI's limit 1 put another document first"
    spec = yaml.safe_load((REPO / "benchmarks" / "relevance" / "react-native-matrix.yaml").read_text("utf-8"))
    bank = Bank(MATRIX)
    for item in spec["questions"]:
        full = route(bank, item["q"], limit=5)
        for limit in (1, 2, 3, 4):
            cut = route(bank, item["q"], limit=limit)
            assert cut["results"] == full["results"][:limit], (limit, item["q"])

