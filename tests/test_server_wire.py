"""Requests the SDK cannot read still get an answer; long inputs and large banks give bounded answers.

Found by an adversarial run against the real server: a lone surrogate escape, deep nesting or a
4,301-digit number made the SDK drop the request silently (the client waited forever); a 100 KB
path came back as an internal error quoting it in full; a bank with thousands of findings answered
bank_validate with megabytes.
"""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURE, doc, write_bank

from memorybank.bank import Bank
from memorybank.errors import BankError, clip
from memorybank.read import read
from memorybank.route import route
from memorybank.server.wire import INVALID, sanitize
from memorybank.validate import validate, validate_for_agents

CALL = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"bank_route","arguments":%s}}'
UNREADABLE = {
    "surrogate": '{"question":"\\ud800"}',
    "nesting": '{"question":"x","a":' + "[" * 300 + "]" * 300 + "}",
    "python-deep nesting": '{"question":"x","a":' + "[" * 50_000 + "]" * 50_000 + "}",
    "huge number": '{"question":"x","limit":' + "9" * 4400 + "}",
}


@pytest.mark.parametrize("arguments", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_an_unreadable_tool_call_becomes_a_marked_call_with_the_same_id(arguments):
    rewritten = json.loads(sanitize(CALL % (7, arguments)))
    assert rewritten["id"] == 7 and rewritten["params"]["name"] == "bank_route"
    assert list(rewritten["params"]["arguments"]) == [INVALID]


def test_readable_lines_and_lines_nobody_waits_for_pass_unchanged():
    fine = CALL % (1, '{"question":"invoice"}')
    assert sanitize(fine) is fine
    for line in ("not json at all", '{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"\\ud800"}}'):
        assert sanitize(line) == line


def test_the_real_server_answers_every_unreadable_request_and_keeps_serving(raw_wire):
    """The worker's real server over raw stdio on a copy of fixture-bank/ (conftest `raw_wire`)."""
    def ask(line: str) -> dict:
        return raw_wire.ask(line.encode("utf-8"))

    for n, arguments in enumerate(UNREADABLE.values(), 1):
        answer = ask(CALL % (n, arguments))
        assert answer["id"] == n and answer["result"]["isError"] is True
        assert "cannot be read" in answer["result"]["content"][0]["text"]
    listing = ask('{"jsonrpc":"2.0","id":20,"method":"tools/list","params":{"cursor":"\\ud800"}}')
    assert listing["id"] == 20 and listing["error"]["code"] == -32602
    long_path = ask(CALL.replace("bank_route", "bank_read") % (21, json.dumps({"path": "x" * 100_000})))
    text = long_path["result"]["content"][0]["text"]
    assert long_path["result"]["isError"] and text.startswith("Path is too long") and len(text) < 400
    ok = ask(CALL % (22, '{"question":"invoice rounding","limit":3.0}'))
    assert json.loads(ok["result"]["content"][0]["text"])["results"][0]["path"] == "domain/invoices.md"


def test_refusals_cut_echoed_values():
    message = clip("Section " + "z" * 1_000_000 + " not found. Available: Goals.")
    assert len(message) < 200 and message.endswith("not found. Available: Goals.")
    assert len(clip("word " * 100_000)) < 2100


def test_validate_lists_at_most_a_hundred_findings_for_agents_and_counts_them_all(tmp_path):
    files = {"README.md": doc(title="Root", doc_function="index")}
    files.update({f"notes/n{i}.md": doc(title=f"N{i}", derived_from=["../missing.md"]) for i in range(130)})
    bank = Bank(write_bank(tmp_path / "bank", files))
    full = validate(bank)
    capped = validate_for_agents(bank)
    assert len(full["findings"]) == full["summary"]["total"] > 100
    assert len(capped["findings"]) == 100 and capped["summary"] == full["summary"]
    assert capped["truncated"].startswith(f"first 100 of {full['summary']['total']} findings")


def test_a_batch_read_answers_repeats_once_and_caps_its_lists():
    bank = Bank(FIXTURE)
    result = read(bank, ["domain/billing.md"] * 2000 + [f"nope-{i}.md" for i in range(40)])
    assert [d["path"] for d in result["documents"]] == ["domain/billing.md"]
    assert len(result["failed"]) == 25 and result["failed_more"] == 15


def test_a_filter_value_nothing_could_match_is_refused_with_the_values_to_use():
    bank = Bank(FIXTURE)
    with pytest.raises(BankError, match="Unknown status 'bogus'.*Use one of: .*active"):
        route(bank, "invoice", status="bogus")
    assert route(bank, "invoice", doc_kind="adr")["results"]


def test_a_batch_item_without_a_path_fails_alone():
    # The schema required `path` in every item, so one bad item refused the whole batch.
    from jsonschema import Draft202012Validator

    from memorybank.server.tools import BY_NAME

    args = {"path": [{"section": "Decision"}, "adr/ADR-001-integer-cents.md"]}
    assert not list(Draft202012Validator(BY_NAME["bank_read"].schema).iter_errors(args))
    result = read(Bank(FIXTURE), args["path"])
    assert [d["path"] for d in result["documents"]] == ["adr/ADR-001-integer-cents.md"]
    assert result["failed"] == [{"path": "(missing)", "error": "each item needs a string `path`: give {path, section}"}]
