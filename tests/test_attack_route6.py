"""Adversarial run on session 6's routing landings (attack-route6): the answer type, the title rule, the draws.

Each test names what a hostile user or an odd bank did and what held it wrong before the fix.
Driven through the real CLI (one process, then the variants in process).
"""

from __future__ import annotations

import json

import pytest
from conftest import cli_in_process, doc, run_cli, write_bank

from memorybank import passage
from memorybank.answertype import asks_quantity

CACHE_BANK = {
    "ops/cache.md": doc("Build cache", "Where build outputs are kept between runs.",
                        body="## Clearing\n\nThe build cache is cleared after 3 failed builds in a row.\n"),
    "ops/ci.md": doc("Continuous integration", "How CI runs the build.",
                     body="## Failures\n\nWhen the build fails, the cache is kept and the log is attached.\n"),
    "ops/other.md": doc("Deploys", "How releases ship.", body="## Steps\n\nA release ships after the build passes.\n"),
}


@pytest.fixture(scope="module")
def cache_bank(tmp_path_factory) -> str:
    return str(write_bank(tmp_path_factory.mktemp("attack6") / "bank", CACHE_BANK))


def _answer(root: str, question: str, *extra: str, first: bool = False) -> list[dict]:
    run = run_cli if first else cli_in_process
    done = run("--root", root, "--route", question, "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["results"]


def test_a_leading_when_clause_is_a_condition_not_a_quantity_question(cache_bank):
    """"When the build fails, what happens…" asks what happens; "when you get a chance, clear…" asks for
    nothing. Before: a question opening with when/когда was read as asking for a date, so the page with a
    digit beside the words gained 5 × its number line (9.646 against 7.093 for the same question with "if")."""
    pairs = [("when the build fails, what happens to the cache", "if the build fails, what happens to the cache"),
             ("When you get a chance, clear the build cache", "If you get a chance, clear the build cache"),
             ("Когда сборка падает, что происходит с кэшем?", "Если сборка падает, что происходит с кэшем?")]
    for number, (asked, control) in enumerate(pairs):
        assert _answer(cache_bank, asked, first=number == 0) == _answer(cache_bank, control), asked
    # still a date question: a when-question with no condition before its main clause
    dated = _answer(cache_bank, "when is the build cache cleared")
    assert dated[0]["path"] == "ops/cache.md" and '"The build cache is cleared' in dated[0]["why"], dated


def test_words_holding_a_quantity_word_are_no_quantity_questions():
    """几 asks "how many" (几个, 几天); inside 几何 (geometry) and 几乎 (almost) it does not. Russian
    когда-нибудь / сколько-нибудь / сколько-то are indefinite ("some day", "any amount"), not questions."""
    assert not [q for q in ("几何图形怎么渲染？", "几乎所有页面都缓存了吗", "Когда-нибудь поправь логин",
                            "есть ли сколько-нибудь тестов на кэш", "сколько-то раз падало, почему?")
                if asks_quantity(q)]
    assert all(asks_quantity(q) for q in ("缓存保留几天？", "重试几次？", "when is v2 due", "Когда выйдет релиз?"))


def _patterns(heading: str) -> dict[str, str]:
    """A Cline-layout bank whose system patterns number their `### ` headings, as corpus banks do."""
    return {"systemPatterns.md": f"# System Patterns\n\n## Patterns\n\n### {heading}\n\n"
                                 "Every fetch goes through one retry wrapper with backoff.\n",
            "techContext.md": "# Tech Context\n\n## Stack\n\nPython and httpx. Each fetch has its own timeout.\n",
            "progress.md": "# Progress\n\n## Done\n\nThe retry wrapper landed.\n"}


def test_a_numbered_heading_states_no_quantity(tmp_path):
    """`### 4. Error handling and retry logic` numbers a heading; it says nothing about how many retries.
    Before: the outline number made it the page's number line (`why` quoted `4. Error handling…` and the row
    gained 5 × its weight); only `# `/`## ` lines and list markers were set aside."""
    question = "how many retries does a fetch get"
    answers = []
    headings = {"numbered": "4. Error handling and retry logic", "dotted": "2.1 Error handling and retry logic",
                "plain": "Error handling and retry logic"}
    for name, heading in headings.items():
        root = str(write_bank(tmp_path / name, _patterns(heading)))
        answers.append(_answer(root, question))
    # the outline number is one more body token (BM25's length moves a score by < 0.01); a number line adds ~0.7
    plain = {row["path"]: row["score"] for row in answers[2]}
    for rows in answers[:2]:
        assert [row["path"] for row in rows] == list(plain), answers
        assert all(abs(row["score"] - plain[row["path"]]) < 0.05 for row in rows), answers
    assert not any('"4.' in row["why"] or '"2.1' in row["why"] for rows in answers for row in rows), answers


IDENTIFIED = {  # a Cline-layout bank whose pages name identifiers (ADR-003, e2ee) beside a quantity's words
    "systemPatterns.md": "# System Patterns\n\n## Crypto\n\n"
                         "The e2ee backend loads lazily, as ADR-003 and FT-001 decided.\n",
    "techContext.md": "# Tech Context\n\n## Stack\n\nThe crypto backend loads in 2 s on a cold phone.\n",
    "progress.md": "# Progress\n\n## Done\n\nThe crypto backend ships.\n",
}


def test_digits_inside_identifiers_state_no_quantity(tmp_path, monkeypatch):
    """"When does the e2ee backend load" asks for a time; `ADR-003`, `FT-001` and `e2ee` hold
    digits but state none. Before: any digit made a number line, so the identifier line gained 5 × its weight
    and `why` quoted it as the answer. A number stands on its own (`2 s`, `64 MB`, `2026-08-02`, `v2`, CJK's
    `占用64MB`)."""
    root = str(write_bank(tmp_path / "bank", IDENTIFIED))
    # the control isolates the number line: its words stand together on one line (passage.py would reward it)
    monkeypatch.setattr(passage, "LEAST_CONCEPTS", 99)
    asked = {row["path"]: row for row in _answer(root, "when does the e2ee backend load", first=True)}
    subject = {row["path"]: row for row in _answer(root, "does the e2ee backend load")}
    assert asked["systemPatterns.md"]["score"] == subject["systemPatterns.md"]["score"], (asked, subject)
    assert asked["techContext.md"]["score"] > subject["techContext.md"]["score"], (asked, subject)
