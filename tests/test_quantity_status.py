"""A status word inside a quantity question (issue 14, quantity-status): the question still asks a number.

"How many dependencies did the extracted code have, and how many are left?" holds `left`, a status form
("what is left"); read as a status question too, it accepted a status-marked line, and the progress file's
checklist about those dependencies outweighed the tech context's line stating the numbers. An
interrogative of amount makes the question a quantity question; the status word names what is counted
(`memorybank/answertype.py`, `answer_types`). A status question naming a number (`is step 3 done yet?`)
stays a status question, and a clause asking a status of its own (`…, and is it done yet?`) keeps
both types. One real CLI process; the rest through its entry point.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli, write_bank

from memorybank.answertype import answer_types

CORE = {
    "projectbrief.md": "# Обзор проекта: shelfscan\n\n## Суть\n\nshelfscan читает корешки книг по фотографиям. Код "
                       "парсера вынесен в отдельный пакет.\n",
    "activeContext.md": "# Текущий контекст: shelfscan\n\n## Неделя\n\nОбсуждали обработку фотографий и доступ к "
                        "камере на старых телефонах.\n\n## Дальше\n\n- ⬜ Шаг 3: опубликовать пакет\n",
    "techContext.md": "# Технический контекст: shelfscan\n\n## Стек\n\nshelfscan написан на Dart.\n\n"
                      "## Пакеты\n\nУ извлечённого кода было 6 зависимостей, теперь их 2.\n",
    "progress.md": "# Прогресс: shelfscan\n\n## Вынос кода\n\n"
                   "- ✅ Зависимости извлечённого кода: archive удалена из приложения\n"
                   "- ✅ Зависимости извлечённого кода: image удалена из приложения\n"
                   "- ⬜ Зависимости извлечённого кода: xml осталась в приложении\n",
}

QUANTITY = "Сколько зависимостей было у извлечённого кода и сколько осталось?"
NUMBER_LINE = 'body: L9 "У извлечённого кода было 6 зав'


def _route(bank: Path, question: str, first: bool = False) -> list[dict]:
    proc = (run_cli if first else cli_in_process)("route", "--root", str(bank), question, "--limit", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("quantity-status") / "memory-bank", CORE)


def test_a_status_word_inside_a_quantity_question_still_asks_a_number(bank):
    results = _route(bank, QUANTITY, first=True)
    assert results[0]["path"] == "techContext.md", results
    assert NUMBER_LINE in results[0]["why"], results[0]


def test_a_status_question_naming_a_number_stays_a_status_question(bank):
    results = _route(bank, "Шаг 3 уже готов?")
    assert results[0]["path"] == "activeContext.md", results
    assert "⬜ Шаг 3" in results[0]["why"], results[0]


@pytest.mark.parametrize("question, types", [
    (QUANTITY, ("quantity",)),
    ("How many dependencies did the extracted code have, and how many are left?", ("quantity",)),
    ("已经完成了多少？", ("quantity",)),
    ("is step 3 done yet?", ("status",)),
    ("how many are left, and is the parser published yet?", ("quantity", "status")),
    ("Готово ли это и сколько осталось?", ("quantity", "status")),
    ("完成了吗？还要多久？", ("quantity", "status")),
    ("什么时候完成？", ("quantity",)),
    ("in which file are the 6 dependencies listed?", ("location",)),
])
def test_the_interrogative_of_amount_decides_unless_a_clause_asks_the_status(question, types):
    assert answer_types(question) == types
