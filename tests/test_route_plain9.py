"""Route on a Cline-layout bank when a question's *form* asks for one core file's job (route-plain9).

Every file below names parallel uploads, a web gallery or the manifest; which one answers depends on
what the question asks of them: whether it is planned at all (the brief's scope), how far along it is (the
progress file), what is being done now (the active context), a walk through the flow (the system patterns),
which library does it (the tech context). `layout.asked_roles` reads those forms in English, Russian and
Chinese and the role they ask for meets the question as a who-for question meets the product context's. Each
question's words alone put another file first (the control), so each check fails without the rule. One real
CLI process; the rest through its entry point here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from banks import route_results
from conftest import write_bank

from memorybank.layout import asked_roles

CORE = {
    "projectbrief.md": "# Project Brief: ferry\n\n## Scope\n\nferry uploads photo folders to cloud storage. "
                       "A web gallery and parallel uploads are not part of the first version.\n",
    "productContext.md": "# Product Context: ferry\n\n## Why\n\nPhotographers lose evenings re-sending folders; "
                         "ferry exists so that a trip's photos reach storage unattended.\n",
    "activeContext.md": "# Active Context: ferry\n\n## Notes\n\n- Parallel uploads: sketching the chunk queue.\n"
                        "- A web gallery was asked for again; the gallery mock-up is in the wiki.\n",
    "systemPatterns.md": "# System Patterns: ferry\n\n## Upload pipeline\n\nA folder is split into chunks; each "
                         "stored chunk is written to the manifest, and a resumed upload reads the manifest first. "
                         "Parallel uploads would share one manifest.\n",
    "techContext.md": "# Tech Context: ferry\n\n## Stack\n\nWritten in Go; the manifest is kept with bbolt, the "
                      "storage client is the vendor's SDK. Parallel uploads would use errgroup.\n",
    "progress.md": "# Progress: ferry\n\n## Items\n\n- ⬜ Parallel uploads\n- ⬜ Windows client\n"
                   "- ✅ Manifest and resumed uploads\n",
}


def _route(bank: Path, question: str, first: bool = False) -> list[dict]:
    return route_results(bank, question, "--limit", "3", real=first)


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("plain9") / "memory-bank", CORE)


@pytest.mark.parametrize("question, path", [
    ("will it ever offer a web gallery?", "projectbrief.md"),
    ("Будет ли у ferry веб-галерея?", "projectbrief.md"),
    ("how far along are parallel uploads?", "progress.md"),
    ("并行上传还剩多少没做？", "progress.md"),
    ("what is being done on parallel uploads right now?", "activeContext.md"),
    ("walk me through the manifest of a resumed upload", "systemPatterns.md"),
    ("which library keeps the manifest?", "techContext.md"),
])
def test_a_question_asking_for_a_core_files_job_reaches_that_file(bank, question, path):
    results = _route(bank, question, first=question.startswith("will"))
    assert results[0]["path"] == path, results
    assert results[0]["why"].startswith(f"layout: {path[:-3]}"), results[0]


def test_the_forms_are_read_in_three_languages_and_plain_words_ask_no_role():
    assert asked_roles("is anything out of scope?") == ["projectbrief"]
    assert asked_roles("Сколько процентов уже сделано?") == ["progress"]
    assert asked_roles("现在主要在忙什么？") == ["activecontext"]
    assert asked_roles("Опиши по шагам, как бот находит ссылки") == ["systempatterns"]
    assert asked_roles("what permission grant rate are we aiming for") == []  # a noun, not the setup
    assert asked_roles("How must the Slack bot token be set up?") == []
    assert asked_roles("web gallery") == []


def test_the_mcp_server_routes_by_the_asked_role_too(scratch_server):
    """The rule lives in route's core, so the real server over stdio answers as the CLI does."""
    scratch_server.load(CORE)
    for question, path in (("how far along are parallel uploads?", "progress.md"),
                           ("which library keeps the manifest?", "techContext.md")):
        result = scratch_server.call("bank_route", {"question": question, "limit": 3})
        assert not result.is_error, result
        rows = json.loads(result.content[0].text)["results"]
        assert rows[0]["path"] == path and rows[0]["why"].startswith(f"layout: {path[:-3]}"), rows
