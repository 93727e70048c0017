"""Adversarial run on session 8's landings (attack8): prime's technology and comparison rules.

Each test names the prompt an unlucky user typed, what prime did with it before the fix, and why that
was wrong. Driven through the real UserPromptSubmit hook (one process) and `--prime --json` (in process
for the variants), on small banks written here.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from banks import primed_paths
from conftest import doc, hook_env, hook_path, prompt_payload, write_bank

SHOP = {
    "architecture/storage.md": doc(
        "Order storage", "How orders are stored in PostgreSQL.",
        body="## Connection pool\n\nThe service keeps a pool of 20 PostgreSQL connections; migrations run at start.\n"),
    "architecture/frontend.md": doc(
        "Frontend", "The dashboard, a React 18 app built with Vite.",
        body="## State\n\nThe dashboard keeps its state in one store; the API client is generated.\n"),
    "ops/deploy.md": doc(
        "Deployment", "How the service is rolled out to Kubernetes.",
        body="## Rollout\n\nThe chart rolls out two replicas; the worker runs on Node.js 20.\n"),
    "ops/rates.md": doc(
        "Exchange rates", "The local cache of exchange rates.",
        body="## Refresh\n\nThe sqlite3 file is refreshed hourly by a scheduled job.\n"),
}


pytestmark = pytest.mark.usefixtures("cache_off")


def test_a_technology_the_bank_names_only_in_metadata_or_another_spelling_is_not_foreign(tmp_path):
    """Before: prime judged a `TECH` word foreign when no *body* held it, so a technology named in a
    page's purpose (React, Kubernetes) or written another way (Postgres for PostgreSQL, k8s, nodejs for
    Node.js, sqlite for sqlite3) silenced questions squarely about the bank."""
    root = write_bank(tmp_path / "memory_bank", SHOP)
    payload = prompt_payload(tmp_path, "how big is the Postgres connection pool?")
    done = subprocess.run([hook_path(), "prime"], input=payload, capture_output=True, env=hook_env(), cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0 and b"architecture/storage.md" in done.stdout, (done.stdout, done.stderr)
    expected = {
        "how big is the postgres connection pool?": "architecture/storage.md",
        "Postgres: how many connections does the pool keep?": "architecture/storage.md",
        "how does the dashboard use React state?": "architecture/frontend.md",
        "how many replicas does the Kubernetes rollout use?": "ops/deploy.md",
        "how many replicas does the k8s rollout use?": "ops/deploy.md",
        "which nodejs version does the worker run?": "ops/deploy.md",
        "how is the sqlite file refreshed?": "ops/rates.md",
    }
    for prompt, path in expected.items():
        assert path in primed_paths(root, prompt), prompt
    # a technology the bank never names is still foreign, in any of its spellings
    for prompt in ("how do I write an aggregation in MongoDB?", "how do k8s pods restart after a crash?",
                   "how is a Redis connection pool sized?", "how do I read a file in nodejs?"):
        assert primed_paths(root, prompt) == [], prompt


CHAINS = {
    "chains/tezos.md": doc("Tezos handler", "How the Tezos handler indexes blocks.",
                           body="## Polling\n\nThe Tezos handler polls the node every 5 seconds.\n"),
    "chains/evm.md": doc("EVM handler", "How the EVM handler indexes blocks.",
                         body="## Subscriptions\n\nThe EVM handler subscribes to new heads over a socket.\n"),
    "dev/copying.md": doc("Copying fixtures", "How test fixtures are copied.",
                          body="## Copy\n\nFixtures are copied into a temporary folder before each run.\n"),
}


def test_a_comparison_of_two_things_each_on_its_own_page_points_at_them(tmp_path):
    """Before: a comparison had to find one page holding every compared word, so "how does the Tezos handler
    differ from the EVM handler?" (module doc's own example) was silenced in a bank with a page titled for
    each — the usual layout. Now, when every compared word names some page, the ordinary bar applies."""
    root = write_bank(tmp_path / "memory_bank", CHAINS)
    payload = prompt_payload(tmp_path, "how does the Tezos handler differ from the EVM handler?")
    done = subprocess.run([hook_path(), "prime"], input=payload, capture_output=True, env=hook_env(), cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0 and b"chains/tezos.md" in done.stdout and b"chains/evm.md" in done.stdout, done
    for prompt in ("what's the difference between the Tezos handler and the EVM handler?",
                   "чем обработчик Tezos отличается от обработчика EVM?"):
        assert {"chains/tezos.md", "chains/evm.md"} <= set(primed_paths(root, prompt)), prompt
    # general knowledge stays silent: "deep" and "shallow" name no page, though one page is about copying
    assert primed_paths(root, "what's the difference between a deep and a shallow copy?") == []
    assert primed_paths(root, "Tezos vs Ethereum: which is faster?") == []


DEV = {
    "dev/testing.md": doc("Testing", "How the test suite is organised and run.",
                          body="## Layout\n\nUnit tests live in `tests/unit`, integration tests in `tests/it`.\n"),
    "arch/plugins.md": doc("Plugins", "How plugins are loaded.",
                           body="## Loading\n\nEach plugin is loaded once, in name order.\n"),
}


def test_a_workflow_word_in_another_form_still_names_the_workflow(tmp_path):
    """Before: `WORKFLOW` matched the word as typed while `GENERIC` matched its stem, so "Testing: where do unit
    tests live?" (one concept, `Testing`, for testing and tests) was a bare request word and the question was
    silenced; "where do unit tests live?" pointed at the testing page."""
    root = write_bank(tmp_path / "memory_bank", DEV)
    payload = prompt_payload(tmp_path, "Testing: where do unit tests live?")
    done = subprocess.run([hook_path(), "prime"], input=payload, capture_output=True, env=hook_env(), cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0 and b"dev/testing.md" in done.stdout, done
    for prompt in ("Testing: where do unit tests live?", "where do unit tests live?",
                   "Testing: how is the suite organised?"):
        assert primed_paths(root, prompt) == ["dev/testing.md"], prompt
    # a request to do the work stays a request
    assert primed_paths(root, "testing again, rerun it") == []


OPERATOR = {
    "ops/operator.md": doc("Operator", "The Kubernetes operator that manages ledger pods.",
                           body="## Upgrades\n\nThe operator replaces pods one at a time; обновляет по одному.\n"),
    "ops/helm.md": doc("Helm chart", "How the operator is installed with Helm.",
                       body="## Values\n\nThe chart exposes replicas and the image tag.\n"),
}


def test_a_word_only_a_pages_metadata_holds_is_evidence_for_that_page(tmp_path):
    """Before: the bar counted a word no *body* holds as a topic the bank lacks, even when the page's own title
    or purpose names it. "как оператор Kubernetes обновляет поды?" in a bank about a Kubernetes operator
    (Kubernetes in the purpose) had one known word in four and was silenced."""
    root = write_bank(tmp_path / "memory_bank", OPERATOR)
    payload = prompt_payload(tmp_path, "как оператор Kubernetes обновляет поды?")
    done = subprocess.run([hook_path(), "prime"], input=payload, capture_output=True, env=hook_env(), cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0 and b"ops/operator.md" in done.stdout, done
    assert primed_paths(root, "как оператор кубернетес обновляет поды?") == ["ops/operator.md"]
    # a word no page holds anywhere is still missing: a prompt mostly about other things stays silent
    assert primed_paths(root, "как в Kubernetes настроить сетевые политики и квоты?") == []


def test_session_start_on_a_bank_holding_only_inbox_notes_reads_as_a_sentence(tmp_path):
    """Before: "memorybank: this project has a bank (0 documents: ). 1 inbox note await review." — an empty list
    after the colon and a plural verb for one note."""
    write_bank(tmp_path / "memory_bank", {"_inbox/pool.md": doc("Pool", "A note about the pool.", status="draft",
                                                                 body="The pool has 20 connections.\n")})
    event = json.dumps({"session_id": "s-1", "cwd": str(tmp_path), "hook_event_name": "SessionStart"}).encode()
    done = subprocess.run([hook_path(), "session-start"], input=event, capture_output=True, env=hook_env(),
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done
    text = done.stdout.decode()
    assert text.startswith("memorybank: this project has a bank (no documents yet). 1 inbox note awaits review."), text


ROADMAP = {
    "product/roadmap.md": doc("Roadmap", "What each release brings.",
                              body="## Next release\n\nThe next release adds bulk refunds and a payout report.\n"),
}


def test_the_spring_release_is_a_season_not_the_java_framework(tmp_path):
    """Before: `Spring` capitalised mid-sentence always read as the framework, so "what will the Spring release
    bring besides bulk refunds?" was silenced in a bank with a roadmap page. Now it is the framework only
    beside one of its parts (Spring Boot, Spring Security)."""
    root = write_bank(tmp_path / "memory_bank", ROADMAP)
    payload = prompt_payload(tmp_path, "what will the Spring release bring besides bulk refunds?")
    done = subprocess.run([hook_path(), "prime"], input=payload, capture_output=True, env=hook_env(), cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0 and b"product/roadmap.md" in done.stdout, done
    assert primed_paths(root, "how do I configure Spring Boot for the next release?") == []
    assert primed_paths(root, "does Spring Security need a filter for the payout report?") == []


JOBS = {
    "engineering/scheduler.md": doc(
        "Job runner", "How queued jobs are picked up and run.", doc_kind="engineering",
        body="## Locks\n\nWhen two reports are scheduled for the same minute, both wait for the one export lock.\n"),
    "domain/accounts.md": doc("Accounts", "How customer accounts are opened and closed.", doc_kind="domain",
                              body="## Closing\n\nAn account is closed after finance approves it.\n"),
}


def test_a_word_of_the_projects_own_design_is_not_a_foreign_technology(tmp_path):
    """Before: deadlock, mutex, semaphore, cookie and closure were `TECH` words, against the list's own rule (no
    word a project's design says in ordinary prose): "can two reports deadlock on the export lock?" in a bank
    about that lock, and "who approves an account closure?" in one about accounts, were silenced."""
    root = write_bank(tmp_path / "memory_bank", JOBS)
    payload = prompt_payload(tmp_path, "can two reports scheduled for the same minute deadlock on the export lock?")
    done = subprocess.run([hook_path(), "prime"], input=payload, capture_output=True, env=hook_env(), cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0 and b"engineering/scheduler.md" in done.stdout, done
    assert primed_paths(root, "who approves an account closure?") == ["domain/accounts.md"]
    assert "engineering/scheduler.md" in primed_paths(root, "is the export lock a mutex or a semaphore?")
    # the textbook concept with its language is still about the language
    assert primed_paths(root, "what is a closure in JavaScript?") == []
    assert primed_paths(root, "how do I avoid a deadlock with Go channels?") == []


def test_a_question_after_a_dash_is_a_question(tmp_path):
    """Before: a clause opened only after ; : . ! ? or a newline, so "Testing — how is the suite organised?" read
    as a request (its workflow word then a bare request word: silenced), while "Testing: how is…" pointed.
    Russian writes the dash between subject and predicate ("кэш — сбрасывается при выходе?")."""
    from memorybank.prime import asks

    root = write_bank(tmp_path / "memory_bank", DEV)
    payload = prompt_payload(tmp_path, "Testing — how is the suite organised?")
    done = subprocess.run([hook_path(), "prime"], input=payload, capture_output=True, env=hook_env(), cwd=tmp_path,
                          timeout=60)
    assert done.returncode == 0 and b"dev/testing.md" in done.stdout, done
    assert asks("кэш — сбрасывается при выходе?") and asks("unit tests – where do they live?")
    assert not asks("rerun the suite — now")
    assert primed_paths(root, "unit tests – where do they live?") == ["dev/testing.md"]
