"""Bounded work for any input (issue 13 §3): every cap in limits.py holds, through the real faces.

Found by a hostile-input run: a 4 MB header with 300k list items stalled `--stats` for minutes and
a 20k-item derived_from took 15 s (each item re-scanned the header); set_list with 40k items took
24 s and over MCP 200k items got no answer; a 3 MB title was accepted; a 50 MB document made search
take 12 s; a file with 200k links made `--validate` take 37 s; guard with 100k file names peaked at
1.3 GB; a request line behind stray bytes, or one endless line, got no reply. The sizes here are
the smallest that show the fault: each call below stalled, blew up or answered wrongly on the
code before the caps, and answers at once now. No assertion is about time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REPO, cli_in_process, run_cli
from writekit import make_bank, tree_hash

from memorybank import limits
from memorybank.parse import parse_document

HEADER = "---\ntitle: {title}\ndoc_kind: product\npurpose: A test document.\nstatus: draft\n{extra}---\n"


def document(extra: str = "", body: str = "# Doc\n", title: str = "Doc") -> str:
    return HEADER.format(title=title, extra=extra) + body


def validate_json(root: Path, *args: str) -> dict:
    """`--validate --json` through the CLI's entry point here (`--stats`, `--search`, `--guard`: real processes)."""
    done = cli_in_process("--root", str(root), "--validate", "--json", *args)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def findings_for(result: dict, path: str, rule: str) -> list[dict]:
    return [f for f in result["findings"] if f["path"] == path and f["rule"] == rule]


# -- parsing: one document never costs more than its size -----------------------------------------

def test_a_header_over_the_frontmatter_limit_is_read_line_by_line_with_a_finding(tmp_path):
    items = "".join(f"  - m/{i}.md\n" for i in range(300_000))  # about 4 MB, as found
    make_bank(tmp_path, {"product/huge.md": document("derived_from:\n" + items)})
    stats = run_cli("--root", str(tmp_path), "--stats", "--json")
    assert stats.returncode == 0, stats.stderr
    result = validate_json(tmp_path, "--rule", "invalid-frontmatter")
    [finding] = findings_for(result, "product/huge.md", "invalid-frontmatter")
    assert f"over the {limits.FRONTMATTER_MAX:,}-character limit" in finding["message"]
    assert "split the document" in finding["message"]
    # what fits the cap is still read: the keys above the list and its first items
    doc = parse_document("product/huge.md", (tmp_path / "product/huge.md").read_bytes())
    assert doc.title == "Doc" and doc.doc_kind == "product"
    assert 0 < len(doc.derived_from) < 300_000 and doc.derived_from[0].raw == "m/0.md"


def test_a_long_derived_from_under_the_limit_places_every_edge_on_its_own_line():
    count = 9_000  # about 245 KB of header, just under the cap; quadratic line placement took ~4 s
    items = "".join(f"  - ../missing/item{i}.md\n" for i in range(count))
    text = document("derived_from:\n" + items)
    doc = parse_document("product/long.md", text.encode())
    assert doc.parse_error is None and len(doc.derived_from) == count
    first = text.split("\n").index("  - ../missing/item0.md") + 1
    assert [e.line for e in doc.derived_from] == list(range(first, first + count))


