"""Cold path, second round (issue 15): the compact index layouts answer exactly as the sets and dicts they
replace, and a cache restored with them answers as a fresh build, in process and through real processes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from banks import linked_docs
from conftest import cli_in_process, run_cli

from memorybank import cache
from memorybank.bank import Bank, bank_for
from memorybank.records import Edge, Link, RuleRef, Section
from memorybank.route import RouteIndex, Slots, route
from memorybank.search import NO_TERMS, SearchIndex, TermSet, search, term_set

QUESTIONS = ("filter thresholds", "queue export", "zz", "ledger")
QUERIES = ("zz", "filter threshold", "queue", "ledger rounding")


def _bank(root: Path) -> Path:
    """Documents sharing words, one with a term over 65,535 times (its counts widen past 'H'), links,
    rule references and edges (the nested records the cache restores)."""
    linked_docs(root, 12, lambda near: f"The {near[1]} as defined in `ops/doc-00.md`; see [zero](../ops/doc-00.md).",
                lambda i, near: f"zz {' '.join(near)}.")
    (root / "ops" / "many.md").write_text("---\ntitle: Many\n---\n# Many\n\n" + "zz " * 70_000 + "\n",
                                         encoding="utf-8")
    return root


def test_slots_behave_as_the_sets_they_replace():
    rng = random.Random(15)
    for _ in range(200):
        slots, mirror = Slots(), set()
        for _ in range(rng.randrange(40)):
            value = rng.randrange(1 << 20) if rng.random() < 0.3 else len(mirror) * 7
            if rng.random() < 0.75:
                slots.add(value)
                mirror.add(value)
            else:
                slots.discard(value)
                mirror.discard(value)
            assert list(slots) == sorted(mirror) and bool(slots) == bool(mirror)
        probe = rng.randrange(1 << 20)
        assert (probe in slots) == (probe in mirror) and all(v in slots for v in mirror)
        other = {rng.randrange(50) for _ in range(5)}
        assert slots | other == mirror | other == other | slots and slots | Slots(sorted(other)) == mirror | other


def test_term_sets_behave_as_frozensets():
    title, purpose = term_set(["b", "a", "b"]), term_set([])
    assert isinstance(title, TermSet) and title == ("a", "b") and purpose is NO_TERMS
    assert title | purpose | term_set(["c"]) == {"a", "b", "c"} == {"c"} | title
    assert "a" in title and "c" not in title and not purpose


def _answers(bank: Bank) -> list[dict]:
    return [route(bank, q, limit=8) for q in QUESTIONS] + [search(bank, q, limit=8) for q in QUERIES]


def test_a_restored_compact_index_answers_as_a_fresh_build(tmp_path, _private_cache_dir):
    root = _bank(tmp_path / "bank")
    fresh = Bank(root)
    expected = _answers(fresh)
    postings = SearchIndex.of(fresh).postings
    assert postings["zz"][1].typecode == "i" and postings["filter"][1].typecode == "H"  # widened only there
    cached = bank_for(root)
    assert _answers(cached) == expected
    assert cache.save(cached)
    again = Bank(root)
    assert cache.load(again)
    assert _answers(again) == expected
    assert again.parse_count == 0 and RouteIndex.of(again).derived == 0 and SearchIndex.of(again).derived == 0
    for path, doc in fresh.docs.items():  # the nested records come back as the same named tuples
        back = again.docs[path]
        for name, kind in (("sections", Section), ("derived_from", Edge), ("links", Link), ("rule_refs", RuleRef)):
            assert getattr(back, name) == getattr(doc, name), (path, name)
            assert all(type(item) is kind for item in getattr(back, name)), (path, name)
    assert any(doc.links and doc.rule_refs and doc.derived_from for doc in again.docs.values())


def test_the_cli_answers_alike_with_the_cache_cold_warm_and_off(tmp_path, _private_cache_dir):
    """The CLI cold (writes the cache) and off through its entry point here, warm through real processes
    (a fresh interpreter restores what another process wrote)."""
    root = _bank(tmp_path / "bank")
    calls = [("--route", q) for q in QUESTIONS[:2]] + [("--search", q) for q in QUERIES[:2]]
    outputs = {}
    for label, env, cli in (("cold", {}, cli_in_process), ("warm", {}, run_cli),
                            ("off", {"MEMORYBANK_CACHE": "off"}, cli_in_process)):
        outputs[label] = [cli("--root", str(root), *call, "--json", env=env).stdout for call in calls]
    assert outputs["cold"] == outputs["warm"] == outputs["off"]
    assert json.loads(outputs["warm"][2])["results"][0]["path"] == "ops/many.md"


def test_a_compacted_index_answers_as_a_fresh_build(tmp_path, monkeypatch):
    """After edits the replaced documents' postings and heading counts are dropped by `_compact`
    (run here directly: on its own it waits for 50,000 dead postings); the answers do not move."""
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    root = _bank(tmp_path / "bank")
    warm = Bank(root)
    _answers(warm)
    for i in range(0, 12, 3):
        doc = root / ("domain" if i % 2 else "ops") / f"doc-{i:02}.md"
        doc.write_text(doc.read_text(encoding="utf-8").replace("## Zz", "## Zz ledger"), encoding="utf-8")
    (root / "domain" / "doc-01.md").unlink()
    expected = _answers(Bank(root))
    assert _answers(warm) == expected
    index = SearchIndex.of(warm)
    assert index.dead_postings
    index._compact()
    assert index.dead_postings == 0 and _answers(warm) == expected
    assert all(len(found) and all(index.paths[i] is not None for i, _ in found.items())
               for found in index.headings.values())
