"""bank_promote, bank_discard and the inbox listing (§10.7)."""

from __future__ import annotations

import os

from writekit import assert_clean, make_bank, read, refused

from memorybank.writers import create, discard, list_inbox, promote
from memorybank.writers.templates import today

NOTE = """---
title: Cache idea
doc_kind: note
purpose: Cache rendered pages for a day.
derived_from:
  - ../product/vision.md
canonical_for:
  - page_cache
owner: ops
status: draft
---

# Cache idea

See [the vision](../product/vision.md#audience), [the rules](../dna/principles.md) and
![diagram](img/cache.png). Keep [this anchor](#cache-idea) and [a url](https://example.com/x.md).

```md
[not a link to rewrite](../product/vision.md)
```

[ref]: ../product/vision.md
"""


def bank_with_note(tmp_path):
    bank = make_bank(tmp_path / "bank", {"_inbox/cache-idea.md": NOTE})
    return bank


def test_promote_moves_rebuilds_rewrites_registers_and_deletes(tmp_path):
    bank = bank_with_note(tmp_path)
    out = promote(bank, path="_inbox/cache-idea.md", to="adr/ADR-001-cache.md", doc_kind="adr")
    assert out["path"] == "adr/ADR-001-cache.md" and out["from"] == "_inbox/cache-idea.md"
    assert out["registered_in"] == "adr/README.md"
    assert [f["action"] for f in out["files"]] == ["create", "update", "delete"]
    assert not (bank.root / "_inbox/cache-idea.md").exists()
    text = read(bank, "adr/ADR-001-cache.md")
    assert text.startswith("---\ntitle: Cache idea\ndoc_kind: adr\ndoc_function: canonical\n"
                           "purpose: Cache rendered pages for a day.\nderived_from:\n  - ../product/vision.md\n"
                           "canonical_for:\n  - page_cache\nstatus: active\nowner: ops\n---\n\n# Cache idea\n")
    assert "[the vision](../product/vision.md#audience)" in text  # same depth: unchanged
    assert "- [Cache idea](ADR-001-cache.md) — Cache rendered pages for a day." in read(bank, "adr/README.md")
    assert_clean(bank)


def test_promote_rewrites_relative_links_for_a_deeper_folder(tmp_path):
    bank = bank_with_note(tmp_path)
    promote(bank, path="_inbox/cache-idea.md", to="product/ideas/cache.md", doc_kind="product")
    text = read(bank, "product/ideas/cache.md")
    assert "derived_from:\n  - ../vision.md\n" in text
    assert "[the vision](../vision.md#audience)" in text and "[the rules](../../dna/principles.md)" in text
    assert "![diagram](../../_inbox/img/cache.png)" in text
    assert "[this anchor](#cache-idea)" in text and "(https://example.com/x.md)" in text
    assert "[not a link to rewrite](../product/vision.md)" in text
    assert "[ref]: ../vision.md" in text


def test_promote_to_a_folder_keeps_the_name_and_its_own_keys_do_not_conflict(tmp_path):
    bank = bank_with_note(tmp_path)
    out = promote(bank, path="_inbox/cache-idea.md", to="adr/", doc_kind="adr", title="ADR: cache",
                  purpose="Why we cache.")
    assert out["path"] == "adr/cache-idea.md"
    text = read(bank, "adr/cache-idea.md")
    assert "title: 'ADR: cache'" in text and "\n# ADR: cache\n" in text and "  - page_cache" in text


def test_promote_refusals_leave_everything(tmp_path):
    bank = bank_with_note(tmp_path)
    create(bank, path="product/elsewhere.md", doc_kind="product", title="E", purpose="Owns a key.",
           derived_from=["dna/principles.md"], canonical_for=["cdn"])
    p = "_inbox/cache-idea.md"
    refused(bank, lambda: promote(bank, path="product/vision.md", to="adr/x.md"), "(promote)", "not in _inbox/")
    refused(bank, lambda: promote(bank, path=p, to="_inbox/other.md"), "(to)", "inside _inbox/")
    refused(bank, lambda: promote(bank, path=p, to="product/vision.md"), "(path)", "already exists")
    refused(bank, lambda: promote(bank, path=p, to="../x.md"), "Path must stay inside the bank")
    refused(bank, lambda: promote(bank, path=p, to="adr/x.md", derived_from=["gone.md"]), "gone.md does not resolve")
    refused(bank, lambda: promote(bank, path=p, to="adr/x.md", canonical_for=["cdn"]),
            "already owned by product/elsewhere.md")
    refused(bank, lambda: promote(bank, path=p, to="adr/x.md", derived_from=[]), "must define derived_from")


def test_discard_records_the_reason_and_creates_the_log_once(tmp_path):
    bank = bank_with_note(tmp_path)
    create(bank, path="b.md", doc_kind="note", title="Second", purpose="Another.", inbox=True)
    out = discard(bank, path="_inbox/cache-idea.md", reason="Covered by the CDN decision.")
    assert out["log"] == "_inbox/DISCARDED.md" and out["reason"] == "Covered by the CDN decision."
    assert [f["action"] for f in out["files"]] == ["create", "delete"]
    discard(bank, path="_inbox/b.md", reason="Duplicate.")
    log = read(bank, "_inbox/DISCARDED.md")
    assert "doc_function: log" in log
    assert log.endswith(f"- {today()} `_inbox/cache-idea.md` (Cache idea): Covered by the CDN decision.\n"
                        f"- {today()} `_inbox/b.md` (Second): Duplicate.\n")
    assert list_inbox(bank) == {"notes": [], "count": 0}
    assert_clean(bank)


def test_discard_refusals(tmp_path):
    bank = bank_with_note(tmp_path)
    refused(bank, lambda: discard(bank, path="_inbox/cache-idea.md", reason=" "), "(reason)")
    refused(bank, lambda: discard(bank, path="product/vision.md", reason="x"), "(discard)", "not in _inbox/")
    create(bank, path="b.md", doc_kind="note", title="B", purpose="B.", inbox=True)
    discard(bank, path="_inbox/b.md", reason="x")
    refused(bank, lambda: discard(bank, path="_inbox/DISCARDED.md", reason="x"), "discard log, not a note")
    refused(bank, lambda: promote(bank, path="_inbox/DISCARDED.md", to="adr/x.md"), "discard log, not a note")


def test_list_inbox_is_oldest_first_with_age_and_skips_the_log(tmp_path):
    bank = bank_with_note(tmp_path)
    create(bank, path="newer.md", doc_kind="note", title="Newer", purpose="Fresh.", inbox=True)
    create(bank, path="gone.md", doc_kind="note", title="Gone", purpose="Bye.", inbox=True)
    discard(bank, path="_inbox/gone.md", reason="x")
    old = bank.root / "_inbox/cache-idea.md"
    stamp = old.stat().st_mtime - 3 * 86400 - 60
    os.utime(old, (stamp, stamp))
    out = list_inbox(bank)
    assert out["count"] == 2
    assert [(n["path"], n["age_days"]) for n in out["notes"]] == [("_inbox/cache-idea.md", 3), ("_inbox/newer.md", 0)]
