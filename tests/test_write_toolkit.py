"""The write toolkit: byte-faithful text, atomic transactions, temp cleanup, input files, frontmatter edits."""

from __future__ import annotations

import datetime as dt
import os
import time

import pytest
from writekit import diff_lines

from memorybank.errors import BankError
from memorybank.parse import load_yaml
from memorybank.writers import files as wfiles
from memorybank.writers.files import TEMP_PREFIX, Text, Transaction, clean_stale_temps, read_input_file
from memorybank.writers.frontmatter import read_block, remove_key, render_frontmatter, set_list, set_scalar


def fm(text: str) -> Text:
    return Text.from_text(text)


# -- Text ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    b"a\nb\n", b"a\r\nb\r\n", b"a\r\nb\nc", b"\xef\xbb\xbf---\nx: 1\n---\nbody\n", b"", b"no newline",
])
def test_text_reencodes_byte_for_byte(data):
    assert Text.decode(data, "x.md").encode() == data


def test_text_added_lines_use_the_files_dominant_ending():
    text = Text.decode(b"a\r\nb\r\n", "x.md")
    text.insert(1, ["new"])
    assert text.encode() == b"a\r\nnew\r\nb\r\n"


def test_text_refuses_invalid_utf8():
    with pytest.raises(BankError, match="not valid UTF-8"):
        Text.decode(b"ok\xff\n", "bad.md")


# -- transactions -------------------------------------------------------------------------------

def test_transaction_writes_creates_and_deletes_together(tmp_path):
    (tmp_path / "a.md").write_bytes(b"old a\n")
    (tmp_path / "gone.md").write_bytes(b"bye\n")
    tx = Transaction(tmp_path)
    tx.write("a.md", b"new a\n")
    tx.write("sub/dir/b.md", b"b\n")
    tx.delete("gone.md")
    assert [f["action"] for f in tx.files()] == ["update", "create", "delete"]
    tx.commit()
    assert (tmp_path / "a.md").read_bytes() == b"new a\n"
    assert (tmp_path / "sub/dir/b.md").read_bytes() == b"b\n"
    assert not (tmp_path / "gone.md").exists()
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(TEMP_PREFIX)]


def test_transaction_restores_original_bytes_when_a_later_replace_fails(tmp_path, monkeypatch):
    (tmp_path / "a.md").write_bytes(b"old a\n")
    (tmp_path / "b.md").write_bytes(b"old b\n")
    (tmp_path / "c.md").write_bytes(b"old c\n")
    real_exchange = wfiles.exchange
    calls = []

    def flaky(folder, temp, name):
        calls.append(name)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_exchange(folder, temp, name)

    monkeypatch.setattr(wfiles, "exchange", flaky)
    tx = Transaction(tmp_path)
    tx.write("a.md", b"new a\n")
    tx.write("new/made.md", b"fresh\n")
    tx.delete("c.md")
    tx.write("b.md", b"new b\n")
    with pytest.raises(OSError):
        tx.commit()
    monkeypatch.setattr(wfiles, "exchange", real_exchange)
    assert (tmp_path / "a.md").read_bytes() == b"old a\n"
    assert (tmp_path / "b.md").read_bytes() == b"old b\n"
    assert (tmp_path / "c.md").read_bytes() == b"old c\n"
    assert not (tmp_path / "new").exists()
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(TEMP_PREFIX)]


def test_transaction_keeps_file_mode(tmp_path):
    target = tmp_path / "a.md"
    target.write_bytes(b"x\n")
    target.chmod(0o640)
    tx = Transaction(tmp_path)
    tx.write("a.md", b"y\n")
    tx.commit()
    assert target.stat().st_mode & 0o777 == 0o640


def test_same_size_rewrite_gets_a_new_mtime(tmp_path):
    target = tmp_path / "a.md"
    target.write_bytes(b"aaaa\n")
    before = target.stat().st_mtime_ns
    os.utime(target, ns=(before + 10**12, before + 10**12))  # an mtime in the future: the clock cannot pass it
    tx = Transaction(tmp_path)
    tx.write("a.md", b"bbbb\n")
    tx.commit()
    assert target.stat().st_mtime_ns != before + 10**12


def test_stale_temp_files_older_than_an_hour_are_removed(tmp_path):
    (tmp_path / "adr").mkdir()
    old = tmp_path / "adr" / f"{TEMP_PREFIX}1-ab-x.md"
    fresh = tmp_path / "adr" / f"{TEMP_PREFIX}2-cd-y.md"
    other = tmp_path / "adr" / "keep.md"
    for path in (old, fresh, other):
        path.write_bytes(b"x")
    now = time.time()
    os.utime(old, (now - 7200, now - 7200))
    os.utime(other, (now - 7200, now - 7200))
    assert clean_stale_temps(tmp_path, now=now) == [f"adr/{old.name}"]
    assert not old.exists() and fresh.exists() and other.exists()


# -- caller-supplied files ------------------------------------------------------------------------

def test_input_file_must_be_a_regular_file_under_one_megabyte(tmp_path):
    good = tmp_path / "body.md"
    good.write_bytes(b"\xef\xbb\xbfhello\n")
    assert read_input_file(str(good), "body_file") == "hello\n"
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * ((1 << 20) + 1))
    with pytest.raises(BankError, match="1 MB"):
        read_input_file(str(big), "body_file")
    with pytest.raises(BankError, match="not a regular file"):
        read_input_file(str(tmp_path), "body_file")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(BankError, match="not a regular file"):
        read_input_file(str(fifo), "content_file")
    with pytest.raises(BankError, match="cannot read"):
        read_input_file(str(tmp_path / "missing.md"), "body_file")


