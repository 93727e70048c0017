"""adopt: plain markdown (the Cline corpora, hand-made folders) becomes a governed bank, bodies untouched."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import CORPORA, cli_in_process, run_cli, write_bank

from memorybank.adopt import PURPOSE_CAP, adopt, doc_kind_for, purpose_for
from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.route import route
from memorybank.validate import validate

CLINE = sorted(p.name for p in CORPORA.glob("cline-*"))


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".memorybank.lock"}


def _copy(tmp_path: Path, corpus: str) -> Path:
    dest = tmp_path / corpus / "memory-bank"
    shutil.copytree(CORPORA / corpus / "memory-bank", dest)
    return dest


@pytest.mark.parametrize("corpus", CLINE)
def test_adopt_cline_corpus_validates_clean_and_keeps_every_body_byte(tmp_path: Path, corpus: str) -> None:
    root = _copy(tmp_path, corpus)
    before = _snapshot(root)
    result = adopt(Bank(root), write=True)
    assert {a["path"] for a in result["adopted"]} == set(before)
    for rel, original in before.items():
        data = (root / rel).read_bytes()
        assert data.startswith(b"---\n")
        head_end = data.index(b"\n---\n", 4) + len(b"\n---\n")
        assert data[head_end:] == original, rel
    summary = validate(Bank(root))["summary"]
    assert summary["errors"] == 0
    assert "dna/principles.md" in result["contract"] and result["indexes"] == ["README.md"]
    kinds = {a["path"]: a["doc_kind"] for a in result["adopted"]}
    assert kinds["systemPatterns.md"] == "engineering" and kinds["productContext.md"] == "product"


@pytest.mark.parametrize("corpus", CLINE)
def test_adopt_keeps_route_answering_the_documents_own_titles(tmp_path: Path, corpus: str) -> None:
    root = _copy(tmp_path, corpus)
    bank = Bank(root)
    bank.refresh()
    titles = {d.path: d.title for d in bank.docs.values()}
    before = {path: [h["path"] for h in route(bank, title)["results"]][:3] for path, title in titles.items()}
    adopt(bank, write=True)
    after_bank = Bank(root)
    for path, title in titles.items():
        top = [h["path"] for h in route(after_bank, title)["results"]][:3]
        assert (path in top) or (path not in before[path]), (title, top)


def test_adopt_is_a_dry_run_by_default(tmp_path: Path) -> None:
    root = _copy(tmp_path, CLINE[0])
    before = _snapshot(root)
    result = adopt(Bank(root))
    assert result["dry_run"] is True and result["files"]
    assert _snapshot(root) == before


def test_adopt_adds_only_missing_keys_to_existing_frontmatter(tmp_path: Path) -> None:
    header = "---\ntitle: Kept 'as' written\ncustom: [a,  b]   # mine\n---\n"
    body = "\n# Other heading\n\nFirst sentence here. Second one.\n"
    root = write_bank(tmp_path / "bank", {"notes.md": header + body, "engineering/x.md": "# X\n\nAbout x.\n"})
    adopt(Bank(root), write=True)
    text = (root / "notes.md").read_text()
    assert text.startswith("---\ntitle: Kept 'as' written\n")
    assert "custom: [a,  b]   # mine\n" in text and text.endswith("---\n" + body)
    assert "purpose: First sentence here.\n" in text and "status: active\n" in text
    assert (root / "engineering/README.md").is_file()
    assert validate(Bank(root))["summary"]["errors"] == 0


def test_adopt_keeps_crlf_and_bom_bodies(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf# Title\r\n\r\nA body line.\r\n"
    root = write_bank(tmp_path / "bank", {"a.md": raw})
    adopt(Bank(root), write=True)
    data = (root / "a.md").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\r\ntitle: Title\r\n")
    assert data.endswith(b"---\r\n" + raw[3:])


def test_adopt_refuses_undecodable_document_and_writes_nothing(tmp_path: Path) -> None:
    root = write_bank(tmp_path / "bank", {"a.md": "# A\n\nText.\n", "b.md": b"# B\n\n\xff\xfe bad\n"})
    before = _snapshot(root)
    with pytest.raises(BankError, match="b.md"):
        adopt(Bank(root), write=True)
    assert _snapshot(root) == before


def test_purpose_is_the_first_sentence_capped() -> None:
    assert purpose_for(["", "## Head", "See [the docs](x.md) for **more**. Then.", ""], "T") == "See the docs for more."
    assert purpose_for(["- 最初の項目。次", ""], "T") == "最初の項目。"
    assert purpose_for(["```", "code", "```"], "T") == "Read for T."
    long = purpose_for(["word " * 300], "T")
    assert len(long) <= PURPOSE_CAP and long.endswith("…")


def test_doc_kind_from_cline_names_and_folders() -> None:
    assert doc_kind_for("techContext.md") == "engineering"
    assert doc_kind_for("adr/0001-x.md") == "adr"
    assert doc_kind_for("misc/x.md") == "project"


def test_adopt_through_the_cli_dry_run_then_write(tmp_path: Path) -> None:
    root = _copy(tmp_path, CLINE[0])
    before = _snapshot(root)
    dry = run_cli("--root", str(root), "--adopt", "--json")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["dry_run"] is True and _snapshot(root) == before
    done = cli_in_process("--root", str(root), "--adopt", "--write")  # the real write: test_adopt_parity
    assert done.returncode == 0, done.stderr
    assert "projectbrief.md" in done.stdout
    check = cli_in_process("--root", str(root), "--validate")
    assert check.returncode == 0, check.stdout


def test_adopt_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    root = _copy(tmp_path, CLINE[1])
    adopt(Bank(root), write=True)
    once = _snapshot(root)
    again = adopt(Bank(root), write=True)
    assert again["files"] == [] and _snapshot(root) == once
    assert all(a["added"] == [] for a in again["adopted"])


def test_adopt_leaves_an_already_governed_bank_as_it_is(tmp_path: Path) -> None:
    root = tmp_path / "bank"
    shutil.copytree(CORPORA / "react-native-matrix" / "memory_bank", root)
    before = _snapshot(root)
    result = adopt(Bank(root), write=True)
    assert result["files"] == [] and result["indexes"] == [] and result["contract"] == []
    assert _snapshot(root) == before
