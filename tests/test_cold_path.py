"""Cold path (issue 15): a warm index after edits answers as a fresh build, big files are read by their
head, and the lazy parts of a document parse to what an eager parse gives."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import cli_in_process, run_cli

from memorybank.bank import Bank
from memorybank.route import route
from memorybank.search import search

WORDS = ("filter", "threshold", "queue", "export", "invoice", "ledger", "retry", "rounding", "tax", "webhook")
QUESTIONS = ("filter thresholds", "why a queue for exports?", "invoice retry", "ledger rounding tax")
QUERIES = ("filter", "queue export", "ledger", "webhook retry")


def _bank(root: Path, count: int = 24) -> Path:
    """A small bank whose documents share most words, so document frequencies matter to every score."""
    for i in range(count):
        folder = root / ("domain" if i % 2 else "ops")
        folder.mkdir(parents=True, exist_ok=True)
        near = [WORDS[(i + k) % len(WORDS)] for k in range(4)]
        body = "\n\n".join(f"## {near[k].title()} {near[(k + 1) % 4]}\n\n"
                           f"The {near[k]} and the {near[(k + 2) % 4]} of item {i}; {' '.join(near)}."
                           for k in range(3))
        (folder / f"doc-{i:02}.md").write_text(
            f"---\ntitle: {near[0].title()} {near[1]} {i}\npurpose: How the {near[2]} meets the {near[3]}.\n"
            f"status: active\n---\n# {near[0].title()} {i}\n\n{body}\n", encoding="utf-8")
    return root


def _answers(bank: Bank) -> list[dict]:
    return [route(bank, q, limit=8) for q in QUESTIONS] + [search(bank, q, limit=8) for q in QUERIES]


def _edit(root: Path) -> None:
    """Body edits, a rename, a delete and an addition: the shapes an index updated in place must absorb."""
    for i in range(1, 12, 2):
        doc = root / "domain" / f"doc-{i:02}.md"
        doc.write_text(doc.read_text(encoding="utf-8") + "\nfilter filter threshold queue export, again.\n",
                       encoding="utf-8")
    (root / "ops" / "doc-00.md").rename(root / "ops" / "doc-99.md")
    (root / "ops" / "doc-02.md").unlink()
    (root / "ops" / "new.md").write_text("---\ntitle: Queue filter\npurpose: A new queue.\n---\n# New\n\n"
                                         "## Queue\n\nThe queue and the filter thresholds.\n", encoding="utf-8")


def test_a_warm_index_after_edits_answers_as_a_fresh_build(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    root = _bank(tmp_path / "bank")
    warm = Bank(root)
    _answers(warm)
    for round_, edit in enumerate((_edit, _edit_again)):
        edit(root)
        assert _answers(warm) == _answers(Bank(root)), f"round {round_}"


def _edit_again(root: Path) -> None:
    for i in (3, 5, 7):
        doc = root / "domain" / f"doc-{i:02}.md"
        doc.write_text(doc.read_text(encoding="utf-8").replace("The ", "A ", 2), encoding="utf-8")


def test_a_warm_server_after_an_edit_answers_as_a_cold_cli(scratch_server):
    session = scratch_server
    root = _bank(session.load())
    session.ok("bank_route", {"question": QUESTIONS[0]})
    session.ok("bank_search", {"query": QUERIES[0]})
    _edit(root)
    served = [session.ok("bank_route", {"question": q}) for q in QUESTIONS]
    served += [session.ok("bank_search", {"query": q}) for q in QUERIES]
    off = {"MEMORYBANK_CACHE": "off"}  # the first through a real process, the rest through its entry point here
    cold = [json.loads((cli_in_process if i else run_cli)("--root", str(root), "--route", q, "--json",
                                                          env=off).stdout) for i, q in enumerate(QUESTIONS)]
    cold += [json.loads(cli_in_process("--root", str(root), "--search", q, "--json", env=off).stdout)
             for q in QUERIES]
    for got, want in zip(served, cold):
        got.pop("refresh_ms", None), want.pop("refresh_ms", None)
        assert got == want


def test_a_file_over_the_body_limit_is_parsed_by_its_head_and_hashed_whole(tmp_path, monkeypatch):
    from memorybank import bank as bank_module
    from memorybank.confined import version_of
    from memorybank.limits import BODY_INDEX_MAX
    from memorybank.parse import parse_document
    root = tmp_path / "bank"
    root.mkdir()
    # a three-byte character straddles every 1 MB read and the head's cut
    filler = "## Чанк 界\n\nLine of prose with 界 in it.\n" * (BODY_INDEX_MAX // 40 + 1)
    data = ("---\ntitle: Big\npurpose: A large log.\nderived_from:\n  - other.md\n---\n# Big\n\n"
            + filler + "tail without newline").encode()
    assert len(data) > BODY_INDEX_MAX
    (root / "big.md").write_bytes(data)
    seen: list[int] = []

    def parse(path, head, *args, **kwargs):
        seen.append(len(head))
        return parse_document(path, head, *args, **kwargs)

    monkeypatch.setattr(bank_module, "parse_document", parse)
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    bank = Bank(root)
    bank.refresh()
    doc = bank.docs["big.md"]
    assert len(seen) == 1 and seen[0] <= bank_module.HEAD_BYTES < len(data)  # the head only
    eager = parse_document("big.md", data, doc.mtime_ns, bank.layers.layer_map)
    assert doc.version == version_of(data)
    fields = [name for name in doc.__slots__ if name != "version"]
    assert {n: getattr(doc, n) for n in fields} == {n: getattr(eager, n) for n in fields}
    assert doc.metadata_only and "only its frontmatter is indexed" in doc.limit_note
    assert doc.bytes == len(data) and doc.line_count == data.count(b"\n") + 1 and doc.parse_error is None


def test_a_frontmatter_not_closed_in_a_big_files_head_is_read_line_by_line(tmp_path, monkeypatch):
    from memorybank.limits import FRONTMATTER_MAX
    root = tmp_path / "bank"
    root.mkdir()
    lines = "".join(f"key{i}: value {i}\n" for i in range(FRONTMATTER_MAX // 4))
    (root / "wide.md").write_text("---\ntitle: Wide\n" + lines * 3 + "---\n# Wide\n", encoding="utf-8")
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    bank = Bank(root)
    bank.refresh()
    doc = bank.docs["wide.md"]
    assert doc.title == "Wide" and doc.frontmatter["key0"] == "value 0" and doc.metadata_only
    assert f"over the {FRONTMATTER_MAX:,}-character limit" in doc.parse_error
