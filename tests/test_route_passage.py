"""Route's passage line (session 8, `memorybank/passage.py`): a document that states the fact says the question's
words together.

In the plain bank below two pages hold the same words of the question: the operations log says them in one
line, the field notes scatter them over four paragraphs, more often (so body BM25 alone ranks the notes
first: the check with the rule switched off shows it). Asked in English, Russian or Chinese, route puts the
log first and `why` quotes its line, through the real CLI and the real MCP server. The controls: a page whose
title names the question, and a page owning a canonical key the question says whole, keep their first place
though another page's line says every word.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, doc, run_cli, write_bank
from mcpkit import Session

from memorybank import passage

TOGETHER = "opslog.md"
SCATTERED = "fieldnotes.md"
LINE = 'body: L9 "When the mirror is unavailable,…"'  # the log's line 9, as `why` quotes it
PLAIN = {  # no frontmatter; titles and headings name none of the question's words
    TOGETHER: "# Operations log\n\n## March\n\nThe team moved office and replaced two laptops; the dashboard got a "
              "dark theme and the printer was fixed.\n\n## April\n\nWhen the mirror is unavailable, the nightly "
              "snapshot upload waits and is retried at the next hour.\n\nA new intern joined the team for the "
              "summer, and the coffee machine was replaced after a long discussion.\n",
    SCATTERED: "# Field notes\n\n## One\n\nThe mirror sits in Frankfurt.\n\n## Two\n\nA snapshot is taken each "
               "night.\n\n## Three\n\nThe upload uses HTTPS.\n\n## Four\n\nUnavailable hosts are logged.\n",
}
QUESTIONS = ["what happens to the snapshot upload when the mirror is unavailable?",
             "что будет со снапшотом, если зеркало недоступно?",
             "镜像不可用时快照上传会怎样？"]


def _route(root: Path, question: str, real: bool = False) -> list[dict]:
    proc = (run_cli if real else cli_in_process)("route", "--root", str(root), question, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("passage") / "memory-bank", PLAIN)


def test_the_page_saying_the_words_together_comes_first_through_the_cli(bank, monkeypatch):
    for number, question in enumerate(QUESTIONS):
        rows = _route(bank, question, real=number == 0)
        assert [row["path"] for row in rows[:2]] == [TOGETHER, SCATTERED], (question, rows)
        if number == 0:
            assert LINE in rows[0]["why"], rows[0]
    monkeypatch.setattr(passage, "LEAST_CONCEPTS", 99)  # the rule off: the notes' more frequent words lead
    assert _route(bank, QUESTIONS[0])[0]["path"] == SCATTERED


def test_the_same_order_through_the_mcp_server(bank):
    session = Session(bank)
    try:
        for question in QUESTIONS:
            rows = session.ok("bank_route", {"question": question})["results"]
            assert rows[0]["path"] == TOGETHER, (question, rows)
        assert LINE in session.ok("bank_route", {"question": QUESTIONS[0]})["results"][0]["why"]
    finally:
        session.close()


def test_a_title_naming_the_question_and_a_key_owner_keep_their_place(tmp_path, monkeypatch):
    """The question names a document: the passage rule adds nothing to any row (the same answer with it off)."""
    titled = write_bank(tmp_path / "titled", {**PLAIN, "mirror.md": "# Snapshot upload to the mirror\n\n## Plan\n\n"
                                              "Nothing decided yet.\n"})
    keyed = write_bank(tmp_path / "keyed", {
        **PLAIN, "ops/outage.md": doc("Outages", "What the service does in an outage.",
                                      canonical_for=["mirror_unavailable"], body="## Rule\n\nWait.\n")})
    asked = [(titled, "snapshot upload to the mirror", "mirror.md", "title"),
             (keyed, "mirror unavailable: what happens to the snapshot upload?", "ops/outage.md",
              "owns canonical_for: mirror_unavailable")]
    for root, question, first, why in asked:
        rows = _route(root, question)
        assert rows[0]["path"] == first and rows[0]["why"].startswith(why), rows
        assert any(row["path"] == TOGETHER for row in rows), rows  # the log's line says every word: it is a candidate
        monkeypatch.setattr(passage, "LEAST_CONCEPTS", 99)
        assert _route(root, question) == rows  # nothing added by the rule
        monkeypatch.undo()
