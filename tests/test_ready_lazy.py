"""Ready, lazily (issue 15): what the cache restores packed or on first use answers exactly as a fresh build.

The body postings come back packed (`search.PackedPostings`: flat arrays, no object per term) and the
routing fields one document at a time as a route reads them (`cache.LazyRows`); the documents are built a
field at a time (`cache.rows_docs`). Each must answer as the layout it replaces, after edits too, and a
cached part of the wrong shape is rebuilt, never an error nor a wrong answer.
"""

from __future__ import annotations

import marshal
import random
import zlib
from array import array
from pathlib import Path

from banks import linked_docs
from mcpkit import Session, payload

from memorybank import cache
from memorybank.bank import Bank
from memorybank.faces import result
from memorybank.jsonout import dumps
from memorybank.route import RouteIndex, route
from memorybank.search import PackedPostings, SearchIndex, search

QUESTIONS = ("filter thresholds", "queue export", "ledger rounding", "zz", "set queue")
QUERIES = ("zz", "filter threshold", "queue", "ledger rounding", "quokka")


def _bank(root: Path, count: int = 14) -> Path:
    linked_docs(root, count, lambda near: f"The {near[1]} as set in [zero](../ops/doc-00.md).",
                lambda i, near: f"zz {' '.join(near)} {'zz ' * i}")
    for name, words in (("activeContext.md", "queue export"), ("progress.md", "filter rounding")):  # plain pages:
        (root / name).write_text(f"# Set {words}\n\n## Current {words}\n\nThe {words} now.\n",  # no frontmatter,
                                 encoding="utf-8")  # their titles are prose (routed as a plain page's)
    return root


def _answers(bank: Bank) -> list[dict]:
    return [route(bank, q, limit=8) for q in QUESTIONS] + [search(bank, q, limit=8) for q in QUERIES]


def _fresh(root: Path, monkeypatch) -> list[dict]:
    with monkeypatch.context() as m:
        m.setenv("MEMORYBANK_CACHE", "off")
        return _answers(Bank(root))


def _saved(root: Path) -> Bank:
    """A bank over `root` with both indexes built and its parse cache saved."""
    bank = Bank(root)
    bank.refresh()
    SearchIndex.of(bank)
    RouteIndex.of(bank)
    assert cache.save(bank)
    return bank


def _restored(root: Path) -> Bank:
    bank = Bank(root)
    assert cache.load(bank)
    return bank


def _edit(root: Path) -> None:
    """A body and a purpose changed, a document added, one removed: new, moved and dropped terms."""
    first = root / "ops" / "doc-02.md"
    first.write_text(first.read_text(encoding="utf-8").replace("meets the", "meets the quokka and the")
                     + "\nquokka ledger\n", encoding="utf-8")
    (root / "domain" / "new.md").write_text("---\ntitle: Quokka queue\npurpose: Filter for the quokka.\n---\n"
                                            "# Quokka\n\n## Queue\n\nquokka quokka threshold\n", encoding="utf-8")
    (root / "domain" / "doc-03.md").unlink()


def test_a_restored_bank_answers_as_a_fresh_build_before_and_after_edits(tmp_path, monkeypatch):
    root = _bank(tmp_path / "bank")
    expected = _fresh(root, monkeypatch)
    _saved(root)
    bank = _restored(root)
    route(bank, QUESTIONS[0])
    fields = RouteIndex.of(bank).fields
    assert isinstance(fields, cache.LazyRows) and fields.raw, "the first route decoded every document's fields"
    postings = SearchIndex.of(bank).postings
    assert isinstance(postings, PackedPostings) and postings.terms and not postings.loose
    assert _answers(bank) == expected and bank.parse_count == 0
    parsed = Bank(root)
    parsed.refresh()
    assert {p: d._values() for p, d in bank.docs.items()} == {p: d._values() for p, d in parsed.docs.items()}
    _edit(root)  # the restored (packed, lazy) indexes are updated in place, as a warm server's are
    assert _answers(bank) == _fresh(root, monkeypatch)
    assert SearchIndex.of(bank).postings.loose  # the edited documents' terms left the packed arrays
    index = SearchIndex.of(bank)
    index._compact()  # compaction packs again; nothing moves
    assert not index.postings.loose and not index.postings.garbage
    assert _answers(bank) == _fresh(root, monkeypatch)
    assert cache.save(bank)  # a partly decoded, edited index is saved whole and comes back the same
    assert _answers(_restored(root)) == _fresh(root, monkeypatch)


