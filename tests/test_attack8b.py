"""Adversarial run on s8-literal (attack8b): literals in route and prime, through the real CLI.

Each test names the question an unlucky user typed, what the landing did with it, and why that was wrong.
Small banks written here; `--route --json` / `--prime --json` run in process as the CLI.
"""

from __future__ import annotations

import pytest
from banks import primed_paths, route_paths
from conftest import doc, write_bank

CHANGELOG = doc("Changelog", "Every change to the project, release by release.",
                body="## 1.0\n\n- touched README.md, package.json, --dry-run, 10%, src/api/client.ts\n")
KEYED = {
    "log/changelog.md": CHANGELOG,
    "ops/deploy.md": doc("Deployment", "How the service is rolled out to production.",
                         canonical_for=["deployment process", "rollback"],
                         body="## Rollout\n\nThe chart rolls out two replicas; helm rolls back a revision.\n"),
    "dev/readme-rules.md": doc("README conventions", "What the project's README file must contain.",
                               canonical_for=["readme conventions"],
                               body="## Sections\n\nThe readme starts with install steps, then usage.\n"),
    "ops/timeouts.md": doc("Timeouts", "The session timeout and how retries back off.",
                           body="## Session\n\nSessions expire after 30 minutes idle.\n"),
}


pytestmark = pytest.mark.usefixtures("cache_off")


def test_a_canonical_key_said_whole_keeps_its_owner_first_over_a_literal_met_in_passing(tmp_path):
    """Before: any document holding a literal ranked before every other, so a changelog listing `README.md`,
    `--dry-run` or `10%` in passing took first place from the owner of the key the question says whole
    ("readme conventions", "deployment process", "rollback") — the issue keeps a key's owner first."""
    root = write_bank(tmp_path / "memory_bank", KEYED)
    expected = {
        "what are the readme conventions for README.md": "dev/readme-rules.md",
        "deployment process --dry-run": "ops/deploy.md",
        "is the rollback 10% at a time?": "ops/deploy.md",
    }
    for question, path in expected.items():
        assert route_paths(root, question)[:1] == [path], question
    # a literal with no key said whole still brings its holder first (the rule itself is kept)
    assert route_paths(root, "where is src/api/client.ts mentioned?")[:1] == ["log/changelog.md"]


ORDERS = {
    "dev/orders.md": doc(
        "Order loading", "How the app loads and pages orders.",
        body="## Paging\n\nThe fetch_orders helper pages orders 50 at a time from src/api/; MAX_RETRIES caps"
             " retries.\nRun scripts/deploy.sh with --env prod to ship it.\n"),
    "dev/styling.md": doc("Styling", "How the dashboard is styled.",
                          body="## Themes\n\nColours come from one theme file.\n"),
}


def test_a_literal_written_another_way_than_the_bank_writes_it_does_not_silence_prime(tmp_path):
    """Before: a short prompt whose literal no body held as typed injected nothing, and the bank's own
    helper written as a call (`fetch_orders()`), in the other case convention (`fetchOrders`, `maxRetries`
    for `MAX_RETRIES`), a path with `./` or a trailing slash, or a flag with its value (`--env=prod` for
    `--env prod`) counted as foreign: the prompts squarely about the page were silenced."""
    root = write_bank(tmp_path / "memory_bank", ORDERS)
    for prompt in ("how does fetch_orders() page the orders?", "how does `fetch_orders()` page the orders?",
                   "how does fetchOrders page the orders?", "how many retries does maxRetries allow for orders?",
                   "how do I run ./scripts/deploy.sh for orders?", "how do I run scripts/deploy.sh/ for orders?",
                   "how do I pass --env=prod to deploy orders?", "where is the orders api in ./src/api/?"):
        assert primed_paths(root, prompt) == ["dev/orders.md"], prompt
    # a name the bank never holds, in any spelling, still silences a short prompt
    for prompt in ("how does fetchInvoices page the orders?", "how does the parse_widget() helper page orders?"):
        assert primed_paths(root, prompt) == [], prompt


