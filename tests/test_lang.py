"""The language module (§7): tokenizer, stemmers, dictionaries, segmentation, vocabulary, concepts."""

import pytest
from conftest import doc, write_bank

from memorybank.bank import Bank
from memorybank.lang import build_lexicon, estimate_tokens, lexicon_for, parse_vocabulary, scan, why_intent
from memorybank.lang.chinese import bigrams, segment
from memorybank.lang.english import stem
from memorybank.lang.lexicon import builtin_rows
from memorybank.lang.tokens import is_compound, split_compound

LEX = build_lexicon()


def terms(text):
    return [t for t, _, _ in LEX.route_terms(text)]


def test_scan_splits_latin_cyrillic_and_cjk_runs():
    assert list(scan("Где FT-042 и 过滤阈值，filter_thresholds?")) == [
        (False, "Где"), (False, "FT-042"), (False, "и"), (True, "过滤阈值"), (False, "filter_thresholds")]


def test_full_width_forms_are_normalised():
    assert list(scan("ＦＴ－０４２")) == [(False, "FT-042")]


def test_identifiers_are_compounds_split_into_parts():
    assert is_compound("kBookDocumentCacheVersion") and is_compound("ft-042") and is_compound("a_b")
    assert not is_compound("Cache") and not is_compound("HTTP") and not is_compound("fb2")
    assert split_compound("kBookDocumentCacheVersion") == ["k", "book", "document", "cache", "version"]
    assert split_compound("filter_thresholds") == ["filter", "thresholds"]
    assert split_compound("HTTPServer-v2") == ["http", "server", "v2"]


@pytest.mark.parametrize("a, b", [("rounded", "rounding"), ("encrypt", "encryption"), ("policy", "policies"),
                                  ("caches", "cached"), ("deployed", "deploying"), ("validate", "validation"),
                                  ("release", "releases"), ("settings", "set"), ("decision", "decided")])
def test_english_inflections_meet(a, b):
    assert stem(a) == stem(b)


def test_english_stemmer_leaves_lookalikes_alone():
    assert stem("status") == "status" and stem("string") == "string" and stem("embed") == "embed"
    assert stem("need") == "need" and stem("analysis") == "analysis"


def test_dictionaries_reach_the_aim_of_400_entries_each():
    ru = {s for _, stems, _ in builtin_rows() for s in stems}
    zh = {w for _, _, words in builtin_rows() for w in words}
    assert len(ru) >= 400 and len(zh) >= 400
    for word in ("deploy", "threshold", "filter", "decision", "queue", "test", "schema", "template", "index",
                 "quarantine", "architecture", "security", "session", "user", "page", "screen", "book", "chapter",
                 "image", "cover", "message", "notification", "device", "token", "key", "encryption", "storage",
                 "sync", "cache", "release", "package", "dependency", "error"):
        assert LEX.en_ru.get(stem(word)), word
        assert LEX.en_zh.get(stem(word)), word


@pytest.mark.parametrize("word", ["пороги", "порогов", "порогам", "порог"])
def test_russian_inflections_share_the_stem(word):
    assert LEX.russian_stem(word) == "порог"


def test_russian_longest_stem_wins_and_verbal_prefix_is_stripped():
    assert LEX.russian_stem("кодировка") != LEX.russian_stem("код")
    assert LEX.russian_stem("задеплоить") == LEX.russian_stem("деплой")
    assert "deploy" in LEX.equivalents(LEX.russian_stem("задеплоить"), "ru")
    assert LEX.russian_stem("за") is None


def test_unknown_russian_words_still_meet_their_inflections():
    assert terms("пользовательский отчётами")[1] == terms("отчётов")[0]
    assert terms("гиперкубами") == terms("гиперкубов")


def test_chinese_forward_maximum_matching_prefers_longest_words():
    words = frozenset({"数据", "数据库", "迁移"})
    assert list(segment("数据库迁移方案", words, 3)) == [("数据库", True), ("迁移", True), ("方案", False)]
    assert bigrams("方案设计") == ["方案", "案设", "设计"] and bigrams("书") == ["书"]


def test_chinese_stopwords_are_dropped_and_leftovers_become_bigrams():
    assert terms("过滤阈值在哪里") == ["过滤", "阈值"]
    assert terms("扁平书脊阅读") == [LEX.zh_canon["扁平"] if "扁平" in LEX.zh_canon else "扁平",
                                    "书脊", LEX.zh_canon["阅读"]]


