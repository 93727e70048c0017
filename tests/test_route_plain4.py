"""Route's answer types beyond quantity (issue 14, route-plain4): where, done yet, by default, what share.

The Cline bank below restates its facts across files, as such banks do: the active context talks at
length about the tile pruning code, resumable downloads and crews; the answers are one line each
elsewhere — a tree drawing in the system patterns (`prune.rs  # tile pruning`), a status line in the
progress file (`⬜ Resumable downloads…`), a `Default mirror:` line in the tech context and an
`Overall about 60% done.` line in progress. Asked *where*, *built yet*, *by default* or *what share*,
route reaches the line of that type (`memorybank/answertype.py`) and `why` quotes it; the same words
asked without the type keep the prose page first, so each check fails without its rule. The share
questions are Russian and Chinese against an English bank: no word of theirs is in it, the percentage
says their `процент` / `百分`. The question shapes as small talk stay silent on `--prime`. One real CLI
process; the rest through its entry point here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from banks import route_results
from conftest import cli_in_process, write_bank

from memorybank.answertype import answer_types

CORE = {
    "projectbrief.md": "# Project Brief: mapcache\n\n## Overview\n\nmapcache serves map tiles to a field app and keeps "
                       "working when the network drops. It ships with default settings.\n",
    "productContext.md": "# Product Context: mapcache\n\n## Why\n\nSurvey crews work where the network drops, so "
                         "mapcache keeps a mirror of the tiles they need. A slow mirror makes the app feel broken: "
                         "crews pick the mirror closest to them, and the mirror list is shown on first start.\n",
    "activeContext.md": "# Active Context: mapcache\n\n## This week\n\nWe reviewed the tile pruning code: the pruning "
                        "code drops tiles nobody opened for a month, and the pruning code now logs what it drops. "
                        "Resumable downloads of tile packs came up again: crews keep asking for resumable downloads, "
                        "and the server side they need was built last month. The default zoom level is now 12.\n",
    "systemPatterns.md": "# System Patterns: mapcache\n\n## Layout\n\n```\nsrc/\n  ├── fetch/       # downloads\n"
                         "  ├── prune.rs     # tile pruning\n  └── serve.rs     # the local server\n```\n",
    "techContext.md": "# Technical Context: mapcache\n\n## Stack\n\nmapcache is written in Rust.\n\n## Services\n\n"
                      "- Default mirror: tiles-eu.example.org\n- Other mirrors are set in the config file.\n",
    "progress.md": "# Progress: mapcache\n\n## Status\n\nOverall about 60% done.\n\n- ✅ Tile downloads\n"
                   "- ✅ Local server\n- ⬜ Resumable downloads of tile packs\n",
}

# (question of an answer type, the file holding its line, the line as `why` quotes it, the same words untyped)
TYPED = [
    ("where does the tile pruning code live?", "systemPatterns.md", 'body: L8 "├── prune.rs # tile pruning"',
     "the tile pruning code"),
    ("are resumable downloads built yet?", "progress.md", 'body: L9 "⬜ Resumable downloads of tile p…"',
     "resumable downloads built"),
    ("which mirror do crews get by default?", "techContext.md", 'body: L9 "Default mirror: tiles-eu.exampl…"',
     "the mirror crews get"),
]
SHARE_LINE = 'body: L5 "Overall about 60% done."'


def _route(bank: Path, question: str, first: bool = False) -> list[dict]:
    return route_results(bank, question, "--limit", "3", real=first)


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("plain4") / "memory-bank", CORE)


@pytest.mark.parametrize("question, answer, line, untyped", TYPED)
def test_a_typed_question_reaches_the_line_of_its_type(bank, question, answer, line, untyped):
    results = _route(bank, question, first=question == TYPED[0][0])
    assert results[0]["path"] == answer, results
    assert line in results[0]["why"]
    control = _route(bank, untyped)
    assert control[0]["path"] != answer, control  # the words alone: the prose page leads


def test_a_share_question_in_another_language_reaches_the_percentage(bank):
    for question in ("Какой процент работы выполнен?", "完成了百分之多少？"):
        results = _route(bank, question)
        assert results[0]["path"] == "progress.md", results
        assert SHARE_LINE in results[0]["why"], results[0]


def test_the_type_shapes_as_small_talk_stay_silent(bank):
    # guards: an answer type reorders what a question's words found; it gives small talk no topic
    for prompt in ("is the coffee ready yet?", "where did I put my phone charger", "is it done yet",
                   "Ты уже закончил?", "Где лежит ключ от кабинета?", "完成了吗？"):
        out = json.loads(cli_in_process("--root", str(bank), "--prime", prompt, "--json").stdout)
        assert out["documents"] == [], (prompt, out)


def test_answer_types_are_read_from_the_question_in_three_languages():
    asked = {
        ("location",): ["where in the source tree does the parser live?", "which file defines the retry policy?",
                        "Где лежит точка входа?", "В какой папке конфиг?", "解析器的代码放在哪个目录？"],
        ("status",): ["does it support Solana yet?", "is the exporter implemented?", "which formats can be saved?",
                      "Поддерживается ли уже Solana?", "Какие форматы умеет сохранять?", "导出功能完成了吗？"],
        ("default",): ["which gateway is used by default?", "Какой шлюз по умолчанию?", "默认用哪个网关？"],
    }
    for types, questions in asked.items():
        assert [q for q in questions if answer_types(q) != types] == []
    untyped = ["why are tools handed to the server from outside instead of built inside it?",
               "how does the parser turn links into files", "Почему выбран Rust?", "为什么选择 Swift？"]
    assert [q for q in untyped if answer_types(q)] == []