RU_PAGES = {
    "split.md": doc("Splitting large files", "How large uploads are split into chunks.",
                    body="## Chunks\n\nFiles over 100 MB are split into 5 MB chunks before upload.\n"),
    "sections.md": doc("Handbook sections", "How the handbook is organised into sections.",
                       body="## Owners\n\nEach section of the handbook has an owner.\n"),
    "i18n.md": doc("Translations", "How the UI is translated.",
                   body="## Strings\n\nStrings are translated with gettext; translators use Weblate.\n"),
}


def test_a_russian_verb_reaches_the_page_its_noun_does(tmp_path):
    """Before: `разделить` (split) stripped into `раздел` (a section) and went to the handbook's sections page;
    `перевести` (translate) had no concept, so route answered nothing. The noun keeps its own concept."""
    root = write_bank(tmp_path / "memory_bank", RU_PAGES)
    expected = {
        "как разделить большой файл на куски?": "split.md",
        "файлы разделяются на части до загрузки?": "split.md",
        "какие разделы есть в справочнике?": "sections.md",
        "как перевести интерфейс?": "i18n.md",
        "кто переводит строки интерфейса?": "i18n.md",
    }
    for question, path in expected.items():
        assert route_paths(root, question)[:1] == [path], question


FILES = {
    "log/changelog.md": CHANGELOG,
    "dev/readme-rules.md": doc("README conventions", "What the project's front page must contain.",
                               body="## Sections\n\nThe readme starts with install steps, then usage.\n"),
    "dev/packages.md": doc("Package manifest", "How dependencies are declared.",
                           body="## Pins\n\nDependencies are pinned exactly; the lock file is committed.\n"),
}


def test_a_common_file_named_in_passing_does_not_outrank_the_page_its_stem_titles(tmp_path):
    """Before: only a body naming `README.md` or `package.json` held it, so the changelog that lists every
    touched file took first place from "README conventions" and "Package manifest", the pages the
    question is about. A file name's stem in a title holds it too; a path is still found in bodies only."""
    root = write_bank(tmp_path / "memory_bank", FILES)
    assert route_paths(root, "what must README.md contain?")[:1] == ["dev/readme-rules.md"]
    assert route_paths(root, "how are dependencies declared in package.json?")[:1] == ["dev/packages.md"]
    assert route_paths(root, "where is src/api/client.ts mentioned?")[:1] == ["log/changelog.md"]


def test_a_short_prompt_naming_a_file_a_page_titles_is_not_silenced(tmp_path):
    """Before: prime judged `README.md` foreign when no body named it whole, so "what must README.md
    contain?" injected nothing on a bank whose page is "README conventions"; a file no page titles or
    names (`Cargo.toml`) still silences."""
    root = write_bank(tmp_path / "memory_bank", {path: text for path, text in FILES.items() if "log/" not in path})
    assert primed_paths(root, "what must README.md contain?") == ["dev/readme-rules.md"]
    assert primed_paths(root, "how are dependencies declared in package.json?") == ["dev/packages.md"]
    assert primed_paths(root, "what does Cargo.toml pin?") == []


def test_a_version_without_its_last_zero_is_the_same_release(tmp_path):
    """Before: "v0.3" in a short prompt was foreign to a bank that writes `v0.3.0` (one token, another term),
    and prime injected nothing; a release the bank never names (v0.4) still silences."""
    root = write_bank(tmp_path / "memory_bank", {**ORDERS, "dev/releases.md": doc(
        "Releases", "What each release shipped.", body="## History\n\nOrder paging was released in v0.3.0.\n")})
    assert "dev/releases.md" in primed_paths(root, "which orders change came in v0.3?")
    assert primed_paths(root, "which orders change came in v0.4?") == []
