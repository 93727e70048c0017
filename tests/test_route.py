"""Routing (§5): metadata-only ranking, multipliers, languages, explanations and the once-per-parse rule."""

import pytest
from conftest import FIXTURE, doc, write_bank

import memorybank.route as route_module
from memorybank import writers
from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.route import RouteIndex, route
from memorybank.validate import validate


def top(bank, question, **kw):
    results = route(bank, question, **kw)["results"]
    return results[0]["path"] if results else None


def paths(bank, question, **kw):
    return [r["path"] for r in route(bank, question, **kw)["results"]]


def score(bank, question, path, **kw):
    return next(r["score"] for r in route(bank, question, **kw)["results"] if r["path"] == path)


def rarity(bank, word):
    """The concept's weight on purpose, title and headings: how distinctive its words are in the bank."""
    from memorybank.route import _concept_matches
    index = RouteIndex.of(bank)
    return min(map(index.rarity, _concept_matches(index, index.lexicon.concepts(word)[0])))


@pytest.fixture(scope="module")
def fixture_bank():
    bank = Bank(FIXTURE)
    bank.refresh()
    return bank


# -- the fixture bank ---------------------------------------------------------------------------------


def test_canonical_owner_ranks_first_for_its_key_words(fixture_bank):
    result = route(fixture_bank, "filter thresholds")
    first = result["results"][0]
    assert first["path"] == "domain/billing.md"
    assert first["why"] == "owns canonical_for: filter_thresholds; purpose: filter, thresholds; heading"
    assert first["section"] == "Filter thresholds"
    # compact rows (issue 14: five results in ≤ 300 tokens); status appears only when it is not active
    assert set(first) == {"path", "title", "score", "why", "section"}


def test_compound_keys_single_word_does_not_outrank_a_direct_title_match(fixture_bank):
    # billing.md only shares "rounding" with one word of its key invoice_rounding: 5 × (1/2)² × 1.5;
    # invoices.md has that half key plus "rounded" in its purpose: (1.25 + 3) × 1.5.
    ranked = paths(fixture_bank, "rounding")
    assert ranked[0] == "engineering/rounding.md"
    assert ranked.index("engineering/rounding.md") < ranked.index("domain/billing.md")
    assert score(fixture_bank, "rounding", "domain/billing.md") == 1.875
    r = rarity(fixture_bank, "rounding")  # purpose and title weigh × the word's rarity; keys do not
    assert score(fixture_bank, "rounding", "domain/invoices.md") == round((1.25 + 3 * r) * 1.5, 3)
    # its title says the whole question: at least 5 × share² unweighted, over 2 × rarity (route-title)
    assert score(fixture_bank, "rounding", "engineering/rounding.md") == round((3 * r + max(2 * r, 5)) * 1.5, 3)


def test_why_question_puts_the_adr_first(fixture_bank):
    assert top(fixture_bank, "why do we store money as integer cents?") == "adr/ADR-001-integer-cents.md"
    assert top(fixture_bank, "почему храним деньги в целых центах?") == "adr/ADR-001-integer-cents.md"
    assert top(fixture_bank, "为什么用整数存储金额？") == "adr/ADR-001-integer-cents.md"


def test_delivery_documents_rank_below_knowledge_for_the_same_words(fixture_bank):
    ranked = paths(fixture_bank, "invoice export", limit=25)
    assert ranked.index("features/FT-042-invoice-export.md") > ranked.index("adr/ADR-002-queue-for-exports.md")
    assert ranked.index("features/FT-042-invoice-export.md") > ranked.index("domain/invoices.md")


def test_invalid_yaml_document_is_still_routable(fixture_bank):
    assert fixture_bank.docs["product/pricing.md"].parse_error
    result = route(fixture_bank, "pricing tiers")["results"][0]
    assert result["path"] == "product/pricing.md" and result["why"].startswith("owns canonical_for: pricing_tiers")


def test_unrelated_question_returns_nothing_with_a_hint(fixture_bank):
    result = route(fixture_bank, "kubernetes helm quantum")
    assert result["results"] == [] and result["see"] == ["search"]


def test_stopword_only_question_returns_nothing(fixture_bank):
    for question in ("what is the", "где это и как", "的 是 在 哪里"):
        assert route(fixture_bank, question)["results"] == []


def test_templates_are_never_routed(fixture_bank):
    # the ADR template's purpose is all invoice/money/rounding words
    assert "flows/templates/adr.md" not in paths(fixture_bank, "architecture decision record invoices money", limit=25)


