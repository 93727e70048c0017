"""An edit between two calls is re-derived in place, and answers exactly as a fresh build (issue 15).

A cold call whose parse cache is warm restores the saved route and body indexes, then re-derives only
the files changed since the save (`cache.restore`); before, one changed file cost a full build of both
indexes (12.7 s at 10,000 documents against 0.7 s untouched). Every answer must still equal the same
call with the cache off: these tests compare the two on route, search and prime after edits, same-size
edits, deletes, new files, renames and duplicates, through the CLI (the real process once, the entry
point in process for the variants) and the library, and check that the in-place path was the one taken.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from array import array
from pathlib import Path

import pytest
from conftest import FIXTURE, cli_in_process, run_cli, write_bank

from memorybank import cache
from memorybank.bank import Bank
from memorybank.prime import prime
from memorybank.route import RouteIndex, route
from memorybank.search import PackedPostings, SearchIndex, search

OFF = {"MEMORYBANK_CACHE": "off"}
QUESTIONS = ("filter thresholds", "why a queue for exports?", "invoice export rounding", "пороги фильтрации",
             "FT-042")
# twenty notes saying the same: the body evidence of every one ties, and route draws 15 candidates (3 × 5)
TIED = {f"note-{n:02d}.md": "Plain words about the kettle and the garden shed.\n" for n in range(20)}


@pytest.fixture
def restores(monkeypatch) -> list[tuple[str, bool]]:
    """What each `cache.restore` of the route and body indexes answered, in call order (True: in place)."""
    seen: list[tuple[str, bool]] = []
    real = cache.restore

    def record(index, bank):
        done = real(index, bank)
        if index.cache_key in cache.KINDS:
            seen.append((index.cache_key, done))
        return done
    monkeypatch.setattr(cache, "restore", record)
    return seen


def _touch(path: Path, ns: int = 1_000_000) -> None:
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + ns))


def _cli_route(root: Path, question: str, env: dict[str, str] | None = None) -> str:
    """`--route QUESTION --limit 10 --json` as a new process runs it (no bank loaded; the cache read and saved)."""
    proc = cli_in_process("--root", str(root), "--route", question, "--limit", "10", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _derived(root: Path) -> tuple[int, int, int]:
    """(files parsed, documents the route index derived, documents the body index derived) by a cold call."""
    bank = Bank(root)
    cache.load(bank)
    bank.refresh()
    found = (bank.parse_count, RouteIndex.of(bank).derived_total, SearchIndex.of(bank).derived_total)
    cache.save(bank)
    return found


def _knowledge(root: Path) -> int:
    bank = Bank(root)
    bank.refresh()
    return sum(doc.is_knowledge for doc in bank.docs.values())


def test_ties_at_the_candidate_cut_after_an_edit_answer_as_a_fresh_build(tmp_path):
    """Repro before the fix: route's candidate cut (`_strongest`, 15 of 20 tied notes) broke ties in id
    order, and the in-place update numbers the touched note-00 last: the cached call answered note-01..05,
    the cache off note-00..04. Ties now go by path, the order a fresh build numbers in."""
    root = write_bank(tmp_path / "bank", TIED)
    cli_in_process("--root", str(root), "--route", "kettle")  # writes the cache
    _touch(root / "note-00.md")
    warm = run_cli("--root", str(root), "--route", "kettle", "--json")  # the real process: restore, update, save
    off = cli_in_process("--root", str(root), "--route", "kettle", "--json", env=OFF)
    assert warm.stdout == off.stdout
    assert [row["path"] for row in json.loads(warm.stdout)["results"]] == [f"note-{n:02d}.md" for n in range(5)]
    _touch(root / "note-00.md")
    assert _derived(root) == (1, 1, 1)  # the edit was re-derived in place, not the twenty
    # a warm bank (a server's) updated in place draws the same candidates
    bank = Bank(root)
    bank.refresh()
    route(bank, "kettle")
    _touch(root / "note-00.md")
    assert json.loads(off.stdout) == route(bank, "kettle")


def test_edits_deletes_new_files_and_renames_answer_as_a_fresh_build(tmp_path, restores):
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    _cli_route(root, QUESTIONS[0])  # writes the cache
    victims = sorted(p for p in root.rglob("*.md") if "dna" not in p.parts and p.name != "EXPECTED.md")
    target, other, third = victims[3], victims[7], victims[11]

    def append() -> None:
        with target.open("a", encoding="utf-8") as handle:
            handle.write("\nThe filter thresholds are rounded before the invoice export.\n")

    def same_size() -> None:  # one letter for another, the mtime moved: the stamp still differs
        data = bytearray(other.read_bytes())
        at = data.rindex(b"e")
        data[at:at + 1] = b"a"
        other.write_bytes(bytes(data))
        _touch(other, 1)

    def delete() -> None:
        third.unlink()

    def new() -> None:
        write_bank(root, {"domain/aa-new.md": "# Queue notes\n\n## Exports\n\nExports wait in a queue.\n"})

    def rename() -> None:  # a delete and a new file at once
        target.rename(target.with_name("0-" + target.name))

    def duplicate() -> None:  # a copy that sorts first ties with its original everywhere
        (other.parent / ("0-" + other.name)).write_bytes(other.read_bytes())

    for step in (append, same_size, delete, new, rename, duplicate):
        step()
        restores.clear()
        # the first call after the edit restores both indexes and updates them in place, then saves them
        assert _cli_route(root, QUESTIONS[0]) == _cli_route(root, QUESTIONS[0], env=OFF), step.__name__
        assert restores[:2] == [("route.index", True), ("search.index", True)], step.__name__
        # the next call restores what that one saved: every answer as the cache off, nothing derived
        asked = QUESTIONS[1:4]
        assert _library_answers(root, asked, cached=True) == _library_answers(root, asked, cached=False)
        assert _derived(root) == (0, 0, 0), step.__name__


def test_each_cold_call_after_an_edit_derives_only_the_changed_files(tmp_path):
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    _derived(root)
    total = _knowledge(root)
    files = sorted(p for p in root.rglob("*.md") if "dna" not in p.parts and p.name != "EXPECTED.md")
    for path in files[:3]:
        _touch(path)
    assert _derived(root) == (3, 3, 3)
    assert _derived(root) == (0, 0, 0)  # saved after the update: the next call is an untouched one
    (files[0]).unlink()
    assert _derived(root) == (0, 0, 0)  # a delete re-derives nothing, and removes the document
    many = files[1:]  # more than half of the files: a full build is cheaper
    for path in many:
        _touch(path)
    assert _derived(root) == (len(many), total - 1, total - 1)


def test_a_dna_change_rebuilds_both_indexes_in_full(tmp_path, restores):
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    _cli_route(root, QUESTIONS[0])
    total = _knowledge(root)
    with (root / "dna/vocabulary.md").open("a", encoding="utf-8") as handle:
        handle.write("| export | выгрузка |\n")
    assert _cli_route(root, "выгрузка счетов") == _cli_route(root, "выгрузка счетов", env=OFF)
    assert restores[-2:] == [("route.index", False), ("search.index", False)]
    _touch(root / "dna/governance.md")  # any dna/ file: the layers and vocabulary every document is derived with
    assert _derived(root) == (1, total, total)


def test_replaced_ids_do_not_pile_up_across_calls(tmp_path, monkeypatch):
    """Each in-place edit numbers the document anew and keeps its old id empty; past twice the documents
    (+ SLACK_IDS) the restore is refused, so a full build numbers from 0 again."""
    monkeypatch.setattr(cache, "SLACK_IDS", 0)
    root = write_bank(tmp_path / "bank", {f"n{n}.md": f"# Note {n}\n\nWords {n} about kettles.\n" for n in range(4)})
    _derived(root)
    seen = []
    for _ in range(6):
        _touch(root / "n1.md")
        seen.append(_derived(root)[1])
    assert seen == [1, 1, 1, 1, 4, 1]  # 4 documents: ids 4..7 taken in place, the fifth edit rebuilds
    bank = Bank(root)
    cache.load(bank)
    bank.refresh()
    assert len(RouteIndex.of(bank).paths) == 5 and len(SearchIndex.of(bank).paths) == 5
    fresh = Bank(root)
    fresh.refresh()
    assert route(bank, "kettles n1") == route(fresh, "kettles n1")


def _pack_term_by_term(postings: PackedPostings) -> PackedPostings:
    """The pack before runs: every term's postings moved one by one, in term order."""
    merged = {term: postings[term] for term in postings}
    out = PackedPostings()
    for term in sorted(merged):
        ids, tfs = merged[term]
        if tfs.typecode != "H":
            out.loose[term] = (ids, tfs)
            continue
        out.terms.append(term)
        out.starts.append(len(out.ids))
        out.counts.append(len(ids))
        out.ids.extend(ids)
        out.tfs.extend(tfs)
    out.packed_live = len(out.terms)
    return out


