"""After `adopt`, route and search rank the project's documents exactly as before (issue 18).

Adopt adds the starter's dna/ contract (eight documents) and an index README to a Cline bank of six.
Counted into BM25's statistics they moved every idf and the average length, so near-ties flipped, and
bank_search put contract pages that say "links", "chosen" or "tests" above the answers. Body
statistics and routing rarity now count the project's knowledge only (`scaffold.py`), and search
ranks the contract and indexes after the documents that answer, as route does.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import CORPORA, cli_in_process, run_cli, write_bank

from memorybank.bank import Bank
from memorybank.echo import title_echo
from memorybank.route import RouteIndex, route
from memorybank.scaffold import counts_toward_statistics
from memorybank.search import SearchIndex, search

CLINE = ("cline-0xmichalis-nftbk", "cline-1amageek-app-mcp", "cline-31103-MedFeeBot")


@pytest.fixture(scope="module")
def adopted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Each Cline corpus (read-only) and a copy of it adopted through the CLI (the first in a real process,
    the others through its entry point in this one)."""
    out = {}
    for corpus in CLINE:
        plain = CORPORA / corpus / "memory-bank"
        copy = tmp_path_factory.mktemp(corpus) / "memory-bank"
        shutil.copytree(plain, copy)
        proc = (cli_in_process if out else run_cli)("--root", str(copy), "--adopt", "--write", "--json")
        assert proc.returncode == 0, proc.stderr
        assert any(p.startswith("dna/") for p in json.loads(proc.stdout)["contract"])
        out[corpus] = (plain, copy)
    return out


@pytest.fixture(scope="module")
def banks(adopted: dict[str, tuple[Path, Path]]) -> dict[str, tuple[Bank, Bank]]:
    """One index of each plain corpus and of its adopted copy, shared by the tests that only read them."""
    out = {}
    for corpus, (plain, copy) in adopted.items():
        out[corpus] = before, after = Bank(plain), Bank(copy)
        before.refresh()
        after.refresh()
    return out


# questions whose expected document moved on the adopted copy before the fix (route or search; the last
# of two banks: route-lang's prose-wide rarity for H1 titles met adopt's titles copied from the H1)
MOVED = {
    "cline-0xmichalis-nftbk": ["what happens when one token fails halfway through a backup run",
                               "为什么配置文件选用 TOML？", "planned change to how the backup folders are organised",
                               "Какие блокчейны собираются поддержать позже?", "Для чего в проекте нужен clap?"],
    "cline-1amageek-app-mcp": ["Почему в сервере выбрано внедрение зависимостей?", "Какие виды тестов предусмотрены?",
                               "what fraction of the work was finished at the last progress review",
                               "How will the AI find the search box inside the Weather app?"],
    "cline-31103-MedFeeBot": ["Как выбирается парсер для каждого отслеживаемого адреса?",
                              "分支策略和提交信息规范是什么？",
                              "which regular expression catches links to PDF files",
                              "Why was Cloud Storage chosen to keep the list of links already seen?"],
}


def _project(bank: Bank, rows: list[dict]) -> list[str]:
    return [r["path"] for r in rows if counts_toward_statistics(bank.docs[r["path"]])]


def test_body_statistics_of_the_adopted_copy_are_the_plain_banks(banks: dict[str, tuple[Bank, Bank]]) -> None:
    for before, after in banks.values():
        old, new = SearchIndex.of(before), SearchIndex.of(after)
        assert new.live > old.live and new.population()[:2] == old.population()[:2] == (old.live, old.total_length)
        assert old.norms() == [new.norms()[new.ids[p]] for p in old.paths if p is not None]
        for term, (ids, _) in old.postings.items():  # every project word weighs what it did
            assert new.idf(new.counted_df(new.postings[term][0], len(new.postings[term][0]))) == \
                old.idf(len(ids)), term
        rarity_old, rarity_new = RouteIndex.of(before), RouteIndex.of(after)
        assert all(rarity_new.rarity(t) == rarity_old.rarity(t) for t in rarity_old.postings)
        # a word only the contract's metadata holds is as rare as a word one document holds, never rarer
        assert rarity_new.rarity("lifecycl") == 1.0 and "lifecycl" not in rarity_old.postings


