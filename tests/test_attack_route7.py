"""Adversarial run on session 7's routing landings (attack-route7): answer types, the variant fold, stoptitles.

Each test names what a hostile user or an odd bank did and what held it wrong before the fix.
Driven through the real CLI (one process, then the variants in process).
"""

from __future__ import annotations

import json

import pytest
from conftest import cli_in_process, doc, run_cli, write_bank

from memorybank.answertype import answer_types

BANK = {
    "ops/cache.md": doc("Build cache", "How the build cache is cleared.",
                        body="## Clearing\n\nThe build cache is cleared after failed builds.\n\n"
                             "## Layout\n\nThe build cache lives in `build/cache/` beside the logs.\n"),
    "ops/ci.md": doc("Continuous integration", "How CI uses the build cache.",
                     body="## Cache\n\nCI keeps the build cache warm between runs of the build.\n"),
    "zh/huancun.md": doc("缓存", "缓存的清理", body="## 清理\n\n缓存在构建失败后清理。\n\n"
                                                "## 位置\n\n缓存放在 `build/cache/` 目录。\n\n"
                                                "## 超时\n\n缓存超时默认为 30 秒。\n"),
    "zh/ci.md": doc("持续集成", "持续集成使用缓存", body="## 缓存\n\n持续集成在两次运行之间保留缓存，超时很重要。\n"),
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> str:
    return str(write_bank(tmp_path_factory.mktemp("attack7") / "bank", BANK))


def _answer(root: str, question: str, first: bool = False) -> list[dict]:
    run = run_cli if first else cli_in_process
    done = run("--root", root, "--route", question, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["results"]


# (as typed, the same question in ASCII / Simplified characters)
SPELLINGS = [
    # full-width forms
    ("ＷＨＥＲＥ ｄｏｅｓ ｔｈｅ ｂｕｉｌｄ ｃａｃｈｅ ｌｉｖｅ", "where does the build cache live"),
    ("ＨＯＷ ＭＡＮＹ failed builds clear the cache", "how many failed builds clear the cache"),
    ("緩存在哪個目錄", "缓存在哪个目录"),  # Traditional characters
    ("緩存默認超時", "缓存默认超时"),
    ("緩存超時是多少秒", "缓存超时是多少秒"),
]


def test_a_question_in_full_width_or_traditional_characters_asks_the_same_answer_type():
    """The concepts of a question are read NFKC-normalised and folded to Simplified (ＢＵＩＬＤ is build, 緩存
    is 缓存); its answer type was read from the raw text. Before: "ＷＨＥＲＥ ｄｏｅｓ…" asked no location,
    "緩存在哪個目錄" (哪個) none, "緩存默認超時" (默認) no default — their typed lines were never weighed."""
    assert [answer_types(typed) for typed, _ in SPELLINGS] == [answer_types(plain) for _, plain in SPELLINGS]
    assert all(answer_types(plain) for _, plain in SPELLINGS)


def test_route_answers_a_full_width_or_traditional_question_as_its_plain_spelling(bank):
    """Same question, other code points: the same rows, scores and `why` quotes. Before: the full-width question
    ranked the Chinese page holding the path below CI (3.517 against 7.084) and the Traditional ones quoted no
    path or default line."""
    for number, (typed, plain) in enumerate(SPELLINGS):
        assert _answer(bank, typed, first=number == 0) == _answer(bank, plain), typed


def test_a_traditional_line_saying_default_is_a_default_line():
    """A Traditional bank writes 默認 (and 預設); the line test knew 默认 and 預設 only. Before: "快取逾時默認為
    30 秒" stated no default, so a default question never weighed it."""
    from memorybank.answertype import states_default
    assert states_default("快取逾時默認為 30 秒") and states_default("快取逾時預設為 30 秒")
    assert not states_default("快取逾時為 30 秒")


def test_a_japanese_question_saying_default_asks_the_default_type():
    """A line saying デフォルト states a default; a question saying it asked none. Before: "キャッシュのデフォルトの
    タイムアウトは？" (and its half-width ﾃﾞﾌｫﾙﾄ) had no answer type, so the line giving the default was not weighed."""
    assert answer_types("キャッシュのデフォルトのタイムアウトは？") == ("default",)
    assert answer_types("キャッシュのﾃﾞﾌｫﾙﾄのタイムアウトは？") == ("default",)
