"""Attacks on this session's landings (cold-path2's compact layouts, route-warm's routefit, adopt-parity's
scaffolding rule, route-lang's stemmer): each test is a reproduction of a defect found, kept green by its fix.

Route answers are driven through the CLI's entry point in-process for the variants and one real process
for the JSON face."""

from __future__ import annotations

import json
import marshal
import re
import struct
import unicodedata

from conftest import cli_in_process, run_cli, write_bank

from memorybank.lang import estimate_tokens
from memorybank.routefit import ANSWER_TOKENS

_OPENER = re.compile(r'(?:^|; )body: L\d+ "')


def _quoted_bank(root, line: str):
    """Eight documents whose every field is long and whose best body line carries `line`, so the answer's
    rows are cut by the budget (routefit) and the `why` line by its character cap."""
    docs = {}
    for i in range(8):
        name = f"domain/{'quarterly-wide-' * 6}{i:02d}.md"
        docs[name] = (f'---\ntitle: "{"Quarterly " * 12}{i}"\n---\n\n'
                      f"# Q\n\n## {'Wide ' * 15}\n\n{line}\n")
    return write_bank(root, docs)


def _closed(why: str) -> bool:
    """A `why` that shows any of its body excerpt's opening quote ends with the closing one."""
    found = _OPENER.search(why)
    return found is None or why.endswith('"')


def test_a_cut_body_excerpt_keeps_its_closing_quote_whatever_quotes_the_line_holds(tmp_path):
    # 'he said "ok' holds one quote: counting quotes' parity took the cut excerpt for closed
    for n, line in enumerate(('"z zebrafish telemetry relay went on and on and on and on and on',
                              'zebrafish "telemetry" relay "quoted" words "three" times over here',
                              "zebrafish telemetry relay with no quote at all but long enough to cut")):
        root = _quoted_bank(tmp_path / f"bank{n}", line)
        for limit in ("1", "5", "8"):
            proc = cli_in_process("--root", str(root), "--route", "zebrafish telemetry relay", "--json",
                                  "--limit", limit)
            assert proc.returncode == 0, proc.stderr
            rows = json.loads(proc.stdout)["results"]
            assert rows and all(_closed(row["why"]) for row in rows), (line, limit, rows)
    proc = run_cli("--root", str(tmp_path / "bank0"), "--route", "zebrafish telemetry relay", "--json")
    rows = json.loads(proc.stdout)["results"]
    assert len(rows) == 5 and estimate_tokens(proc.stdout.strip()) <= ANSWER_TOKENS
    assert all(_closed(row["why"]) for row in rows), rows


def _whole_graphemes(shown: str, whole: str) -> bool:
    """The shown text (without `…`) ends where a character of `whole` starts a new grapheme: no combining
    mark is cut from its letter and no flag (a regional-indicator pair) is halved."""
    head = shown.removesuffix('"').removesuffix("…")
    at = whole.find(head)
    assert at >= 0, (shown, whole)
    end = at + len(head)
    if end >= len(whole):
        return True
    if unicodedata.combining(whole[end]):
        return False
    run = 0
    while end - run - 1 >= 0 and "\U0001f1e6" <= whole[end - run - 1] <= "\U0001f1ff":
        run += 1
    return run % 2 == 0


def test_a_cut_never_splits_a_letter_from_its_combining_mark_nor_halves_a_flag(tmp_path):
    accented = "cafe\u0301" * 30  # decomposed é: one grapheme, two code points
    flags = "\U0001f1fa\U0001f1f8" * 40
    for n, title in enumerate((accented, flags, "zebrafish " + accented, "zebrafish " + flags)):
        root = write_bank(tmp_path / f"bank{n}", {
            "domain/z.md": f"---\ntitle: \"{title}\"\npurpose: zebrafish relay\n---\n\n# Z\n\nzebrafish relay\n"})
        proc = cli_in_process("--root", str(root), "--route", "zebrafish relay", "--json")
        assert proc.returncode == 0, proc.stderr
        (row,) = json.loads(proc.stdout)["results"]
        assert row["title"].endswith("…") and _whole_graphemes(row["title"], title), row


_MARSHAL_FIXED = {"N": 0, "F": 0, "T": 0, "S": 0, ".": 0, "i": 4, "g": 8, "y": 16, "r": 4}


def _marshal_parts(data: bytes, at: int = 0) -> tuple[int, list[int]]:
    """Where the marshal object starting at `at` ends, and where each of its items starts (a tuple, list
    or set's items; a dict's keys and values in turn): enough to name every region of a cache file."""
    kind = chr(data[at] & 0x7F)  # the high bit marks an object later ones may refer back to
    at += 1
    if kind in _MARSHAL_FIXED:
        return at + _MARSHAL_FIXED[kind], []
    if kind == "l":
        return at + 4 + 2 * abs(struct.unpack_from("<i", data, at)[0]), []
    if kind in "stuaA":
        return at + 4 + struct.unpack_from("<I", data, at)[0], []
    if kind in "zZ":
        return at + 1 + data[at], []
    if kind in "([<>)":
        count, at = (data[at], at + 1) if kind == ")" else (struct.unpack_from("<I", data, at)[0], at + 4)
        starts = []
        for _ in range(count):
            starts.append(at)
            at = _marshal_parts(data, at)[0]
        return at, starts
    if kind == "{":
        starts = []
        while data[at] != ord("0"):
            starts.append(at)
            at = _marshal_parts(data, at)[0]
        return at + 1, starts
    raise ValueError(f"marshal type {kind!r} not expected in a cache file")


