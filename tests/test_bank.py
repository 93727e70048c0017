import os

from conftest import doc, write_bank

from memorybank.bank import Bank


def _touch(path, delta_ns=1_000_000_000):
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + delta_ns))


def test_refresh_reparses_exactly_the_changed_file(tmp_path):
    root = write_bank(tmp_path / "b", {f"product/d{i}.md": doc(f"D{i}") for i in range(20)})
    bank = Bank(root)
    first = bank.refresh()
    assert len(first.added) == 20 and bank.parse_count == 20
    assert not bank.refresh().any and bank.parse_count == 20
    _touch(root / "product/d7.md")
    again = bank.refresh()
    assert again.changed == ("product/d7.md",) and bank.parse_count == 21


def test_refresh_drops_vanished_and_adds_new(tmp_path):
    root = write_bank(tmp_path / "b", {"a.md": doc("A"), "b.md": doc("B")})
    bank = Bank(root)
    bank.refresh()
    (root / "a.md").unlink()
    (root / "c.md").write_text(doc("C"))
    result = bank.refresh()
    assert result.removed == ("a.md",) and result.added == ("c.md",)
    assert bank.paths == ["b.md", "c.md"]


def test_generation_changes_only_when_something_changed(tmp_path):
    root = write_bank(tmp_path / "b", {"a.md": doc("A")})
    bank = Bank(root)
    bank.refresh()
    gen = bank.generation
    bank.refresh()
    assert bank.generation == gen


def test_walk_skips_hidden_vendor_and_symlinks(tmp_path):
    root = write_bank(tmp_path / "b", {
        "a.md": doc("A"), ".hidden/x.md": doc("X"), "node_modules/y.md": "y", "__pycache__/z.md": "z",
        "dist/w.md": "w", "notes.txt": "not markdown"})
    (tmp_path / "outside.md").write_text("x")
    os.symlink(tmp_path / "outside.md", root / "link.md")
    os.symlink(root, root / "loop")
    bank = Bank(root)
    bank.refresh()
    assert bank.paths == ["a.md"]
    assert {s["path"] for s in bank.skipped} == {"link.md", "loop"}


def test_derived_maps(tmp_path):
    root = write_bank(tmp_path / "b", {
        "README.md": "- [A](a.md)\n- [B](sub/b.md)\n",
        "a.md": doc("A", canonical_for=["k1"]),
        "sub/b.md": doc("B", derived=["../a.md"], canonical_for=["k1", "k2"]),
        "sub/README.md": "[b](b.md)\n",
        "tpl.md": doc("T", doc_function="template", canonical_for=["k1"]),
    })
    bank = Bank(root)
    bank.refresh()
    assert bank.incoming == {"a.md": ["sub/b.md"]}
    assert bank.owners == {"k1": ["a.md", "sub/b.md"], "k2": ["sub/b.md"]}
    assert bank.registered_in["sub/b.md"] == ["README.md", "sub/README.md"]


def test_contract_is_rebuilt_when_dna_changes(tmp_path):
    root = write_bank(tmp_path / "b", {"dna/g.md": "| `status` | `draft`, `active` |\n", "a.md": doc("A")})
    bank = Bank(root)
    bank.refresh()
    assert bank.contract.allowed("status") == {"draft", "active"}
    (root / "dna/g.md").write_text("| `status` | `draft`, `active`, `archived` |\n")
    _touch(root / "dna/g.md")
    bank.refresh()
    assert bank.contract.allowed("status") == {"draft", "active", "archived"}


def test_layer_table_relayers_documents(tmp_path):
    root = write_bank(tmp_path / "b", {
        "dna/g.md": "| directory | layer | weight |\n|---|---|---|\n| `notes`, `wiki/` | knowledge | 2.5 |\n",
        "notes/a.md": doc("A"), "wiki/b.md": doc("B"), "misc/c.md": doc("C")})
    bank = Bank(root)
    bank.refresh()
    assert [bank.docs[p].layer for p in ("notes/a.md", "wiki/b.md", "misc/c.md")] == ["knowledge"] * 2 + ["other"]
    assert bank.layer_weights["knowledge"] == 2.5


def test_missing_root_is_an_empty_bank(tmp_path):
    bank = Bank(tmp_path / "nope")
    assert not bank.refresh().any and bank.docs == {}


def test_deep_folders_and_odd_names(tmp_path):
    deep = "/".join(f"d{i}" for i in range(120))
    root = write_bank(tmp_path / "b", {f"{deep}/x.md": doc("Deep"), "with space/ünï.md": doc("U")})
    bank = Bank(root)
    bank.refresh()
    assert f"{deep}/x.md" in bank.docs and "with space/ünï.md" in bank.docs


def test_incremental_maps_equal_a_full_rebuild(tmp_path):
    import random

    rng = random.Random(7)
    names = [f"s{i % 3}/d{i}.md" for i in range(24)]
    root = write_bank(tmp_path / "b", {})

    def write(path):
        ups = [f"../{u}" for u in rng.sample(names, 2)]
        keys = rng.sample(["k1", "k2", "k3", "k4"], rng.randint(0, 2))
        links = "".join(f"- [x](../{n})\n" for n in rng.sample(names, 3))
        text = doc(path, derived=ups, canonical_for=keys or None, body=links) if keys else doc(path, derived=ups,
                                                                                                 body=links)
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
        st = (root / path).stat()
        os.utime(root / path, ns=(st.st_atime_ns, st.st_mtime_ns + rng.randint(1, 10**9)))

    for name in names[:12]:
        write(name)
    for folder in ("s0", "s1", "s2"):
        write(f"{folder}/README.md")
    bank = Bank(root)
    bank.refresh()
    for _ in range(30):
        action = rng.random()
        victim = rng.choice(names)
        if action < 0.6:
            write(victim)
        elif (root / victim).exists():
            (root / victim).unlink()
        bank.refresh()
        fresh = Bank(root)
        fresh.refresh()
        assert bank.paths == fresh.paths
        assert bank.incoming == fresh.incoming
        assert bank.owners == fresh.owners
        assert bank.registered_in == fresh.registered_in