def _layout(postings: PackedPostings) -> tuple:
    return (postings.terms, postings.starts, postings.counts, postings.ids, postings.tfs,
            {term: (ids, tfs.typecode, tfs) for term, (ids, tfs) in postings.loose.items()}, postings.packed_live)


def test_a_pack_by_runs_lays_out_what_a_pack_term_by_term_does():
    rng = random.Random(15)
    for _ in range(200):
        postings, ident = PackedPostings(), 0
        words = [f"w{n:02d}" for n in range(rng.randint(1, 30))]
        for _ in range(rng.randint(1, 40)):
            roll = rng.random()
            if roll < 0.7:  # a document: its terms appended under a new id
                ident += 1
                for word in rng.sample(words, rng.randint(1, len(words))):
                    postings.append(word, ident, 70_000 if rng.random() < 0.01 else rng.randint(1, 5))
            elif roll < 0.8 and len(postings):  # a term compaction dropped
                del postings[rng.choice(list(postings))]
            elif roll < 0.9 and len(postings):  # a term compaction shortened
                term = rng.choice(list(postings))
                ids, tfs = postings[term]
                postings[term] = (array("i", ids[:1]), array(tfs.typecode, tfs[:1]))
            else:
                expected = _layout(_pack_term_by_term(postings))
                postings.pack()
                assert _layout(postings) == expected and postings.garbage == 0
        expected = _layout(_pack_term_by_term(postings))
        postings.pack()
        assert _layout(postings) == expected


