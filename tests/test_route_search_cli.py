"""The CLI faces of routing and search: readable text, exact JSON, filters, hints and refusals."""

import json

from conftest import FIXTURE, cli_in_process, run_cli

from memorybank.bank import Bank
from memorybank.route import route
from memorybank.search import search


def test_route_text_shows_score_path_title_facets_and_why():
    proc = run_cli("--root", str(FIXTURE), "--route", "filter thresholds")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    first = route(Bank(FIXTURE), "filter thresholds")["results"][0]  # the text face renders the capability's row
    assert lines[0].split() == [f"{first['score']:.2f}", "domain/billing.md", "Billing"]
    assert lines[1].strip() == "→ read § Filter thresholds"  # results are compact: no kind · layer · status
    assert lines[2].strip().startswith("owns canonical_for: filter_thresholds")


def test_route_json_is_exactly_the_capability_dict():
    proc = cli_in_process("--root", str(FIXTURE), "--route", "пороги фильтрации", "--limit", "3", "--json")
    bank = Bank(FIXTURE)
    assert json.loads(proc.stdout) == route(bank, "пороги фильтрации", limit=3)
    assert "\n" not in proc.stdout.strip()


def test_route_filters_by_kind_and_layer():
    proc = cli_in_process("--root", str(FIXTURE), "--route", "invoice", "--kind", "adr", "--layer", "decision",
                          "--json")
    found = json.loads(proc.stdout)["results"]
    bank = Bank(FIXTURE)
    bank.refresh()
    # rows are compact (no kind or layer); the filter holds for the documents behind them
    assert found and {bank.docs[r["path"]].doc_kind for r in found} == {"adr"}
    assert {bank.docs[r["path"]].layer for r in found} == {"decision"}


def test_search_text_shows_path_line_and_excerpt_and_json_matches():
    proc = run_cli("--root", str(FIXTURE), "--search", "FT-042", "--limit", "1")
    assert proc.returncode == 0, proc.stderr
    head, where = proc.stdout.splitlines()
    assert "features/FT-042-invoice-export.md" in head and "(feature · delivery · active)" in head
    result = search(Bank(FIXTURE), "FT-042", limit=1)["results"][0]
    assert where.strip() == f"{result['path']}:{result['line']}  {result['excerpt']}"
    proc = cli_in_process("--root", str(FIXTURE), "--search", "FT-042", "--limit", "1", "--json")
    assert json.loads(proc.stdout) == search(Bank(FIXTURE), "FT-042", limit=1)


def test_no_match_prints_the_hint_and_exits_0():
    proc = cli_in_process("--root", str(FIXTURE), "--route", "kubernetes helm quantum")
    assert proc.returncode == 0 and "(see `mcp-memorybank search`)" in proc.stdout
    proc = cli_in_process("--root", str(FIXTURE), "--search", "zzqqxx")
    assert proc.returncode == 0 and "(see `mcp-memorybank route`)" in proc.stdout


def test_refusals_go_to_stderr_with_exit_1():
    proc = cli_in_process("--root", str(FIXTURE), "--route", "x", "--layer", "archive")
    assert proc.returncode == 2 and "Unknown layer" in proc.stderr and proc.stdout == ""  # not an allowed value
    proc = cli_in_process("--root", str(FIXTURE), "--search", "")
    assert proc.returncode == 1 and "Query is empty" in proc.stderr


def test_route_and_search_over_mcp_return_the_capability_dicts(shared_servers):
    session = shared_servers("legacy")  # read-only: the worker's shared server over fixture-bank/
    routed = session.ok("bank_route", {"question": "пороги фильтрации", "limit": 2})
    found = session.ok("bank_search", {"query": "FT-042", "layer": "delivery"})
    bad = session.call("bank_route", {"question": "x", "layer": "archive"})
    bank = Bank(session.root)
    assert routed == route(bank, "пороги фильтрации", limit=2)
    assert found == search(bank, "FT-042", layer="delivery")
    assert bad.is_error and "Unknown layer" in bad.content[0].text
