"""Cold path, fifth round (issue 15: the cold build with the cache off). The parse now remembers what
each frontmatter line is and where each (folder, target) resolves, skips the claim pass for an ASCII
body without a claim verb and the code-span test for a body without backticks. Each shortcut is held
here to the reading it replaces: the same header read with the memo cold, warm and by YAML; targets
against `resolve_from`; claims and links against the regex run over every line."""

from __future__ import annotations

import random

from memorybank import parse
from memorybank.parse import _RULE_REF, _resolve, _resolved, fast_frontmatter, load_yaml, parse_document
from memorybank.paths import resolve_from

LINES = ["status: active", "doc_kind: ops", "derived_from:", "  - ../a/b.md", "  - x.md", "- y.md", "tags:",
         "    - ../c.md", "title: A title", "count: 12", "when: 2024-01-02", "flag: true", "", "# note",
         "  # indented", "empty:", "q: 'it''s'", 'd: "x"', "bad: [1, 2]", "k: a: b", "status: draft", "n: 1.5"]


def _header(rng: random.Random) -> list[str]:
    return [rng.choice(LINES) for _ in range(rng.randint(0, 9))]


def test_a_header_reads_alike_with_the_line_memo_cold_warm_and_by_yaml():
    rng = random.Random(5)
    headers = [_header(rng) for _ in range(400)]
    parse._LINES.clear()
    cold = []
    for lines in headers:
        cold.append((fast_frontmatter(lines, found := {}), found))
        parse._LINES.clear()  # every header read with nothing remembered
    for lines, (data, found) in zip(headers, cold):
        again = {}
        assert (fast_frontmatter(lines, again), again) == (data, found), lines  # a line seen in any state before
        if data is not None:
            assert load_yaml("\n".join(lines)) in (data, None if not data else data), lines
    # the same item line after a key with a value, after an open key and first: only the open key takes it
    assert fast_frontmatter(["a: 1", "  - x.md"]) is None
    assert fast_frontmatter(["a:", "  - x.md"]) == {"a": ["x.md"]}
    assert fast_frontmatter(["  - x.md"]) is None
    assert fast_frontmatter(["a: 1", "a: 1"]) is None  # a duplicate key from the memo still defers


def test_remembered_targets_resolve_as_resolve_from():
    rng = random.Random(15)
    folders = ["", "a", "a/b", "a/b/c", "x"]
    raws = ["x.md", "../x.md", "../../x.md", "../../../x.md", "b/./c.md", "./x.md", "../a/../y.md", "/r.md",
            "x.md#part", " x.md", "a//b.md", "..", "../", "c\\d.md"]
    parse._RESOLVED.clear()
    for _ in range(2000):
        folder = rng.choice(folders)
        path = (folder + "/" if folder else "") + rng.choice(["doc.md", "README.md", "z.md"])
        raw = rng.choice(raws)
        assert _resolved(path, raw) == resolve_from(path, raw), (path, raw)
    assert _resolved("a//b/doc.md", "x.md") == _resolve("a//b/doc.md", "x.md")  # (walked paths never hold `//`)
    assert ("a//b", "x.md") not in parse._RESOLVED  # a doubled slash is never remembered


def _unfenced(body: str):
    """(line number, line) of every line outside ``` fences."""
    fence = False
    for number, line in enumerate(body.split("\n"), 1):
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            yield number, line


def _claims(body: str) -> list[tuple[str, int]]:
    """Every rule reference the regex finds line by line, outside fences (the reading the claim pass shortcuts)."""
    return [(next(g for g in m.groups() if g), number) for number, line in _unfenced(body)
            for m in _RULE_REF.finditer(line)]


def _links(body: str) -> list[tuple[str, int]]:
    return [(raw, number) for number, line in _unfenced(body) for piece in line.split(" ")
            if piece not in ("`[code](g.md)`",) for raw in parse._LINK.findall(piece)]


def test_claims_and_links_answer_as_the_regex_over_every_line():
    rng = random.Random(25)
    pieces = ["defined in `a.md`", "DEFINED BY b.md", "see c.md", "Owned in the [x](d.md)", "plain words",
              "ſpecified in e.md", "[l](f.md)", "`[code](g.md)`", "described by h.md#part", "— ü"]
    for _ in range(300):
        body = "\n".join("```" if rng.random() < 0.1 else " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
                         for _ in range(rng.randint(0, 8)))
        if body.count("```") % 2:
            body += "\n```"
        doc = parse_document("dir/doc.md", body.encode())
        assert [(r.raw, r.line) for r in doc.rule_refs] == _claims(body), body
        assert [(link.raw, link.line) for link in doc.links] == _links(body), body  # never g.md: in a code span
    plain = parse_document("d.md", b"[a](a.md) and [b](sub/b.md)\n")  # no backtick, no claim verb
    assert [(link.target, link.line) for link in plain.links] == [("a.md", 1), ("sub/b.md", 1)]
    assert plain.rule_refs == ()
    spans = parse_document("d.md", b"`[a](a.md)` and [b](b.md)\n")
    assert [link.target for link in spans.links] == ["b.md"]


def test_a_bulk_build_keeps_no_memo_beside_its_documents(tmp_path):
    from memorybank.bank import BULK, Bank
    for number in range(BULK + 5):
        (tmp_path / f"d{number}.md").write_text(f"---\nstatus: active\nderived_from:\n  - ../x{number % 3}.md\n---\n"
                                                f"# D{number}\n", encoding="utf-8")
    bank = Bank(tmp_path)
    bank.refresh()
    assert len(bank.docs) == BULK + 5 and bank.docs["d7.md"].status == "active"
    assert not parse._LINES and not parse._RESOLVED