def test_packed_postings_behave_as_the_dict_of_arrays_they_replace():
    rng = random.Random(15)
    terms = [f"t{i}" for i in range(40)]
    for _ in range(60):
        packed, mirror, ident = PackedPostings(), {}, 0
        for _ in range(rng.randrange(1, 120)):
            roll, term = rng.random(), rng.choice(terms)
            if roll < 0.6:
                ident += rng.randrange(1, 3)
                tf = 70_000 if rng.random() < 0.03 else rng.randrange(1, 9)
                packed.append(term, ident, tf)
                ids, tfs = mirror.setdefault(term, (array("i"), array("H")))
                if tf > 65_535 or tfs.typecode == "i":
                    tfs = array("i", tfs)
                    mirror[term] = (ids, tfs)
                ids.append(ident)
                tfs.append(tf)
            elif roll < 0.7 and term in mirror:
                del packed[term], mirror[term]
            elif roll < 0.8 and term in mirror:
                packed[term] = mirror[term] = (array("i", mirror[term][0][:1]), array("H", [1]))
            elif roll < 0.9:
                packed.pack()
            else:
                packed = PackedPostings.restore(marshal.loads(marshal.dumps(packed.state())))
            assert len(packed) == len(mirror) and sorted(packed) == sorted(mirror)
            probe = rng.choice(terms)
            assert (probe in packed) == (probe in mirror) and packed.get(probe) == mirror.get(probe)
            assert dict(packed.items()) == mirror


def _rewrite(path: Path, change) -> None:
    """Rewrite a cache file with one part changed and a valid checksum: damage the checksum cannot see."""
    data = path.read_bytes()
    size = int.from_bytes(data[len(cache.MAGIC):len(cache.MAGIC) + 4], "little")
    start = len(cache.MAGIC) + 4 + size
    body = marshal.loads(data[start + 4:])
    change(body)
    raw = marshal.dumps(body)
    path.write_bytes(data[:start] + zlib.crc32(raw).to_bytes(4, "little") + raw)


def test_a_damaged_part_of_the_cache_is_rebuilt_and_answers_alike(tmp_path, monkeypatch):
    root = _bank(tmp_path / "bank")
    expected = _fresh(root, monkeypatch)
    file = Path(cache.cache_file(str(root)))

    def fields_not_bytes(body):
        mark, state = body[3]["route.index"]
        table, fields = state[2]
        body[3]["route.index"] = (mark, (*state[:2], (table, {k: "text" for k in fields}), *state[3:]))

    def postings_cut(body):
        mark, state = body[3]["search.index"]
        terms, starts, counts, ids, tfs, loose = state[7]
        body[3]["search.index"] = (mark, (*state[:7], (terms, starts, counts[:-4], ids, tfs, loose), *state[8:]))

    def documents_short(body):
        rows = body[1]
        path = next(iter(rows))
        rows[path] = rows[path][:-1]

    for damage in (fields_not_bytes, postings_cut, documents_short):
        _saved(root)
        _rewrite(file, damage)
        bank = Bank(root)
        loaded = cache.load(bank)
        assert loaded is (damage is not documents_short)  # a short document row: the whole file is ignored
        assert _answers(bank) == expected, damage.__name__
        rebuilt = {"fields_not_bytes": RouteIndex, "postings_cut": SearchIndex}.get(damage.__name__)
        if rebuilt is not None:
            assert rebuilt.of(bank).derived_total > 0, damage.__name__  # built from the documents, not restored


def test_the_server_sees_edits_made_between_its_start_and_the_first_call(tmp_path, monkeypatch):
    """A real server over a warm cache: a file edited, one added and one removed after the spawn (before
    or while the start-up restores the index, whichever comes first) are in the first answers, and the
    answers are the ones a fresh build gives, then again after a second round of edits."""
    root = _bank(tmp_path / "memory_bank")
    _saved(root)
    session = Session(root)
    try:
        _edit(root)
        with monkeypatch.context() as m:
            m.setenv("MEMORYBANK_CACHE", "off")
            fresh = Bank(root)
            asked = [("bank_search", {"query": "quokka"}, lambda: search(fresh, "quokka")),
                     ("bank_route", {"question": "quokka queue"}, lambda: route(fresh, "quokka queue"))]
            first = [session.call(name, args).content[0].text for name, args, _ in asked]
            assert first == [dumps(result(answer(), "mcp")) for _, _, answer in asked]
        assert payload(session.call("bank_search", {"query": "quokka"}))["results"][0]["path"] in (
            "domain/new.md", "ops/doc-02.md")
        (root / "domain" / "doc-05.md").write_text("---\ntitle: Late quokka\n---\n# Late\n\nquokka quokka quokka\n",
                                                   encoding="utf-8")
        with monkeypatch.context() as m:
            m.setenv("MEMORYBANK_CACHE", "off")
            fresh = Bank(root)
            for name, args, answer in asked:
                assert session.call(name, args).content[0].text == dumps(result(answer(), "mcp")), name
    finally:
        session.close()
