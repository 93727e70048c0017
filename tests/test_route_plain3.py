"""Route's answer type (issue 14, route-plain3): a question asking for a quantity reaches the line stating one.

Core files of a Cline bank restate the same facts: here the system patterns describe the thumbnail cache
at length (its heading, three mentions) and the tech context states its limit once, with the number.
A question naming the cache alone goes to the system patterns; asking *how much* it may take goes to the
tech context, whose `why` quotes the number line (`memorybank/answertype.py`). The control is the same
question's concepts without the quantity form: the tech context is second there, so each check fails if
the rule is removed. The system patterns' only digits are ordered-list markers and a `## ` heading's,
which state no quantity: its score is the same under both forms. One real CLI process; the rest through
its entry point here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from banks import route_results
from conftest import write_bank

from memorybank import passage
from memorybank.answertype import asks_quantity

CORE = {
    "projectbrief.md": "# Project Brief: snapkeep\n\n## Overview\n\nsnapkeep copies a phone's camera roll to a home "
                       "server every night, with a thumbnail cache on the phone for browsing.\n",
    "productContext.md": "# Product Context: snapkeep\n\n## Background\n\nFamilies lose years of pictures when a "
                         "phone breaks; snapkeep keeps a second copy at home.\n",
    "activeContext.md": "# Active Context: snapkeep\n\n## This week\n\nsnapkeep now hashes every picture before "
                        "it copies it.\n",
    "systemPatterns.md": "# System Patterns: snapkeep\n\n## Thumbnail cache (2 tiers)\n\n1. The thumbnail cache is "
                         "filled lazily when the viewer scrolls.\n2. The thumbnail cache is evicted oldest first "
                         "when the phone runs low on storage.\n\nKeys of the thumbnail cache are content hashes, "
                         "so a renamed picture keeps its thumbnail.\n",
    "techContext.md": "# Technical Context: snapkeep\n\n## Stack\n\nsnapkeep is written in Rust with tokio and "
                      "serde.\n\n### Limits\n\nThe thumbnail cache may take at most 64 MB of the phone's storage.\n",
    "progress.md": "# Progress: snapkeep\n\n## State\n\nCopying over the local network works. Copying over a "
                   "cellular connection is not started.\n",
}
NUMBER_LINE = 'body: L9 "The thumbnail cache may take at…"'  # techContext.md's line 9, as `why` quotes it

# (asks for a quantity, the same concepts asked without the quantity form) in English, Russian, Chinese
PAIRS = [
    ("how much storage may the thumbnail cache take?", "the storage the thumbnail cache may take"),
    ("сколько хранилища может занять кэш миниатюр?", "кэш миниатюр и хранилище"),
    ("缩略图缓存最多占用多少存储空间？", "缩略图缓存会占用存储空间吗？"),
]


def _route(bank: Path, question: str, first: bool = False) -> list[dict]:
    return route_results(bank, question, "--limit", "10", real=first)


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("plain3") / "memory-bank", CORE)


@pytest.fixture
def no_passage(monkeypatch):
    """The controls isolate the number line: their words stand together on the tech context's line too, which
    the passage rule (`memorybank/passage.py`, tested in test_route_passage.py) would reward without a number."""
    monkeypatch.setattr(passage, "LEAST_CONCEPTS", 99)


def test_a_quantity_question_reaches_the_file_stating_the_number_in_every_language(bank, no_passage):
    for number, (asked, control) in enumerate(PAIRS):
        rows = _route(bank, asked, first=number == 0)
        assert rows[0]["path"] == "techContext.md" and rows[0]["score"] > rows[1]["score"], (asked, rows)
        assert NUMBER_LINE in rows[0]["why"], rows[0]
        # the control: the subject alone goes to the page describing the cache at length
        plain = _route(bank, control)
        assert plain[0]["path"] == "systemPatterns.md", (control, plain)


def test_list_markers_and_heading_digits_state_no_quantity(bank, no_passage):
    asked, control = PAIRS[0]  # the same concepts: only the answer type differs
    quantity = {row["path"]: row for row in _route(bank, asked)}
    subject = {row["path"]: row for row in _route(bank, control)}
    assert quantity["systemPatterns.md"]["score"] == subject["systemPatterns.md"]["score"], (quantity, subject)
    assert quantity["systemPatterns.md"]["why"] == subject["systemPatterns.md"]["why"]
    assert quantity["techContext.md"]["score"] > subject["techContext.md"]["score"]


def test_which_questions_ask_for_a_quantity():
    asking = ["How much memory does the cache take?", "how often does the scheduler run", "When is v1 due?",
              "what share of the work is finished?", "which version of Python is needed?",
              "Сколько времени занимает сборка?", "Как часто запускается проверка?", "Когда выйдет релиз?",
              "Какой процент работы выполнен?", "В какой версии появится поддержка?",
              "缓存占用多少内存？", "多久运行一次？", "什么时候发布？", "进度到了百分之几？"]
    other = ["how does the cache get filled?", "what happens when a token fails?", "why Rust?",
             "Что происходит, когда кэш переполнен?", "Как устроен кэш?", "为什么用 Rust？", "几乎所有功能都完成了吗"]
    assert [q for q in asking if not asks_quantity(q)] == []
    assert [q for q in other if asks_quantity(q)] == []
