"""Russian phrases whose meaning no single word carries (s8-ruphrase, `russian.PHRASES`).

`по очереди` is "sequentially", but its word `очереди` alone is a queue; `в фоне` is "in the background",
and `фоне` alone is no dictionary word; `в итоге` is "in the end", and `итог` alone is a total. A small
English plain bank holds, for each phrase, the page that says the phrase's concept and a sibling page
that says what the phrase's words mean apart (a queue, a total). Through the real CLI: the phrase
question reaches the concept's page; the control question, the same words apart, still reaches the
words' page; prime stays silent on Russian small talk made of these phrases.
"""

from __future__ import annotations

import json

import pytest
from conftest import cli_in_process, run_cli, write_bank

from memorybank.lang.lexicon import read_phrases

BANK = {
    "notes/migrations.md": "# Applying migrations\n\nMigrations are applied sequentially, never in parallel.\n",
    "notes/queue.md": "# Job queue\n\nJobs wait in the queue until a worker takes them; the queue is bounded.\n",
    "notes/workers.md": "# Workers\n\nIndexing runs as a background daemon so the editor stays responsive.\n",
    "notes/totals.md": "# Invoice totals\n\nThe total of an invoice is summed from its lines.\n",
    "notes/retries.md": "# Retries\n\nA failed upload is retried; eventually it is dropped and reported.\n",
    "notes/releases.md": "# Releases\n\nEach release is tagged and gets a changelog entry.\n",
    "notes/exit.md": "# Exit codes\n\nThe tool exits with code 2 on a usage error.\n",
    "notes/reload.md": "# Settings reload\n\nLog levels change dynamically, without a restart.\n",
    "notes/timeouts.md": "# Timeouts\n\nThe default timeout is 30 seconds; a flag sets another.\n",
}

QUESTIONS = {
    "Что выполняется по очереди?": "notes/migrations.md",
    "Что идёт одно за другим?": "notes/migrations.md",
    "Что крутится в фоне?": "notes/workers.md",
    "Что в итоге происходит с упавшей загрузкой?": "notes/retries.md",
    "Что нужно сделать перед выходом версии?": "notes/releases.md",
    "Что меняется на лету?": "notes/reload.md",
    "Какой таймаут по умолчанию?": "notes/timeouts.md",
}

CONTROLS = {  # the phrases' words apart keep their own sense
    "Сколько задач в очереди?": "notes/queue.md",
    "Как считается итог по счёту?": "notes/totals.md",
    "Какой код на выходе при ошибке?": "notes/exit.md",
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    return write_bank(tmp_path_factory.mktemp("ruphrase") / "bank", BANK)


def _json(bank, *args: str, real: bool = False) -> dict:
    proc = (run_cli if real else cli_in_process)("--root", str(bank), *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_a_phrase_question_reaches_the_page_saying_its_concept(bank, question):
    real = question == next(iter(QUESTIONS))  # one question through a real process, the rest in this one
    paths = [row["path"] for row in _json(bank, "--route", question, real=real)["results"]]
    assert paths and paths[0] == QUESTIONS[question], paths


@pytest.mark.parametrize("question", list(CONTROLS))
def test_the_phrase_words_apart_keep_their_own_page(bank, question):
    paths = [row["path"] for row in _json(bank, "--route", question)["results"]]
    assert paths and paths[0] == CONTROLS[question], paths


def test_search_finds_the_concept_page_for_a_phrase(bank):
    paths = [row["path"] for row in _json(bank, "--search", "применять миграции по очереди")["results"]]
    assert paths[:1] == ["notes/migrations.md"], paths
    assert "notes/queue.md" not in paths


@pytest.mark.parametrize("prompt", ["Давай по очереди", "Пока что всё", "В итоге всё получилось, спасибо"])
def test_russian_small_talk_made_of_phrases_primes_nothing(bank, prompt):
    assert _json(bank, "--prime", prompt)["documents"] == []


def test_a_phrase_is_read_whole_and_only_whole():
    assert read_phrases("Тесты по очереди") == "Тесты последовательно"
    assert read_phrases("ПО ОЧЕРЕДИ") == "последовательно"
    assert read_phrases("очередь задач") == "очередь задач"  # the word alone is a queue
    assert read_phrases("подочередь") == "подочередь"  # inside a word no phrase starts
    assert read_phrases("раскидать по очередям") == "раскидать по очередям"  # across queues: an exact word is whole
    assert read_phrases("в фоновом режиме") == "фоновый"  # a stem takes any ending
    assert read_phrases("деньги в фонд") == "деньги в фонд"  # a fund is no background
    assert read_phrases("в итоговом отчёте") == "в итоговом отчёте"  # a total report is no "in the end"
    assert read_phrases("значение по умолчанию") == "значение по умолчанию"  # `умолчани` already is "default"
