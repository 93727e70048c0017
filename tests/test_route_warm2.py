"""Warm route speed (issue 14, route-warm2): what a warm bank keeps between route calls never outlives an
edit, a rename or a delete — a question concept's field matches and scores (`RouteIndex.concept_hits`),
its merged body evidence (`evidence._concept_evidence`) and the bodies whose best lines were quoted, with
the lines each concept sits on (`evidence._kept_body`). Each step asks the same questions of one warm
bank, several calls in a row, and of a fresh bank over the same folder: the answers (ranks, scores, `why`,
`section`) must be equal, and must show the change."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import doc, write_bank

from memorybank.bank import Bank
from memorybank.route import route
from memorybank.search import SearchIndex

QUESTIONS = ("how are export queues drained?", "очередь экспорта", "ledger rounding rules", "导出队列", "retry backoff")

FILES = {
    "domain/exports.md": doc("Exports", "How reports leave the system.",
                             body="## Queue\n\nExports wait in a queue that a worker drains nightly.\n"),
    "domain/ledger.md": doc("Ledger", "Money records.",
                            body="## Rounding\n\nAmounts round half to even.\n\n## Retries\n\nNo retry here.\n"),
    "engineering/worker.md": doc("Worker", "The background worker.",
                                 body="## Backoff\n\nA failed job is retried with exponential backoff.\n"),
    "engineering/notes.md": doc("Notes", "Loose notes.", body="## Misc\n\nNothing about the queue yet.\n"),
}


def _write(path: Path, text: str) -> None:
    """Rewrite a file so that its stamp surely moves (size and mtime both)."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))


def _answers(bank: Bank) -> list[dict]:
    return [route(bank, q, limit=limit) for q in QUESTIONS for limit in (1, 5)]


def _same_as_fresh(warm: Bank, root: Path) -> list[dict]:
    """The warm bank's answers, asked three times in a row, equal a fresh bank's."""
    first = _answers(warm)
    assert _answers(warm) == first and _answers(warm) == first
    assert first == _answers(Bank(root))
    return first


def _paths(answer: dict) -> list[str]:
    return [row["path"] for row in answer["results"]]


def test_warm_route_memo_follows_edits_renames_and_deletes(tmp_path: Path) -> None:
    root = write_bank(tmp_path / "bank", FILES)
    warm = Bank(root)
    start = _same_as_fresh(warm, root)
    assert SearchIndex.of(warm).concept_evidence, "the warm bank keeps concept evidence between calls"
    assert "domain/exports.md" in _paths(start[0])

    # an edit that gives another document the body evidence (the memo for `queue` must not be reused)
    _write(root / "engineering/notes.md", doc("Notes", "Loose notes.", body=(
        "## Misc\n\nThe export queue is drained by hand when the queue backs up; queue, queue, export.\n")))
    edited = _same_as_fresh(warm, root)
    assert edited != start
    assert "engineering/notes.md" in _paths(edited[1])

    # an edit of a heading only (heading scores are read by slot range: the new slots must count)
    _write(root / "domain/ledger.md", doc("Ledger", "Money records.",
                                          body="## Rounding rules for the ledger\n\nHalf to even.\n"))
    headed = _same_as_fresh(warm, root)
    assert headed[4]["results"][0]["path"] == "domain/ledger.md"
    assert headed[4]["results"][0].get("section") == "Rounding rules for the ledger"

    # a rename: the old path is never answered again, the new one is
    (root / "domain/exports.md").rename(root / "domain/outbound.md")
    renamed = _same_as_fresh(warm, root)
    every = {p for answer in renamed for p in _paths(answer)}
    assert "domain/exports.md" not in every and "domain/outbound.md" in every

    # a delete: gone from every answer
    (root / "engineering/worker.md").unlink()
    deleted = _same_as_fresh(warm, root)
    assert "engineering/worker.md" not in {p for answer in deleted for p in _paths(answer)}
    assert deleted != renamed

    # a new document holding the words again
    _write(root / "ops/backoff.md", doc("Backoff", "How jobs retry.",
                                        body="## Backoff\n\nRetry backoff doubles up to a minute.\n"))
    added = _same_as_fresh(warm, root)
    assert "ops/backoff.md" in _paths(added[9])


def test_warm_memos_are_bounded(tmp_path: Path) -> None:
    """Many distinct questions on one warm bank keep at most the set number of concepts and bodies."""
    from memorybank.evidence import BODIES_KEPT, CONCEPT_CACHE
    from memorybank.route import CONCEPT_HITS, RouteIndex

    many = max(CONCEPT_CACHE, CONCEPT_HITS, BODIES_KEPT) + 8
    root = write_bank(tmp_path / "bank", {f"d/n{i}.md": doc(f"Note {i}", "A note.", body=f"word{i} and queue\n")
                                          for i in range(many)})
    bank = Bank(root)
    for i in range(many):
        answer = route(bank, f"word{i}")
        assert answer["results"][0]["path"] == f"d/n{i}.md"
        assert f'body: L9 "word{i} and queue"' in answer["results"][0]["why"]
    body = SearchIndex.of(bank)
    assert len(body.concept_evidence) <= CONCEPT_CACHE and len(body.bodies) <= BODIES_KEPT
    assert 0 < len(RouteIndex.of(bank)._hits) <= CONCEPT_HITS
