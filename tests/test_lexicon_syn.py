"""Synonyms of engineering words (issue 14, lexicon-syn): a question in other words than the page.

Each page pair is a page saying the bank's word ("URLs", "performance", "configuration") and a
sibling page that repeats the question's other words more often. The Russian or Chinese question says
the other word (*ссылки*, *настройки*, *ускорить*, *网址*, *加速*), which reaches the page's English word
only through a row of `memorybank/lang/thesaurus.py`, so without the rows the sibling ranks first.
Then the other half: words of different senses stay apart.
"""

from __future__ import annotations

from banks import assert_routes_first, route_paths
from conftest import doc, write_bank

from memorybank.lang import build_lexicon

PAGES = {
    "image-urls.md": doc("Image URLs", "Which product image URLs we rewrite"),
    "images.md": doc("Product images", "Product images: image sizes and formats of product pages"),
    "search-performance.md": doc("Search performance", "Performance of the search index"),
    "search.md": doc("Search index", "Search index: how the search index is built"),
    "log-config.md": doc("Log configuration", "Configuration of server logs"),
    "logs.md": doc("Server logs", "Server logs: where server logs go and log rotation"),
    "team.md": doc("Team", "Who is on the team and how the team works"),
    "commands.md": doc("Commands", "Every command of the command line"),
}

QUESTIONS = {
    "Где ссылки на картинки продуктов?": "image-urls.md",
    "Где настройки логов сервера?": "log-config.md",
    "Как ускорить поисковый индекс?": "search-performance.md",
    "产品图片网址在哪里？": "image-urls.md",
    "怎么加速搜索索引？": "search-performance.md",
}


def test_a_synonym_in_the_question_routes_to_the_page_that_says_the_other_word(tmp_path):
    assert_routes_first(tmp_path / "b", PAGES, QUESTIONS, real="Где ссылки на картинки продуктов?")


def test_words_of_different_senses_stay_apart(tmp_path):
    bank = write_bank(tmp_path / "b", {f"docs/{name}": text for name, text in PAGES.items()})
    # `команда` is team and command, but English and Chinese keep them apart: 命令 is no 团队
    for question in ("which commands are there?", "有哪些命令？"):
        assert "docs/team.md" not in route_paths(bank, question), question

    lexicon = build_lexicon()

    def meets(word: str) -> set[str]:
        return {term for concept in lexicon.concepts(word) for term in (concept.term, *concept.equivalents)}

    # nor do other words a row held together in one language only: an agent is no 代理 (proxy), a lock
    # no 阻塞 (blocking), a score no 估算 (estimate); and no English word meets another English word
    assert "代理" not in meets("agent") and "阻塞" not in meets("lock") and "估算" not in meets("score")
    assert "command" not in meets("team") and "card" not in meets("map") and "topic" not in meets("theme")
    # English stems that collide keep out of each other's rows: production is no product's 生产环境,
    # generic no generate, accessibility's stem (access) no a11y, local no i18n
    assert "生产环境" not in meets("product") and "дженерик" not in meets("generate")
    assert "a11y" not in meets("access") and "i18n" not in meets("local")
    # a Russian stem does not catch unrelated words that start like it
    for word, unlike in (("скрининг", "скриншот"), ("плавающий", "вещественн"), ("продолжить", "продакш"),
                         ("окончание", "окн"), ("простой", "даунтайм"), ("кредит", "креденш")):
        assert lexicon.term(word)[0] != unlike, word
    # and a Chinese word of the rows does not take an ordinary phrase: 取得 (achieve) is no "obtain"
    assert "retriev" not in meets("取得成功")
