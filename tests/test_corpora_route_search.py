"""Route and search answer every real-world corpus without a crash, and sensibly where we know the answer."""

import json

import pytest
from conftest import CORPORA

from memorybank.bank import Bank
from memorybank.route import route
from memorybank.search import search

BANKS = sorted(p for p in CORPORA.glob("*/memory*") if p.is_dir()) if CORPORA.is_dir() else []
QUESTIONS = ["how does sync work", "encryption keys", "why a custom parser instead of a library", "testing policy",
             "как устроена синхронизация", "почему свой парсер", "同步是如何工作的",
             "为什么不用 epubx，而是自己解析 EPUB？", "テストの方針", "FT-001", "kBookDocumentCacheVersion",
             "the", "___", "-- --", "🙂", "x" * 300,
             "a — b — c", "ADR-20260831T134825Z"]


@pytest.fixture(scope="module")
def banks():
    """One index per corpus, built on first use and shared by the tests (they only read)."""
    built: dict = {}

    def get(root):
        if root not in built:
            built[root] = Bank(root)
        return built[root]
    return get


@pytest.mark.skipif(not BANKS, reason="shared corpora not present")
@pytest.mark.parametrize("root", BANKS, ids=lambda p: p.parent.name)
def test_route_and_search_never_crash_on_real_banks(root, banks):
    bank = banks(root)
    for question in QUESTIONS:
        routed = route(bank, question, limit=25)
        found = search(bank, question, limit=50)
        json.dumps(routed), json.dumps(found)
        for result in routed["results"]:
            assert result["path"] in bank.docs and bank.docs[result["path"]].is_knowledge and result["score"] > 0
        for result in found["results"]:
            assert result["path"] in bank.docs and len(result["excerpt"]) <= 240
            assert bank.docs[result["path"]].body_line <= result["line"] <= bank.docs[result["path"]].line_count
        assert routed["results"] or routed["hint"]


@pytest.mark.skipif(not BANKS, reason="shared corpora not present")
def test_known_answers_on_real_banks(banks):
    by_name = {p.parent.name: p for p in BANKS}
    ebook, matrix = banks(by_name["ebook_parser"]), banks(by_name["react-native-matrix"])
    own_reader = "adr/ADR-20260831T134825Z-own-epub-reader.md"
    for question in ("why do we parse EPUB ourselves instead of using epubx?", "为什么不用 epubx，而是自己解析 EPUB？",
                     "почему свой парсер EPUB вместо epubx"):
        assert route(ebook, question)["results"][0]["path"] == own_reader
    for question in ("how does sync work", "как работает синхронизация", "同步是如何工作的"):
        assert route(matrix, question)["results"][0]["path"] == "domain/sync.md"
    assert search(ebook, "epubx")["results"][0]["path"] == own_reader
