"""Issue 14 in any bank (kanji-fold): Japanese and Traditional characters meet Simplified ones, and a title
made only of stopwords is found by asking for it. Through the real CLI (`--route`, `--search`, `--prime`).

A bank written in Japanese says 医療機関 and 設定, a Traditional one 資料庫 and 備份, a Simplified question
医疗, 设定, 资料库: `lang/variants.py` folds every CJK run to one form before it becomes terms, while every
answer shows the bank's own characters. "Who We Are", "О нас", "关于我们" have no content word: route's
title lookup (`stoptitles.py`) names them, and prime stays silent on small talk made of such words.
"""

from __future__ import annotations

import json

import pytest
from conftest import cli_in_process, doc, run_cli, write_bank

from memorybank.lang import chinese, everyday
from memorybank.lang.lexicon import builtin_rows
from memorybank.lang.variants import PAIRS, fold, table

BANK = {
    # Japanese (shinjitai and kana), no frontmatter: a plain page
    "docs/clinic.md": "# 病院向け通知\n\n医療機関の設定は環境変数で管理します。\n\n"
                      "## 状態\n\n検知済みのURLリストはストレージに保存します。\n",
    # Traditional, governed: title and purpose in Traditional characters
    "docs/backup.md": doc("資料庫備份", "說明資料庫每天如何備份", body="## 備份\n\n每晚三點把資料庫匯出到物件儲存。\n"),
    # Simplified, governed
    "docs/deploy.md": doc("部署流程", "怎样把服务发布到测试环境", body="## 步骤\n\n先运行单元测试，再推送镜像。\n"),
    "docs/cache.md": doc("Cache", "How pages are cached.", body="## Expiry\n\nEntries expire in an hour (FT-042).\n"),
    # titles with no content word at all
    "about/team.md": doc("Who We Are", "The people behind the project.", body="Five engineers in two cities.\n"),
    "about/ru.md": doc("О нас", "Кто делает проект.", body="Пять инженеров.\n"),
    "about/zh.md": doc("關於我們", "项目背后的人。", body="五位工程师。\n"),
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    return write_bank(tmp_path_factory.mktemp("kanji") / "bank", BANK)


def _json(bank, *args: str, real: bool = False) -> dict:
    proc = (run_cli if real else cli_in_process)("--root", str(bank), *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _paths(answer: dict) -> list[str]:
    return [row["path"] for row in answer["results"]]


def test_a_simplified_question_finds_a_japanese_page_and_shows_its_own_characters(bank):
    answer = _json(bank, "--route", "医疗机构的设定用什么管理？", real=True)
    assert _paths(answer)[0] == "docs/clinic.md", answer
    row = answer["results"][0]
    assert row["title"] == "病院向け通知"
    found = _json(bank, "--search", "医疗")["results"]
    assert found and found[0]["path"] == "docs/clinic.md", found
    text = json.dumps(found[0], ensure_ascii=False)
    assert "医療機関" in text and "医疗" not in text, text  # the bank's line, never the folded one


def test_a_simplified_question_finds_a_traditional_page_and_the_reverse(bank):
    answer = _json(bank, "--route", "资料库每天怎么备份？")
    assert _paths(answer)[0] == "docs/backup.md", answer
    row = answer["results"][0]
    assert row["title"] == "資料庫備份"
    assert "资料库" not in row["why"] and "备份" not in row["why"], row  # `why` quotes the bank's words
    reverse = _json(bank, "--route", "怎樣把服務發佈到測試環境？")
    assert _paths(reverse)[0] == "docs/deploy.md", reverse
    found = _json(bank, "--search", "單元測試")["results"]
    assert [r["path"] for r in found][:1] == ["docs/deploy.md"], found


def test_a_traditional_word_in_the_banks_vocabulary_meets_simplified_text(tmp_path):
    # dna/vocabulary.md writes 鬱金香; the page says 郁金香: the row's word is folded like every other
    root = write_bank(tmp_path / "bank", {
        "dna/vocabulary.md": "# Vocabulary\n\n| term | english |\n|---|---|\n| 鬱金香 | tulip |\n",
        "docs/garden.md": doc("郁金香种植", "春天开花", body="十月种下。\n"),
        "docs/deploy.md": doc("部署流程", "发布", body="先测试。\n")})
    assert _paths(_json(root, "--route", "tulips"))[:1] == ["docs/garden.md"]


def test_a_title_made_of_stopwords_is_found_by_asking_for_it(bank):
    for question, path, title in (("who we are", "about/team.md", "Who We Are"),
                                  ("Who are we?", "about/team.md", "Who We Are"),
                                  ("о нас", "about/ru.md", "О нас"),
                                  ("关于我们", "about/zh.md", "關於我們")):
        answer = _json(bank, "--route", question, real=question == "who we are")
        assert _paths(answer)[:1] == [path], (question, answer)
        assert answer["results"][0]["title"] == title and answer["results"][0]["why"] == "title"


def test_prime_stays_silent_on_small_talk_made_of_stopwords(bank):
    # the titles themselves route (above), yet name no topic: nothing is injected for them or for small talk
    prompts = ("what do you think", "и что дальше", "然后呢", "who we are", "о нас", "关于我们")
    noisy = {p: docs for p in prompts if (docs := _json(bank, "--prime", p, real=p == "然后呢")["documents"])}
    assert noisy == {}
    assert _paths(_json(bank, "--route", "关于我们"))  # while route names the page


def test_identifiers_and_other_scripts_are_untouched(bank):
    assert _paths(_json(bank, "--search", "FT-042"))[:1] == ["docs/cache.md"]
    for text in ("FT-042 db.session() GCP_SA_KEY", "Поиск по базе", "ひらがな カタカナ 한국어", "café ½"):
        assert fold(text) == text
    assert fold("醫療機構、資料庫と設定") == "医疗机构、资料库と设定"


def test_the_fold_keeps_lengths_and_never_changes_a_simplified_word():
    folded = table()
    assert all(0x3400 <= key and key != value for key, value in folded.items())
    assert not set(folded.values()) & set(folded), "a target that is also a variant: folding twice would differ"
    sample = "".join(PAIRS.split())
    assert len(fold(sample)) == len(sample) and fold(fold(sample)) == fold(sample)
    simplified = set(chinese.STOPWORDS) | set(everyday.ZH) | {w for _, _, zh in builtin_rows() for w in zh}
    assert {w for w in simplified if fold(w) != w} == set()