FIXTURE_TRIPLES = [
    ("filter thresholds", "пороги фильтрации", "过滤阈值", "domain/billing.md"),
    ("why do we store money as integer cents?", "почему храним деньги в целых центах?", "为什么用整数存储金额？",
     "adr/ADR-001-integer-cents.md"),
    ("invoice numbering", "нумерация счетов", "发票编号", "domain/invoices.md"),
    ("pricing tiers", "ценовые уровни", "定价层级", "product/pricing.md"),
    ("tax rates", "налоговые ставки", "税率", "domain/tax.md"),
    ("rounding modes", "режимы округления", "舍入模式", "engineering/rounding.md"),
    # dna/ (rules about the bank itself) answers when the question is about the bank (issue 18)
    ("dependency rules of this bank", "правила зависимостей в этом банке", "这个知识库的依赖规则", "dna/governance.md"),
    ("request flow and retries", "поток запросов и повторы", "请求流程与重试", "engineering/architecture.md"),
    ("service layout", "структура сервиса", "服务结构", "engineering/architecture.md"),
    ("billing run", "запуск биллинга", "计费运行", "domain/billing.md"),
    ("product scope", "рамки продукта", "产品范围", "product/context.md"),
    ("exporting invoices to accounting systems", "экспорт счетов в бухгалтерские системы", "将发票导出到会计系统",
     "adr/ADR-002-queue-for-exports.md"),
]


@pytest.mark.parametrize("english, russian, chinese, expected", FIXTURE_TRIPLES, ids=[t[0] for t in FIXTURE_TRIPLES])
def test_same_question_in_three_languages_same_first_document_on_fixture(fixture_bank, english, russian, chinese,
                                                                        expected):
    assert [top(fixture_bank, q) for q in (english, russian, chinese)] == [expected] * 3


# -- a bank made by --init plus a few documents ----------------------------------------------------------

ADDED = [  # (path, doc_kind, title, purpose, derived_from, canonical_for), created through the writers
    ("engineering/caching.md", "engineering", "Cache invalidation",
     "When the response cache is invalidated and how long entries live.", "../dna/principles.md", ["cache_ttl"]),
    ("engineering/encryption.md", "engineering", "Encryption keys",
     "How encryption keys are stored, rotated and backed up on the device.", "../dna/principles.md", None),
    ("product/notifications.md", "product", "Push notifications",
     "Which events send a push notification to the user and how users mute them.", "context.md", None),
    ("ops/deployment.md", "ops", "Deployment pipeline",
     "How a release is built, tested and deployed to production servers.", "../dna/principles.md", None),
    ("domain/payments.md", "domain", "Payments", "How a customer payment is captured, refunded and reconciled.",
     "../product/context.md", ["payment_refunds"]),
    ("adr/ADR-001-queue-for-sync.md", "adr", "ADR-001: A queue for background sync",
     "Records the decision to run background synchronization through a job queue instead of timers.",
     "../engineering/caching.md", None),
    ("product/reader.md", "product", "Book covers and chapters",
     "How the reader shows a book's cover image and splits it into chapters.", "context.md", None),
    ("engineering/search-index.md", "engineering", "Search index",
     "How the full-text search index is built and updated.", "../dna/principles.md", ["search_index"]),
]


def init_bank(root):
    """A bank seeded by `bank_init` (the shipped starter) plus ADDED, written through `bank_create`."""
    bank = Bank(root)
    writers.init(bank, "demo")
    for path, kind, title, purpose, upstream, keys in ADDED:
        writers.create(bank, path, kind, title, purpose, derived_from=[upstream], canonical_for=keys,
                       status="active")
    return root


INIT_TRIPLES = [
    ("how is the cache invalidated", "когда сбрасывается кэш", "缓存如何失效", "engineering/caching.md"),
    ("where are encryption keys stored", "где хранятся ключи шифрования", "加密密钥存储在哪里",
     "engineering/encryption.md"),
    ("push notifications", "пуш-уведомления", "推送通知", "product/notifications.md"),
    ("deployment pipeline", "пайплайн деплоя", "部署流水线", "ops/deployment.md"),
    ("customer payment refunds", "возврат платежей клиентов", "客户付款退款", "domain/payments.md"),
    ("why a queue for background sync", "почему очередь для фоновой синхронизации", "为什么用队列做后台同步",
     "adr/ADR-001-queue-for-sync.md"),
    ("book cover image", "обложка книги", "书的封面图片", "product/reader.md"),
    ("search index", "поисковый индекс", "搜索索引", "engineering/search-index.md"),
]