def _cache_regions(data: bytes) -> dict[str, tuple[int, int]]:
    """Every region of a cache file by name, as `[start, end)` offsets: the header's length and each
    header item, the body's CRC, and each part of the body (stamps, rows, dna texts, the maps, and every field of
    each saved index state)."""
    from memorybank import cache

    at = len(cache.MAGIC)
    size = int.from_bytes(data[at:at + 4], "little")
    regions = {"header length": (at, at + 4)}
    start = at + 4
    end, items = _marshal_parts(data, start)
    assert end == start + size
    for n, (a, b) in enumerate(zip(items, [*items[1:], end])):
        regions[f"header item {n}"] = (a, b)
    regions["crc"] = (end, end + 4)
    body = end + 4
    end, parts = _marshal_parts(data, body)
    assert end == len(data)
    for name, a, b in zip(("stamps", "rows", "dna", "indexes", "maps"), parts, [*parts[1:], end]):
        regions[name] = (a, b)
    _, entries = _marshal_parts(data, parts[3])
    for key_at, value_at in zip(entries[::2], entries[1::2]):
        key = marshal.loads(data[key_at:])
        value_end, (mark_at, state_at) = _marshal_parts(data, value_at)
        regions[f"{key} mark"] = (mark_at, state_at)
        state_end, fields = _marshal_parts(data, state_at)
        for n, (a, b) in enumerate(zip(fields, [*fields[1:], state_end])):
            regions[f"{key} field {n}"] = (a, b)
    return regions


def test_a_cache_file_with_one_flipped_bit_answers_as_a_fresh_build(tmp_path):
    """Repro before the fix: a bit flipped in the cache body still unmarshalled, so the next process
    answered from the damaged state: other scores or paths, or an internal error ('int' object has no
    attribute 'rpartition') where a path had become a number. The body now carries a CRC-32.

    One bit is flipped in the middle of every region of the file (the header's length and each of its
    items, the CRC, the stamps, rows and dna texts, and every field of both saved index states)."""
    from memorybank import cache

    files = {f"domain/s{i}.md": f"---\ntitle: zebra {i}\npurpose: relay quota {i}\n---\n\n# S{i}\n\n"
             f"## zebra relay{i}\n\nzebra relay shard {i} " + "zebra " * (70_000 if i == 3 else 1) + "\n"
             for i in range(10)}
    root = write_bank(tmp_path / "bank", files)
    asks = [("--route", "zebra relay", "--json"), ("--search", "quota 3", "--json"), ("--route", "shard", "--json")]
    fresh = [cli_in_process("--root", str(root), *ask, env={"MEMORYBANK_CACHE": "off"}).stdout for ask in asks]
    assert [cli_in_process("--root", str(root), *ask).stdout for ask in asks] == fresh  # writes the cache
    path = cache.cache_file(str(root))
    assert path is not None
    data = open(path, "rb").read()
    regions = _cache_regions(data)
    assert {"route.index field 3", "search.index field 11"} <= set(regions), regions  # both states saved
    for name, (start, end) in regions.items():
        at = (start + end) // 2
        with open(path, "wb") as handle:
            handle.write(data[:at] + bytes([data[at] ^ 1]) + data[at + 1:])
        for ask, want in zip(asks, fresh):
            proc = cli_in_process("--root", str(root), *ask)
            assert (proc.returncode, proc.stderr, proc.stdout) == (0, "", want), (name, at, ask, proc.stderr[-500:])


def test_a_long_lived_index_past_the_slots_id_range_still_answers(tmp_path):
    """Repro before the fix: every edit gives a document a new routing id and `Slots` hold slots
    `id << 12 | number` as int32, so after 2**19 document versions in one server (a 50,000-document bank
    and ten branch switches) the next edit raised OverflowError in every route. The ids stand in for
    those versions here (editing a file half a million times is no cheap test)."""
    from memorybank.bank import Bank
    from memorybank.route import SLOT_BITS, RouteIndex, route

    root = write_bank(tmp_path / "bank", {f"domain/s{i}.md": f"---\ntitle: zebra relay {i}\n---\n\n# S\n\n"
                                          f"## zebra quota {i}\n\nzebra\n" for i in range(3)})
    bank = Bank(root)
    fresh = route(bank, "zebra relay quota")
    index = RouteIndex.of(bank)
    index.paths.extend([None] * ((1 << (31 - SLOT_BITS)) - len(index.paths)))  # the past versions' ids
    (root / "domain/s1.md").write_text("---\ntitle: zebra relay 1\n---\n\n# S\n\n## zebra quota 1\n\nzebra!\n")
    assert route(bank, "zebra relay quota") == fresh == route(Bank(root), "zebra relay quota")
