"""A page in the bank's template folder is a template whatever its doc_function says (a real bank writes
its templates as the page to be created, `doc_function: canonical` and all): route, search and prime
never return it, and the create writer uses it."""

from __future__ import annotations

import json

from conftest import doc, run_cli, write_bank

PLAN = doc("FT-<id> — Implementation Plan", "Ordered implementation steps for FT-<id> and how each is verified.",
           status="draft", doc_function="canonical", doc_kind="feature",
           body="## Order\n\n| # | Step | Verification |\n|-|-|-|\n| 1 | <what is built> | <test> |\n")


def _bank(tmp_path):
    return write_bank(tmp_path / "bank", {
        "dna/principles.md": doc("Principles", "Root of the bank."),
        "flows/templates/README.md": doc("Templates", "Index of the templates.", doc_function="index"),
        "flows/templates/feature/implementation-plan.md": PLAN,
        "features/FT-007/implementation-plan.md": doc(
            "FT-007 — Implementation Plan", "Steps of the export feature.", derived=["../../dna/principles.md"],
            doc_kind="feature", body="## Order\n\nStep one builds the exporter; a unit test verifies it.\n"),
    })


def _paths(out: str) -> list[str]:
    return [r["path"] for r in json.loads(out)["results"]]


def test_template_folder_pages_are_not_routed_searched_or_primed(tmp_path):
    root = str(_bank(tmp_path))
    routed = run_cli("--root", root, "--route", "ordered implementation steps verified", "--json")
    assert routed.returncode == 0, routed.stderr
    assert "flows/templates/feature/implementation-plan.md" not in _paths(routed.stdout)
    assert _paths(routed.stdout)[0] == "features/FT-007/implementation-plan.md"
    found = run_cli("--root", root, "--search", "what is built", "--json")
    assert found.returncode == 0, found.stderr
    assert all(not p.startswith("flows/templates/") for p in _paths(found.stdout))
    primed = run_cli("--root", root, "--prime", "in what order are the implementation steps verified", "--json")
    assert all(not d["path"].startswith("flows/templates/") for d in json.loads(primed.stdout)["documents"])


def test_the_create_writer_builds_from_the_folder_page(tmp_path):
    root = str(_bank(tmp_path))
    made = run_cli("create", "features/FT-009/implementation-plan.md", "--root", root, "--kind", "feature",
                   "--title", "FT-009 plan", "--purpose", "Steps of the import feature.",
                   "--derived", "../../dna/principles.md", "--dry-run", "--json")
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["template"] == "flows/templates/feature/implementation-plan.md"


def test_the_writers_refuse_the_folder_page_as_a_template_and_write_nothing(tmp_path):
    root = _bank(tmp_path)
    def files() -> dict:  # the writers' lock file is the one thing a refused write may leave (README)
        return {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and p.name != ".memorybank.lock"}

    before = files()
    out = run_cli("edit", "flows/templates/feature/implementation-plan.md", "--root", str(root),
                  "--find", "<what is built>", "--replace", "the exporter", "--json")
    assert out.returncode == 1, out.stdout
    error = json.loads(out.stdout)["error"]
    assert "is a template" in json.dumps(error) and "by hand" in json.dumps(error), error
    assert files() == before
