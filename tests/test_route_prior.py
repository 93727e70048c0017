"""Route on tiny plain banks: a prior on general word frequency, and version numbers as one token (issue 14).

- in a six-page bank every word looks rare: an everyday word (`tool`, `set`) that only the short
  overview page holds must not outweigh a domain word (`gateway`) that the answer holds; the prior
  (`lang/everyday.py`) reads an everyday word's document frequency as smoothed toward one page in two,
  and fades as the bank grows;
- `0.1.0` meets `v0.1.0` in both directions, in route and in search, while identifiers (`FT-042`,
  `GCP_SA_KEY`, `db.session()`) stay findable whole.

One real CLI process drives the route face; the other variants go through the CLI's entry point in-process.
"""

from __future__ import annotations

import json

from conftest import cli_in_process, run_cli, write_bank

from memorybank.lang import build_lexicon
from memorybank.lang.everyday import everyday_df

# A plain (Cline-style) bank: no frontmatter, six pages; the overview is the only page saying "tool".
PLAIN = {
    "projectbrief.md": "# Project Brief\n\nA small tool that keeps copies of a team's pictures and videos, "
                       "so nothing is lost when a host goes away.\n",
    "productContext.md": "# Product Context\n\n## Why\n\nHosts vanish and take the pictures with them; "
                         "people want their copies.\n",
    "systemPatterns.md": "# System Patterns\n\n## Fetching\n\nIPFS addresses are rewritten to a gateway URL "
                         "before each download, and the gateway is tried three times.\n",
    "techContext.md": "# Tech Context\n\n## Stack\n\nRust 1.80 with tokio 1.0 and reqwest 0.11; the IPFS "
                      "gateway defaults to ipfs.io. Deploys need GCP_SA_KEY; the ticket is FT-042; "
                      "queries go through db.session().\n",
    "activeContext.md": "# Active Context\n\n## Focus\n\nParallel downloads are being added behind a flag; "
                        "0.2.0 drops the old layout.\n",
    "progress.md": "# Progress\n\n## Release\n\nTarget v0.1.0: the first public release.\n\n## Done\n\n"
                   "Pictures and videos are saved.\n",
}


def _paths(out) -> list[str]:
    assert out.returncode == 0, out.stderr
    return [row["path"] for row in json.loads(out.stdout)["results"]]


def test_an_everyday_word_only_the_overview_holds_does_not_win_a_plain_bank(tmp_path):
    root = str(write_bank(tmp_path / "b", PLAIN))
    # `tool` and `set` are everyday words only projectbrief.md holds; `gateway` is the question's subject
    assert _paths(run_cli("--root", root, "--route", "where is the gateway set for the tool", "--json"))[0] == \
        "systemPatterns.md"
    # a domain word held by one page still decides: the prior touches only the everyday words
    assert _paths(cli_in_process("--root", root, "--route", "which host tool keeps pictures", "--json"))[0] == \
        "projectbrief.md"


def test_the_prior_decides_in_a_tiny_bank_and_fades_in_a_large_one():
    # one page of six: read as about two and a half; one page of a thousand stays about one of a thousand
    assert 2 < everyday_df(1, 6) < 3
    assert everyday_df(1, 1000) < 12
    assert everyday_df(6, 6) == 6  # never less common than the bank shows
    assert everyday_df(600, 1000) == 600  # a word the bank shows more common than the background keeps its count
    lexicon = build_lexicon()
    assert lexicon.everyday("tool") and lexicon.everyday(lexicon.term("нельзя")[0]) and lexicon.everyday("解决")
    assert not lexicon.everyday("gateway") and not lexicon.everyday("server") and not lexicon.everyday("room")


def test_a_version_number_meets_itself_with_and_without_its_v(tmp_path):
    root = str(write_bank(tmp_path / "b", PLAIN))
    for question in ("when is 0.1.0 due", "0.1.0", "what did v0.1.0 ship"):
        assert _paths(cli_in_process("--root", root, "--route", question, "--json"))[0] == "progress.md", question
    # the other direction: the body says 0.2.0, the question v0.2.0
    assert _paths(cli_in_process("--root", root, "--route", "v0.2.0", "--json"))[0] == "activeContext.md"
    found = cli_in_process("--root", root, "--search", "0.1.0", "--json")
    rows = json.loads(found.stdout)["results"]
    assert [row["path"] for row in rows] == ["progress.md"] and "v0.1.0" in rows[0]["excerpt"]
    assert [r["path"] for r in json.loads(cli_in_process("--root", root, "--search", "V0.2.0", "--json").stdout)[
        "results"]] == ["activeContext.md"]
    lexicon = build_lexicon()
    assert lexicon.search_terms("v0.1.0") == lexicon.search_terms("0.1.0") == {"0.1.0"}
    assert "0.1.0" not in lexicon.search_terms("0.1.0.5 10.1.0")  # a longer number is another number


def test_identifiers_stay_findable_whole(tmp_path):
    root = str(write_bank(tmp_path / "b", PLAIN))
    for literal in ("FT-042", "GCP_SA_KEY", "db.session()"):
        rows = json.loads(cli_in_process("--root", root, "--search", literal, "--json").stdout)["results"]
        assert rows and rows[0]["path"] == "techContext.md" and literal.rstrip("()") in rows[0]["excerpt"], literal
    lexicon = build_lexicon()
    assert {"ft-042", "gcp_sa_key"} <= lexicon.search_terms("FT-042 GCP_SA_KEY")