def test_a_document_over_the_body_limit_is_indexed_for_metadata_only(tmp_path):
    filler = "lorem ipsum dolor sit amet " * 40 + "\n"
    body = ("# Big\n\n## Only in the body\n\nzanzibarish appears here.\n\n"
            + filler * (limits.BODY_INDEX_MAX // len(filler) + 1))
    make_bank(tmp_path, {"product/big.md": document(body=body, title="Quartermaster ledger")})
    result = validate_json(tmp_path, "--rule", "document-over-limit")
    [finding] = findings_for(result, "product/big.md", "document-over-limit")
    assert f"over the {limits.BODY_INDEX_MAX:,}-byte body limit" in finding["message"]
    assert "only its frontmatter is indexed" in finding["message"]
    body_word = run_cli("--root", str(tmp_path), "--search", "zanzibarish", "--json")
    assert body_word.returncode == 0, body_word.stderr
    assert [r["path"] for r in json.loads(body_word.stdout)["results"]] == []
    title_word = cli_in_process("--root", str(tmp_path), "--route", "quartermaster ledger", "--json")
    assert "product/big.md" in [r["path"] for r in json.loads(title_word.stdout)["results"]]


def test_links_past_the_links_limit_are_counted_not_indexed(tmp_path):
    count = limits.LINKS_MAX + 2_000
    body = "# Index\n\n" + "".join(f"- [n{i}](n{i}.md)\n" for i in range(count))
    index = HEADER.format(title="Many", extra="doc_function: index\n") + body
    make_bank(tmp_path, {"product/many/README.md": index})
    result = validate_json(tmp_path, "--scope", "product/many")
    [finding] = findings_for(result, "product/many/README.md", "document-over-limit")
    assert f"{count:,} links; only the first {limits.LINKS_MAX:,} are indexed" in finding["message"]
    assert result["summary"]["by_rule"].get("dangling-index-entry", 0) <= limits.LINKS_MAX


# -- writers: bounded inputs, refused by name, bank unchanged --------------------------------------

@pytest.fixture
def served(writable_server):
    """The worker's server over a `make_bank` bank, as built (conftest `writable_server`)."""
    return writable_server.root, writable_server


def refused_over_mcp(served, tool: str, args: dict, *fragments: str) -> None:
    root, session = served
    before = tree_hash(root)
    result = session.call(tool, args)
    assert result.is_error, result.content[0].text
    for fragment in fragments:
        assert fragment in result.content[0].text
    assert tree_hash(root) == before


def test_a_governed_list_past_the_list_limit_is_refused(served):
    many = [f"key-{i}" for i in range(20_000)]
    refused_over_mcp(served, "bank_set_list", {"path": "product/vision.md", "field": "canonical_for", "add": many},
                     "20,000 items", f"{limits.LIST_MAX:,}-item limit")
    # one past the limit counting what is already there (vision owns `audience`)
    exactly = [f"key-{i}" for i in range(limits.LIST_MAX)]
    refused_over_mcp(served, "bank_set_list", {"path": "product/vision.md", "field": "canonical_for",
                                               "add": exactly}, f"{limits.LIST_MAX + 1:,} items")


def test_a_list_at_the_list_limit_is_written_whole(served):
    root, session = served
    items = [f"src/part{i}/" for i in range(limits.LIST_MAX)]
    result = session.ok("bank_set_list", {"path": "product/vision.md", "field": "anchors", "add": items})
    assert result["items"] == items and result["changed"]
    session.ok("bank_set_list", {"path": "product/vision.md", "field": "anchors", "remove": items[::2]})
    text = (root / "product/vision.md").read_text()
    assert "src/part1/" in text and "src/part0/\n" not in text and text.count("  - src/part") == limits.LIST_MAX // 2


@pytest.mark.parametrize(("tool", "field", "limit"), [
    ("bank_create", "title", limits.TITLE_MAX),
    ("bank_create", "purpose", limits.PURPOSE_MAX),
    ("bank_set_field", "title", limits.TITLE_MAX),
    ("bank_set_field", "purpose", limits.PURPOSE_MAX),
    ("bank_set_field", "owner", limits.VALUE_MAX),
])
def test_one_line_fields_past_their_limit_are_refused(served, tool, field, limit):
    value = "x" * (limit + 1)
    if tool == "bank_create":
        args = {"path": "product/long.md", "doc_kind": "product", "title": "Long", "purpose": "Long fields.",
                "derived_from": ["../dna/principles.md"], field: value}
    else:
        args = {"path": "product/vision.md", "field": field, "value": value}
    refused_over_mcp(served, tool, args, f"{limit + 1:,} characters", f"{limit:,}-character limit")


def test_a_key_past_the_key_limit_is_refused_and_a_3_mb_title_never_lands(served):
    refused_over_mcp(served, "bank_set_list", {"path": "product/vision.md", "field": "canonical_for",
                                               "add": ["k" * (limits.KEY_MAX + 1)]},
                     f"{limits.KEY_MAX:,}-character limit")
    refused_over_mcp(served, "bank_create", {"path": "product/huge.md", "doc_kind": "product",
                                             "title": "t" * 3_000_000, "purpose": "p",
                                             "derived_from": ["../dna/principles.md"]},
                     f"{limits.TITLE_MAX:,}-character limit")


def test_guard_refuses_more_files_than_its_limit_by_name(tmp_path):
    bank = tmp_path / "memory_bank"
    make_bank(bank)
    names = [f"src/f{i}.py" for i in range(limits.GUARD_FILES_MAX + 1)]
    done = run_cli("--root", str(bank), "--guard", *names)
    assert done.returncode == 1 and f"{limits.GUARD_FILES_MAX:,}-file limit" in done.stderr


# -- the wire: every request gets an answer, and no line is held whole -----------------------------

@pytest.fixture
def wire(raw_wire):
    """The worker's real server over raw stdio (conftest `raw_wire`, shared with test_server_wire)."""
    return raw_wire


def test_a_request_behind_stray_bytes_gets_a_parse_error_with_its_id(wire):
    answer = wire.ask(b'\xff\xfe{"jsonrpc":"2.0","id":85,"method":"tools/list"}')
    assert answer["id"] == 85 and answer["error"]["code"] == -32700
    assert "not JSON" in answer["error"]["message"]
    assert wire.ask(b'{"jsonrpc":"2.0","id":86,"method":"tools/list"}')["result"]["tools"]


def test_a_request_over_the_size_limit_is_answered_and_the_server_keeps_serving(wire):
    filler = b"x" * (limits.REQUEST_MAX + 1)
    call = wire.ask(b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bank_route",'
                    b'"arguments":{"question":"' + filler + b'"}}}')
    assert call["id"] == 7 and call["result"]["isError"] is True
    assert f"{limits.REQUEST_MAX:,} characters" in call["result"]["content"][0]["text"]
    other = wire.ask(b'{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"cursor":"' + filler + b'"}}')
    assert other["id"] == 8 and other["error"]["code"] == -32600
    assert "request size limit" in other["error"]["message"]
    fine = wire.ask(b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"bank_route",'
                    b'"arguments":{"question":"vision audience"}}}')
    assert fine["id"] == 9 and not fine["result"].get("isError")


# -- one table: README lists every cap with the value the code uses --------------------------------

def test_readme_limits_table_lists_every_cap_with_its_value():
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Reliability"):readme.index("## Benchmarks")]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([A-Z_]+)` \| ([^|]+?) \|", section, re.M)}
    caps = {name: value for name, value in vars(limits).items() if name.isupper() and isinstance(value, int)}
    assert set(rows) == set(caps)
    for name, value in caps.items():
        assert rows[name].replace(",", "").split(" ")[0] == str(value), (name, rows[name])
