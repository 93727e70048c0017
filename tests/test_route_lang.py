"""Route across languages and word forms, and prime's bar (issue 14, route-lang).

- a word family meets itself (`limit`/`limiting`/`limitation`), so a Russian or Chinese question,
  translated through a dictionary row's English word, meets English prose written in another form;
- `###` and deeper headings are prose: body evidence counts them (only the title and `## ` sections
  are routing metadata);
- a heading or H1 title word every document's prose uses weighs little; a declared title does not;
- a 3-letter dictionary stem behind a stripped Russian prefix is no match (`на|чаты` is not chat);
- prime stays silent on chat that the segmenter or the dictionary turns into topic words, and points
  at the answer route ranks second even when the first scores far higher.

The routing checks share one CLI process per bank where they can (`--route` answers one question, so
those are in-process library calls plus one real CLI run over the plain bank).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, doc, write_bank

from memorybank.bank import Bank
from memorybank.lang import build_lexicon
from memorybank.lang.english import stem
from memorybank.prime import prime
from memorybank.route import route

# A plain (Cline-style) bank: no frontmatter, the H1 is the title, every page says "project".
PLAIN = {
    "projectbrief.md": "# Project Brief\n\n## Overview\n\nThe project backs up media for a project team.\n",
    "techContext.md": "# Tech Context\n\n## Stack\n\nThe project parses its command line with clap.\n\n"
                      "### Rate limiting\n\nBackoff and retries when a provider throttles.\n",
    "activeContext.md": "# Active Context\n\n## Focus\n\nThe project is limiting concurrent downloads to four, "
                        "so a slow gateway cannot stall the whole run.\n",
    "progress.md": "# Progress\n\n## Done\n\nThe project configured its release pipeline.\n",
}


def top(bank: Bank, question: str) -> str | None:
    results = route(bank, question)["results"]
    return results[0]["path"] if results else None


@pytest.mark.parametrize("family", [("limit", "limiting", "limitation", "limitations"),
                                    ("configure", "configured", "configuration"),
                                    ("deploy", "deployment", "deployments"),
                                    ("localize", "localization"), ("optimize", "optimized", "optimization"),
                                    ("validate", "validation"), ("reliable", "reliability"),
                                    ("manage", "management", "manager"), ("depend", "dependency", "dependent")])
def test_a_word_family_shares_one_stem(family):
    assert len({stem(word) for word in family}) == 1, [stem(word) for word in family]


def test_short_words_keep_their_ending_and_lookalikes_stay_apart():
    # Porter's measure guards short stems: `user` is no `us`, `client` no `cli`, `document` no `docu`
    assert stem("user") == "user" and stem("client") == "client" and stem("document") == "document"
    assert stem("important") != stem("import")  # -ant is not cut
    assert stem("server") == "server" and stem("content") == "content"


def test_a_translated_question_meets_the_body_in_another_word_form(tmp_path: Path):
    bank = Bank(write_bank(tmp_path / "b", PLAIN))
    # ограничение → limitation (the dictionary row's English word) → limit, the stem of the body's `limiting`
    assert top(bank, "ограничение параллельных загрузок") == "activeContext.md"
    assert top(bank, "并发下载的限制") == "activeContext.md"
    # `configured` in prose, `конфигурация` asked
    assert top(bank, "конфигурация релиза") == "progress.md"


def test_a_deeper_heading_is_prose_that_route_finds(tmp_path: Path):
    bank = Bank(write_bank(tmp_path / "b", PLAIN))
    result = route(bank, "how is rate limiting handled")["results"][0]
    assert result["path"] == "techContext.md"
    assert "body: L" in result["why"] and result["section"] == "Stack"  # the `## ` section holding it


def test_a_word_every_page_uses_does_not_let_a_heading_title_outrank_the_prose(tmp_path: Path):
    bank = Bank(write_bank(tmp_path / "b", PLAIN))
    # "project" is in the H1 of projectbrief.md and in every body; "clap" is in one body only
    assert top(bank, "which project parses arguments with clap") == "techContext.md"
    # through the CLI as well (its entry point; the route's real process runs in test_attack_route)
    out = cli_in_process("--root", str(tmp_path / "b"), "--route", "Для чего в проекте нужен clap?", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["results"][0]["path"] == "techContext.md"


def test_a_declared_title_keeps_its_weight_when_the_prose_shares_the_word(tmp_path: Path):
    def title_score(others_say_it: bool) -> float:
        other = "Amounts are rounded half-even.\n" if others_say_it else "Customers pay monthly.\n"
        bank = Bank(write_bank(tmp_path / str(others_say_it), {
            "rounding.md": doc("Rounding", "How money is handled in code.", body="Half-even, always.\n"),
            "billing.md": doc("Billing", "Charging customers.", body=other),
            "tax.md": doc("Tax", "Tax rates.", body=other),
        }))
        return next(r["score"] for r in route(bank, "rounding")["results"] if r["path"] == "rounding.md")

    # a frontmatter title is written to be routed on: other documents' prose does not dilute it
    assert title_score(True) == title_score(False)


def test_a_short_stem_behind_a_russian_prefix_is_no_match():
    lexicon = build_lexicon()
    assert lexicon.russian_stem("начаты") != lexicon.russian_stem("чат")  # на|чаты, not chat
    assert "percent" in lexicon.equivalents(lexicon.russian_stem("процент"), "ru")  # not про|цент
    assert lexicon.russian_stem("задеплоить") == lexicon.russian_stem("деплой")  # a real prefix still strips


def test_prime_is_silent_on_chat_the_dictionary_or_the_segmenter_makes_topical(tmp_path: Path):
    bank = Bank(write_bank(tmp_path / "b", {
        **PLAIN,
        "systemPatterns.md": "# System Patterns\n\n## Problems\n\nEvery problem the worker meets is logged; "
                             "the work queue retries it.\n",
    }))
    for prompt in ("好的，没问题", "Спасибо, всё работает", "thanks, it works now"):
        assert prime(bank, prompt)["documents"] == [], prompt
    # the same words as the subject of a question do prime
    assert prime(bank, "这个项目有哪些问题会被记录？")["documents"]


def test_prime_points_at_the_answer_route_ranks_below_a_much_stronger_first(tmp_path: Path):
    strong = "Downloads, downloads, downloads: the download gateway, download queue and download cache.\n"
    bank = Bank(write_bank(tmp_path / "b", {
        "gateway.md": doc("Download gateway", "The download gateway and its download queue.",
                          canonical_for=["download_gateway"], body=strong),
        "limits.md": doc("Limits", "Throttling.", body="Concurrent downloads are capped at four per gateway.\n"),
        "other.md": doc("Other", "Unrelated.", body="Release notes.\n"),
    }))
    results = route(bank, "download gateway concurrent cap")["results"]
    assert [r["path"] for r in results[:2]] == ["gateway.md", "limits.md"]
    assert results[1]["score"] < results[0]["score"] / 2  # far below the first
    pointed = [d["path"] for d in prime(bank, "download gateway concurrent cap")["documents"]]
    assert "limits.md" in pointed
