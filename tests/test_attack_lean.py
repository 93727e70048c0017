"""Adversarial run on prime-lean (session 7): the compiled patterns saved beside the parse cache
(`regexes.py`), the dictionary read a section at a time (`lexicon.marshal` format 4) and the saved
superseded-decision links (`cache.EXTRAS` "succession"). Each test failed before its fix."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import cli_in_process, cli_path, doc, write_bank

from memorybank import regexes

BANK = {
    "README.md": "# Bank\n\nStart here.\n",
    "domain/export.md": doc("Export", "Why exports go through a queue.", canonical_for=["export_queue"],
                            body="## Queue\n\nExports wait in a queue so a slow printer never blocks the editor.\n"),
}


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_compiled_patterns_are_never_saved_inside_the_bank(tmp_path):
    """A cache folder inside the bank (a relative MEMORYBANK_CACHE_DIR, cwd = the bank) is refused for the
    parse cache; before the fix a real process still wrote `cache/regex-….mbre` there (time words)."""
    root = write_bank(tmp_path / "bank", BANK)
    before = _files(root)
    for folder in ("cache", "."):
        proc = subprocess.run([cli_path(), "--root", ".", "--route", "why do exports queue since last week?"],
                              capture_output=True, text=True, cwd=root, timeout=60,
                              env={**os.environ, "MEMORYBANK_CACHE_DIR": folder})
        assert proc.returncode == 0, proc.stderr
        assert _files(root) == before
    outside = tmp_path / "outside"  # the same call with the folder outside the bank saves them there
    proc = subprocess.run([cli_path(), "--root", str(root), "--route", "why do exports queue since last week?"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMORYBANK_CACHE_DIR": str(outside)})
    assert proc.returncode == 0 and list(outside.glob(f"*{regexes.SUFFIX}"))


# -- the saved superseded-decision links against the cache-off answer, step by step ---------------------

DECISIONS = {
    "README.md": "# Bank\n\nStart here.\n",
    "adr/ADR-001-server-sessions.md": doc("ADR-001: Server-side sessions", "Why login uses server-side sessions.",
                                          doc_kind="adr", decision_status="superseded", superseded_by="ADR-004",
                                          body="Login sessions live in the database.\n"),
    "adr/ADR-004-clerk.md": doc("ADR-004: Login with Clerk", "Why login moved to Clerk from sessions.",
                                doc_kind="adr", decision_status="accepted", supersedes="ADR-001",
                                body="Login moved to Clerk to drop our server-side session store.\n"),
    **{f"domain/area-{n}.md": doc(f"Area {n}", f"What area {n} holds.", body=f"Area {n} keeps its own notes.\n")
       for n in range(6)},
}
WHY = "why do server-side sessions hold the login?"


def _answers(root: Path, cache: Path, **env: str) -> list[str]:
    """Route and prime answers of real processes; with the cache off, of the CLI in this process (no cache
    to read, and the suite spares 14 processes)."""
    out = []
    for args in (("--route", WHY, "--json"), ("--prime", WHY)):
        if env.get("MEMORYBANK_CACHE") == "off":
            proc = cli_in_process("--root", str(root), *args, env={"MEMORYBANK_CACHE_DIR": str(cache), **env})
        else:
            proc = subprocess.run([cli_path(), "--root", str(root), *args], capture_output=True, text=True,
                                  timeout=60, env={**os.environ, "NO_COLOR": "1",
                                                   "MEMORYBANK_CACHE_DIR": str(cache), **env})
        assert proc.returncode == 0, proc.stderr[-2000:]
        out.append(proc.stdout)
    return out


def test_saved_succession_links_answer_as_the_cache_off_after_every_kind_of_change(tmp_path):
    root = write_bank(tmp_path / "bank", DECISIONS)
    cache = tmp_path / "c"
    adr4 = root / "adr/ADR-004-clerk.md"
    original = adr4.read_text(encoding="utf-8")

    def new_adr() -> None:
        (root / "adr/ADR-009-passkeys.md").write_text(doc(
            "ADR-009: Passkeys", "Why login moved to passkeys from Clerk sessions.", doc_kind="adr",
            decision_status="accepted", supersedes="ADR-004", body="Login sessions now use passkeys.\n"),
            encoding="utf-8")

    steps = [
        ("first", lambda: None),
        ("new ADR supersedes another", new_adr),
        ("edit drops a link", lambda: adr4.write_text(original.replace("supersedes: ADR-001\n", ""), "utf-8")),
        ("restore after the edit", lambda: adr4.write_text(original, "utf-8")),
        ("rename", lambda: adr4.rename(root / "adr/ADR-004-login-clerk.md")),
        ("delete", lambda: (root / "adr/ADR-009-passkeys.md").unlink()),
        ("dna file", lambda: write_bank(root, {"dna/vocabulary.md": "# Vocabulary\n\n- session: a login.\n"})),
    ]
    seen = set()
    for name, change in steps:
        change()
        warm = _answers(root, cache)  # reads what the previous step's process saved
        again = _answers(root, cache)
        off = _answers(root, cache, MEMORYBANK_CACHE="off")
        assert warm == again == off, name
        seen.add(off[0])
    assert len(seen) >= 4  # the steps did change the answer


# -- a crafted store: a program other than the pattern's ------------------------------------------------

COMPILES = """
import json, re, sys
from memorybank import timewords
patterns = [pattern for pattern, _ in timewords._compiled()]
print(json.dumps([found == re.compile(spec, re.IGNORECASE) for found, (spec, _) in zip(patterns, timewords._SPECS)]))
"""


def _same(cache: Path) -> list[bool]:
    proc = subprocess.run([sys.executable, "-c", COMPILES], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMORYBANK_CACHE_DIR": str(cache)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    import json
    return json.loads(proc.stdout)


def _crafted(data: bytes, program: tuple) -> bytes:
    """The store's bytes with every saved program swapped for `program`, checksum made good again."""
    import marshal
    import zlib
    head = len(regexes.MAGIC) + 4
    fields = list(marshal.loads(data[head:]))
    for n, field in enumerate(fields):
        if type(field) is dict:
            fields[n] = dict.fromkeys(field, program)
    body = marshal.dumps(tuple(fields))
    return regexes.MAGIC + zlib.crc32(body).to_bytes(4, "little") + body


