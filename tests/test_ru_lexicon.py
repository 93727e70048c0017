"""Russian developer words the dictionary lacked or held too narrowly (issue 14, ru-lexicon).

An English bank, Russian questions: each question's one distinguishing word reaches its page only
through a row of `memorybank/lang/russianwords.py` — `сохраняем` is also "keep" (not only "save"),
`падает` is "crash"/"fail", `таймзону` is "timezone". A sibling page shares the question's other words
more often, so without the rows the sibling ranks first. One CLI process answers every question.
"""

from __future__ import annotations

from banks import assert_routes_first
from conftest import doc

from memorybank.lang import build_lexicon

PAGES = {
    "tokens-kept.md": doc("Tokens kept across restarts", "Which session tokens we keep"),
    "tokens.md": doc("Session tokens", "Session tokens: the session token format and session token rotation"),
    "build-crash.md": doc("Build crashes", "Why a build can crash"),
    "build.md": doc("Build", "How the build runs: build steps, build cache, build output"),
    "timezones.md": doc("Timezones of report dates", "Timezone of dates in the report"),
    "report.md": doc("Report dates", "Report dates: how a report date is formatted in the report"),
}

QUESTIONS = {
    "Какие токены сессии мы сохраняем?": "tokens-kept.md",
    "Почему падает сборка?": "build-crash.md",
    "Какую таймзону берут даты в отчёте?": "timezones.md",
}


def test_new_russian_words_route_to_their_english_page(tmp_path):
    assert_routes_first(tmp_path / "b", PAGES, QUESTIONS)


def test_one_russian_verb_reaches_every_english_word_it_stands_for():
    lexicon = build_lexicon()

    def english(word: str) -> set[str]:
        return {term for concept in lexicon.concepts(word) for term in concept.equivalents if term.isascii()}

    saved = english("сохранять")
    assert {"sav", "persist", "stor", "keep"} <= saved, saved
    assert {"load"} <= english("загружать") and {"export", "upload"} <= english("выгружать")
    assert {"wait"} <= english("ждать") and {"fix"} <= english("починить") and {"crash"} <= english("падает")
    assert {"schedul"} <= english("планировщик") and {"schedul"} <= english("запланировать")
    # a longer stem keeps a word out of its look-alike's concept: отключить is no "key", вычислять no "number"
    assert "key" not in english("отключить") and {"disabl"} <= english("отключить")
    assert "number" not in english("вычислять") and {"calcul", "comput"} <= english("вычислять")
