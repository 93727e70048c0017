"""Small helpers for the writer tests: a governed test bank, tree hashes, refusal checks."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from memorybank.bank import Bank
from memorybank.errors import BankError

PRINCIPLES = """---
title: Principles
doc_kind: governance
doc_function: canonical
purpose: The root of the test bank's rules.
status: active
---
# Principles

The root document is `principles.md`. Every active document must define `derived_from`.
Cyclic dependencies are forbidden.

| field | values |
|---|---|
| doc_kind | `governance`, `project`, `adr`, `rule`, `recipe`, `feature`, `epic`, `product`, `note`, `flow` |
| doc_function | `canonical`, `index`, `template`, `log` |
| status | `draft`, `active`, `archived` |
| delivery_status | `planned`, `in_progress`, `done` |
| decision_status | `proposed`, `accepted`, `superseded` |
"""

ROOT_INDEX = """---
title: Test bank
doc_kind: project
doc_function: index
purpose: Root index of the test bank.
derived_from:
  - dna/principles.md
status: active
---
# Test bank

## Sections

- [`dna/principles.md`](dna/principles.md) — the rules
- [`adr/README.md`](adr/README.md) — decisions
- [`product/README.md`](product/README.md) — the product
"""

ADR_INDEX = """---
title: Decisions
doc_kind: adr
doc_function: index
purpose: Index of decision records.
derived_from:
  - ../README.md
status: active
---
# Decisions

## Registry

_Empty — the first decision is listed here._
"""

PRODUCT_INDEX = """---
title: Product
doc_kind: product
doc_function: index
purpose: Index of product documents.
derived_from:
  - ../README.md
status: active
---
# Product

- [Vision](vision.md) — Who the product serves and why.
"""

VISION = """---
title: Vision
doc_kind: product
doc_function: canonical
purpose: Who the product serves and why.
derived_from:
  - ../dna/principles.md
canonical_for:
  - audience
status: active
---
# Vision

## Audience

Teams that write things down.

## Goals

Fewer surprises.
"""

BASE = {
    "dna/principles.md": PRINCIPLES,
    "README.md": ROOT_INDEX,
    "adr/README.md": ADR_INDEX,
    "product/README.md": PRODUCT_INDEX,
    "product/vision.md": VISION,
}


def write_files(root: Path, files: dict[str, str], crlf: bool = False) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        data = text.replace("\n", "\r\n") if crlf else text
        target.write_bytes(data.encode("utf-8"))


def make_bank(root: Path, extra: dict[str, str] | None = None, crlf: bool = False, base: bool = True) -> Bank:
    """A small governed bank (contract, root index, two sections) plus `extra` files."""
    files = dict(BASE) if base else {}
    files.update(extra or {})
    write_files(root, files, crlf)
    bank = Bank(root)
    bank.refresh()
    return bank


def tree_hash(root: Path) -> dict[str, str]:
    """sha256 of every file under root (hidden ones too), except the lock file, which is not content."""
    out = {}
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            if name == ".memorybank.lock":
                continue
            full = Path(folder) / name
            out[full.relative_to(root).as_posix()] = hashlib.sha256(full.read_bytes()).hexdigest()
    return out


def refused(bank: Bank, call, *fragments: str) -> str:
    """Run a writer call that must be refused: the message holds every fragment and no byte changed."""
    before = tree_hash(bank.root)
    with pytest.raises(BankError) as caught:
        call()
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert tree_hash(bank.root) == before, "a refused call changed the bank"
    return message


def read(bank: Bank, rel: str) -> str:
    return (bank.root / rel).read_bytes().decode("utf-8")


def diff_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """Lines removed and added between two texts (multiset difference, enough for one-line edits)."""
    import difflib
    removed, added = [], []
    for line in difflib.ndiff(before.splitlines(), after.splitlines()):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


def findings(bank: Bank) -> list[dict]:
    from memorybank.validate import validate
    return validate(bank)["findings"]


def assert_clean(bank: Bank) -> None:
    found = findings(bank)
    assert found == [], "\n".join(f"{f['rule']} {f['path']}: {f['message']}" for f in found)
