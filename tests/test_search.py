"""Body search (§6): the incremental index, tiers, BM25 ranking, pool, bonuses, line and excerpt."""

import pytest
from conftest import FIXTURE, doc, write_bank
from test_route import CHINESE_BANK

from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.search import SearchIndex, search


def small_bank(tmp_path, files):
    bank = Bank(write_bank(tmp_path / "bank", files))
    bank.refresh()
    return bank


def raw(title, purpose, body):
    """A document whose body is exactly `body` (no heading repeating the title)."""
    return f"---\ntitle: {title}\npurpose: {purpose}\nstatus: active\n---\n{body}"


def paths(bank, query, **kw):
    return [r["path"] for r in search(bank, query, **kw)["results"]]


def features_bank(tmp_path):
    index_lines = "\n".join(f"- [FT-{i:03d} Feature number {i}](FT-{i:03d}.md)" for i in range(1, 71))
    files = {"features/README.md": doc("Features", "Index of delivery packages.", doc_function="index",
                                       body=index_lines),
             "features/FT-042.md": doc("FT-042: Invoice export", "Delivery package for exporting invoices.",
                                       body="FT-042 exports invoices nightly.\n\nSee the queue.\n")}
    for i in (7, 41, 43):
        files[f"features/FT-{i:03d}.md"] = doc(f"FT-{i:03d}: Other", "Another package.", body="Unrelated work.\n")
    return small_bank(tmp_path, files)


def test_identifier_finds_the_feature_before_an_index_of_seventy_ids(tmp_path):
    bank = features_bank(tmp_path)
    result = search(bank, "FT-042")["results"]
    assert [r["path"] for r in result[:2]] == ["features/FT-042.md", "features/README.md"]
    first = result[0]
    assert set(first) == {"path", "title", "doc_kind", "layer", "status", "score", "line", "excerpt"}
    assert first["line"] == 7 and first["excerpt"] == "# FT-042: Invoice export"  # first of the tied lines
    assert paths(bank, "where is FT-042 described?")[0] == "features/FT-042.md"


def test_literal_only_in_frontmatter_is_not_found(tmp_path):
    bank = small_bank(tmp_path, {"a.md": doc("A", "x", owner_code="ZX-9931", body="Nothing here.\n")})
    result = search(bank, "ZX-9931")
    assert result["results"] == [] and result["see"] == ["route"]


def test_chinese_substring_of_a_chinese_body_is_found(tmp_path):
    bank = small_bank(tmp_path, CHINESE_BANK)
    for query in ("失效时间", "时间为十", "十分钟", "清空"):
        result = search(bank, query)["results"]
        assert result[0]["path"] == "engineering/cache.md", query
        assert "缓存失效时间为十分钟" in result[0]["excerpt"]
    assert search(bank, "轮换")["results"][0]["path"] == "engineering/keys.md"
    assert search(bank, "encryption key")["results"][0]["path"] == "engineering/keys.md"


def test_second_sync_with_no_change_reindexes_nothing(tmp_path):
    files = {f"n{i}.md": doc(f"N{i}", "x", body=f"ledger entry {i}\n") for i in range(6)}
    bank = small_bank(tmp_path, files)
    search(bank, "ledger")
    assert SearchIndex.of(bank).derived_total == 6
    search(bank, "ledger")
    index = SearchIndex.of(bank)
    assert index.derived == 0 and index.derived_total == 6
    (bank.root / "n3.md").write_text(doc("N3", "x", body="ledger entry changed quasar\n"))
    assert paths(bank, "quasar") == ["n3.md"]
    assert SearchIndex.of(bank).derived_total == 7
    (bank.root / "n4.md").unlink()
    assert "n4.md" not in paths(bank, "ledger")
    assert SearchIndex.of(bank).derived_total == 7


