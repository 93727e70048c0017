"""Session 8 small fixes (s8-small): each test failed before its fix.

A word written with a capital dotted I ("İstanbul") is the same word as its lowercase spelling, and a
file name with a well-known other extension (`config.yml`, `config.yaml`) is the same file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from banks import START, primed_paths, route_paths
from conftest import cli_in_process, doc, run_cli, write_bank

pytestmark = pytest.mark.usefixtures("cache_off")


def _found(root: Path, question: str, real: bool = False) -> list[str]:
    """The paths `--search QUESTION --json` lists, in its order (of a real process when `real`)."""
    proc = (run_cli if real else cli_in_process)("--root", str(root), "--search", question, "--json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [row["path"] for row in json.loads(proc.stdout)["results"]]


# -- "İ" lowers to a plain "i" on both sides of the index -----------------------------------------------------

CITIES = {
    "README.md": START,
    "domain/offices.md": doc("Offices", "Where the team works from.", body=(
        "## Sites\n\nOur main office is in İstanbul, and a smaller one in İzmir sits by the harbour.\n")),
    "domain/trips.md": doc("Trips", "Travel rules.", body=(
        "## Flights\n\nBook every flight to izmit through the travel desk.\n")),
    "domain/billing.md": doc("Billing", "How invoices are sent.", body=(
        "## Invoices\n\nInvoices go out monthly from the finance team.\n")),
}


def test_a_word_with_a_capital_dotted_i_is_found_by_its_lowercase_spelling_and_back(tmp_path):
    """Before the fix `str.lower` made "İstanbul" "i" + U+0307 + "stanbul": the page was indexed under a word
    nobody types, so `istanbul` and `izmir` found nothing (route, search and prime alike), and "İZMİT" typed in
    capitals missed the page that writes izmit."""
    root = write_bank(tmp_path / "bank", CITIES)
    for question in ("istanbul", "izmir", "İstanbul", "İZMİR"):
        assert _found(root, question, real=question == "istanbul")[:1] == ["domain/offices.md"], question
        assert route_paths(root, question)[:1] == ["domain/offices.md"], question
    assert primed_paths(root, "what is in izmir?") == ["domain/offices.md"]
    assert _found(root, "İZMİT")[:1] == route_paths(root, "İZMİT")[:1] == ["domain/trips.md"]  # capitals typed
    assert route_paths(root, "İstanbul ofisi nerede?")[:1] == ["domain/offices.md"]


# -- a file name's extension in its other well-known spelling is the same file --------------------------------

FILES = {
    "README.md": START,
    "domain/deploy.md": doc("Deploy", "How the service ships.", body=(
        "## Settings\n\nThe settings live in config.yaml at the repository root; it sets the replica count.\n\n"
        "## Assets\n\nThe header shows logo.jpg from the assets folder.\n")),
    "domain/config.md": doc("Configuration", "Configuration review and the logo guidelines.", body=(
        "## Config\n\nConfiguration values are reviewed each quarter by their owners; the logo follows the "
        "brand guide.\n")),
    "domain/billing.md": doc("Billing", "How invoices are sent.", body=(
        "## Invoices\n\nInvoices go out monthly from the finance team.\n")),
}


def test_a_file_name_with_the_other_spelling_of_its_extension_is_held_by_the_page_naming_it(tmp_path):
    """Before the fix `config.yml` and `config.yaml` were two literals: prime was silent on "what does
    config.yml set?" (the bank held no such name) and route put the page about configuration before the one
    page that names the file; likewise `logo.jpeg` for a page writing logo.jpg."""
    root = write_bank(tmp_path / "bank", FILES)
    for question in ("what does config.yml set?", "where is logo.jpeg shown?", "what does CONFIG.YAML set?"):
        assert route_paths(root, question, real=question.startswith("what does config"))[:1] \
            == ["domain/deploy.md"], question
        assert "domain/deploy.md" in primed_paths(root, question), question
    assert primed_paths(root, "what does secrets.yml set?") == []  # a file the bank never names: silent


def test_a_quoted_literal_with_a_capital_dotted_i_is_held_by_the_page_that_spells_it(tmp_path):
    """A quoted span is lowered like the bodies it is looked for in: before the fix `str.lower` made
    `İstanbul` a form no body could hold, so prime went silent on a prompt about the page naming it."""
    write_bank(tmp_path, CITIES)
    assert primed_paths(tmp_path, "which office is in `İstanbul`?")[:1] == ["domain/offices.md"]