def test_a_store_copied_in_from_elsewhere_with_other_programs_is_never_used(tmp_path):
    """A store restored from an archive or another machine's cache (a CI cache, a synced home), owned by
    this user with its checksum right, whose programs are not the patterns': `_sre.compile` runs them
    unchecked beyond a partial validation (a crafted program can crash the interpreter), and before the fix
    every time word matched as `zzz`. Only a store written in place by this cache folder is trusted."""
    assert all(_same(tmp_path))
    [store] = tmp_path.glob(f"*{regexes.SUFFIX}")
    crafted = _crafted(store.read_bytes(), regexes._program("zzz", re.IGNORECASE))
    copy = store.with_name("copy")
    copy.write_bytes(crafted)  # another file, as an unpacked archive or rsync makes, then in its place
    copy.chmod(0o600)
    copy.replace(store)
    assert all(_same(tmp_path))
    assert all(_same(tmp_path))  # replaced by a good store


# -- an interpreter whose `_sre` lacks what the store is keyed by -----------------------------------------

WITHOUT = """
import re, sys, types, _sre  # re with the real _sre
stub = types.ModuleType("_sre")  # what memorybank imports; re keeps the real one
stub.__dict__.update({k: v for k, v in vars(_sre).items() if k != sys.argv[1]})
sys.modules["_sre"] = stub
from memorybank import cli
cli.main(sys.argv[2:])
"""


