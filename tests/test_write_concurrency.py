"""Two processes writing one bank never tear a file, lose an index entry or register twice (§16)."""

from __future__ import annotations

import multiprocessing

from writekit import assert_clean, make_bank

from memorybank.bank import Bank
from memorybank.writers import create

PER_WORKER = 100


def _worker(root: str, worker: int, start) -> None:
    bank = Bank(root)
    start.wait()
    for i in range(PER_WORKER):
        create(bank, path=f"adr/ADR-{worker}-{i:03d}.md", doc_kind="adr", title=f"Decision {i} of worker {worker}",
               purpose=f"Record number {i} written by worker {worker}.", derived_from=["dna/principles.md"],
               status="active")


def test_two_processes_creating_100_documents_each_lose_nothing(tmp_path):
    bank = make_bank(tmp_path / "bank")
    context = multiprocessing.get_context("fork")
    start = context.Event()
    workers = [context.Process(target=_worker, args=(str(bank.root), w, start)) for w in (1, 2)]
    for process in workers:
        process.start()
    start.set()
    for process in workers:
        process.join(timeout=120)
        assert process.exitcode == 0
    bank.refresh()
    created = [p for p in bank.paths if p.startswith("adr/ADR-")]
    assert len(created) == 2 * PER_WORKER
    index = bank.docs["adr/README.md"]
    targets = [link.target for link in index.links]
    assert sorted(targets) == sorted(created)  # every entry once, none lost, none doubled
    assert not [p for p in bank.root.rglob(".memorybank-tmp-*")]
    assert_clean(bank)