def test_identifiers_are_indexed_whole_and_by_parts(tmp_path):
    bank = small_bank(tmp_path, {
        "whole.md": doc("W", "x", body="Set `filter_thresholds` in the config.\n"),
        "parts.md": doc("P", "x", body="The filter has thresholds.\n"),
        "camel.md": doc("C", "x", body="Bump kBookDocumentCacheVersion when the format changes.\n"),
    })
    assert paths(bank, "filter_thresholds") == ["whole.md"]  # the whole identifier is indexed: parts not used
    assert set(paths(bank, "thresholds")) == {"whole.md", "parts.md"}
    assert paths(bank, "where is kBookDocumentCacheVersion mentioned?")[0] == "camel.md"
    # a compound nobody holds whole falls back to its parts at weight 1
    assert set(paths(bank, "filter-thresholds-v9")) == {"parts.md", "whole.md"}
    assert search(bank, "filter-thresholds-v9")["results"][0]["score"] < search(bank, "thresholds")["results"][0][
        "score"]


def test_typed_form_outweighs_its_translation(tmp_path):
    bank = small_bank(tmp_path, {"en.md": doc("E", "x", body="The threshold is ten.\n"),
                                 "ru.md": doc("R", "x", body="Порог равен десяти.\n")})
    assert paths(bank, "threshold") == ["en.md", "ru.md"]
    assert paths(bank, "пороги") == ["ru.md", "en.md"]
    assert set(paths(bank, "阈值")) == {"en.md", "ru.md"}  # both only through translations
    scores = {r["path"]: r["score"] for r in search(bank, "threshold")["results"]}
    assert scores["ru.md"] < scores["en.md"]


def test_rare_term_dominates_and_pool_comes_first(tmp_path):
    common = "cache sync queue " * 3
    files = {f"c{i}.md": doc(f"C{i}", "x", body=common + "\n") for i in range(8)}
    files["rare.md"] = doc("Rare", "x", body="The zqxfrob flag lives here.\n")
    bank = small_bank(tmp_path, files)
    # nobody matches every concept: the rare identifier's idf share wins
    assert paths(bank, "zqxfrob cache sync queue")[0] == "rare.md"
    (bank.root / "both.md").write_text(doc("Both", "x", body="zqxfrob and cache\n"))
    assert paths(bank, "zqxfrob cache")[0] == "both.md"


def test_stopwords_dropped_unless_nothing_else_remains(tmp_path):
    bank = small_bank(tmp_path, {"a.md": doc("A", "x", body="The ledger is here.\n"),
                                 "b.md": doc("B", "x", body="Where is the thing?\n")})
    assert paths(bank, "where is the ledger") == ["a.md"]
    assert set(paths(bank, "where is the")) == {"a.md", "b.md"}


def test_phrase_title_and_purpose_bonuses(tmp_path):
    bank = small_bank(tmp_path, {
        "split.md": doc("S", "x", body="The mode of rounding is set here.\n"),
        "phrase.md": doc("T", "x", body="The rounding mode is set here.\n"),
    })
    assert paths(bank, "rounding mode") == ["phrase.md", "split.md"]
    bank = small_bank(tmp_path / "2", {
        "a.md": raw("Notes", "x", "Ledger sync runs nightly.\n"),
        "b.md": raw("Ledger sync", "x", "Ledger sync runs nightly.\n"),
        "c.md": raw("Notes", "How the ledger sync works.", "Ledger sync runs nightly.\n"),
    })
    result = search(bank, "ledger")["results"]
    assert [r["path"] for r in result] == ["b.md", "c.md", "a.md"]
    assert result[0]["score"] == pytest.approx(result[2]["score"] * 1.3, rel=1e-3)
    assert result[1]["score"] == pytest.approx(result[2]["score"] * 1.15, rel=1e-3)


def test_archived_documents_are_damped(tmp_path):
    bank = small_bank(tmp_path, {"a.md": doc("A", "x", status="archived", body="ledger\n"),
                                 "b.md": doc("B", "x", body="ledger\n")})
    result = search(bank, "ledger")["results"]
    assert [r["path"] for r in result] == ["b.md", "a.md"]
    assert result[1]["score"] == pytest.approx(result[0]["score"] * 0.3, rel=1e-3)