# -- scalar line edits ------------------------------------------------------------------------------

HEADER = """---
title: 'Single quoted'
purpose: "Double quoted"
owner: plain value  # who to ask
date: 2024-01-02
count: 3
status: draft
---
# Body
"""


@pytest.mark.parametrize("key,value,line", [
    ("title", "New title", "title: 'New title'"),
    ("purpose", "New purpose", 'purpose: "New purpose"'),
    ("owner", "someone else", "owner: someone else  # who to ask"),
    ("owner", "a: b", "owner: 'a: b'  # who to ask"),
    ("title", "It's here", "title: 'It''s here'"),
    ("date", "2025-03-04", "date: 2025-03-04"),
    ("count", "4", "count: 4"),
    ("owner", "yes", "owner: yes  # who to ask"),
    ("owner", "true", "owner: 'true'  # who to ask"),
    ("owner", "#hash", "owner: '#hash'  # who to ask"),
])
def test_set_scalar_changes_exactly_one_line_and_keeps_quoting(key, value, line):
    text = fm(HEADER)
    set_scalar(text, key, value)
    removed, added = diff_lines(HEADER, text.text())
    assert len(removed) == 1 and added == [line]
    data = load_yaml(text.text().split("---\n")[1])
    expected = dt.date(2025, 3, 4) if key == "date" else (4 if key == "count" else value)
    assert data[key] == expected


def test_set_scalar_adds_a_missing_key_in_governed_order():
    text = fm("---\ntitle: x\nstatus: draft\n---\n")
    set_scalar(text, "purpose", "Why it exists")
    assert text.text() == "---\ntitle: x\npurpose: Why it exists\nstatus: draft\n---\n"
    set_scalar(text, "owner", "ops")
    assert text.text().endswith("status: draft\nowner: ops\n---\n")


def test_set_scalar_rewrites_a_multi_line_value_as_one_line():
    text = fm("---\npurpose: >\n  folded\n  text\nstatus: draft\n---\n")
    set_scalar(text, "purpose", "One line now")
    assert text.text() == "---\npurpose: One line now\nstatus: draft\n---\n"


def test_set_scalar_repairs_an_unquoted_colon_in_a_broken_header():
    text = fm("---\ntitle: x\npurpose: Read this: it breaks\ndate: 2024-01-02\nstatus: draft\n---\n")
    set_scalar(text, "purpose", "Read this: it is fixed")
    assert read_block(text)["purpose"] == "Read this: it is fixed"
    assert read_block(text)["date"] == dt.date(2024, 1, 2)
    assert "purpose: 'Read this: it is fixed'" in text.text()


def test_set_scalar_on_a_document_without_frontmatter_adds_one():
    text = fm("# Just a body\n")
    set_scalar(text, "purpose", "Now governed")
    assert text.text() == "---\npurpose: Now governed\n---\n# Just a body\n"


def test_set_scalar_keeps_crlf():
    text = Text.decode(HEADER.replace("\n", "\r\n").encode(), "x.md")
    set_scalar(text, "owner", "ops")
    assert b"owner: ops  # who to ask\r\n" in text.encode()
    assert b"\n" not in text.encode().replace(b"\r\n", b"")


# -- list edits ---------------------------------------------------------------------------------

LISTS = """---
title: x
derived_from:
  - a.md  # first
  - path: b.md
    fit: partial
# comment about status
canonical_for: [k1, k2]
status: draft
---
"""


def test_set_list_appends_one_item_line_in_the_existing_style():
    text = fm(LISTS)
    set_list(text, "derived_from", ["a.md", {"path": "b.md", "fit": "partial"}, "c.md"])
    removed, added = diff_lines(LISTS, text.text())
    assert removed == [] and added == ["  - c.md"]
    assert text.text().index("  - c.md") < text.text().index("# comment about status")


def test_set_list_removes_a_mapping_item_with_its_lines():
    text = fm(LISTS)
    set_list(text, "derived_from", ["a.md"])
    removed, added = diff_lines(LISTS, text.text())
    assert removed == ["  - path: b.md", "    fit: partial"] and added == []


def test_set_list_edits_a_flow_list_through_ruamel():
    text = fm(LISTS)
    set_list(text, "canonical_for", ["k1", "k2", "k3"])
    removed, added = diff_lines(LISTS, text.text())
    assert removed == ["canonical_for: [k1, k2]"] and added == ["canonical_for: [k1, k2, k3]"]


def test_set_list_adds_a_new_key_before_status_with_guessed_indent():
    text = fm("---\ntitle: x\nderived_from:\n- a.md\nstatus: draft\n---\n")
    set_list(text, "anchors", ["src/x.py"])
    assert text.text() == "---\ntitle: x\nderived_from:\n- a.md\nanchors:\n- src/x.py\nstatus: draft\n---\n"


def test_emptying_a_list_removes_the_key():
    text = fm(LISTS)
    remove_key(text, "canonical_for")
    assert "canonical_for" not in text.text() and "status: draft" in text.text()
    set_list(text, "derived_from", [])
    assert "derived_from" not in text.text() and "# comment about status" in text.text()


def test_render_frontmatter_reads_back_exactly():
    data = {"title": "A: b", "purpose": "yes", "derived_from": ["../x.md", {"path": "y.md", "fit": "part"}],
            "status": "draft", "date": dt.date(2024, 1, 2), "n": 3, "flag": True}
    lines = render_frontmatter(data)
    assert load_yaml("\n".join(lines)) == data
    assert "  - ../x.md" in lines and "  - path: y.md" in lines and "    fit: part" in lines
