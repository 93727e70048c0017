"""Bad files (§16): indexed or reported, never a crash or a hang."""

from __future__ import annotations

import os
import time

import pytest
from conftest import doc, write_bank

from memorybank.bank import Bank
from memorybank.read import read
from memorybank.stats import stats
from memorybank.validate import validate

HANG_BOUND_S = 20  # generous: the point is "terminates", not speed (speed lives in benchmarks/)


def _all_capabilities(bank: Bank) -> dict:
    out = {"stats": stats(bank), "validate": validate(bank)}
    for path in bank.paths:
        read(bank, path)
    for name, call in (("route", "memorybank.route:route"), ("search", "memorybank.search:search")):
        module, _, func = call.partition(":")
        try:
            capability = getattr(__import__(module, fromlist=[func]), func)
        except ImportError:
            continue
        out[name] = capability(bank, "billing thresholds and rounding")
    return out


@pytest.mark.parametrize("name,content", [
    ("binary.md", bytes(range(256)) * 64),
    ("nul.md", b"---\ntitle: x\n---\n\x00\x00\x00"),
    ("bom.md", b"\xef\xbb\xbf---\ntitle: Bom\nstatus: active\n---\n# Bom\n"),
    ("crlf.md", b"---\r\ntitle: Crlf\r\n---\r\n## A\r\ntext\r\n"),
    ("latin1.md", "---\ntitle: café\n---\nnaïve\n".encode("latin-1")),
    ("empty.md", b""),
    ("only-dashes.md", b"---"),
    ("unclosed.md", b"---\ntitle: x\nno end\n"),
    ("deep-yaml.md", b"---\nk: " + b"[" * 5000 + b"]" * 5000 + b"\n---\n"),
    ("anchors.md", b"---\na: &a [*a]\nb: !!python/object:os.system x\n---\n"),
])
def test_hostile_single_files_are_indexed(tmp_path, name, content):
    root = write_bank(tmp_path / "b", {name: content, "ok.md": doc("Billing")})
    bank = Bank(root)
    start = time.monotonic()
    out = _all_capabilities(bank)
    assert time.monotonic() - start < HANG_BOUND_S
    assert name in bank.docs and out["stats"]["documents"] == 2


def test_ten_megabyte_markdown_and_ten_thousand_row_table(tmp_path):
    big = "# Big\n\n" + ("## Part\n" + "word " * 200 + "\n") * 9000
    table = "| a | b |\n|---|---|\n" + "".join(f"| [r{i}](r{i}.md) | x |\n" for i in range(10_000))
    root = write_bank(tmp_path / "b", {"big.md": big, "README.md": table})
    assert os.path.getsize(root / "big.md") > 9_000_000
    bank = Bank(root)
    start = time.monotonic()
    out = _all_capabilities(bank)
    assert time.monotonic() - start < HANG_BOUND_S
    assert out["validate"]["summary"]["by_rule"]["dangling-index-entry"] == 10_000
    assert read(bank, "big.md")["truncated"] is True


def test_deep_folders_spaces_unicode_and_symlink_loops(tmp_path):
    deep = "/".join(f"level {i}" for i in range(100))
    root = write_bank(tmp_path / "b", {f"{deep}/ünïcødé name.md": doc("Deep"), "a/x.md": doc("X")})
    os.symlink(root, root / "a" / "loop")
    os.symlink(root / "a", root / "a" / "self")
    os.symlink("missing-target.md", root / "dangling.md")
    bank = Bank(root)
    start = time.monotonic()
    out = _all_capabilities(bank)
    assert time.monotonic() - start < HANG_BOUND_S
    assert f"{deep}/ünïcødé name.md" in bank.docs
    assert {s["path"] for s in out["stats"]["skipped"]} == {"a/loop", "a/self", "dangling.md"}


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything; permissions cannot be tested")
def test_unreadable_files_and_folders_are_skipped(tmp_path):
    root = write_bank(tmp_path / "b", {"a.md": doc("A"), "locked/b.md": doc("B"), "c.md": doc("C")})
    os.chmod(root / "c.md", 0)
    os.chmod(root / "locked", 0)
    try:
        bank = Bank(root)
        bank.refresh()
        assert bank.paths == ["a.md"]
        assert {s["path"] for s in bank.skipped} == {"c.md", "locked"}
    finally:
        os.chmod(root / "locked", 0o755)
        os.chmod(root / "c.md", 0o644)
