"""Every real-world corpus indexes, validates and reads without a crash, and --stats accounts for every file."""

import json
import os

import pytest
from conftest import CORPORA, cli_in_process, run_cli

from memorybank.bank import Bank
from memorybank.read import read
from memorybank.validate import validate

BANKS = sorted(p for p in CORPORA.glob("*/memory*") if p.is_dir()) if CORPORA.is_dir() else []


@pytest.mark.skipif(not BANKS, reason="shared corpora not present")
@pytest.mark.parametrize("root", BANKS, ids=lambda p: p.parent.name)
def test_corpus_indexes_validates_and_reads(root):
    bank = Bank(root)
    bank.refresh()
    on_disk = {str(p.relative_to(root)) for p in root.rglob("*.md")
               if not any(part.startswith(".") for part in p.relative_to(root).parts)}
    assert set(bank.docs) == on_disk
    result = validate(bank)
    assert result["summary"]["total"] == len(result["findings"])
    for path in bank.paths:
        out = read(bank, path)
        assert out["path"] == path
        for section in bank.docs[path].sections[:3]:
            read(bank, path, section=section.title) if _unique(bank.docs[path], section.title) else None


def _unique(doc, title):
    return sum(1 for s in doc.sections if s.title == title) == 1


@pytest.mark.skipif(not BANKS, reason="shared corpora not present")
def test_corpus_stats_account_for_every_file():
    for root in BANKS:  # the first through a real process, the others through its entry point here
        run = run_cli if root == BANKS[0] else cli_in_process
        data = json.loads(run("--root", str(root), "--stats", "--json").stdout)
        count = sum(1 for _, _, files in os.walk(root) for f in files if f.endswith(".md"))
        assert data["documents"] + len(data["skipped"]) == count
