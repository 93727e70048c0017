"""The relevance question sets (benchmarks/relevance/) meet the issue's size and mix, and the scorer counts right."""

from __future__ import annotations

import sys
from collections import Counter

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import relevance  # noqa: E402

CORPORA = relevance.find_corpora(REPO)


@pytest.fixture(scope="module")
def sets() -> list[dict]:
    """The question sets, read when a test here runs, not when each worker collects the suite."""
    return relevance.load_sets()


def test_every_corpus_bank_has_a_set_and_together_they_are_big_and_mixed_enough(sets):
    offtopic = relevance.load_offtopic()
    questions = [q for s in sets for q in s["questions"]]
    assert len(questions) >= 150 and len(offtopic) >= 40
    assert {s["kind"] for s in sets} == {"governed", "plain"}
    assert set(Counter(q["lang"] for q in questions)) == set(relevance.LANGS)
    assert set(Counter(q["kind"] for q in questions)) == set(relevance.KINDS)
    assert {p["lang"] for p in offtopic} == set(relevance.LANGS)
    for qset in sets:
        assert {q["lang"] for q in qset["questions"]} == set(relevance.LANGS), qset["bank"]
        for q in qset["questions"]:
            assert q["q"].strip() and q["expect"] and all(isinstance(p, str) for p in q["expect"]), q
    texts = [q["q"] for q in questions] + [p["q"] for p in offtopic]
    assert len(texts) == len(set(texts)), "a question appears twice"


@pytest.mark.skipif(CORPORA is None, reason="shared corpora not present")
def test_every_expected_path_exists_in_its_corpus_and_every_corpus_is_covered(sets):
    banks = {p.relative_to(CORPORA).as_posix() for p in CORPORA.glob("*/memory*") if p.is_dir()}
    assert {s["bank"] for s in sets} == banks
    for qset in sets:
        for q in qset["questions"]:
            for path in q["expect"]:
                assert (CORPORA / qset["bank"] / path).is_file(), (qset["bank"], path)
                assert not path.startswith("_inbox/"), path


def test_rank_counts_distinct_paths_and_the_summary_scores_ranks():
    assert relevance.rank_of(["a", "a", "b", "c"], ["c"]) == 3
    assert relevance.rank_of(["a", "b"], ["x"]) is None
    stats = relevance.summary([1, 2, 4, None])
    assert stats == {"n": 4, "top1": 0.25, "top3": 0.5, "mrr": (1 + 0.5 + 0.25) / 4}


def test_the_scorer_runs_on_a_real_bank_and_reports_prime_absent_cleanly(tmp_path):
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "sync.md").write_text("# Sync\n\nThe client resumes from the stored token after a relaunch.\n")
    (bank / "media.md").write_text("# Media\n\nThumbnails are requested at bubble size.\n")
    qset = {"bank": "bank", "kind": "plain", "questions": [
        {"q": "resumes from the stored token", "lang": "en", "kind": "literal", "expect": ["sync.md"]},
        {"q": "thumbnails", "lang": "en", "kind": "what", "expect": ["nowhere.md"]}]}
    result = relevance.run(tmp_path, [qset], [{"q": "thanks", "lang": "en"}], prime=None)
    assert [r["search"] for r in result["records"]] == [1, None]
    assert result["aggregates"]["search/plain/en"]["top1"] == 0.5
    assert "prime: not available" in relevance.table(result)