@pytest.fixture(scope="module")
def init_with_docs(tmp_path_factory):
    bank = Bank(init_bank(tmp_path_factory.mktemp("init") / "memory_bank"))
    bank.refresh()
    return bank


@pytest.mark.parametrize("english, russian, chinese, expected", INIT_TRIPLES, ids=[t[0] for t in INIT_TRIPLES])
def test_same_question_in_three_languages_same_first_document_on_init_bank(init_with_docs, english, russian, chinese,
                                                                          expected):
    assert [top(init_with_docs, q) for q in (english, russian, chinese)] == [expected] * 3


def test_init_bank_with_added_documents_is_clean(init_with_docs):
    assert validate(init_with_docs)["summary"]["errors"] == 0


# -- a bank written in Chinese --------------------------------------------------------------------------

CHINESE_BANK = {
    "domain/billing.md": doc("计费与阈值", "每月计费流程以及决定哪些账户需要计费的过滤阈值。",
                             canonical_for=["过滤阈值"], body="## 过滤阈值\n\n余额低于十元的账户本月不计费。\n"),
    "engineering/cache.md": doc("缓存策略", "说明响应缓存何时失效以及条目保存多久。",
                                body="## 失效\n\n缓存失效时间为十分钟，发布新版本时全部清空。\n"),
    "adr/ADR-001-queue.md": doc("ADR-001：使用任务队列导出发票", "记录使用任务队列导出发票而不是同步调用的决定。",
                                body="## 决定\n\n导出任务进入队列，由后台进程处理。\n"),
    "engineering/keys.md": doc("加密密钥管理", "加密密钥如何在设备上存储和轮换。",
                               body="## 轮换\n\n密钥每九十天轮换一次。\n"),
    "product/reader.md": doc("电子书阅读器", "阅读器如何显示封面和章节目录。",
                             body="## 封面\n\n封面图片按原始字节保存。\n"),
}


@pytest.fixture(scope="module")
def chinese_bank(tmp_path_factory):
    bank = Bank(write_bank(tmp_path_factory.mktemp("zh") / "bank", CHINESE_BANK))
    bank.refresh()
    return bank


@pytest.mark.parametrize("question, expected", [
    ("过滤阈值在哪里定义？", "domain/billing.md"),
    ("缓存什么时候失效", "engineering/cache.md"),
    ("为什么用队列导出发票", "adr/ADR-001-queue.md"),
    ("密钥怎么存储和轮换", "engineering/keys.md"),
    ("阅读器怎么显示封面", "product/reader.md"),
    ("filter thresholds", "domain/billing.md"),
    ("пороги фильтрации", "domain/billing.md"),
    ("encryption key rotation", "engineering/keys.md"),
])
def test_bank_written_in_chinese_routes_chinese_and_foreign_questions(chinese_bank, question, expected):
    assert top(chinese_bank, question) == expected


def test_chinese_canonical_key_is_owned(chinese_bank):
    first = route(chinese_bank, "过滤阈值")["results"][0]
    assert first["path"] == "domain/billing.md" and first["why"].startswith("owns canonical_for: 过滤阈值")


# -- scoring rules on small banks -----------------------------------------------------------------------


def small_bank(tmp_path, files):
    bank = Bank(write_bank(tmp_path / "bank", files))
    bank.refresh()
    return bank


def test_field_weights_and_canonical_key_coverage(tmp_path):
    # root files are layer "other" (weight 1.0), status active (1.0): scores are the raw field sums
    bank = small_bank(tmp_path, {
        "owner.md": doc("Owner", "Unrelated words.", canonical_for=["filter_thresholds"]),
        "title.md": doc("Filter", "Unrelated words."),
        "purpose.md": doc("Other", "How to filter things."),
        "heading.md": doc("Other", "Unrelated words.", body="## Filter settings\n\ntext\n"),
    })
    assert score(bank, "filter thresholds", "owner.md") == 5.0
    assert score(bank, "filter", "owner.md") == 1.25  # half the key's words: 5 × (1/2)²
    r = rarity(bank, "filter")  # every document holds it
    assert 0 < r < 1
    assert score(bank, "filter thresholds", "title.md") == round(max(2.0 * r, 5 * 0.5 ** 2), 3)
    assert score(bank, "filter", "title.md") == 5.0  # a title saying the whole question: 5 × share² (route-title)
    assert score(bank, "filter", "purpose.md") == round(3.0 * r, 3)
    assert score(bank, "filter", "heading.md") == pytest.approx(1.0 * r, abs=1e-3)
    # the order also weighs prose (its heading line is body text to search): the row is found by its path
    row = next(r for r in route(bank, "filter")["results"] if r["path"] == "heading.md")
    assert row["section"] == "Filter settings"


