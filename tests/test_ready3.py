"""Ready at 10,000 documents (issue 15, ready3): what a start no longer does must not change an answer.

A restored document keeps its cold fields (frontmatter, sections, links, key lines, counts) as the bytes
the cache saved until one of them is read (`cache.ColdDoc`); a starting server imports the writers only
when a killed writer left something to repair (`leftovers.needs_repair`). Both are checked against what
they replace: every field of every document, the real server's answers with the cache off, and the
repair a start still does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from banks import START as START_PAGE
from conftest import CORPORA, write_bank
from conftest import doc as page
from mcpkit import Session
from test_ready_lazy import _saved

from memorybank import cache
from memorybank.atomic import TEMP_PREFIX
from memorybank.bank import Bank
from memorybank.route import route

EXTRA = {
    # a YAML date: a value marshal cannot write, so this document is left out of the cache and parsed again
    "ops/dated.md": "---\ntitle: Dated runbook\npurpose: When the sync token expires.\nreviewed: 2026-11-30\n"
                    "---\n# Dated\n\n## Token\n\nThe sync token expires after a day.\n",
    # nested frontmatter, links, a rule reference and sections: every kind of cold field
    "ops/rich.md": "---\ntitle: Rich page\npurpose: Media upload limits and retries.\ncanonical_for: [upload limit]\n"
                   "anchors: [limits]\ntags: [media, upload]\nowner: {team: media, since: '2026'}\n---\n"
                   "# Rich\n\nSee [media](../domain/media.md) and [sync](../domain/sync.md).\n\n"
                   "## Limits\n\nDefined in `domain/media.md`.\n\n## Retries\n\nThree retries, then a backoff.\n",
}
ROUTES = ("how are media uploads limited?", "sync token expiry", "what changed recently?", "why a session instance?")
SEARCHES = ("upload", "token expires")


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "memory_bank"
    shutil.copytree(CORPORA / "react-native-matrix" / "memory_bank", root)
    for rel, text in EXTRA.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_restored_documents_are_the_parsed_ones_field_for_field_and_decode_only_when_read(tmp_path, monkeypatch):
    root = _copy(tmp_path)
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    parsed = Bank(root)
    parsed.refresh()
    monkeypatch.delenv("MEMORYBANK_CACHE")
    _saved(root)
    bank = Bank(root)
    assert cache.load(bank)
    left_out = parsed.docs.keys() - bank.docs.keys()  # YAML dates: parsed again by the refresh
    assert "ops/dated.md" in left_out and len(left_out) < len(parsed.docs) // 2
    assert all(isinstance(d, cache.ColdDoc) and cache._blob_of(d) is not None for d in bank.docs.values())
    bank.refresh()
    assert bank.parse_count == len(left_out) and type(bank.docs["ops/dated.md"]) is not cache.ColdDoc
    for question in ROUTES:
        route(bank, question)
    assert bank.incoming == parsed.incoming and bank.owners == parsed.owners
    assert bank.registered_in == parsed.registered_in and bank.paths == parsed.paths
    assert bank.docs.keys() == parsed.docs.keys()
    for path, doc in bank.docs.items():
        fresh = parsed.docs[path]
        assert doc._values() == fresh._values(), path  # reading every field decodes the rest
        assert cache._blob_of(doc) is None
        assert repr(doc).partition("(")[2] == repr(fresh).partition("(")[2], path
        moved = doc.replace(layer="elsewhere")
        assert moved._values() == fresh.replace(layer="elsewhere")._values()
    again = Bank(root)
    assert cache.load(again)
    undecoded = again.docs["ops/rich.md"]
    assert cache.doc_row(undecoded)[-1] == cache._blob_of(undecoded)  # written back as read, not decoded
    assert cache.row_doc(cache.doc_row(undecoded))._values() == parsed.docs["ops/rich.md"]._values()
    assert undecoded.front == parsed.docs["ops/rich.md"].front and cache._blob_of(undecoded) is None
    assert undecoded.front[0] is parsed.docs["ops/rich.md"].front[0]  # key tuples shared again, as parsed


def test_a_route_over_an_unchanged_restored_bank_leaves_most_documents_undecoded(tmp_path):
    root = tmp_path / "bank"
    for i in range(24):
        folder = root / ("domain" if i % 2 else "ops")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"page-{i:02}.md").write_text(
            f"---\ntitle: Page {i}\npurpose: Queue {i} and filter {i % 5}.\ntags: [t{i}]\n"
            f"canonical_for: [key {i % 7}]\nderived_from:\n  - ../ops/page-0{i % 3 * 2}.md\n---\n# Page {i}\n\n"
            f"## Queue {i}\n\nSee [zero](../ops/page-00.md). queue filter word{i}\n", encoding="utf-8")
    for folder in ("ops", "domain"):
        pages = sorted(p.name for p in (root / folder).glob("page-*.md"))
        (root / folder / "README.md").write_text("# Index\n\n" + "".join(f"- [{n}]({n})\n" for n in pages),
                                                 encoding="utf-8")
    _saved(root)
    bank = Bank(root)
    assert cache.load(bank)
    bank.refresh()
    answer = route(bank, "queue 7 filter")
    assert answer["results"] and bank.parse_count == 0
    cold = sum(cache._blob_of(d) is not None for d in bank.docs.values())
    assert cold >= len(bank.docs) - 8, "a route decoded most documents' cold fields"
    assert "maps" not in bank.snapshot  # the saved maps were taken, not rebuilt from every document
    maps = ("incoming", "owners", "registered_in", "paths")

    def fresh() -> list:
        parsed = Bank(root)
        parsed.refresh()
        return [getattr(parsed, name) for name in maps]

    assert [getattr(bank, name) for name in maps] == fresh() and all(bank.incoming.values())
    assert len(bank.incoming) == 3 and len(bank.owners) == 7 and len(bank.registered_in) == 24
    (root / "ops" / "page-02.md").write_text("---\ntitle: Page 2\ncanonical_for: [queue two]\nderived_from:\n"
                                             "  - page-04.md\n---\n# Two\n", encoding="utf-8")
    (root / "domain" / "page-01.md").unlink()
    (root / "ops" / "README.md").write_text("# Ops\n\n- [four](page-04.md)\n", encoding="utf-8")
    bank.refresh()  # the taken maps are updated in place, as built ones are
    assert [getattr(bank, name) for name in maps] == fresh()


def _answers(session: Session) -> list[str]:
    calls = [("bank_route", {"question": q}) for q in ROUTES]
    calls += [("bank_search", {"query": q}) for q in SEARCHES]
    calls += [("bank_read", {"path": ["ops/rich.md", {"path": "domain/media.md", "section": "Limits"}]}),
              ("bank_read", {"path": "ops/dated.md"}), ("bank_validate", {})]
    texts = [session.call(name, args).content[0].text for name, args in calls]
    for uri in ("memorybank://index", "memorybank://health"):
        texts.append(session.run(session.client.read_resource, uri).contents[0].text)
    return texts


def test_a_server_over_lazy_documents_answers_byte_for_byte_as_with_the_cache_off(tmp_path, monkeypatch):
    root = _copy(tmp_path)
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    session = Session(root)
    try:
        expected = _answers(session)
    finally:
        session.close()
    monkeypatch.delenv("MEMORYBANK_CACHE")
    _saved(root)
    session = Session(root)  # restores the documents lazily, then every answer reads them
    try:
        assert _answers(session) == expected
        page = root / "ops" / "rich.md"  # an edit of a cold field (a heading) after the start
        page.write_text(page.read_text(encoding="utf-8").replace("## Retries", "## Backoff"), encoding="utf-8")
        section = {"path": [{"path": "ops/rich.md", "section": "Backoff"}]}
        assert "Three retries" in session.call("bank_read", section).content[0].text
    finally:
        session.close()


START = """
import sys
from memorybank.server.prefetch import READY, begin
begin(sys.argv[1])
import memorybank.server.app  # noqa: F401 - what a serving process imports before the first call
READY.wait()
print(sorted(m for m in sys.modules if m.startswith("memorybank.writers")))
"""


def _start(root: Path) -> str:
    out = subprocess.run([sys.executable, "-c", START, str(root)], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "MEMORYBANK_CACHE": "off"}, check=True)
    return out.stdout.strip()


def test_a_start_imports_the_writers_only_to_repair_and_still_repairs(tmp_path):
    # a small bank: what is checked is which modules a start imports, not how fast it reads a large bank
    root = write_bank(tmp_path / "memory_bank", {
        "README.md": START_PAGE,
        "domain/media.md": page("Media", "Uploads and thumbnails.", body="## Limits\n\nUploads stop at 10 MB.\n"),
        "domain/sync.md": page("Sync", "How the client keeps up.", body="## Token\n\nThe token is kept.\n")})
    assert _start(root) == "[]"  # nothing to repair: no writer module loaded
    stale = root / "domain" / f"{TEMP_PREFIX}media.md"  # a killed writer's temp, over an hour old
    stale.write_text("half", encoding="utf-8")
    past = time.time() - 2 * 3600
    os.utime(stale, (past, past))
    fresh = root / "domain" / f"{TEMP_PREFIX}sync.md"  # a temp a live writer may still own: kept
    fresh.write_text("half", encoding="utf-8")
    assert "memorybank.writers.files" in _start(root)
    assert not stale.exists() and fresh.exists()
