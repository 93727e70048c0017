"""Small helpers for the writer tests: a governed test bank, tree hashes, refusal checks."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import pytest
from conftest import write_bank

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


def make_bank(root: Path, extra: dict[str, str] | None = None, crlf: bool = False, base: bool = True) -> Bank:
    """A small governed bank (contract, root index, two sections) plus `extra` files."""
    files = dict(BASE) if base else {}
    files.update(extra or {})
    write_bank(root, files, crlf)
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
    """Run a writer call that must be refused: the message holds every fragment and no byte changed.

    The message is checked as an MCP client reads it: the actions it points at (`see`) as tool names.
    """
    from memorybank.catalog import see_for
    from memorybank.errors import shown

    before = tree_hash(bank.root)
    with pytest.raises(BankError) as caught:
        call()
    message = shown(caught.value, lambda action: see_for("mcp", action))
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


class TreeWatch:
    """Cheap before/after views of a bank folder for property tests.

    `snapshot()` maps every file (hidden ones too, but not the lock) to a content hash, re-hashing
    only files whose `(inode, size, mtime_ns)` changed since the last look; `full()` reads and
    hashes every byte with no cache, for the moment a refusal must be proven byte-neutral. Folders
    are listed as `path/` with no hash, so a refused call that leaves an empty folder is caught too.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._known: dict[str, tuple[tuple[int, int, int], str]] = {}

    def _walk(self, cached: bool) -> dict[str, str]:
        out: dict[str, str] = {}
        known = self._known
        stack = [(str(self.root), "")]
        while stack:
            folder, prefix = stack.pop()
            with os.scandir(folder) as entries:
                for entry in entries:
                    rel = prefix + entry.name
                    if entry.is_dir(follow_symlinks=False):
                        out[rel + "/"] = ""
                        stack.append((entry.path, rel + "/"))
                        continue
                    if entry.name == ".memorybank.lock":
                        continue
                    st = entry.stat(follow_symlinks=False)
                    stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
                    hit = known.get(rel)
                    if cached and hit is not None and hit[0] == stamp:
                        out[rel] = hit[1]
                        continue
                    with open(entry.path, "rb") as handle:
                        digest = hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
                    known[rel] = (stamp, digest)
                    out[rel] = digest
        return out

    def snapshot(self) -> dict[str, str]:
        return self._walk(cached=True)

    def full(self) -> dict[str, str]:
        return self._walk(cached=False)


def tree_diff(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    """`{path: created|updated|deleted}` between two TreeWatch views (files only)."""
    out = {}
    for path in sorted(set(before) | set(after)):
        if path.endswith("/") or before.get(path) == after.get(path):
            continue
        out[path] = "created" if path not in before else ("deleted" if path not in after else "updated")
    return out


def fast_tmp(prefix: str) -> Path:
    """A fresh scratch folder on tmpfs when there is one (fsync is free there), else the default temp dir.

    The reliability tests write thousands of files; what they check (bytes, renames, locks, kills)
    does not depend on the disk. Callers remove what they no longer need.
    """
    shm = Path("/dev/shm")
    base = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))
