"""Cold build, seventh round (issue 15: the cold build with the cache off). Each shortcut held to the
reading it replaces, on the inputs where it could go wrong: the claim prefilter on non-ASCII text (the
regex's case-blind letters), the line count taken from the header's close and the body's scan, level-2
headings gathered during the scan, a file read once against the walk's stamp, the echo check of a
non-ASCII purpose over an ASCII body."""

from __future__ import annotations

import os
import random
import re

from test_cold_path4 import _echoes

from memorybank import echo
from memorybank.bank import Bank
from memorybank.confined import version_of
from memorybank.headings import scan_lines, scan_text
from memorybank.parse import _CLAIM_LOOKALIKES, _CLAIM_VERBS, _RULE_REF, _may_claim, parse_document

_NON_ASCII = "".join(map(chr, range(0x80, 0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))


def test_the_claim_prefilter_knows_every_letter_the_pattern_reads_as_a_verb_letter():
    # every non-ASCII code point the case-blind pattern takes for one of the verbs' letters is a lookalike
    letters = sorted(set("".join(_CLAIM_VERBS)))
    taken = {char for letter in letters for char in re.findall(letter, _NON_ASCII, re.IGNORECASE)}
    assert taken <= set(_CLAIM_LOOKALIKES) and taken, taken
    rng = random.Random(7)
    junk = ["—", "é", "中", "\u0130", "\u0131", "\u017f", "\u212a", "\x85", " ", "ed", "de", "x.md", "word"]
    claims = 0
    for _ in range(3000):
        verb = rng.choice(_CLAIM_VERBS)
        verb = rng.choice([verb, verb.upper(), verb.title(), verb.replace("i", "\u0131"), verb.replace("i", "\u0130"),
                           verb.replace("s", "\u017f"), verb[:-1]])  # the last: no verb at all
        claim = verb + rng.choice([" ", "  ", "\t", "\u00a0"]) + rng.choice(["by ", "in ", "in the ", "bY "]) + \
            rng.choice(["`rules.md`", "[r](r.md)", "[`r.md`]", "ops/r.md", "r.txt"])
        line = "".join(rng.choice(junk) for _ in range(rng.randint(0, 4))) + claim + rng.choice(["", " — é", "."])
        found = any(_RULE_REF.finditer(line))
        claims += found
        assert _may_claim(line) or not found, line
    assert 800 < claims < 2900  # both kinds met


def test_line_counts_and_sections_come_from_the_header_close_and_the_body_scan():
    bodies = ["# T\n\n## A\n\ntext\n", "## A\r\n\r\nx\r\n", "no break at the end", "", "\n\n", "a\rb\r## C\n",
              "```\n## in a fence\n```\n## After\n", "```\nunclosed\n", "   ## Indented\n## Two ##\n#### Deep\n"]
    headers = ["", "---\n---\n", "---\n---", "---\ntitle: T\n---\n", "---\r\ntitle: T\r\n---\r\n", "--- \t\nk: v\n---",
               "---\ntitle: T\n", "\ufeff---\ntitle: T\n---\n"]
    for header in headers:
        for body in bodies:
            data = (header + body).encode("utf-8")
            doc = parse_document("a.md", data)
            text = data.decode("utf-8").removeprefix("\ufeff")
            assert doc.line_count == text.count("\n") + (1 if text and not text.endswith("\n") else 0), (header, body)
            headings, _ = scan_text(text.split("\n", doc.body_line - 1)[-1] if doc.body_line > 1 else text,
                                    doc.body_line)
            assert [(s.title, s.line) for s in doc.sections] == [(t, n) for level, t, n in headings if level == 2]
            assert doc.h1 == next((t for level, t, _ in headings if level == 1), None)
    sections: list[tuple[str, int]] = []
    others, fences, breaks = scan_lines("# T\n## A\n### B\n## A\n", 3, sections)
    assert sections == [("A", 4), ("A", 6)] and others == [(1, "T", 3), (3, "B", 5)] and breaks == 4
    assert sections[0][0] is sections[1][0]  # interned


def test_a_file_is_read_once_against_the_walk_and_as_before_when_it_moved(tmp_path):
    """Read by one `pread` when the file is as walked; one edited, emptied or replaced by a folder after the
    walk is read as its own `fstat` says (its bytes, or the reason it cannot be read)."""
    path = tmp_path / "a.md"
    path.write_bytes(b"---\ntitle: A\n---\n# A\n")
    bank = Bank(tmp_path)
    stamp = bank._walk()["a.md"]
    assert bank._parse("a.md", stamp).title == "A"
    edited = b"---\ntitle: Bee\n---\n# B\n"
    path.write_bytes(edited)
    os.utime(path, ns=(1, 1))
    doc = bank._parse("a.md", stamp)  # the walk's stamp is stale now: the file is read as it is
    assert (doc.title, doc.version, doc.bytes, doc.mtime_ns) == ("Bee", version_of(edited), len(edited), stamp[0])
    path.write_bytes(b"")
    assert bank._parse("a.md", stamp).version == version_of(b"")
    path.unlink()
    path.mkdir()
    assert bank._parse("a.md", stamp) is None
    assert bank.skipped[-1]["path"] == "a.md"  # (a folder in its place: the reason names why it was not read)
    assert bank.skipped[-1]["reason"] in ("unreadable: Is a directory", "changed while read (not followed)")


def test_a_non_ascii_purpose_never_echoes_an_ascii_opening():
    for purpose, body in [("Straße rule", "strasse rule"), ("naïve words", "naive words"), ("ſpec", "spec"),
                          ("Kelvin \u212a", "kelvin k"), ("plain words", "plain words here"), ("é", "e")]:
        assert echo.echoes(purpose, body) == _echoes(purpose, body), (purpose, body)
