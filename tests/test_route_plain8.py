"""Route on a Cline-layout bank whose core files restate one fact (issue 14, route-plain8).

The bank below says twice that uploads go one at a time — the tech context lists it among its limits,
the active context records it as a decision with the reason on the next line — and twice that a broken
upload resumes — the brief names it in its scope, the system patterns describe how. Asked *why*, route
reaches the file giving the reason (`answertype`: a reason line, plain banks only) and `why` quotes its
line; asked *how*, the file describing the mechanism comes before the overview restating that it exists
(`layout.overview_damped`); asked *whom it is for*, the product context (`layout.asks_who_for`). The same
words asked without why or how keep the other file first, so each check fails without its rule. One real
CLI process; the rest through its entry point here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from banks import route_results
from conftest import write_bank

from memorybank.answertype import answer_types
from memorybank.layout import asks_how, asks_who_for

CORE = {
    "projectbrief.md": "# Project Brief: ferry\n\n## Scope\n\nferry uploads photo folders to cloud storage. It can "
                       "resume a broken upload, and it sends uploads one at a time.\n",
    "productContext.md": "# Product Context: ferry\n\n## Why\n\nPhotographers lose evenings re-sending folders after a "
                         "dropped connection; ferry exists so that a trip's photos reach storage unattended.\n",
    "activeContext.md": "# Active Context: ferry\n\n## Decisions\n\n- Uploads go out one at a time for now.\n"
                        "  - This approach keeps the client under the storage API quota.\n\n## Next\n\n"
                        "- Thumbnails for the web gallery.\n",
    "systemPatterns.md": "# System Patterns: ferry\n\n## Upload pipeline\n\nA folder is split into chunks, and each "
                         "stored chunk is written to a manifest. To resume a broken upload the client reads the "
                         "manifest, skips the stored chunks and sends the missing ones; a chunk is checksummed "
                         "before the manifest records it, so a half-written chunk is sent again.\n",
    "techContext.md": "# Tech Context: ferry\n\n## Limits\n\nUploads are sent one at a time; parallel uploads are not "
                      "supported. Written in Go; the storage client is the vendor's SDK.\n",
    "progress.md": "# Progress: ferry\n\n## Status\n\n- ✅ Chunked uploads\n- ⬜ Parallel uploads\n",
}


def _route(bank: Path, question: str, first: bool = False) -> list[dict]:
    return route_results(bank, question, "--limit", "3", real=first)


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("plain8") / "memory-bank", CORE)


@pytest.mark.parametrize("question", ["why are uploads sent one at a time?", "为什么上传一次只发一个？"])
def test_a_why_question_reaches_the_file_giving_the_reason(bank, question):
    results = _route(bank, question, first=question.startswith("why"))
    assert results[0]["path"] == "activeContext.md", results
    assert 'body: L5 "Uploads go out one at a time fo' in results[0]["why"]  # the line whose next line says why
    control = _route(bank, "uploads sent one at a time")
    assert control[0]["path"] == "techContext.md", control  # the words alone: the limits page leads


def test_a_how_question_reaches_the_mechanism_before_the_overview(bank):
    results = _route(bank, "how does ferry resume a broken upload?")
    assert [r["path"] for r in results[:2]] == ["systemPatterns.md", "projectbrief.md"], results
    control = _route(bank, "resume a broken upload")
    assert control[0]["path"] == "projectbrief.md", control  # asked without how, the short overview leads


def test_the_reason_type_is_asked_only_for_a_laid_out_bank_and_how_is_read_in_three_languages():
    for question in ("why are uploads sent one at a time?", "Почему загрузки идут по одной?", "为什么只上传一个？"):
        assert answer_types(question) == ()  # a governed bank's decision records carry reasons already
        assert answer_types(question, reasons=True) == ("reason",)
    asked = ["how does the parser turn links into files", "How is the token checked?", "how to build it",
             "Как программа справляется с лимитами?", "Каким образом хранится состояние?", "链接是怎么识别的？",
             "如何恢复上传？"]
    assert [q for q in asked if not asks_how(q)] == []
    not_asked = ["how many tokens are left?", "how often does it run?", "Как часто идёт проверка?",
                 "Это сделано так, как задумано?", "为什么选择 Swift？", "what is the project about?"]
    assert [q for q in not_asked if asks_how(q)] == []


def test_a_bank_not_laid_out_keeps_its_order(tmp_path):
    # the same files under other names: no layout, so neither rule applies and the words alone decide
    names = {"projectbrief.md": "scope.md", "activeContext.md": "notes.md", "systemPatterns.md": "design.md",
             "techContext.md": "limits.md", "productContext.md": "why.md", "progress.md": "status.md"}
    other = write_bank(tmp_path / "bank", {names[name]: text for name, text in CORE.items()})
    assert _route(other, "why are uploads sent one at a time?")[0]["path"] == "limits.md"
    assert _route(other, "how does ferry resume a broken upload?")[0]["path"] == "scope.md"


def test_the_words_no_row_held_reach_the_page_saying_them(tmp_path):
    # thesaurus rows (route-plain8): мешать / 阻碍 is a blocker, 限流 a limit, 图形界面 a GUI; each page says
    # one of them in English and no other word of the question, so without the row nothing is found
    pages = {"blockers.md": "# Notes\n\n## Current Blockers\n\n- The signing certificate expired.\n",
             "limits.md": "# Notes\n\n## Rate limiting\n\nThe upstream API limits us to ten calls a second.\n",
             "scope.md": "# Notes\n\n## Non-goals\n\nNo GUI version is planned; the tool stays a command line.\n"}
    bank = write_bank(tmp_path / "bank", pages)
    for question, page in (("Что сейчас мешает?", "blockers.md"), ("遇到了什么阻碍？", "blockers.md"),
                           ("限流是多少？", "limits.md"), ("有没有图形界面？", "scope.md")):
        results = _route(bank, question)
        assert results and results[0]["path"] == page, (question, results)


@pytest.mark.parametrize("question", ["who is ferry for?", "Для кого ferry?", "谁会使用 ferry？"])
def test_a_question_asking_whom_the_project_is_for_reaches_the_product_context(bank, question):
    # every core title says `ferry`, no file says who in the question's words: the target users are the
    # product context's job (layout.asks_who_for); without the rule the titles tie and another file leads
    results = _route(bank, question)
    assert results[0]["path"] == "productContext.md", results
    assert results[0]["why"].startswith("layout: productContext"), results[0]
    assert not asks_who_for("how could someone who has trouble moving benefit?")  # a relative pronoun asks nothing
    assert not asks_who_for("who else does this?")
