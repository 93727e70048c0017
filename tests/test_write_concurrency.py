"""Two processes writing one bank never tear a file, lose an index entry or register twice (§16)."""

from __future__ import annotations

import multiprocessing

import pytest
from writekit import assert_clean, make_bank

from memorybank.bank import Bank
from memorybank.writers import create


def _worker(root: str, worker: int, start, count: int) -> None:
    bank = Bank(root)
    start.wait()
    for i in range(count):
        create(bank, path=f"adr/ADR-{worker}-{i:03d}.md", doc_kind="adr", title=f"Decision {i} of worker {worker}",
               purpose=f"Record number {i} written by worker {worker}.", derived_from=["dna/principles.md"],
               status="active")


@pytest.mark.parametrize("count", [20, pytest.param(100, marks=pytest.mark.slow)])
def test_two_processes_creating_documents_at_once_lose_nothing(tmp_path, count):
    """Both start on one signal and write the same index for every document they create: 20 each already
    interleaves their commits many times over (each create takes the lock, reads and rewrites the index)."""
    bank = make_bank(tmp_path / "bank")
    context = multiprocessing.get_context("fork")
    start = context.Event()
    workers = [context.Process(target=_worker, args=(str(bank.root), w, start, count)) for w in (1, 2)]
    for process in workers:
        process.start()
    start.set()
    for process in workers:
        process.join(timeout=120)
        assert process.exitcode == 0
    bank.refresh()
    created = [p for p in bank.paths if p.startswith("adr/ADR-")]
    assert len(created) == 2 * count
    index = bank.docs["adr/README.md"]
    targets = [link.target for link in index.links]
    assert sorted(targets) == sorted(created)  # every entry once, none lost, none doubled
    assert not [p for p in bank.root.rglob(".memorybank-tmp-*")]
    assert_clean(bank)
