"""Route on plain Cline-layout banks: a core file's role counts as low-weight metadata (issue 14, route-roles).

A bank following the Cline "memory bank" layout names each core file for its job (`techContext.md`
holds the stack, `progress.md` what is done and left); its prose rarely says the job. The layout's
role (`memorybank/layout.py`) lets a question naming the job reach the file in English, Russian and
Chinese, and `why` says so (`layout: techContext`). The control is the same bank with the files renamed
off the convention: there the long page sharing the question's other words wins, so each check fails
if the prior is removed. The role is not given to a file with a purpose of its own, nor in a bank
holding fewer than three core files. One real CLI process; the rest through its entry point here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli, write_bank

from memorybank.lang import estimate_tokens
from memorybank.routefit import ANSWER_TOKENS

# Our own small project, an archiver of phone photos. Every page names it; the active context, the longest,
# names it most. No page says "library", "dependency", "scope", "left" or "reason": the file names do.
CORE = {
    "projectbrief.md": "# Project Brief: snapkeep\n\n## Overview\n\nsnapkeep copies a phone's camera roll to a "
                       "home server every night. A desktop viewer is not planned.\n",
    "productContext.md": "# Product Context: snapkeep\n\n## Background\n\nFamilies lose years of pictures when a "
                         "phone breaks; snapkeep keeps a second copy at home.\n",
    "activeContext.md": "# Active Context: snapkeep\n\n## This week\n\nsnapkeep now hashes every picture before "
                        "it copies it, so snapkeep skips a picture it already holds.\n\n## Soon\n\nsnapkeep "
                        "should resume an interrupted copy.\n",
    "systemPatterns.md": "# System Patterns: snapkeep\n\n## Pipeline\n\nIn snapkeep a scanner, a hasher and a "
                         "copier pass batches over channels.\n",
    "techContext.md": "# Technical Context: snapkeep\n\n## Crates\n\nsnapkeep is written in Rust: tokio for the "
                      "runtime, serde for the manifest, blake3 for hashing.\n",
    "progress.md": "# Progress: snapkeep\n\n## State\n\nsnapkeep copies over the local network. Copying over a "
                   "cellular connection is not started.\n",
}
OFF_CONVENTION = {f"notes-{i}.md": text for i, text in enumerate(CORE.values())}

QUESTIONS = {  # the file's job, named in no line of it; the answer
    "which libraries does snapkeep depend on?": "techContext.md",
    "какие библиотеки использует snapkeep?": "techContext.md",
    "snapkeep 依赖哪些库？": "techContext.md",
    "какой стек у snapkeep?": "techContext.md",  # `стек` through layoutwords.py's row
    "what is out of scope for snapkeep?": "projectbrief.md",
    "что ещё осталось сделать в snapkeep?": "progress.md",
    "snapkeep 的整体架构是什么？": "systemPatterns.md",
}


def _route(bank: Path, question: str, first: bool = False) -> list[dict]:
    proc = (run_cli if first else cli_in_process)("route", "--root", str(bank), question, "--limit", "10", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"]


@pytest.fixture(scope="module")
def banks(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("roles")
    return write_bank(root / "cline", CORE), write_bank(root / "renamed", OFF_CONVENTION)


def test_a_question_naming_a_core_files_job_reaches_it_in_every_language(banks):
    cline, renamed = banks
    for number, (question, answer) in enumerate(QUESTIONS.items()):
        rows = _route(cline, question, first=number == 0)
        assert rows[0]["path"] == answer and rows[0]["score"] > rows[1]["score"], (question, rows)
        assert rows[0]["why"].startswith(f"layout: {answer.removesuffix('.md')}"), rows[0]
        # the control: the same prose off the convention's names has no role, and nothing puts the answer ahead
        control = {row["path"]: row["score"] for row in _route(renamed, question)}
        mine = control.pop(f"notes-{list(CORE).index(answer)}.md", 0.0)
        assert mine <= max(control.values()), (question, control, mine)


def test_a_why_question_points_at_the_files_that_hold_reasons(banks):
    cline, renamed = banks
    # the product context says why the project exists, the system patterns why it is built so
    rows = _route(cline, "почему вообще нужен snapkeep?")
    assert {rows[0]["path"], rows[1]["path"]} == {"productContext.md", "systemPatterns.md"}, rows
    assert rows[1]["score"] > rows[2]["score"] and rows[0]["why"].startswith("layout: "), rows
    control = _route(renamed, "почему вообще нужен snapkeep?")
    assert len({row["score"] for row in control}) == 1, control  # no file is ahead without the layout


def test_a_file_with_its_own_purpose_or_a_bank_off_the_layout_gets_no_role(tmp_path):
    governed = dict(CORE)
    governed["techContext.md"] = "---\npurpose: Rust crates of the nightly copier\n---\n" + CORE["techContext.md"]
    bank = write_bank(tmp_path / "governed", governed)
    rows = _route(bank, "which libraries does snapkeep depend on?")
    tech = [row for row in rows if row["path"] == "techContext.md"]
    assert tech and "layout:" not in tech[0]["why"], rows
    # two core files are no evidence of the convention: no file gets a role
    few = {name: CORE[name] for name in ("techContext.md", "progress.md")}
    few.update({"a.md": CORE["activeContext.md"], "b.md": CORE["projectbrief.md"]})
    rows = _route(write_bank(tmp_path / "few", few), "which libraries does snapkeep depend on?")
    assert rows and not any("layout:" in row["why"] for row in rows), rows


def test_core_names_match_whatever_their_case_and_separators(tmp_path):
    names = {"projectbrief.md": "project-brief.md", "productContext.md": "product_context.md",
             "activeContext.md": "ACTIVECONTEXT.md", "systemPatterns.md": "system-patterns.md",
             "techContext.md": "tech_context.md", "progress.md": "Progress.md"}
    bank = write_bank(tmp_path / "spelled", {names[k]: v for k, v in CORE.items()})
    rows = _route(bank, "which libraries does snapkeep depend on?")
    assert rows[0]["path"] == "tech_context.md" and rows[0]["why"].startswith("layout: techContext"), rows


def test_five_results_naming_roles_fit_the_route_budget(tmp_path):
    line = "The photo archiver copies every photo of the camera roll and checks each photo twice. " * 40
    heading = "Photo archiver stage " * 20
    files = {name: f"# {heading}{name}\n\n## {heading}\n\n{line}\n\n## {heading} 2\n\n{line}\n"
             for name in CORE}
    bank = write_bank(tmp_path / "long", files)
    proc = run_cli("--root", str(bank), "--route", "photo archiver libraries status scope focus", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["results"]
    assert len(rows) == 5 and sum(row["why"].startswith("layout: ") for row in rows) >= 4, rows
    assert estimate_tokens(proc.stdout.strip()) <= ANSWER_TOKENS


def test_a_warm_index_follows_edits_renames_and_deletes(tmp_path):
    from memorybank.bank import Bank
    from memorybank.route import route

    root = write_bank(tmp_path / "warm", CORE)
    bank = Bank(root)
    question = "which libraries does snapkeep depend on?"

    def first() -> dict:
        return route(bank, question)["results"][0]

    assert first()["why"].startswith("layout: techContext")
    (root / "techContext.md").write_text("---\npurpose: Rust crates\n---\n" + CORE["techContext.md"], encoding="utf-8")
    assert "layout:" not in " ".join(row["why"] for row in route(bank, question)["results"])
    (root / "techContext.md").unlink()
    (root / "tech-context.md").write_text(CORE["techContext.md"], encoding="utf-8")
    assert first()["path"] == "tech-context.md" and first()["why"].startswith("layout: techContext")
    for name in ("projectbrief.md", "productContext.md", "systemPatterns.md", "progress.md"):
        (root / name).unlink()  # two core files left: the bank no longer follows the layout
    assert "layout:" not in " ".join(row["why"] for row in route(bank, question)["results"])
