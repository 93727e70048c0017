"""Warm route speed (issue 14, route-warm3): what a warm bank now keeps per question never outlives an edit,
a rename, a delete or a vocabulary change — a question's body evidence and its strongest documents
(`RouteIndex.question_evidence`) and a question's routing and search concepts (`Lexicon.concepts`,
`Lexicon.search_concepts`). Each step asks the same questions of one warm bank, several times in a row,
and of a fresh bank over the same folder: the answers (ranks, scores, `why`, `section`) must be equal,
and must show the change."""

from __future__ import annotations

from pathlib import Path

from conftest import doc, write_bank
from test_route_warm2 import FILES as WARM2_FILES
from test_route_warm2 import _write

from memorybank.bank import Bank
from memorybank.lang import lexicon_for
from memorybank.route import EVIDENCE_KEPT, RouteIndex, route

QUESTIONS = ("how are export queues drained?", "очередь экспорта", "гиперкубы", "导出队列", "retry backoff")

FILES = {**WARM2_FILES,
    "engineering/cube.md": doc("Hypercube layout", "How the shards are arranged."),
    "dna/principles.md": doc("Principles", "Root."),
}


def _answers(bank: Bank) -> list[dict]:
    """Every question at limit 5, the first also at limit 1: within `EVIDENCE_KEPT`, so the second and
    third rounds are answered from the kept evidence."""
    asked = [(q, 5) for q in QUESTIONS] + [(QUESTIONS[0], 1)]
    assert len(asked) <= EVIDENCE_KEPT
    return [route(bank, q, limit=limit) for q, limit in asked]


def _same_as_fresh(warm: Bank, root: Path) -> list[dict]:
    """The warm bank's answers, asked three times in a row (the second and third from its memos), equal a
    fresh bank's."""
    first = _answers(warm)
    assert _answers(warm) == first and _answers(warm) == first
    assert first == _answers(Bank(root))
    return first


def _paths(answers: list[dict]) -> set[str]:
    return {row["path"] for answer in answers for row in answer["results"]}


def test_question_memos_follow_edits_renames_deletes_and_vocabulary(tmp_path: Path) -> None:
    root = write_bank(tmp_path / "bank", FILES)
    warm = Bank(root)
    start = _same_as_fresh(warm, root)
    # each question's body evidence is kept once: limit 1 draws the candidates of limit 5 (attack-cache5)
    assert len(RouteIndex.of(warm)._evidence) == len(QUESTIONS), "the warm bank keeps each question's body evidence"
    assert start[0]["results"][0]["path"] == "domain/exports.md"
    assert start[2]["results"] == []  # `гиперкуб` is no word of this bank's vocabulary yet

    # a body edit that moves the evidence to another document: the kept evidence must not answer
    _write(root / "engineering/notes.md", doc("Notes", "Loose notes.", body=(
        "## Misc\n\nThe export queue is drained by hand when the queue backs up; queue, queue, export.\n")))
    edited = _same_as_fresh(warm, root)
    assert edited != start
    assert "engineering/notes.md" in {row["path"] for row in edited[0]["results"]}

    # a rename: the old path is never answered again, the new one is
    (root / "domain/exports.md").rename(root / "domain/outbound.md")
    renamed = _same_as_fresh(warm, root)
    assert "domain/exports.md" not in _paths(renamed) and "domain/outbound.md" in _paths(renamed)

    # a delete: gone from every answer
    (root / "engineering/worker.md").unlink()
    deleted = _same_as_fresh(warm, root)
    assert "engineering/worker.md" not in _paths(deleted) and deleted != renamed

    # a vocabulary row: the same question text gets new concepts (a new lexicon), so new evidence
    before = lexicon_for(warm)
    _write(root / "dna/vocabulary.md", "| гиперкуб | hypercube |\n")
    worded = _same_as_fresh(warm, root)
    assert lexicon_for(warm) is not before
    assert worded[2]["results"][0]["path"] == "engineering/cube.md"


def test_question_memos_are_bounded_and_hand_out_their_own_lists(tmp_path: Path) -> None:
    """Many distinct questions keep at most `EVIDENCE_KEPT` evidence entries and `QUESTIONS_KEPT` concept
    lists; a caller changing the list it got does not change the next caller's."""
    from memorybank.lang.lexicon import QUESTIONS_KEPT

    many = max(EVIDENCE_KEPT, QUESTIONS_KEPT) + 4
    root = write_bank(tmp_path / "bank", {f"d/n{i}.md": doc(f"Note {i}", "A note.", body=f"word{i} and queue\n")
                                          for i in range(many)})
    bank = Bank(root)
    for i in range(many):
        assert route(bank, f"word{i}")["results"][0]["path"] == f"d/n{i}.md"
    assert 0 < len(RouteIndex.of(bank)._evidence) <= EVIDENCE_KEPT
    lexicon = lexicon_for(bank)
    assert 0 < len(lexicon._concepts) <= QUESTIONS_KEPT and 0 < len(lexicon._search_concepts) <= QUESTIONS_KEPT
    for ask in (lexicon.concepts, lexicon.search_concepts):
        first = ask("queue word3")
        first.clear()
        assert ask("queue word3") and ask("queue word3") is not ask("queue word3")
    assert route(bank, "word3")["results"][0]["path"] == "d/n3.md"


def test_evidence_over_many_documents_is_not_kept(tmp_path: Path, monkeypatch) -> None:
    """Evidence held by more documents than `EVIDENCE_ENTRIES` is computed per call, never kept (memory)."""
    import memorybank.route as route_module

    monkeypatch.setattr(route_module, "EVIDENCE_ENTRIES", 2)
    root = write_bank(tmp_path / "bank", {f"d/n{i}.md": doc(f"Note {i}", "A note.", body="the queue drains\n")
                                          for i in range(4)})
    bank = Bank(root)
    first = route(bank, "queue drains")
    assert RouteIndex.of(bank)._evidence == {}
    assert route(bank, "queue drains") == first == route(Bank(root), "queue drains")