def _library_answers(root: Path, questions: list[str], cached: bool) -> list:
    bank = Bank(root)
    if cached:
        cache.load(bank)
    bank.refresh()
    out = [(route(bank, q), route(bank, q, limit=10), search(bank, q), search(bank, q, limit=20), prime(bank, q))
           for q in questions]
    if cached:
        cache.save(bank)
    return out


def test_random_edit_sequences_answer_as_a_fresh_build(tmp_path, monkeypatch, restores):
    """Random edits, appends, same-size edits, deletes, new files, duplicates and floods of identical
    copies (ties at every cut), one cold cached call after each, against the cache off."""
    seed = 0
    rng = random.Random(seed)
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    questions = [*QUESTIONS[:3], "kettle garden"]
    _library_answers(root, questions[:1], cached=True)
    for step in range(6):
        files = sorted(p for p in root.rglob("*.md") if "dna" not in p.parts)
        victim = rng.choice(files)
        kind = ("flood", "touch first", "append", "delete", "new", "same size")[(step + seed) % 6]
        if kind == "flood":
            for n in range(16):
                (victim.parent / f"{rng.choice('0bz')}{n:02d}-{victim.name}").write_bytes(victim.read_bytes())
        elif kind == "touch first":
            _touch(min(files))
        elif kind == "append":
            with victim.open("a", encoding="utf-8") as handle:
                handle.write(f"\n{rng.choice(questions)} kettle garden\n")
        elif kind == "delete":
            victim.unlink()
        elif kind == "new":
            write_bank(root, {f"domain/{rng.choice('0mz')}-new-{step}.md": f"# New\n\n{rng.choice(questions)}\n"})
        else:
            data = bytearray(victim.read_bytes())
            data[-2:-1] = b"x" if data[-2:-1] != b"x" else b"y"
            victim.write_bytes(bytes(data))
            _touch(victim, 1)
        restores.clear()
        cached = _library_answers(root, questions, cached=True)
        monkeypatch.setenv("MEMORYBANK_CACHE", "off")
        assert cached == _library_answers(root, questions, cached=False), (step, kind)
        monkeypatch.delenv("MEMORYBANK_CACHE")
        assert [done for _, done in restores[:2]] == [True, True], (step, kind)