def test_prefix_match_needs_four_characters(tmp_path):
    bank = small_bank(tmp_path, {"a.md": doc("Configuration", "Unrelated words.")})
    assert score(bank, "config", "a.md") == 1.8  # the title says the question at prefix 0.6: 5 × 0.6²
    assert route(bank, "con")["results"] == []


def test_translation_scores_nine_tenths_and_typed_form_wins_ties(tmp_path):
    bank = small_bank(tmp_path, {"en.md": doc("Threshold", "Unrelated words."),
                                 "ru.md": doc("Порог", "Unrelated words.")})
    assert route(bank, "threshold")["results"][0]["path"] == "en.md"
    assert score(bank, "threshold", "en.md") == 5.0 and score(bank, "threshold", "ru.md") == 4.05  # 5 × 0.9²
    assert route(bank, "порог")["results"][0]["path"] == "ru.md"


def test_a_concept_scores_once_per_field_however_many_equivalents_match(tmp_path):
    bank = small_bank(tmp_path, {"many.md": doc("Other", "threshold порог 阈值 门限"),
                                 "one.md": doc("Other", "threshold")})
    expected = round(3.0 * rarity(bank, "threshold"), 3)
    assert score(bank, "threshold", "many.md") == score(bank, "threshold", "one.md") == expected


def test_status_and_closed_work_multipliers(tmp_path):
    bank = small_bank(tmp_path, {
        "active.md": doc("Ledger", "x"), "draft.md": doc("Ledger", "x", status="draft"),
        "archived.md": doc("Ledger", "x", status="archived"), "odd.md": doc("Ledger", "x", status="paused"),
        "done.md": doc("Ledger", "x", delivery_status="done"),
        "cancelled.md": doc("Ledger", "x", status="draft", delivery_status="cancelled"),
    })
    scores = {r["path"]: r["score"] for r in route(bank, "ledger", limit=25)["results"]}
    r = rarity(bank, "ledger")
    assert 0 < r < 1  # the title says the whole question: 5, not 2 × r (route-title)
    assert scores == {p: round(5.0 * f, 3) for p, f in {"active.md": 1, "draft.md": 0.7, "archived.md": 0.2,
                                                          "odd.md": 0.9, "done.md": 0.5, "cancelled.md": 0.35}.items()}


def test_layer_weights_default_and_declared(tmp_path):
    files = {"engineering/ledger.md": doc("Ledger", "x"), "features/ledger.md": doc("Ledger", "x"),
             "adr/ledger.md": doc("Ledger", "x"), "dna/principles.md": doc("Principles", "Root.")}
    bank = small_bank(tmp_path, files)
    assert paths(bank, "ledger") == ["engineering/ledger.md", "adr/ledger.md", "features/ledger.md"]
    assert score(bank, "ledger", "features/ledger.md") == round(5 * 0.6, 3)  # its title says the question whole
    table = "| directory | layer | weight |\n|---|---|---|\n| features | delivery | 2.0 |\n"
    (bank.root / "dna/layers.md").write_text(table)
    assert paths(bank, "ledger") == ["features/ledger.md", "engineering/ledger.md", "adr/ledger.md"]


def test_why_intent_boosts_decisions_and_damps_knowledge(tmp_path):
    bank = small_bank(tmp_path, {"engineering/queue.md": doc("Export queue", "x"),
                                 "adr/queue.md": doc("Export queue", "x")})
    assert paths(bank, "export queue") == ["engineering/queue.md", "adr/queue.md"]
    assert paths(bank, "why an export queue") == ["adr/queue.md", "engineering/queue.md"]
    # title 2 × each word's rarity, or 5 × share² when it says the whole question (route-title)
    raw = max(2 * (rarity(bank, "export") + rarity(bank, "queue")), 5.0)
    assert score(bank, "why an export queue", "adr/queue.md") == round(raw * 1.2 * 4 / 3, 3)
    assert score(bank, "why an export queue", "engineering/queue.md") == round(raw * 1.5 * 0.8, 3)
    assert paths(bank, "почему очередь экспорта")[0] == "adr/queue.md"
    assert paths(bank, "为什么用导出队列")[0] == "adr/queue.md"


