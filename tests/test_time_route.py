"""Questions about time (issue 19) in a real git repository with fixed commit dates and MEMORYBANK_TODAY.

One repository is built per module (seven commits); tests that write copy it. Library calls carry most
checks (real git, no subprocess of ours); the CLI and one MCP server check the faces.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli
from gitrepo import Repo

from memorybank import cache
from memorybank.changed import changed
from memorybank.doctime import doc_times
from memorybank.errors import BankError
from memorybank.lang import estimate_tokens
from memorybank.prime import prime
from memorybank.route import route, routed

TODAY = "2026-12-02"  # a Wednesday: this week 11-30…12-02, last week 11-23…11-29, last month November
ENV = {"MEMORYBANK_TODAY": TODAY}
B = "memory_bank/"


def _doc(title: str, purpose: str, body: str, **fields: str) -> str:
    head = [f"title: {title}", f"purpose: {purpose}", *(f"{k}: {v}" for k, v in fields.items())]
    return "\n".join(["---", *head, "---", "", f"# {title}", "", body, ""])


def _adr(number: str, slug: str, title: str, purpose: str, body: str, decided: str, **fields: str) -> dict:
    return {f"{B}adr/ADR-{number}-{slug}.md": _doc(f"ADR-{number}: {title}", purpose, body, doc_kind="adr",
                                                  decided=decided, **fields)}


def build(path: Path) -> Repo:
    repo = Repo(path)
    repo.commit("ops and sessions", "2026-03-01T12:00:00Z", {
        f"{B}ops/deploy.md": _doc("Deploy", "Read before deploying to production.", "A blue-green switch."),
        **_adr("001", "server-sessions", "Server-side sessions for authentication",
               "Why authentication uses server-side sessions.", "Login sessions live in the database.",
               "2026-03-01", decision_status="superseded", superseded_by="ADR-004")})
    repo.commit("redis", "2026-05-01T12:00:00Z", _adr("002", "cache-redis", "Cache with Redis",
                                                       "Why the cache is Redis.", "Redis holds rendered pages.",
                                                       "2026-05-01", decision_status="accepted"))
    repo.commit("billing", "2026-06-01T12:00:00Z", {
        f"{B}domain/billing.md": _doc("Billing", "Read before changing billing or refunds.", "Refunds: 14 days.")})
    repo.commit("clerk", "2026-11-12T12:00:00Z", _adr("004", "clerk", "Authentication with Clerk",
                                                       "Why authentication moved to Clerk.",
                                                       "Login moved to Clerk to drop our session store.",
                                                       "2026-11-12", decision_status="accepted", supersedes="ADR-001"))
    repo.git("tag", "v1.0")
    repo.commit("invoices", "2026-11-24T12:00:00Z", {
        f"{B}domain/invoices.md": _doc("Invoices", "Read before changing invoice numbering.", "Numbers per year.")})
    repo.commit("events", "2026-11-25T12:00:00Z", _adr("005", "cache-events", "Cache invalidation by events",
                                                        "Why cache entries are invalidated by events.",
                                                        "An order event clears the cache.", "2026-11-25",
                                                        decision_status="accepted"))
    repo.commit("refunds", "2026-12-01T12:00:00Z", {
        f"{B}domain/billing.md": _doc("Billing", "Read before changing billing or refunds.", "Refunds: 30 days.")})
    return repo


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    return build(tmp_path_factory.mktemp("timebank") / "repo")


@pytest.fixture()
def today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBANK_TODAY", TODAY)


def paths(answer: dict) -> list[str]:
    return [r["path"] for r in answer["results"]]


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_temporal_why_question_ranks_the_decision_made_in_the_window_first(built: Repo, today: None) -> None:
    bank = built.bank()
    # "cache" alone ranks the older Redis decision level with the newer one; the window decides
    for question in ("why did we decide on the cache last week?", "что мы решили по кэшу на прошлой неделе?",
                     "上周为什么这样决定缓存？"):
        answer = route(bank, question)
        assert paths(answer)[0] == "adr/ADR-005-cache-events.md", (question, answer)
        assert answer["window"]["since"] == "2026-11-23" and answer["window"]["until"] == "2026-11-29"
        assert "decided 2026-11-25, in " in answer["results"][0]["why"]
        assert "adr/ADR-002-cache-redis.md" in paths(answer)  # outside the window: kept, ranked below
    answer = route(bank, "上个月我们为什么决定用 Clerk？")
    assert paths(answer)[0] == "adr/ADR-004-clerk.md"
    assert 'decided 2026-11-12, in "上个月"' in answer["results"][0]["why"]


def test_the_cli_answers_a_temporal_why_question_within_the_route_budget(built: Repo) -> None:
    proc = run_cli("route", "why did we switch authentication last month?", "--root", str(built.path / B),
                   env=ENV)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert "adr/ADR-004-clerk.md" in first
    assert 'decided 2026-11-12, in "last month"' in proc.stdout and "supersedes ADR-001" in proc.stdout
    assert estimate_tokens(proc.stdout.strip()) <= 300


def test_a_time_only_question_lists_the_windows_changes(built: Repo, today: None) -> None:
    bank = built.bank()
    answer = route(bank, "what changed last week?")
    assert paths(answer) == ["adr/ADR-005-cache-events.md", "domain/invoices.md"]  # newest first
    assert answer["results"][1]["why"] == 'added 2026-11-24, in "last week"'
    assert paths(route(bank, "что изменилось вчера?")) == ["domain/billing.md"]
    assert paths(route(bank, "上周改了什么？")) == paths(answer)
    decided = route(bank, "what did we decide last month?")  # decisions by their own decision date
    assert paths(decided) == ["adr/ADR-005-cache-events.md", "adr/ADR-004-clerk.md"]
    assert paths(route(bank, "what changed since the last release?")) == [
        "domain/billing.md", "adr/ADR-005-cache-events.md", "domain/invoices.md"]


def test_route_takes_explicit_since_and_until(built: Repo, today: None) -> None:
    bank = built.bank()
    answer = route(bank, "authentication", since="2026-02", until="2026-03")
    assert paths(answer)[0] == "adr/ADR-001-server-sessions.md"  # the window names the March decision
    assert answer["window"] == {"words": "since 2026-02 until 2026-03", "since": "2026-02-01", "until": "2026-03-31"}
    with pytest.raises(BankError) as err:
        route(bank, "cache", since="the other day")
    assert err.value.param == "since" and "last week" in err.value.message


def test_a_superseded_decision_puts_the_current_one_first_and_names_the_chain(built: Repo, today: None) -> None:
    answer = route(built.bank(), "why do we keep server-side sessions for authentication?")
    first, second = answer["results"][:2]
    assert (first["path"], second["path"]) == ("adr/ADR-004-clerk.md", "adr/ADR-001-server-sessions.md")
    assert first["why"].endswith("supersedes ADR-001") and second["why"].endswith("superseded by ADR-004")
    # not a why-question: ranked as always
    plain = route(built.bank(), "server-side sessions")
    assert "supersedes" not in json.dumps(plain)


def test_a_question_without_time_words_routes_exactly_as_the_plain_router(built: Repo, today: None) -> None:
    bank = built.bank()
    for question in ("how are refunds approved", "invoice numbering", "deploy blue-green switch",
                     "weekly-report of the cache"):
        assert route(bank, question, limit=10) == routed(bank, question, 10)[0]


def test_a_documents_time_is_its_decision_date_else_its_last_commit_else_frontmatter_else_mtime(
        built: Repo, tmp_path: Path, today: None) -> None:
    repo = built.copy(tmp_path / "repo")
    repo.write(f"{B}domain/draft.md", _doc("Draft", "Not committed yet.", "x", date="2026-10-05"))
    repo.write(f"{B}domain/scratch.md", _doc("Scratch", "Not committed, no date.", "y"))
    bank = repo.bank()
    bank.refresh()
    times = doc_times(bank)
    assert (times["adr/ADR-004-clerk.md"].day, times["adr/ADR-004-clerk.md"].source) == (dt.date(2026, 11, 12),
                                                                                           "decided")
    assert (times["domain/billing.md"].day, times["domain/billing.md"].source) == (dt.date(2026, 12, 1), "git")
    assert (times["domain/draft.md"].day, times["domain/draft.md"].source) == (dt.date(2026, 10, 5), "date")
    assert times["domain/scratch.md"].source == "mtime"


def test_document_times_are_saved_with_the_parse_cache_and_redone_when_head_moves(
        built: Repo, tmp_path: Path, today: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBANK_CACHE_DIR", str(tmp_path / "cache"))
    repo = built.copy(tmp_path / "repo")
    first = repo.bank()
    cache.load(first)
    route(first, "cache last week")
    assert first.cache["doc.times"].fresh and cache.save(first)
    again = repo.bank()
    assert cache.load(again)
    route(again, "cache last week")
    assert not again.cache["doc.times"].fresh  # read back from the cache file: no git log walk
    repo.commit("ops", "2026-12-02T09:00:00Z", {f"{B}ops/deploy.md": _doc("Deploy", "Deploying.", "Canary now.")})
    third = repo.bank()
    cache.load(third)
    answer = route(third, "what did we change about deploys today?")
    assert third.cache["doc.times"].fresh and paths(answer)[0] == "ops/deploy.md"


def test_changed_accepts_time_words_and_refuses_a_bad_expression_writing_nothing(built: Repo, tmp_path: Path) -> None:
    root = built.path / B
    proc = cli_in_process("--root", str(root), "--changed", "last week", "--json", env=ENV)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert [c["path"] for c in result["changes"]] == ["adr/ADR-005-cache-events.md", "domain/invoices.md"]
    assert result["window"] == {"words": "last week", "since": "2026-11-23", "until": "2026-11-29"}
    before = tree(built.path)
    bad = cli_in_process("changed", "last fortnight", "--root", str(root), env=ENV)
    assert bad.returncode == 1 and "last week" in bad.stderr and "HEAD~5" in bad.stderr
    assert tree(built.path) == before


def test_changed_in_the_library_reads_each_family(built: Repo, today: None) -> None:
    bank = built.bank()
    assert [c["path"] for c in changed(bank, "вчера")["changes"]] == ["domain/billing.md"]
    assert [c["path"] for c in changed(bank, "这个月")["changes"]] == ["domain/billing.md"]  # open: since 12-01
    month = changed(bank, "2026-11")
    assert {c["path"] for c in month["changes"]} >= {"adr/ADR-004-clerk.md", "domain/invoices.md"}
    assert changed(bank, "since v1.0")["window"]["tag"] == "v1.0"
    assert changed(bank, "HEAD~1")["mode"] == "git"  # refs still work


def test_prime_reads_the_topic_without_its_time_words(built: Repo, today: None) -> None:
    bank = built.bank()
    primed = prime(bank, "why did we move authentication to Clerk last month?")
    assert primed["documents"] and primed["documents"][0]["path"] == "adr/ADR-004-clerk.md"
    assert estimate_tokens(primed["text"]) <= 200
    assert prime(bank, "what changed yesterday?") == {"documents": [], "text": ""}  # nothing topical to point at


def test_the_mcp_server_answers_time_questions(built: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBANK_TODAY", TODAY)
    from mcpkit import Session

    session = Session(built.path / B)
    try:
        answer = session.ok("bank_route", {"question": "why did we switch authentication last month?"})
        assert answer["results"][0]["path"] == "adr/ADR-004-clerk.md"
        assert 'in "last month"' in answer["results"][0]["why"]
        windowed = session.ok("bank_route", {"question": "cache", "since": "2026-11-20", "until": "2026-11-30"})
        assert windowed["results"][0]["path"] == "adr/ADR-005-cache-events.md"
        listed = session.ok("bank_changed", {"since": "last week"})
        assert [c["path"] for c in listed["changes"]] == ["adr/ADR-005-cache-events.md", "domain/invoices.md"]
        refused = session.call("bank_route", {"question": "cache", "since": "someday"})
        assert refused.is_error and "bank_changed" in refused.content[0].text
    finally:
        session.close()


def test_git_dates_are_the_committers_calendar_dates(built: Repo) -> None:
    out = subprocess.run(["git", "log", "-1", "--format=%cs", "--", f"{B}domain/billing.md"], cwd=built.path,
                         capture_output=True, text=True, check=True).stdout.strip()
    bank = built.bank()
    bank.refresh()
    assert doc_times(bank)["domain/billing.md"].day.isoformat() == out == "2026-12-01"


def test_a_decision_marked_superseded_without_a_link_yields_to_the_newer_decision(built: Repo, tmp_path: Path,
                                                                                today: None) -> None:
    repo = built.copy(tmp_path / "repo")
    repo.commit("old queue", "2026-04-01T12:00:00Z", _adr("006", "queue-polling", "Exports poll a queue table",
                                                           "Why invoice exports poll a queue table.",
                                                           "Exports poll the queue table.", "2026-04-01",
                                                           decision_status="superseded"))
    repo.commit("new queue", "2026-10-01T12:00:00Z", _adr("007", "queue-broker", "Exports use a message broker",
                                                           "Why invoice exports use a message broker queue.",
                                                           "Exports use a broker.", "2026-10-01",
                                                           decision_status="accepted"))
    answer = route(repo.bank(), "why do invoice exports poll a queue table?")
    assert paths(answer)[:2] == ["adr/ADR-007-queue-broker.md", "adr/ADR-006-queue-polling.md"]
    assert answer["results"][0]["why"].endswith("supersedes ADR-006")
