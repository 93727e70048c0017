"""A thesaurus row names its concept in single words: a phrase's words became English words of the row on
their own, so 根因 ("root cause") met every page saying *root* and 拉取请求 ("pull request") every page
saying *request* (attack-route7)."""

from __future__ import annotations

import json

import pytest
from conftest import doc, run_cli, write_bank

from memorybank.lang import thesaurus


def test_no_thesaurus_row_holds_an_english_phrase():
    phrases = [item.strip() for line in thesaurus.ROWS.strip().splitlines()
               for item in line.split("|")[0].split(",") if len(item.split()) > 1]
    assert phrases == []


@pytest.mark.parametrize("question, wrong", [("登录失败的根因", "ops/layout.md"),
                                             ("拉取请求怎么审查", "engineering/http.md")])
def test_a_phrase_concept_does_not_reach_pages_saying_one_of_its_words(tmp_path, question, wrong):
    root = write_bank(tmp_path / "bank", {
        "dna/principles.md": doc("Principles", "Root of the bank."),
        "ops/layout.md": doc("Project root folder", "What lives at the root of the repository.",
                             body="## Root\n\nThe root holds the build files.\n"),
        "engineering/http.md": doc("HTTP client", "How a request is sent and retried.",
                                   body="## Request\n\nEvery request carries a timeout.\n"),
        "engineering/login.md": doc("Login", "Sign-in flow.", body="## Failures\n\n登录失败时记录错误。\n"),
    })
    out = run_cli("--root", str(root), "--route", question, "--json")
    assert out.returncode == 0, out.stderr
    assert wrong not in [r["path"] for r in json.loads(out.stdout)["results"]]