def test_mixed_script_question_matches_latin_identifiers(tmp_path):
    bank = small_bank(tmp_path, {
        "adr/own-reader.md": doc("Own EPUB reader instead of epubx", "Why we parse EPUB ourselves."),
        "engineering/parser.md": doc("Parser", "How documents are parsed into blocks."),
    })
    assert top(bank, "为什么不用 epubx，而是自己解析 EPUB？") == "adr/own-reader.md"
    assert top(bank, "почему не epubx, а свой парсер EPUB?") == "adr/own-reader.md"


def test_filters_limit_and_stable_order(tmp_path):
    files = {f"engineering/n{i:02d}.md": doc("Ledger", "x", doc_kind="engineering") for i in range(30)}
    files["adr/ledger.md"] = doc("Ledger", "x", doc_kind="adr", status="draft")
    bank = small_bank(tmp_path, files)
    assert paths(bank, "ledger") == [f"engineering/n{i:02d}.md" for i in range(5)]
    assert len(paths(bank, "ledger", limit=100)) == 25
    assert paths(bank, "ledger", doc_kind="adr") == ["adr/ledger.md"]
    assert paths(bank, "ledger", layer="decision") == ["adr/ledger.md"]
    assert paths(bank, "ledger", status="draft") == ["adr/ledger.md"]
    with pytest.raises(BankError, match="Unknown doc_kind 'nothing'"):  # a value nothing could match
        paths(bank, "ledger", doc_kind="nothing")


@pytest.mark.parametrize("kwargs, message", [({"question": "  "}, "Question is empty"),
                                             ({"question": "x", "limit": 0}, "limit must be"),
                                             ({"question": "x", "layer": "archive"}, "Unknown layer")])
def test_bad_arguments_are_refused(tmp_path, kwargs, message):
    bank = small_bank(tmp_path, {"a.md": doc("A", "x")})
    with pytest.raises(BankError, match=message):
        route(bank, **kwargs)


def test_inbox_and_templates_are_never_returned(tmp_path):
    bank = small_bank(tmp_path, {"_inbox/ledger.md": doc("Ledger", "Ledger ledger."),
                                 "flows/templates/ledger.md": doc("Ledger", "Ledger.", doc_function="template"),
                                 "engineering/other.md": doc("Other", "x")})
    assert route(bank, "ledger")["results"] == []


def test_vocabulary_change_is_picked_up_without_restart(tmp_path):
    bank = small_bank(tmp_path, {"engineering/cube.md": doc("Hypercube layout", "x"),
                                 "dna/principles.md": doc("Principles", "Root.")})
    assert route(bank, "гиперкубы")["results"] == []
    (bank.root / "dna/vocabulary.md").write_text("| гиперкуб | hypercube |\n")
    assert top(bank, "гиперкубы") == "engineering/cube.md"


def test_routing_fields_are_tokenised_once_per_parsed_document(tmp_path, monkeypatch):
    files = {f"engineering/d{i}.md": doc(f"Ledger {i}", "x") for i in range(5)}
    files["dna/principles.md"] = doc("Principles", "Root.")
    bank = small_bank(tmp_path, files)
    calls = []
    real = route_module.route_fields
    monkeypatch.setattr(route_module, "route_fields", lambda lex, d: calls.append(d.path) or real(lex, d))
    route(bank, "ledger")
    assert len(calls) == 6
    route(bank, "ledger 3")
    route(bank, "something else")
    assert len(calls) == 6 and RouteIndex.of(bank).derived == 0
    (bank.root / "engineering/d2.md").write_text(doc("Ledger two", "changed"))
    assert top(bank, "ledger two") == "engineering/d2.md"
    assert calls[6:] == ["engineering/d2.md"]
    (bank.root / "engineering/d4.md").unlink()
    assert "engineering/d4.md" not in paths(bank, "ledger")
    (bank.root / "dna/vocabulary.md").write_text("| гроссбух | ledger |\n")
    assert top(bank, "гроссбух 3") == "engineering/d3.md"
    assert RouteIndex.of(bank).derived == 0 and len(calls) == 7 + 6  # vocabulary change: all six re-tokenised once


