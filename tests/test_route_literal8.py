"""Literal questions through route and prime (s8-literal, `literal.py`).

A Cline-layout bank where the question's ordinary words favour one file's metadata while only another
file's body names the exact thing asked for: an API call (`CGDisplayCreateImage`), a workflow path
(`.github/workflows/ci.yml`), a version (`v0.3.0`, written `0.3.0` in the body). Route puts the holder
first; the same question without the literal keeps the other file first, so each check fails without
the rule. A name every file restates (the project's own, `RelayKit`) tells the files apart no better
than a word and moves nothing. Prime says nothing to a request naming a flag or identifier the bank
never holds (a short prompt: a pasted log's names are not asked), and still points a prompt naming one
it does hold. Real CLI processes, the real MCP
server, and the CLI's entry point in this process for the variants.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from banks import route_results
from conftest import cli_in_process, run_cli, write_bank

from memorybank.literal import question_literals

CORE = {
    "projectbrief.md": "# Project Brief: RelayKit\n\n## Screenshots and tool calls\n\nRelayKit answers a tool call "
                       "that asks for a screenshot of the screen, and a call that asks which workflow runs the checks "
                       "on a push.\n\n## Workflow\n\nThe checks workflow runs on every push.\n",
    "techContext.md": "# Tech Context: RelayKit\n\n## Stack\n\nRelayKit is written in Swift.\n\n"
                      "```swift\n// CGDisplayCreateImage for the capture\n```\n\n"
                      "The pipeline in .github/workflows/ci.yml builds and tests every push.\n\n"
                      "## Later\n\n- 0.3.0: streaming and multi-display support\n",
    "progress.md": "# Progress: RelayKit\n\n## Plans\n\n- [x] RelayKit plan for the first release features\n"
                   "- [ ] RelayKit plan for the features of the second release\n",
    "activeContext.md": "# Active Context: RelayKit\n\n## Now\n\nRelayKit retries a failed capture three times; "
                        "the retry limit is set in the capture module.\n",
    "systemPatterns.md": "# System Patterns: RelayKit\n\n## Layers\n\nRelayKit keeps the server, the tools and the "
                         "permission checks apart.\n",
}
# (question with a literal, the file holding it, the same question without the literal, the file that then leads)
LITERAL = [
    ("which call takes the screenshot, CGDisplayCreateImage?", "techContext.md",
     "which call takes the screenshot?", "projectbrief.md"),
    ("which checks does .github/workflows/ci.yml run?", "techContext.md", "which checks does the workflow run?",
     "projectbrief.md"),
    ("v0.3.0 计划包含哪些功能？", "techContext.md", "计划包含哪些功能？", "progress.md"),
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("literal8") / "memory-bank", CORE)


def test_literals_are_read_whole_from_the_question():
    assert question_literals("which call takes the screenshot, CGDisplayCreateImage?") == (("cgdisplaycreateimage",),)
    assert question_literals("Что делает флаг --env-vars-file при деплое?") == (("--env-vars-file",),)
    assert question_literals("why does \"RuntimeError: unreachable\" happen?") == (("runtimeerror: unreachable",),)
    assert question_literals("v0.3.0 计划包含哪些功能？") == (("0.3.0", "0.3"),)  # one release (attack8b)
    # words, capitalised words, acronyms, plural acronyms, hyphenated words and bare numbers are not literals
    assert question_literals("Is the HTTP built-in for PDFs on DRM-free hosts in 2025?") == ()
    assert question_literals("how many k8s replicas, and is i18n done?") == ()  # abbreviations written as words
    assert question_literals("is 300ms the flate2 budget?") == (("300ms",), ("flate2",))


@pytest.mark.parametrize("question,holder,plain_question,plain_first", LITERAL)
def test_the_document_holding_the_literal_comes_first(bank, question, holder, plain_question, plain_first):
    real = question == LITERAL[0][0]  # one real process; the rest through the CLI's entry point here
    assert route_results(bank, question, real=real)[0]["path"] == holder
    control = route_results(bank, plain_question)[0]["path"]
    assert control != holder and (plain_first is None or control == plain_first), control


def test_a_name_every_file_restates_moves_nothing(bank):
    with_name = [row["path"] for row in route_results(bank, "how does RelayKit keep the permission checks apart?")]
    without = [row["path"] for row in route_results(bank, "how does it keep the permission checks apart?")]
    assert with_name[0] == without[0] == "systemPatterns.md"


def _prime(bank: Path, prompt: str, real: bool = False) -> dict:
    proc = (run_cli if real else cli_in_process)("--root", str(bank), "--prime", prompt, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_prime_is_silent_on_a_literal_the_bank_never_holds(bank):
    assert _prime(bank, "what is the retry limit of a failed capture?")["documents"]  # on topic: it speaks
    assert _prime(bank, "rename MAX_RETRIES to CAPTURE_RETRY_LIMIT", real=True) == {"documents": [], "text": ""}
    assert _prime(bank, "what does git log --oneline print for the capture retries?")["documents"] == []
    pasted = "what is the retry limit of a failed capture? " + "capture_retry failed in capture_mod.py line 12 " * 6
    assert _prime(bank, pasted)["documents"]  # a paste's names are not what the prompt asks about
    named = _prime(bank, "what does CGDisplayCreateImage capture?", real=True)["documents"]
    assert named and named[0]["path"] == "techContext.md"


def test_route_through_the_mcp_server_answers_as_the_cli(scratch_server):
    session = scratch_server
    root = session.load(CORE)
    for question, holder, _, _ in LITERAL:
        served = session.ok("bank_route", {"question": question})["results"]
        assert served[0]["path"] == holder, (question, served)
        cli = cli_in_process("--root", str(root), "--route", question, "--json")
        assert json.loads(cli.stdout)["results"] == served
