"""Japanese words whose Chinese is another word (issue 14, ja-words): 関数 is 函数, 設定 is 设置.

The character fold (`variants.fold`) makes 処理 meet 处理, but 関数 folds to 关数 and 設定 to 设定, which
are not the Chinese words. The dictionary rows carry the folded Japanese words beside the Chinese ones,
so a Chinese or English question meets the Japanese page. Each pair is a page saying the Japanese word
and a sibling repeating the question's other word more often: without the rows the sibling ranks first.
Then the other half: the folded words left out because they cut ordinary Chinese words apart stay out.
"""

from __future__ import annotations

from banks import assert_routes_first
from conftest import doc

from memorybank.lang import build_lexicon

PAGES = {
    "batch-functions.md": doc("関数", "バッチ処理で呼ぶ関数の引数"),
    "batch.md": doc("バッチ処理", "バッチ処理の流れ、バッチ処理の時刻、処理の順序と処理の担当"),
    "notify-settings.md": doc("設定", "Slack通知の設定項目"),
    "notify.md": doc("通知", "通知の送り先、通知の形式、通知の頻度"),
    "team.md": doc("チーム", "チームの体制と担当"),
}

QUESTIONS = {
    "处理用到哪些函数？": "batch-functions.md",
    "通知的设置在哪里？": "notify-settings.md",
    "Where are the notification settings?": "notify-settings.md",
}


def test_a_chinese_question_meets_the_japanese_page_that_says_the_other_word(tmp_path):
    assert_routes_first(tmp_path / "b", PAGES, QUESTIONS, real="处理用到哪些函数？")


def test_folded_japanese_words_do_not_cut_ordinary_chinese_words_apart():
    lexicon = build_lexicon()

    def terms(text: str) -> set[str]:
        return {term for term, _surface, _language in lexicon.route_terms(text)}

    # 実行 → 实行 would take 落实行动 as 落 + 实行 + 动; 日付 → 日付 would cut 付款 out of 当日付款
    assert "执行" not in terms("落实行动")
    assert "支付" in terms("当日付款")
    assert "成本" in terms("制作成本") or "费用" in terms("制作成本")  # 作成 (create) left out
    assert terms("关数") & terms("函数") and terms("设定") & terms("设置")
