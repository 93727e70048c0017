"""Route, session 8 (s8-gov): the prose floor on governed banks.

A page whose purpose names one word of a long question ("purpose: report") came first while the page
whose prose says the whole question came second: the score ranking's first place outvoted the prose
ranking's. Now a row whose title, purpose and keys name fewer than half the question's concepts and
whose prose holds less than half of the strongest candidate's loses its score vote in proportion
(`route._fused_order`). Metadata naming the question, or backed by its own prose, keeps its vote.
Fails on the branch's start (9c85a1f): the report page first. Driven through the real CLI on a small
governed bank built in tmp, and through the real MCP server (its answer equal to the CLI's).
"""

from __future__ import annotations

import pytest
from banks import route_results
from conftest import doc, write_bank

from memorybank import route as route_module

JOBS = {
    "engineering/scheduler.md": doc(
        "Job runner", "How queued jobs are picked up and run.", doc_kind="engineering",
        body="## Locks\n\nWhen two reports are scheduled for the same minute, the nightly exports stall: both\n"
             "reports wait for the one export lock, and the minute passes before either gets it.\n"),
    "domain/reports.md": doc(
        "Reports", "What a report holds and who reads it.", doc_kind="domain",
        body="## Contents\n\nA report lists totals per customer. Finance reads it on Mondays.\n"),
    "ops/exports.md": doc(
        "Exported files", "Where export files land and how long they are kept.", doc_kind="ops",
        body="## Storage\n\nFiles go to the shared bucket and are kept for ninety days.\n"),
    "ops/calendar.md": doc(
        "Calendar", "Which days the office is closed.", doc_kind="ops",
        body="## Holidays\n\nThe office closes on public holidays; nothing is scheduled then.\n"),
}
QUESTION = "why do the nightly exports stall when two reports are scheduled for the same minute?"


pytestmark = pytest.mark.usefixtures("cache_off")


def test_prose_saying_the_question_beats_a_purpose_naming_one_of_its_words(tmp_path):
    root = str(write_bank(tmp_path / "jobs", JOBS))
    rows = route_results(root, QUESTION, real=True)
    assert [row["path"] for row in rows[:2]] == ["engineering/scheduler.md", "domain/reports.md"], rows
    assert rows[0]["why"].startswith("body: L12 ") and rows[0]["section"] == "Locks"
    # the one-word purpose still counts: it stays in the answer with its reason, and its score is unchanged
    assert rows[1]["why"] == "purpose: report"
    assert rows[1]["score"] > rows[0]["score"]


def test_without_the_floor_the_one_word_purpose_led(tmp_path, monkeypatch):
    """The rule is what moves it: with the floor off, the order is the one the branch started from."""
    root = str(write_bank(tmp_path / "jobs", JOBS))
    monkeypatch.setattr(route_module, "PROSE_FLOOR", 0.0)
    rows = route_results(root, QUESTION)
    assert [row["path"] for row in rows[:2]] == ["domain/reports.md", "engineering/scheduler.md"], rows


def test_metadata_naming_the_question_keeps_its_lead(tmp_path):
    root = str(write_bank(tmp_path / "jobs", JOBS))
    # the purpose says both words, the prose of another page says one: the owner of the words stays first
    assert route_results(root, "who reads the report")[0]["path"] \
        == "domain/reports.md"
    # a purpose backed by its own prose keeps its vote
    rows = route_results(root, "how long are export files kept in the bucket")
    assert rows[0]["path"] == "ops/exports.md"
    # a title the question says whole names its document, however little its prose holds
    assert route_results(root, "job runner")[0]["path"] \
        == "engineering/scheduler.md"
    assert route_results(root, "calendar")[0]["path"] == "ops/calendar.md"


def test_the_server_answers_as_the_cli_does(tmp_path):
    """The same order through the real MCP server (`bank_route`), equal to the CLI's `--json`."""
    from mcpkit import Session

    root = write_bank(tmp_path / "jobs", JOBS)
    session = Session(root)
    try:
        served = session.ok("bank_route", {"question": QUESTION})["results"]
    finally:
        session.close()
    assert [row["path"] for row in served[:2]] == ["engineering/scheduler.md", "domain/reports.md"], served
    assert route_results(str(root), QUESTION, real=True) == served
