"""Cold build, sixth round (issue 15: the cold build with the cache off). Three shortcuts, each held to
the reading it replaces: the echo check of an ASCII opening runs its passes on bytes (and asks for the
longest word first); a document is CRLF only when a CR is in its first 4 KB at all; a small file is
read by one `read` of one byte more than its size. Each answers as before on the inputs where the
shortcut could go wrong."""

from __future__ import annotations

import os
import random

from test_cold_path4 import _echoes

from memorybank import echo
from memorybank.bank import Bank
from memorybank.confined import version_of
from memorybank.parse import parse_document

# The definition the echo check shortcuts, as it was written before any shortcut (test_cold_path4 holds it).


def test_the_echo_check_of_ascii_openings_answers_as_its_two_regexes():
    rng = random.Random(6)
    # ASCII only, so the bytes passes run; \x1c-\x1f are whitespace to str.split and not to bytes.split
    pieces = list("abAB _*`[]()!\n\t\x0b\x0c\x1c\x1d\x1e\x1f.") + ["](", "**", "__", "[x](y)", "word", "WORD"]
    seen = 0
    for _ in range(6000):
        body = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        if rng.random() < 0.5:
            start = rng.randint(0, len(body))
            purpose = body[start:rng.randint(start, len(body))]
        else:
            purpose = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        if rng.random() < 0.2:
            purpose = purpose.upper() + ("…" if rng.random() < 0.5 else "")
        assert echo.echoes(purpose, body) == _echoes(purpose, body), (purpose, body)
        seen += _echoes(purpose, body)
    assert seen > 1000
    cases = [("a\x1cb words", "a b words"),  # \x1c splits the purpose's words, as str.split does
             ("Rounds half up", "x " * 9000 + "Rounds half up"),  # past the opening: not an echo
             ("Rounds half up", "Rounds *half* `up`"), ("Straße", "strasse"), ("naïve words", "naive words"),
             ("the ledger rule", "See the [ledger](a.md) rule."), ("snake_case x", "snake__case x")]
    for purpose, body in cases:
        assert echo.echoes(purpose, body) == _echoes(purpose, body), (purpose, body)


def test_a_document_is_crlf_only_when_its_first_4k_hold_a_crlf():
    head = "---\ntitle: T\n---\n"
    for body, expected in [("a\r\nb\n", "\r\n"), ("a\rb\n", "\n"), ("x" * 5000 + "\r\n", "\n"),
                           ("x" * 4000 + "\r" + "y" * 200 + "\r\n", "\n"), ("x" * 4070 + "\r\n", "\r\n"),
                           ("plain\n", "\n"), ("", "\n")]:
        text = head + body
        assert ("\r\n" if "\r\n" in text[:4096] else "\n") == expected, body[:20]
        assert parse_document("a.md", text.encode()).newline == expected, body[:20]


def test_files_around_the_one_read_size_parse_as_their_bytes(tmp_path):
    """Sizes at the edges of the one-read path (empty, one byte, just under and over 1 MB) and a file
    edited between builds: each document's version and line count are those of its bytes on disk."""
    contents = {"empty.md": b"", "one.md": b"x", "under.md": b"---\ntitle: U\n---\n" + b"a\n" * ((1 << 19) - 10),
                "edge.md": b"b" * ((1 << 20) - 1), "at.md": b"c\n" * (1 << 19), "over.md": b"d" * ((1 << 20) + 1)}
    for name, data in contents.items():
        (tmp_path / name).write_bytes(data)
    bank = Bank(tmp_path)
    bank.refresh()
    for name, data in contents.items():
        doc = bank.docs[name]
        assert (doc.version, doc.bytes) == (version_of(data), len(data)), name
        assert doc.line_count == data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0), name
    grown = contents["under.md"] + b"## Added\n"
    (tmp_path / "under.md").write_bytes(grown)
    os.utime(tmp_path / "under.md", ns=(1, 1))  # a new stamp whatever the clock's resolution
    bank.refresh()
    doc = bank.docs["under.md"]
    assert doc.version == version_of(grown) and [s.title for s in doc.sections] == ["Added"]
    fresh = Bank(tmp_path)
    fresh.refresh()
    assert all(fresh.docs[p].version == bank.docs[p].version for p in bank.docs)
