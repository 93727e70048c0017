"""Route, session 6 (route-gov3): a larger `limit` extends one ranking.

- Fusion ranks the candidates it is given, and they were drawn for the asked `limit` (the metadata top
  `n`, the body's top `3n`), so `--limit 10` could put another document third than `--limit 5` did (100
  of 1,272 limit pairs over the relevance questions). The draws are now fixed steps (`route.DRAWS`):
  each step's order places its own share of the results, so every limit cuts the same ranking.
Driven through the real CLI on temp banks and corpus copies; the many-question property in process.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import CORPORA, REPO, cli_in_process, doc, run_cli, write_bank

from memorybank.bank import Bank
from memorybank.route import MAX_LIMIT, route

MATRIX = CORPORA / "react-native-matrix" / "memory_bank"


def _paths(done) -> list[str]:
    assert done.returncode == 0, done.stderr
    return [row["path"] for row in json.loads(done.stdout)["results"]]


@pytest.fixture(scope="module")
def corpus_copies(tmp_path_factory) -> dict[str, Path]:
    """The two governed corpus banks and one plain one, copied (the corpora are read-only input)."""
    into = tmp_path_factory.mktemp("corpora")
    banks = {"react-native-matrix": "memory_bank", "ebook_parser": "memory_bank",
             "cline-31103-MedFeeBot": "memory-bank"}
    copies = {}
    for name, inner in banks.items():
        source = CORPORA / name / inner
        if not source.is_dir():  # the corpus keeps its bank under another folder name
            source = next(p for p in sorted((CORPORA / name).glob("memory*")) if p.is_dir())
        copies[name] = shutil.copytree(source, into / name / source.name)
    return copies


def _rows(answer: dict) -> list[tuple[str, float]]:
    return [(row["path"], row["score"]) for row in answer["results"]]


def test_a_larger_limit_through_the_cli_extends_the_same_ranking(corpus_copies, monkeypatch):
    """Before the fixed draws, `--limit 10` put backlog.md third where `--limit 5` put ops/release.md."""
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    root = str(corpus_copies["react-native-matrix"])
    question = "why did a second open chat screen stop getting updates in the old version"
    five = _paths(run_cli("--root", root, "--route", question, "--limit", "5", "--json"))
    assert len(five) == 5
    for limit in (3, 6, 10, MAX_LIMIT):
        longer = _paths(cli_in_process("--root", root, "--route", question, "--limit", str(limit), "--json"))
        shared = min(limit, 5)
        assert longer[:shared] == five[:shared], (limit, longer, five)


def _limits_cut_one_ranking(copies: dict[str, Path], limits: tuple[int, ...], every: int) -> int:
    """For every `every`-th relevance question of each bank (with a layer filter on every third of those):
    the answer at each of `limits` is the first `limit` rows (path and score) of the answer at the last.
    (A row's text may be clipped shorter in a longer answer: the token budget, `routefit`.)"""
    checked = 0
    for name, root in copies.items():
        spec = yaml.safe_load((REPO / "benchmarks" / "relevance" / f"{name}.yaml").read_text("utf-8"))
        bank = Bank(root)
        for number, item in enumerate(spec["questions"][::every]):
            filters = {"layer": "knowledge"} if number % 3 == 2 else {}
            full = _rows(route(bank, item["q"], limit=limits[-1], **filters))
            for limit in limits[:-1]:
                assert _rows(route(bank, item["q"], limit=limit, **filters)) == full[:limit], (name, item["q"], limit)
                checked += 1
    return checked


def test_every_limit_cuts_one_ranking_over_many_questions(corpus_copies):
    """The first two steps of the draws and their neighbours (5 | 6, 10 | 11) over a quarter of the relevance
    questions of two governed banks and a plain one, in three languages (before: 100 of 1,272 limit pairs
    over the relevance sets reordered the first five). A limit of 25 on ebook_parser costs ~90 ms a call
    (25 body lines quoted from long pages): every limit up to it is the slow variant's."""
    assert _limits_cut_one_ranking(corpus_copies, (1, 5, 6, 10, 11), every=4) > 100


@pytest.mark.slow
def test_every_limit_cuts_one_ranking_over_every_question(corpus_copies):
    assert _limits_cut_one_ranking(corpus_copies, tuple(range(1, MAX_LIMIT + 1)), every=1) > 2500


HARBOR = {
    # its title and purpose say one word of the question (harbor); its prose says little of it
    "ops/harbor.md": doc("Harbor operations", "How the harbor is run, shift by shift.",
                         body="## Shifts\n\nThree shifts a day keep the harbor open. A crane is booked per ship.\n"),
    # its prose says the whole question; its metadata none of it
    "engineering/winches.md": doc("Winch notes", "Notes kept by the mechanics.",
                                  body="## Cold mornings\n\nThe crane jams in heavy fog: the harbor winch brakes "
                                       "ice up and the crane jams until the fog lifts. Heavy fog means the crane "
                                       "jams.\n"),
    # its prose says part of it
    "engineering/sensors.md": doc("Quay notes", "Readings from the quay.",
                                  body="## Readings\n\nHeavy fog blinds the quay sensors; the crane waits.\n"),
    **{f"admin/a{number}.md": doc(topic.title(), f"Rules for {topic}.",
                                  body=f"## Rules\n\nThe {topic} rules live here.\n")
       for number, topic in enumerate(("invoices", "payroll", "badges", "lunch menu", "parking", "printers"))},
}
HELD = "why does the crane jam in heavy harbor fog"  # every word is in some body


def test_a_plain_bank_still_ranks_by_its_score(tmp_path):
    """No document declares metadata (titles from H1, no purpose): no prose vote at any limit (each draw
    is ordered on its own); the H1 titles are all the metadata there is and the score already holds the prose."""
    plain = {path: text.split("---\n", 2)[2] for path, text in HARBOR.items()}
    root = str(write_bank(tmp_path / "bank", plain))
    done = cli_in_process("--root", root, "--route", HELD, "--limit", "10", "--json")
    assert done.returncode == 0, done.stderr
    scores = [row["score"] for row in json.loads(done.stdout)["results"]]
    assert len(scores) >= 3 and scores == sorted(scores, reverse=True), scores