def test_route_and_search_rank_the_project_documents_as_before(banks: dict[str, tuple[Bank, Bank]]) -> None:
    for corpus, (before, after) in banks.items():
        for question in MOVED[corpus]:
            for find in (route, search):
                old = [r["path"] for r in find(before, question, limit=10)["results"]]
                rows = find(after, question, limit=10)["results"]
                new = _project(after, rows)
                assert new[:len(old)] == old, (corpus, find.__name__, question)
                assert [r["path"] for r in rows[:len(new)]] == new  # the contract and the index come after


def test_cli_search_puts_the_answer_before_the_contract_unless_asked_about_the_bank(
        adopted: dict[str, tuple[Path, Path]]) -> None:
    _, copy = adopted["cline-31103-MedFeeBot"]
    # before: dna/cross-references.md (all about links) first, the answer fifth
    proc = run_cli("--root", str(copy), "--search", "Why was Cloud Storage chosen to keep the list of links "
                   "already seen?", "--json")
    assert proc.returncode == 0, proc.stderr
    paths = [r["path"] for r in json.loads(proc.stdout)["results"]]
    assert paths[0] == "systemPatterns.md"
    first_dna = next(i for i, p in enumerate(paths) if p.startswith("dna/"))
    assert all(p.startswith("dna/") or p == "README.md" for p in paths[first_dna:])
    # a question about the bank itself still finds the contract first
    proc = cli_in_process("--root", str(copy), "--search", "which frontmatter keys must every document carry", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"][0]["path"].startswith("dna/")
    proc = cli_in_process("--root", str(copy), "--search", "links", "--layer", "dna", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"][0]["path"] == "dna/cross-references.md"


def test_what_counts_toward_statistics(tmp_path: Path) -> None:
    root = write_bank(tmp_path / "b", {
        "README.md": "# Top\n\nPlain readme.\n",
        "notes/README.md": "---\ntitle: Notes\ndoc_function: canonical\n---\n# Notes\n\nKnowledge.\n",
        "notes/index.md": "---\ntitle: List\ndoc_function: index\n---\n# List\n",
        "notes/a.md": "# A\n\nKnowledge.\n", "dna/rules.md": "# Rules\n"})
    bank = Bank(root)
    bank.refresh()
    assert sorted(p for p, d in bank.docs.items() if counts_toward_statistics(d)) == ["notes/README.md", "notes/a.md"]


def test_a_bank_of_scaffolding_only_counts_every_document(tmp_path: Path) -> None:
    root = write_bank(tmp_path / "b", {
        "README.md": "---\ntitle: Index\ndoc_function: index\n---\n# Index\n\n- [Rules](dna/rules.md) about links\n",
        "dna/rules.md": "---\ntitle: Rules\n---\n# Rules\n\nEvery document links its sources. Links are relative.\n"})
    bank = Bank(root)
    bank.refresh()
    index = SearchIndex.of(bank)
    assert index.population() == (index.live, index.total_length, frozenset())
    rows = search(bank, "links")["results"]
    assert [r["path"] for r in rows] == ["dna/rules.md", "README.md"] and rows[-1]["score"] > 0


def test_a_warm_index_follows_adopt_written_beside_it(tmp_path: Path) -> None:
    corpus = "cline-0xmichalis-nftbk"
    copy = tmp_path / "memory-bank"
    shutil.copytree(CORPORA / corpus / "memory-bank", copy)
    bank = Bank(copy)
    question = MOVED[corpus][0]
    before = {find: [r["path"] for r in find(bank, question)["results"]] for find in (route, search)}
    assert cli_in_process("--root", str(copy), "--adopt", "--write").returncode == 0  # not through `bank`
    for find, old in before.items():  # the same Bank object: its indexes update in place
        assert _project(bank, find(bank, question, limit=10)["results"])[:len(old)] == old, find.__name__


def test_a_title_copied_from_the_h1_is_an_echo() -> None:
    assert title_echo("システムパターン: MedFeeBot", "**システムパターン: MedFeeBot**")
    assert title_echo("A very long heading cut…", "A very long  heading cut at the cap")
    assert not title_echo("Backup layout", "Storage") and not title_echo("T", None)
