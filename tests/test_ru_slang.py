"""Russian developer slang and Russian questions over Japanese pages (issue 14, session 8: dev-ru8).

A plain bank (no frontmatter, as a Cline bank is written) in English, with one Japanese page. Each
Russian question's distinguishing word reaches its page only through a row of
`memorybank/lang/russianwords.py`, and a sibling page shares the question's other words:
- a slang verb on a short anglicism stem (`запушить`: `пуш` is too short to be found behind the prefix
  `за`, so the prefixed stem is listed), an anglicism of a language (`питона`);
- a word that used to land in a look-alike's concept: `замокать` was "lock" through `замок`, `зависло`
  "dependency" through `завис`, `удалось` "delete" through `удал` — the sibling page that says the
  look-alike's word ranked first;
- a Japanese page written with a katakana loanword (`チャンネル`) that the Chinese word of the row
  (`频道`) never met.
Through the real CLI (`--route`, `--prime`); prime stays silent on Russian small talk in the same slang.
"""

from __future__ import annotations

import json

import pytest
from conftest import cli_in_process, run_cli, write_bank

from memorybank.lang import build_lexicon

BANK = {
    "notes/pushing.md": "# Sharing work\n\nWhen the work is ready, push the branch to the remote.\n",
    "notes/branches.md": "# Naming\n\nOne branch per change; the branch prefix says its kind.\n",
    "notes/mocks.md": "# Test doubles\n\nThe HTTP client is replaced by a mock in the client tests.\n",
    "notes/locks.md": "# Locks\n\nA lock guards the client pool; the client tests take the lock before a call.\n",
    "notes/freezes.md": "# When the app stops answering\n\nThe app can hang while the index is rebuilt.\n",
    "notes/deps.md": "# App dependencies\n\nThe app pins each dependency; app dependencies are audited monthly.\n",
    "notes/config-failure.md": "# Reading the config\n\nIf the config file fails to load, defaults are used.\n",
    "notes/config-removal.md": "# Config cleanup\n\nAn old config file is deleted from the config folder.\n",
    "notes/python.md": "# Toolchain\n\nThe service runs on Python 3.12.\n",
    "notes/versions.md": "# Versions\n\nVersion numbers: the version tag names the release version.\n",
    "notes/jp-alerts.md": "# 連絡先\n\n通知はチャンネル #ops に流す。\n",
    "notes/jp-calls.md": "# メール\n\n通知はメールで送り、通知の記録を残す。\n",
}

QUESTIONS = {
    "Как запушить ветку?": "notes/pushing.md",
    "Как замокать клиент в тестах?": "notes/mocks.md",
    "Почему зависло приложение?": "notes/freezes.md",
    "Что будет, если не удалось прочитать конфиг?": "notes/config-failure.md",
    "Какая версия питона нужна?": "notes/python.md",
    "В какой канал приходят уведомления?": "notes/jp-alerts.md",
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    return write_bank(tmp_path_factory.mktemp("ruslang") / "bank", BANK)


def _json(bank, *args: str, real: bool = False) -> dict:
    proc = (run_cli if real else cli_in_process)("--root", str(bank), *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_slang_and_look_alike_words_route_to_their_page(bank, question):
    real = question == next(iter(QUESTIONS))  # one question through a real process, the rest in this one
    paths = [row["path"] for row in _json(bank, "--route", question, real=real)["results"]]
    assert paths and paths[0] == QUESTIONS[question], paths


@pytest.mark.parametrize("prompt", ["Запушь ветку", "Спасибо, всё работает", "Давай ещё раз, только короче"])
def test_russian_small_talk_in_the_same_slang_primes_nothing(bank, prompt):
    assert _json(bank, "--prime", prompt)["documents"] == []


def test_look_alike_words_stay_out_of_each_others_concept():
    lexicon = build_lexicon()

    def english(word: str) -> set[str]:
        return {term for concept in lexicon.concepts(word) for term in concept.equivalents if term.isascii()}

    assert "lock" not in english("замокать") and "mock" in english("замокать")
    assert "lock" in english("замок")  # the noun keeps its own sense
    assert "depend" not in english("зависло") and "hang" in english("зависло")
    assert "depend" in english("зависимость")
    assert "delet" not in english("удалось") and "delet" in english("удалить")
    assert "push" in english("запушить") and "cach" in english("закэшировать")
    # the пустить family is no "empty" behind its prefixes: запустить runs, выпустить releases
    assert "empty" not in english("запустить") and "run" in english("запустить")
    assert "empty" not in english("выпустили") and "releas" in english("выпустили") and "empty" in english("пустой")
    # a prefixed stem is listed whole, never a short stem behind any prefix: заботиться is no bot
    assert "bot" not in english("заботиться")