def test_an_sre_without_its_magic_or_code_size_routes_as_before_and_saves_nothing(tmp_path):
    """Before the fix the key of the store (`_build`) read `_sre.MAGIC` unguarded: an AttributeError at the
    first import, where a missing `_sre.compile` was already compiled as always."""
    root = write_bank(tmp_path / "bank", BANK)
    args = ["--root", str(root), "--route", "why do exports queue since last week?", "--json"]
    expected = subprocess.run([cli_path(), *args], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "MEMORYBANK_CACHE": "off"}).stdout
    for missing in ("MAGIC", "CODESIZE", "compile"):
        cache = tmp_path / missing
        proc = subprocess.run([sys.executable, "-c", WITHOUT, missing, *args], capture_output=True, text=True,
                              timeout=60, env={**os.environ, "MEMORYBANK_CACHE_DIR": str(cache)})
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, expected, ""), proc.stderr
        assert not list(cache.glob(f"*{regexes.SUFFIX}")), missing


# -- git from PATH, never from the bank --------------------------------------------------------------------

HOSTILE_GIT = "#!/bin/sh\necho ran >> {marker}\nexit 1\n"


def test_an_empty_path_entry_never_runs_a_git_file_lying_in_the_bank(tmp_path):
    """exec resolves an empty or relative PATH entry (`PATH=:/usr/bin`, a common slip) in the child's
    working folder, which git spawns set to the bank: before the fix an executable `git` committed in a
    cloned bank ran on the first refresh (`ignored`), and on every git call after it."""
    import shutil

    from conftest import git_repo
    project = git_repo(tmp_path / "project", {"memory_bank/" + k: v for k, v in BANK.items()})
    marker = tmp_path / "marker"
    for folder in (project, project / "memory_bank"):
        planted = folder / "git"
        planted.write_text(HOSTILE_GIT.format(marker=marker), encoding="utf-8")
        planted.chmod(0o755)
    real = os.path.dirname(shutil.which("git"))
    clean = os.pathsep.join([os.path.dirname(cli_path()), real, "/usr/bin", "/bin"])
    answers = []
    for path in (clean, os.pathsep + clean, "." + os.pathsep + clean):
        env = {**os.environ, "PATH": path, "MEMORYBANK_CACHE": "off", "NO_COLOR": "1"}
        found = [subprocess.run([cli_path(), "--root", "memory_bank", *args], capture_output=True, text=True,
                                cwd=project, env=env, timeout=60) for args in (("--route", "exports"), ("--drift",))]
        answers.append([(p.returncode, p.stdout) for p in found])
    assert not marker.exists()
    assert answers[0] == answers[1] == answers[2]


def test_a_live_server_restored_from_saved_links_answers_as_one_without_the_cache(tmp_path, monkeypatch):
    """Two real servers over stdio, one started from a cache holding the links (a CLI process saved it),
    one with the cache off, asked the same why-question after each change on disk."""
    from mcpkit import Session
    root = write_bank(tmp_path / "bank", DECISIONS)
    cache = tmp_path / "c"
    monkeypatch.setenv("MEMORYBANK_CACHE_DIR", str(cache))
    _answers(root, cache)  # saves the cache, links included
    assert any(cache.glob("*.mbc"))
    warm = Session(root)
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    cold = Session(root)
    adr4 = root / "adr/ADR-004-clerk.md"
    original = adr4.read_text(encoding="utf-8")
    steps = [
        lambda: None,
        lambda: write_bank(root, {"adr/ADR-009-passkeys.md": doc(
            "ADR-009: Passkeys", "Why login moved to passkeys from Clerk sessions.", doc_kind="adr",
            decision_status="accepted", supersedes="ADR-004", body="Login sessions now use passkeys.\n")}),
        lambda: adr4.write_text(original.replace("supersedes: ADR-001\n", ""), "utf-8"),
        lambda: adr4.write_text(original, "utf-8"),
        lambda: adr4.rename(root / "adr/ADR-004-login-clerk.md"),
        lambda: (root / "adr/ADR-009-passkeys.md").unlink(),
    ]
    try:
        seen = set()
        for n, change in enumerate(steps):
            change()
            for tool, args in (("bank_route", {"question": WHY}), ("bank_route", {"question": WHY, "limit": 2})):
                a, b = warm.call(tool, args), cold.call(tool, args)
                assert a.is_error == b.is_error and a.content[0].text == b.content[0].text, (n, tool)
            seen.add(b.content[0].text)
        assert len(seen) >= 3
    finally:
        warm.close()
        cold.close()
