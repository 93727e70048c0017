"""A warm bank after a delete answers as a fresh one (found at the end of session 5).

A warm body index keeps a removed document's postings until it compacts. Route and search asked "is
this identifier known whole?" by `term in postings`, which stayed true for a word only the deleted
file held: the whole identifier (weight of a word no page holds, no evidence) was scored instead of
its parts (`ModuleNotFoundError` → module, not, found, error), and a warm server ranked unlike a fresh
call. `SearchIndex.holds` asks for a live holder.
"""

from __future__ import annotations

import json

from conftest import cli_in_process, write_bank
from mcpkit import payload

from memorybank.bank import Bank
from memorybank.route import route
from memorybank.search import search

FILES = {
    "notes.md": "# Notes\n\n## Crash\n\nThe worker raised ModuleNotFoundError when src was not on the path.\n",
    "deploy.md": "# Deploy\n\n## Imports\n\nA module that is not found at deploy time is an import error; "
                 "imports name the package, never src.\n",
    "errors.md": "# Errors\n\n## Kinds\n\nA missing module shows up as an error the loader raises.\n",
    "other.md": "# Other\n\n## Misc\n\nNothing about imports here.\n",
}
QUESTION = "why did it crash with ModuleNotFoundError for src?"


def test_a_warm_bank_after_a_delete_answers_as_a_fresh_bank(tmp_path):
    root = write_bank(tmp_path / "bank", FILES)
    warm = Bank(root)
    warm.refresh()
    before = route(warm, QUESTION)
    assert before["results"][0]["path"] == "notes.md"
    (root / "notes.md").unlink()
    warm.refresh()
    fresh = Bank(root)
    fresh.refresh()
    assert route(warm, QUESTION) == route(fresh, QUESTION)
    assert search(warm, QUESTION) == search(fresh, QUESTION)
    # the identifier's parts still find the page that says them
    assert route(fresh, QUESTION)["results"][0]["path"] == "deploy.md"


def test_a_warm_server_after_a_delete_answers_as_a_fresh_call(scratch_server):
    root = scratch_server.load(FILES)
    scratch_server.ok("bank_route", {"question": QUESTION})
    (root / "notes.md").unlink()
    served = payload(scratch_server.call("bank_route", {"question": QUESTION}))
    fresh = cli_in_process("--root", str(root), "--route", QUESTION, "--json", env={"MEMORYBANK_CACHE": "off"})
    assert [(r["path"], r["score"]) for r in served["results"]] == \
        [(r["path"], r["score"]) for r in json.loads(fresh.stdout)["results"]]