def test_stopwords_of_every_language_drop_out():
    assert terms("what is the") == [] and terms("где это") == [] and terms("什么是") == []


def test_concept_carries_equivalents_in_the_other_languages():
    (concept,) = LEX.concepts("thresholds")
    assert concept.term == "threshold" and "порог" in concept.equivalents and "阈值" in concept.equivalents
    (ru,) = LEX.concepts("порогов")
    assert "threshold" in ru.equivalents and "阈值" in ru.equivalents
    (zh,) = LEX.concepts("阈值")
    assert "threshold" in zh.equivalents and "порог" in zh.equivalents
    (unknown,) = LEX.concepts("ft042x")
    assert unknown.equivalents == ()


def test_search_concepts_keep_identifiers_whole_with_parts_and_tiers():
    concepts = LEX.search_concepts("where is kBookDocumentCacheVersion?")
    ident = next(c for c in concepts if not c.stop)
    assert ident.forms[0].terms == ("kbookdocumentcacheversion",) and ident.forms[0].tier == 10
    assert [p.terms[0] for p in ident.parts] == ["k", "book", "document", "cach", "vers"]
    assert {p.tier for p in ident.parts} == {1}
    (zh,) = LEX.search_concepts("临界值")
    assert zh.forms[0].terms == ("临界", "界值") and any(f.terms == ("threshold",) and f.tier == 6 for f in zh.forms)


def test_vocabulary_rows_parse_cyrillic_and_cjk_left_cells_only():
    text = """# Vocabulary
Prose is ignored.

| Russian stem | English |
|---|---|
| книг | book, books, ebook |
| Ёлк | tree |
| 书签 | bookmark |
| latin | ignored |
| a | b | c |
"""
    assert parse_vocabulary(text) == (("ru", "книг", ("book", "books", "ebook")), ("ru", "елк", ("tree",)),
                                      ("zh", "书签", ("bookmark",)))


def test_bank_vocabulary_merges_and_is_reread_when_it_changes(tmp_path):
    root = write_bank(tmp_path / "b", {"dna/principles.md": doc("Principles"), "a.md": doc("A")})
    bank = Bank(root)
    bank.refresh()
    first = lexicon_for(bank)
    assert first.russian_stem("гиперкубы") is None
    bank.refresh()
    assert lexicon_for(bank) is first  # nothing changed: same object, indexes keep their terms
    (root / "dna/vocabulary.md").write_text("| гиперкуб | hypercube |\n| 超立方 | hypercube |\n")
    bank.refresh()
    second = lexicon_for(bank)
    assert second is not first
    assert second.russian_stem("гиперкубы") == "гиперкуб"
    assert "hypercub" in second.equivalents("гиперкуб", "ru") and "超立方" in second.equivalents("гиперкуб", "ru")
    assert "超立方" in second.zh_words


@pytest.mark.parametrize("question", ["Why a queue?", "what was the rationale", "trade-off of caching",
                                      "ebook instead of epub", "почему очередь", "зачем кэш", "обоснование выбора",
                                      "вместо вебхуков", "какое решение", "为什么用队列", "为何缓存", "原因", "理由",
                                      "决定", "用队列而不是轮询"])
def test_why_intent_in_three_languages(question):
    assert why_intent(question)


@pytest.mark.parametrize("question", ["where are thresholds", "где пороги", "过滤阈值在哪里", "whyever not"])
def test_no_why_intent(question):
    assert not why_intent(question)


def test_estimate_tokens_is_cjk_aware_and_rounds_up():
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2
    assert estimate_tokens("缓存") == 2  # 1.2 → 2
    assert estimate_tokens("ab缓存") == 2  # 0.5 + 1.2 = 1.7 → 2
    assert estimate_tokens("x" * 400) == 100 and estimate_tokens("中" * 10) == 6


def test_plural_acronyms_are_one_word_and_russian_why_markers_start_a_word():
    from memorybank.lang import why_intent
    from memorybank.lang.tokens import is_compound, split_compound

    assert not is_compound("URLs") and split_compound("getURLs") == ["get", "urls"]
    assert not why_intent("как получить разрешение на экспорт?") and why_intent("почему очередь?")
    assert not why_intent("决定性的测试") and why_intent("为什么用队列")
