"""Route on governed banks (issue 14): metadata saying one word of the question no longer outranks prose
saying all of it. The order fuses the evidence score with the body's own ranking by reciprocal rank
(`route._fused_order`); the owner of a key the question says whole keeps its first place; templates and
`_inbox/` are never returned; filters hold. Driven through the real CLI."""

from __future__ import annotations

import json

from conftest import cli_in_process, doc, run_cli, write_bank

BANK = {
    # its purpose says two words of the question ("depend", "package"), never the third (Flutter)
    "adr/ADR-001-own-epub-reader.md": doc("Own EPUB reader", "Why our reader does not depend on an archive package.",
                                          body="## Decision\n\nWe read the archive with our own small reader.\n"),
    "adr/ADR-002-result-type.md": doc("Result type", "Why parsing returns a result value instead of throwing.",
                                      body="## Decision\n\nEvery parser returns a result value.\n"),
    # its prose says the whole question; its metadata none of it
    "product/context.md": doc("Context", "Who uses the library and where it runs.",
                              body="## Consumers\n\nServer jobs and command-line tools use it. The package must "
                                   "never depend on Flutter: Flutter cannot be installed on a server, so a Flutter "
                                   "dependency would shut those users out.\n"),
    # owns the key; neither its title, its purpose nor its prose says the key's words
    "engineering/layout.md": doc("Folders", "Where the code lives.", canonical_for=["source_layout"],
                                 body="## Folders\n\nlib holds the code, test the tests.\n"),
    # prose about the key, many times: strong body evidence, no ownership
    "engineering/tree.md": doc("Tree notes", "Notes on moving files.",
                               body="## Moves\n\nThe source layout changed twice; the source layout notes on the "
                                    "source layout are kept here.\n"),
    "engineering/testing.md": doc("Testing", "How the suites run.",
                                  body="## Suites\n\nUnit tests run on every push.\n"),
    "flows/templates/adr.md": doc("ADR template", "Template.", doc_function="template",
                                  body="never depend on Flutter: Flutter cannot be installed on a server\n"),
    "_inbox/note.md": doc("Note", "A note.", body="never depend on Flutter: Flutter cannot be installed on a server\n"),
}
FLUTTER = ("why must the package not depend on Flutter?", "Почему пакету нельзя зависеть от Flutter?",
           "为什么这个包不能依赖 Flutter？")


def routed(root, question: str, *extra: str, cli=cli_in_process) -> list[dict]:
    done = cli("--root", str(root), "--route", question, "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["results"]


def test_prose_saying_the_whole_question_outranks_a_purpose_saying_part_of_it(tmp_path):
    # Before the fusion the ADR came first in all three languages (7.8 / 7.0 / 7.0 against 4.3 / 3.1 / 3.7):
    # its purpose matched "depend" and "package" (in Russian and Chinese through the dictionary), while the
    # page whose prose says all of it, Flutter included, only added its body strength to a zero.
    root = write_bank(tmp_path / "bank", BANK)
    first = routed(root, FLUTTER[0], cli=run_cli)  # one real process; the variants in this one
    answers = [first, *(routed(root, question) for question in FLUTTER[1:])]
    for question, rows in zip(FLUTTER, answers):
        paths = [row["path"] for row in rows]
        assert paths[0] == "product/context.md", (question, paths)
        assert "adr/ADR-001-own-epub-reader.md" in paths  # still listed: its metadata is evidence too
        # the score stays the evidence (metadata + body): the order is what the fusion changed
        adr = next(row for row in rows if row["path"] == "adr/ADR-001-own-epub-reader.md")
        assert adr["score"] > rows[0]["score"]
        assert not any(p.startswith(("flows/templates/", "_inbox/")) for p in paths)
        assert "body: L" in rows[0]["why"] and rows[0]["section"] == "Consumers"


def test_owner_of_a_key_said_whole_stays_first_against_prose_repeating_the_key(tmp_path):
    # tree.md's prose says "source layout" three times and ranks first by body; layout.md owns the key
    root = write_bank(tmp_path / "bank", BANK)
    for question in ("source layout", "структура исходников", "where is the source layout described"):
        paths = [row["path"] for row in routed(root, question)]
        assert paths[0] == "engineering/layout.md", (question, paths)
        assert "engineering/tree.md" in paths


def test_filters_still_bound_the_fused_answer(tmp_path):
    root = write_bank(tmp_path / "bank", BANK)
    rows = routed(root, FLUTTER[0], "--layer", "decision")
    assert [row["path"] for row in rows][:1] == ["adr/ADR-001-own-epub-reader.md"]
    assert all(row["path"].startswith("adr/") for row in rows)
    assert [row["path"] for row in routed(root, FLUTTER[0], "--limit", "1")] == ["product/context.md"]
