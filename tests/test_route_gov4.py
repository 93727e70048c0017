"""Route, session 7 (route-gov4): one common metadata word must not beat prose that says the question.

- On governed banks a document whose purpose or title says one word of a long question ("purpose:
  parcel") led while the page whose prose says the rest of it came second or lower: the score ranking
  adds a purpose word at 3 × its rarity whatever the question's length, and the prose ranking voted
  only half. The prose ranking now votes ¾, and weighs each row's prose by its multiplier where that
  is below 1 (delivery, draft, archived, done work), so a delivery page does not outvote knowledge
  with the same words (test_route's layer test).
- A stronger prose vote must not push a document the question names by its title below where its
  score puts it: such a row votes at its score's rank when its prose ranks lower.
Both fail on main ea91295. Driven through the real CLI on small governed banks built in tmp.
"""

from __future__ import annotations

import json

import pytest
from conftest import cli_in_process, doc, run_cli, write_bank

DEPOT = {
    "domain/parcels.md": doc(
        "Parcels", "What a parcel is, from booking to delivery.", doc_kind="domain",
        body="## Lifecycle\n\nA parcel is booked by a sender, collected by a driver and delivered to a door.\n"
             "Every parcel carries a tracking number; a parcel that cannot be delivered goes back.\n"),
    "engineering/conveyor-line.md": doc(
        "Conveyor line", "How the sorting belts move items between bays.", doc_kind="engineering",
        body="## Belts\n\nThe belts run in three loops around the bays.\n\n## Weight limit\n\n"
             "At the depot, anything heavier than twenty kilos is split in two and gets two labels, one per half:\n"
             "the belt scale stops on heavier loads, so heavy parcels are split before they reach it.\n"),
    "ops/depot-shifts.md": doc(
        "Shift rota", "Who works which hours at each site.", doc_kind="ops",
        body="## Rota\n\nThe depot runs two shifts. Labels are printed by the early shift.\n"),
    "ops/printing.md": doc(
        "Printers", "Which printers the sites use.", doc_kind="ops",
        body="## Models\n\nLabels come from thermal printers; two spare printers sit at the depot.\n"),
}

RETRIES = {
    "engineering/retry-budget.md": doc(
        "Retry budget", "How many times a failed call is tried again.", doc_kind="engineering",
        body="## Rule\n\nA call is tried again at most three times, with a growing pause.\n"),
    "ops/incident-2031.md": doc(
        "Outage review", "What went wrong during the night outage.", doc_kind="ops",
        body="## Timeline\n\nThe retry storm ate the budget: every retry spent budget, retry after retry,\n"
             "until the budget for retries was gone and retry traffic filled the queue.\n"),
    "ops/costs.md": doc(
        "Cloud costs", "What the hosting bill is made of.", doc_kind="ops",
        body="## Budget\n\nThe monthly budget covers compute; a retry costs a request, so retries eat budget.\n"),
    "ops/queue.md": doc(
        "Queue limits", "How deep the work queue may grow.", doc_kind="ops",
        body="## Depth\n\nRetry traffic counts against the budget of the queue; a retry over budget waits.\n"),
    "domain/billing.md": doc(
        "Billing", "How customers are charged.", doc_kind="domain",
        body="## Charges\n\nA retry is never billed twice; the budget of a customer ignores a retry.\n"),
}


def _rows(done) -> list[dict]:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["results"]


pytestmark = pytest.mark.usefixtures("cache_off")


def test_prose_saying_the_question_beats_a_purpose_saying_one_common_word(tmp_path):
    """main: parcels.md first (`purpose: parcel`), the page whose prose answers second."""
    root = str(write_bank(tmp_path / "depot", DEPOT))
    question = "why does the depot split heavy parcels over twenty kilos into two labels"
    rows = _rows(run_cli("--root", root, "--route", question, "--json"))
    assert rows[0]["path"] == "engineering/conveyor-line.md", rows
    assert rows[0]["why"].startswith("body: L16 ") and rows[0]["section"] == "Weight limit"
    # the one-word purpose still counts: it stays in the answer, with its reason
    parcels = next(row for row in rows if row["path"] == "domain/parcels.md")
    assert parcels["why"] == "purpose: parcel"
    # a short question that the purpose says whole still goes to its owner
    assert _rows(cli_in_process("--root", root, "--route", "parcel", "--json"))[0]["path"] == "domain/parcels.md"


def test_a_title_the_question_says_whole_keeps_the_place_its_score_gives_it(tmp_path):
    """main: the outage review (prose full of both words) above the page titled with the question."""
    root = str(write_bank(tmp_path / "retries", RETRIES))
    rows = _rows(run_cli("--root", root, "--route", "retry budget", "--json"))
    assert [row["path"] for row in rows][:2] == ["engineering/retry-budget.md", "ops/incident-2031.md"], rows
    assert rows[0]["why"] == "title"
    for question in ("Retry Budget", "budget retry", "retry budgets"):  # any case, order or form
        first = _rows(cli_in_process("--root", root, "--route", question, "--json"))[0]
        assert first["path"] == "engineering/retry-budget.md", question


def test_the_prose_vote_keeps_the_layer_weights(tmp_path):
    """Two pages with the same prose: the knowledge page ranks above the delivery page."""
    body = "## Notes\n\nThe ledger export runs nightly and writes one file per account.\n"
    root = str(write_bank(tmp_path / "layers", {
        "features/FT-001-ledger/brief.md": doc("Nightly job", "Delivery plan.", doc_kind="feature", body=body),
        "domain/ledger.md": doc("Accounts", "What an account holds.", doc_kind="domain", body=body),
        "ops/runbook.md": doc("Runbook", "What to do when a job fails.", doc_kind="ops",
                              body="## Jobs\n\nA failed export is started again by hand.\n"),
    }))
    paths = [row["path"] for row in _rows(cli_in_process(
        "--root", root, "--route", "when does the ledger export write its file for each account", "--json"))]
    assert paths.index("domain/ledger.md") < paths.index("features/FT-001-ledger/brief.md"), paths
