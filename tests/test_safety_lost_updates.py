"""Issue 13 §2: no change a person saved is ever silently overwritten by a writer.

Conditional writes (`version` / `base_version`) over the real server and CLI, section edits that
follow the text as it is on disk, and the final check of a transaction against a real change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run_cli
from writekit import make_bank, tree_hash

from memorybank.writers.files import Changed, Transaction

V = "product/vision.md"


@pytest.fixture
def served(writable_server):
    """The worker's server over a `make_bank` bank (a start costs ~2 s of CPU), given back as built before
    each test (conftest `writable_server`)."""
    return writable_server


def _rewrite_keeping_stamp(path: Path, text: str) -> None:
    """Rewrite a file in place with the same size and put its mtime back (`cp -p`, `rsync -t`, tar do)."""
    old = path.read_bytes()
    new = text.encode()
    assert len(new) == len(old)
    info = path.stat()
    with open(path, "r+b") as handle:
        handle.write(new)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _same_size(old: str, new: str, filler: str) -> str:
    """`new` with `filler` padded (or cut) so the text has exactly as many bytes as `old`."""
    pad = len(old.encode()) - len(new.replace(filler, "").encode())
    assert pad > 0
    return new.replace(filler, ("x" * pad))


def test_read_gives_a_version_and_a_writer_refuses_a_stale_base_version(served):
    first = served.ok("bank_read", {"path": V})
    assert len(first["version"]) == 12
    batch = served.ok("bank_read", {"path": [V, "README.md"]})
    assert [d["version"] for d in batch["documents"]][0] == first["version"]
    done = served.ok("bank_edit", {"path": V, "find": "Fewer surprises.", "replace": "No surprises.",
                                   "base_version": first["version"]})
    assert done["version"] != first["version"]
    assert served.ok("bank_read", {"path": V})["version"] == done["version"]
    before = tree_hash(served.root)
    stale = served.call("bank_set_field", {"path": V, "field": "owner", "value": "Ops",
                                           "base_version": first["version"]})
    text = stale.content[0].text
    assert stale.is_error and f"now version {done['version']}" in text and "nothing was written" in text
    (served.root / V).write_text((served.root / V).read_text().replace("Teams", "People"))  # a person saves
    again = served.call("bank_update_section", {"path": V, "section": "Goals", "content": "More.",
                                                "base_version": done["version"]})
    assert again.is_error and "changed since that read" in again.content[0].text
    assert "People" in (served.root / V).read_text() and "More." not in (served.root / V).read_text()
    assert {k: v for k, v in tree_hash(served.root).items() if k != V} == \
        {k: v for k, v in before.items() if k != V}


def test_cli_discard_and_promote_take_base_version(tmp_path):
    root = make_bank(tmp_path / "bank").root
    assert run_cli("--root", str(root), "--create", "idea.md", "--kind", "note", "--title", "Idea",
                   "--purpose", "An idea.", "--inbox").returncode == 0
    version = json.loads(run_cli("--root", str(root), "--read", "_inbox/idea.md", "--json").stdout)["version"]
    proc = run_cli("--root", str(root), "--discard", "_inbox/idea.md", "--reason", "No.", "--base-version", "0" * 12)
    assert proc.returncode == 1 and f"now version {version}" in proc.stderr
    assert (root / "_inbox/idea.md").exists()
    proc = run_cli("--root", str(root), "--discard", "_inbox/idea.md", "--reason", "No.", "--base-version", version)
    assert proc.returncode == 0, proc.stderr
    assert not (root / "_inbox/idea.md").exists()


def test_update_section_follows_a_section_inserted_on_disk_since_the_index_was_read(served):
    served.ok("bank_read", {"path": V})  # the server has indexed the file
    path = served.root / V
    old = path.read_text()
    new = _same_size(old, old.replace("## Audience\n\nTeams that write things down.\n",
                                      "## Risks\n\nFILL\n\n## Audience\n\nTeams.\n"), "FILL")
    _rewrite_keeping_stamp(path, new)
    result = served.call("bank_update_section", {"path": V, "section": "Goals", "content": "Rewritten goals."})
    text = path.read_text()
    assert "## Risks" in text and "## Audience\n\nTeams.\n" in text  # nothing but Goals was touched
    if not result.is_error:
        assert text.endswith("## Goals\n\nRewritten goals.\n")
    else:
        assert "changed on disk" in result.content[0].text and text == new


def test_update_section_after_the_file_got_shorter_on_disk_is_no_internal_error(served):
    served.ok("bank_read", {"path": V})
    path = served.root / V
    old = path.read_text()
    new = _same_size(old, old.replace("## Audience\n\nTeams that write things down.\n\n", "")
                     .replace("Fewer surprises.", "Fewer surprises FILL."), "FILL")
    _rewrite_keeping_stamp(path, new)
    result = served.call("bank_update_section", {"path": V, "section": "Goals", "content": "Short."})
    assert "Internal error" not in result.content[0].text
    assert not result.is_error and path.read_text().endswith("## Goals\n\nShort.\n")


@pytest.mark.parametrize("style", ["rename", "in-place"])
def test_a_commit_refuses_a_file_saved_after_it_was_read_and_writes_nothing(tmp_path, style):
    bank = make_bank(tmp_path / "bank")
    tx = Transaction(bank.root, bank)
    data = tx.read(V)
    tx.write(V, data.replace(b"Fewer", b"Writer's"))
    tx.write("adr/ADR-009-x.md", b"---\ntitle: X\n---\n# X\n")
    saved = data.replace(b"Teams", b"Person's")
    if style == "rename":
        (bank.root / "product/.vision.md.swp").write_bytes(saved)
        os.replace(bank.root / "product/.vision.md.swp", bank.root / V)
    else:
        (bank.root / V).write_bytes(saved)
    before = tree_hash(bank.root)
    with pytest.raises(Changed, match="changed on disk since it was read; nothing was written; retry"):
        tx.commit()
    assert tree_hash(bank.root) == before and (bank.root / V).read_bytes() == saved


def test_a_writer_refuses_bytes_that_differ_from_what_the_index_parsed(tmp_path):
    from memorybank.writers import set_field

    bank = make_bank(tmp_path / "bank")
    path = bank.root / V
    _rewrite_keeping_stamp(path, path.read_text().replace("Teams", "Crews"))  # the index cannot see it by stamp
    bank._stamps[V] = bank._walk()[V]  # as if the walk raced the rewrite: same stamp, other bytes
    with pytest.raises(Changed):
        set_field(bank, path=V, field="owner", value="Ops")
    assert "owner" not in path.read_text()
    assert set_field(bank, path=V, field="owner", value="Ops")["changed"]  # the retry sees the new bytes
    assert "Crews" in path.read_text()
