"""Issue 18's routing regression and issue 14's follow-up: dna/ documents (rules about the bank itself)
yield to the project's documents unless the question is about the bank; the pruned walk stays exact."""

import json

import pytest
from conftest import cli_in_process, doc, run_cli, write_bank

import memorybank.route as route_module
from memorybank.bank import Bank
from memorybank.lang import about_bank
from memorybank.route import route

DNA_LAYOUT = doc("Folder Layout", "Where documents go: the folder layout of this bank and its layers.",
                 body="## Folders\n\nEvery document lives in the folder of its layer.\n")
PLAN = doc("Export Plan", "What the next export release changes.",
           body="## Next\n\nThe export folder layout will group the files per customer and per year.\n")


def small_bank(tmp_path, files):
    bank = Bank(write_bank(tmp_path / "bank", files))
    bank.refresh()
    return bank


def first(bank, question, **kw):
    results = route(bank, question, **kw)["results"]
    return results[0]["path"] if results else None


@pytest.mark.parametrize("question", ["how is the bank organised", "what does the frontmatter hold",
                                      "canonical_for of this memory bank", "какие шаблоны есть в банке",
                                      "这个知识库的模板有哪些"])
def test_a_question_naming_the_bank_is_about_the_bank(question):
    assert about_bank(question)


@pytest.mark.parametrize("question", ["how are the backup folders organised", "why is the file type read from bytes",
                                      "как устроены папки резервных копий", "备份文件夹如何组织"])
def test_a_question_about_the_project_is_not_about_the_bank(question):
    assert not about_bank(question)


def test_dna_yields_to_project_prose_on_a_project_question(tmp_path):
    bank = small_bank(tmp_path, {"dna/layout.md": DNA_LAYOUT, "notes/plan.md": PLAN})
    results = {r["path"]: r["score"] for r in route(bank, "how will the export folder layout change")["results"]}
    assert list(results)[0] == "notes/plan.md"
    # undamped, the rules about the bank would win: the order is the dna/ rule's doing, not the words'
    assert results["dna/layout.md"] / route_module.SELF_FACTOR > results["notes/plan.md"]


def test_dna_leads_when_the_question_is_about_the_bank_or_filters_its_layer(tmp_path):
    bank = small_bank(tmp_path, {"dna/layout.md": DNA_LAYOUT, "notes/plan.md": PLAN})
    assert first(bank, "folder layout of this bank") == "dna/layout.md"
    plain = next(r["score"] for r in route(bank, "folder layout")["results"] if r["path"] == "dna/layout.md")
    filtered = route(bank, "folder layout", layer="dna")["results"][0]
    assert filtered["path"] == "dna/layout.md" and filtered["score"] == pytest.approx(plain / route_module.SELF_FACTOR,
                                                                                      abs=2e-3)


def test_dna_owner_of_a_key_the_question_says_whole_keeps_its_lead(tmp_path):
    owner = doc("Folder Layout", "Where documents go.", canonical_for=["folder_layout"],
                body="## Folders\n\nEvery document lives in the folder of its layer.\n")
    bank = small_bank(tmp_path, {"dna/layout.md": owner, "notes/plan.md": PLAN})
    assert first(bank, "folder layout") == "dna/layout.md"


def test_headings_only_documents_are_ranked_exactly_by_the_single_walk(tmp_path):
    # many documents share a heading word; only one holds the rare one: the walk must still find it first
    files = {f"notes/n{i:02d}.md": doc(f"Note {i}", "Meeting notes.", body="## Setup\n\ntext\n") for i in range(30)}
    files["notes/n99.md"] = doc("Note 99", "Meeting notes.", body="## Setup of the gateway rotation\n\ntext\n")
    bank = small_bank(tmp_path, files)
    results = route(bank, "gateway rotation setup", limit=3)["results"]
    assert results[0]["path"] == "notes/n99.md" and results[0]["section"] == "Setup of the gateway rotation"
    assert len({r["score"] for r in results[1:]}) == 1  # the rest tie on the shared heading word


def test_an_adopted_plain_bank_routes_a_project_question_to_the_project_through_the_cli(tmp_path):
    # adopt adds dna/ (governance, changelog, lifecycle…) whose purposes say "folder", "changed": undamped,
    # they took the first three places from the document whose body answers (issue 18)
    root = write_bank(tmp_path / "memory-bank", {
        "projectbrief.md": "# Project Brief\n\nA tool that backs up photo albums to local disk.\n",
        "progress.md": "# Progress\n\nThe core features work.\n\n## Next\n\n- A new backup directory structure: "
                       "group backups per artist instead of one flat directory.\n",
    })
    done = cli_in_process("--root", str(root), "--adopt", "--write")  # the route below is the real process
    assert done.returncode == 0, done.stderr
    assert (root / "dna").is_dir()
    routed = run_cli("--root", str(root), "--route", "planned change to how backup folders are organised", "--json")
    assert routed.returncode == 0, routed.stderr
    top = [r["path"] for r in json.loads(routed.stdout)["results"]]
    # projectbrief's adopted purpose is its own first sentence ("backs up"): body, as on the plain bank
    project = [p for p in top if not p.startswith("dna/")]
    assert top[0] == "progress.md" and top[:len(project)] == project
