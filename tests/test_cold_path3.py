"""Cold path, third round (issue 15): a document holds its frontmatter, key lines and sections as tuples
and builds the dicts and records when read; what it reads back is the YAML and headings as written, from
a fresh parse, from the cache and through real processes with the cache cold, warm and off."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from conftest import cli_in_process, run_cli

from memorybank import cache
from memorybank.bank import Bank
from memorybank.parse import _key_lines, load_yaml, parse_document
from memorybank.records import Section

HEADERS = {
    "plain.md": "title: Plain\nstatus: active\npurpose: Why plain.\n",
    "lists.md": ("title: Lists\nderived_from:\n  - plain.md\n  - path: ../ops/far.md\n    fit: partial\n"
                 "  - plain.md\ncanonical_for: [plain lists]\nnested:\n  a: 1\n  b: [x, y]\n"),
    "dated.md": "title: Dated\nreviewed: 2026-01-02\nstatus: draft\n",
    "quoted.md": "title: 'Quoted: yes'\n\"odd key\": value\nempty:\nstatus: active\n",
    "same-keys.md": "title: Plain Two\nstatus: active\npurpose: Why plain too.\n",
}


def _bank(root: Path) -> Path:
    (root / "ops").mkdir(parents=True)
    for name, header in HEADERS.items():
        (root / name).write_text(f"---\n{header}---\n# {name}\n\nSee [plain](plain.md).\n\n## Notes\n\nnote\n",
                                      encoding="utf-8")
    (root / "ops" / "far.md").write_text("# Far, no frontmatter\n\nbody\n", encoding="utf-8")
    (root / "broken.md").write_text("---\ntitle: [unclosed\nstatus: active\n---\n# Broken\n", encoding="utf-8")
    return root


def _fields(doc) -> tuple:
    keys = list(doc.frontmatter) + ["missing"]
    return (doc.frontmatter, doc.key_lines, [doc.line_of(key) for key in keys], doc.derived_from, doc.title,
            doc.sections, [type(s) for s in doc.sections])


def test_frontmatter_and_key_lines_read_back_as_written(tmp_path):
    del tmp_path  # parsed from bytes alone
    for name, header in HEADERS.items():
        text = f"---\n{header}---\n# {name}\n"
        doc = parse_document(name, text.encode("utf-8"))
        lines = text.split("\n")
        assert doc.frontmatter == load_yaml(header), name
        assert list(doc.frontmatter) == list(load_yaml(header)), name  # the order of the keys too
        assert doc.key_lines == _key_lines(lines, header.count("\n") + 1), name
        assert doc.line_of("missing") is None
        first = doc.frontmatter
        first["title"] = "changed"
        first.clear()
        assert doc.frontmatter == load_yaml(header)  # each read is a new dict: a caller cannot change the document
    dated = parse_document("dated.md", f"---\n{HEADERS['dated.md']}---\n".encode())
    assert dated.frontmatter["reviewed"] == datetime.date(2026, 1, 2) and dated.line_of("reviewed") == 3
    bare = parse_document("far.md", b"# Far\n")
    assert bare.frontmatter == {} and bare.line_of("title") is None
    one = parse_document("plain.md", f"---\n{HEADERS['plain.md']}---\n".encode())
    two = parse_document("same-keys.md", f"---\n{HEADERS['same-keys.md']}---\n".encode())
    assert one.front[0] is two.front[0] and one.key_rows[0] is one.front[0]  # one keys tuple, shared
    lists = parse_document("lists.md", f"---\n{HEADERS['lists.md']}---\n".encode())
    assert [e.raw for e in lists.derived_from] == ["plain.md", "../ops/far.md", "plain.md"]
    assert lists.frontmatter["derived_from"][0] is lists.derived_from[0].raw  # held once, not twice
    body = "# Top\n\n## One\n\n```\n## not a heading\n```\n\n### Deeper\n\n## Two words\ntext\n"
    doc = parse_document("s.md", f"---\ntitle: S\n---\n{body}".encode())
    assert doc.sections == (Section("One", 6), Section("Two words", 14)) and doc.h1 == "Top"
    assert all(type(s) is Section for s in doc.sections) and doc.sections[1].title == "Two words"
    assert parse_document("n.md", b"no headings\n").sections == ()


def test_the_cache_restores_what_a_fresh_parse_reads(tmp_path, _private_cache_dir):
    root = _bank(tmp_path / "bank")
    fresh = Bank(root)
    fresh.refresh()
    expected = {path: _fields(doc) for path, doc in fresh.docs.items()}
    assert cache.save(fresh)
    again = Bank(root)
    assert cache.load(again)
    again.refresh()
    assert {path: _fields(doc) for path, doc in again.docs.items()} == expected
    assert again.parse_count == 1  # only dated.md: marshal cannot write its date, so it is parsed again
    assert "broken.md" in again.docs and expected["broken.md"][1] is not None


def test_the_cli_reads_alike_with_the_cache_cold_warm_and_off(tmp_path, _private_cache_dir):
    """`read` shows the frontmatter, `validate` the key lines its findings point at: cold (writes the
    cache) and off through the CLI's entry point here, warm through real processes (a fresh interpreter
    restores what another process wrote)."""
    root = _bank(tmp_path / "bank")
    calls = [("--read", "lists.md"), ("--read", "quoted.md"), ("--validate",),
             ("--read", "plain.md", "--section", "notes")]
    outputs = {}
    for label, env, cli in (("cold", {}, cli_in_process), ("warm", {}, run_cli),
                            ("off", {"MEMORYBANK_CACHE": "off"}, cli_in_process)):
        outputs[label] = [cli("--root", str(root), *call, "--json", env=env).stdout for call in calls]
    assert outputs["cold"] == outputs["warm"] == outputs["off"]
    read = json.loads(outputs["warm"][0])
    assert read["frontmatter"]["nested"] == {"a": 1, "b": ["x", "y"]}
    assert any(f.get("line") for f in json.loads(outputs["warm"][2])["findings"])
    assert "note" in json.loads(outputs["warm"][3])["content"]