def test_fast_ranking_equals_scoring_every_document(tmp_path, monkeypatch):
    """The pruned walk must return exactly what scoring every document by the §5 formula returns."""
    import random

    # the prose ranking's vote (route._fused_order) reorders by body text, these bodies' headings
    # included, and so does its floor on the score's vote (s8-gov); without them the order is the
    # score's, which is what the walk must get exactly
    monkeypatch.setattr(route_module, "BODY_VOTE", 0.0)
    monkeypatch.setattr(route_module, "PROSE_FLOOR", 0.0)

    from memorybank.route import _concept_matches

    rng = random.Random(7)
    words = "filter threshold cache sync queue export invoice rounding ledger token session key".split()
    folders = ["engineering", "domain", "adr", "features", "dna", ""]
    files = {}
    for i in range(120):
        folder = rng.choice(folders)
        path = f"{folder}/d{i:03d}.md" if folder else f"d{i:03d}.md"
        sections = "".join(f"## {' '.join(rng.sample(words, 2))}\n\ntext\n\n" for _ in range(rng.randint(0, 3)))
        files[path] = doc(" ".join(rng.sample(words, rng.randint(1, 3))),
                          " ".join(rng.sample(words, rng.randint(0, 5))) or "x",
                          status=rng.choice(["active", "active", "draft", "archived"]),
                          canonical_for=["_".join(rng.sample(words, rng.randint(1, 3)))] if rng.random() < 0.3 else [],
                          delivery_status=rng.choice(["done", "planned"]), body=sections)
    bank = small_bank(tmp_path, files)
    index = RouteIndex.of(bank)

    def reference(question, limit):
        from memorybank.lang import about_bank, why_intent
        concepts = [_concept_matches(index, c) for c in index.lexicon.concepts(question)]
        asked = sum(c.weight for c in index.lexicon.concepts(question))

        def field(terms):
            return sum(max((m.get(t, 0.0) for t, *_ in terms), default=0.0) for m in concepts)

        def rare(terms):  # purpose, title, headings: × the concept's rarity in the bank (issue 14)
            return sum(max((m.get(t, 0.0) for t, *_ in terms), default=0.0) * min(map(index.rarity, m), default=1.0)
                       for m in concepts)

        rows = []
        for ident, fields in index.fields.items():
            docu = bank.docs[index.paths[ident]]
            key = max((min(1.0, field(terms) / len(terms)) ** 2 for _, terms in fields.keys), default=0.0)
            heading = max((rare(terms) for _, terms in fields.sections), default=0.0)
            titled = 2 * rare(fields.title)
            if titled:  # a title saying the whole question (route-title): 5 × its share, squared
                titled = max(titled, 5 * min(1.0, field(fields.title) / asked) ** 2)
            raw = 5 * key + 3 * rare(fields.purpose) + titled + heading
            # dna/ is damped unless the question is about the bank or the document owns a key it says whole
            spared = about_bank(question) or key >= 1.0
            score = round(raw * route_module._multiplier(bank.layer_weights, docu, why_intent(question), spared), 4)
            if score > 0:  # a damped dna/ document or an index ranks after every other one (issue 18)
                later = (docu.layer == "dna" and not spared) or docu.doc_function == "index"
                rows.append((later, -score, docu.path))
        return [(path, round(-neg, 3)) for _, neg, path in sorted(rows)[:limit]]

    for _ in range(60):
        question = " ".join(rng.sample(words + ["why", "порог", "缓存", "thresholds", "sessions"], rng.randint(1, 4)))
        limit = rng.choice([1, 3, 5, 25])
        fast = [(r["path"], r["score"]) for r in route(bank, question, limit=limit)["results"]]
        assert fast == reference(question, limit), question


def test_a_lone_digit_inside_an_identifier_matches_no_version_number(tmp_path):
    # `ISO-639-1` ranked a document whose purpose mentions "0.1.0" through its part `1`.
    files = {"a/lang.md": doc("Language codes", "ISO 639 language validation"),
             "a/news.md": doc("New formats", "Candidates after release 0.1.0")}
    bank = small_bank(tmp_path, files)
    assert paths(bank, "language validation ISO-639-1") == ["a/lang.md"]


def test_one_idea_typed_in_three_languages_counts_once():
    # `invoice 发票 счет` scored 28.5 against 9.375 for `invoice`, with full key credit for one word.
    from conftest import FIXTURE

    from memorybank.bank import Bank
    from memorybank.route import route

    bank = Bank(FIXTURE)
    one, three = route(bank, "invoice")["results"], route(bank, "invoice 发票 счет")["results"]
    assert [(r["path"], r["score"]) for r in three] == [(r["path"], r["score"]) for r in one]