def test_best_line_is_the_line_with_most_concepts_and_long_lines_are_cut(tmp_path):
    long_line = "word " * 80 + "the quasar ledger is defined right here " + "tail " * 60
    body = "ledger alone\n\nquasar alone\n\nquasar and ledger together\n\n" + long_line + "\n"
    bank = small_bank(tmp_path, {"a.md": doc("A", "x", body=body)})
    first = search(bank, "quasar ledger")["results"][0]
    assert first["line"] == 13 and first["excerpt"] == "quasar and ledger together"
    deep = search(bank, "defined right here")["results"][0]
    assert deep["line"] == 15 and len(deep["excerpt"]) <= 240 and "defined right here" in deep["excerpt"]
    assert deep["excerpt"].startswith("…")


def test_filters_limit_templates_and_inbox(tmp_path):
    files = {f"engineering/e{i:02d}.md": doc("E", "x", doc_kind="engineering", body="ledger\n") for i in range(60)}
    files["adr/a.md"] = doc("A", "x", doc_kind="adr", status="draft", body="ledger\n")
    files["_inbox/note.md"] = doc("Note", "x", body="ledger ledger ledger\n")
    files["flows/templates/t.md"] = doc("T", "x", doc_function="template", body="ledger ledger\n")
    bank = small_bank(tmp_path, files)
    assert len(paths(bank, "ledger")) == 10 and len(paths(bank, "ledger", limit=500)) == 50
    assert paths(bank, "ledger", doc_kind="adr") == ["adr/a.md"]
    assert paths(bank, "ledger", layer="decision") == ["adr/a.md"]
    assert paths(bank, "ledger", status="draft") == ["adr/a.md"]
    everything = paths(bank, "ledger", limit=50)
    assert not any(p.startswith(("_inbox/", "flows/")) for p in everything)
    with pytest.raises(BankError, match="Query is empty"):
        search(bank, " ")
    with pytest.raises(BankError, match="Unknown layer"):
        search(bank, "ledger", layer="nope")


def test_russian_query_finds_english_body_and_russian_inflections(tmp_path):
    bank = small_bank(tmp_path, {"en.md": doc("E", "x", body="Encryption keys rotate every month.\n"),
                                 "ru.md": doc("R", "x", body="Ключи шифрования хранятся на устройстве.\n")})
    assert paths(bank, "шифрование")[0] == "ru.md"
    assert "en.md" in paths(bank, "шифрование")
    assert paths(bank, "ключей")[0] == "ru.md"


def test_fixture_bank_search(tmp_path):
    bank = Bank(FIXTURE)
    bank.refresh()
    assert search(bank, "FT-042")["results"][0]["path"] == "features/FT-042-invoice-export.md"
    assert search(bank, "half-even")["results"][0]["path"] == "engineering/rounding.md"
    assert all(r["path"] != "flows/templates/adr.md" for r in search(bank, "decision", limit=50)["results"])


@pytest.mark.parametrize("query, path, words", [
    ("decision", "adr/ADR-002-queue-for-exports.md", "decision"),  # stem `decis` is no literal prefix
    ("where do we mention the logger?", "rules/no-print.md", "getlogger"),  # a part inside an identifier
])
def test_the_excerpt_is_the_matching_line_even_when_no_literal_finds_it(query, path, words):
    # The line finder fell back to the blank line after the frontmatter with an empty excerpt.
    from memorybank.bank import Bank
    from memorybank.search import search

    hit = next(r for r in search(Bank(FIXTURE), query)["results"] if r["path"] == path)
    assert words in hit["excerpt"].lower().replace("_", "")


def test_a_question_longer_than_a_thousand_characters_is_refused():
    from memorybank.bank import Bank
    from memorybank.errors import BankError
    from memorybank.search import search

    with pytest.raises(BankError, match="at most 1,000 are read"):
        search(Bank(FIXTURE), "发票" * 600)
