"""A cold prime's fixed costs (prime-lean): compiled time-word patterns kept between processes, and the
built-in dictionary read a table at a time.

No timing here: each check is about work a process must not do (compile a pattern an earlier process
compiled, unmarshal a table its prompt never reads), seen in a real process, and about answers that
stay the same whichever way the pattern or the table was obtained.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from banks import START, release_page
from conftest import cli_path, doc, git_repo, write_bank

from memorybank import regexes, timewords
from memorybank.lang import lexicon

BANK = {
    "README.md": START,
    "domain/export.md": doc("Export", "Why exports go through a queue.", canonical_for=["export_queue"],
                            body="## Queue\n\nExports wait in a queue so a slow printer never blocks the editor.\n"),
    "ops/release.md": release_page(),
}
PROMPT = "why do exports go through a queue since last week?"

# Compiles the time-word patterns as a route or prime does, and says how many went through re's compiler.
COMPILES = """
import json, re, sys
from re import _compiler
counted = []
plain = _compiler.compile
_compiler.compile = lambda p, flags=0: counted.append(p) or plain(p, flags)
from memorybank import timewords
patterns = [pattern for pattern, _ in timewords._compiled()]
_compiler.compile = plain
same = all(found == re.compile(spec, re.IGNORECASE) for found, (spec, _) in zip(patterns, timewords._SPECS))
specs = {spec for spec, _ in timewords._SPECS}
window = timewords.find(sys.argv[1])[0].words
print(json.dumps({"compiled": sum(p in specs for p in counted), "same": same, "window": window}))
"""


def _compiles(cache: Path, **env: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", COMPILES, PROMPT], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMORYBANK_CACHE_DIR": str(cache), **env})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def _store(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"*{regexes.SUFFIX}"))


def test_a_second_process_takes_the_time_patterns_compiled_by_the_first(tmp_path):
    first = _compiles(tmp_path)
    assert first["compiled"] == len(timewords._SPECS) and first["same"]
    assert len(_store(tmp_path)) == 1
    second = _compiles(tmp_path)
    # equal patterns (`==` compares the compiled programs) that re's compiler never saw, the same window
    assert second == {"compiled": 0, "same": True, "window": first["window"]}
    assert first["window"] == "last week"


def test_a_damaged_or_foreign_store_is_compiled_again_and_replaced(tmp_path):
    _compiles(tmp_path)
    [store] = _store(tmp_path)
    data = store.read_bytes()
    for damaged in (data[:len(data) // 2], b"", data[:40] + bytes([data[40] ^ 1]) + data[41:], b"x" * 100):
        store.write_bytes(damaged)
        assert _compiles(tmp_path) == {"compiled": len(timewords._SPECS), "same": True, "window": "last week"}
        assert _compiles(tmp_path)["compiled"] == 0  # the file is whole again for the next process
    store.chmod(0o666)  # writable by others: not trusted (read as the parse cache is read)
    assert _compiles(tmp_path)["compiled"] == len(timewords._SPECS)


def test_no_store_is_written_with_the_cache_off(tmp_path):
    assert _compiles(tmp_path, MEMORYBANK_CACHE="off")["same"]
    assert _compiles(tmp_path, MEMORYBANK_CACHE="off")["compiled"] == len(timewords._SPECS)
    assert list(tmp_path.iterdir()) == []


def test_a_program_is_what_re_would_compile():
    for spec, _ in timewords._SPECS[:6]:
        program = regexes._program(spec, re.IGNORECASE)
        assert regexes._made(spec, program) == re.compile(spec, re.IGNORECASE)


# -- the dictionary a table at a time ------------------------------------------------------------------

# Runs one --prime through the CLI's entry point and lists the dictionary sections the process unmarshalled.
SECTIONS = """
import json, sys
from memorybank import cli
from memorybank.lang import lexicon
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
tables = lexicon.builtin_tables()
print(json.dumps(sorted(tables._loaded)), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("lean") / "memory_bank", BANK)


def _sections(bank: Path, prompt: str) -> tuple[str, set[str]]:
    proc = subprocess.run([sys.executable, "-c", SECTIONS, "--root", str(bank), "--prime", prompt],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, set(json.loads(proc.stderr.strip().splitlines()[-1]))


def test_an_english_prompt_reads_no_chinese_table(bank):
    subprocess.run([cli_path(), "--root", str(bank), "--route", "queue"], capture_output=True, timeout=60)
    out, read = _sections(bank, PROMPT)
    assert "domain/export.md" in out  # the prime answered
    assert read and not read & {"zh_canon", "zh_en"}, read
    _, read = _sections(bank, "为什么导出要排队？")  # a Chinese one does read them
    assert {"zh_canon", "zh_en"} <= read


def test_a_lexicon_over_the_saved_sections_answers_as_one_over_built_tables():
    saved = lexicon.builtin_tables()
    assert isinstance(saved, lexicon.SavedTables)  # the file is fresh (test_cold_process checks it is exact)
    lazy = lexicon.Lexicon.__new__(lexicon.Lexicon)
    lazy._setup(lexicon.SavedTables(saved._sections), builtin=True)
    built = lexicon.Lexicon.__new__(lexicon.Lexicon)
    built._setup(lexicon.build_builtin_tables(), builtin=True)
    texts = ("why do exports go through a queue?", "как задеплоить кэш после релиза", "为什么导出要排队，决策在哪里",
             "SQLite WebSockets FT-042 db.session() GCP_SA_KEY 0.1.0", "развертывание 部署 deploy rollout")
    for text in texts:
        assert lazy.concepts(text) == built.concepts(text), text
        assert lazy.search_concepts(text) == built.search_concepts(text), text
        assert lazy.route_terms(text) == built.route_terms(text), text
        assert lazy.search_counts(text) == built.search_counts(text), text
        for term, _, _ in built.route_terms(text):
            assert lazy.needles(term) == built.needles(term) and lazy.everyday(term) == built.everyday(term)
    assert (lazy.zh_words, lazy.zh_max, lazy._ru_lengths) == (built.zh_words, built.zh_max, built._ru_lengths)


# -- a why-question's superseded decisions, from the parse cache ----------------------------------------

DECISIONS = {
    "README.md": "# Bank\n\nStart here.\n",
    "adr/ADR-001-server-sessions.md": doc("ADR-001: Server-side sessions", "Why login uses server-side sessions.",
                                          doc_kind="adr", decision_status="superseded", superseded_by="ADR-004",
                                          body="Login sessions live in the database.\n"),
    "adr/ADR-004-clerk.md": doc("ADR-004: Login with Clerk", "Why login moved to Clerk.", doc_kind="adr",
                                decision_status="accepted", supersedes="ADR-001",
                                body="Login moved to Clerk to drop our session store.\n"),
    **{f"domain/area-{n}.md": doc(f"Area {n}", f"What area {n} holds.", body=f"Area {n} keeps its own notes.\n")
       for n in range(12)},
}
WHY = "why do server-side sessions hold the login?"

def _why(root: Path, cache_dir: Path, **env: str) -> tuple[str, int]:
    """`--route WHY --json` in a fresh process, and how many documents it left undecoded."""
    script = ("import sys\nfrom memorybank import bank, cli\nfrom memorybank.cache import _blob_of\n"
              "try:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              "[held] = bank._BANKS.values()\n"
              "print(sum(_blob_of(d) is not None for d in held.docs.values()), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script, "--root", str(root), "--route", WHY, "--json"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MEMORYBANK_CACHE_DIR": str(cache_dir), **env})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, int(proc.stderr.strip().splitlines()[-1])


def test_a_why_question_takes_the_superseded_links_saved_with_the_cache(tmp_path):
    root = write_bank(tmp_path / "memory_bank", DECISIONS)
    off, _ = _why(root, tmp_path / "c", MEMORYBANK_CACHE="off")
    assert "supersedes ADR-001" in off  # the chain is in the answer
    first, _ = _why(root, tmp_path / "c")  # writes the cache, links included
    second, undecoded = _why(root, tmp_path / "c")
    assert first == second == off
    assert undecoded > len(DECISIONS) // 2  # the links came from the cache: most documents stay undecoded
    # an edit to any document: the links are read from the documents again (ADR-004 no longer supersedes)
    (root / "adr/ADR-004-clerk.md").write_text(DECISIONS["adr/ADR-004-clerk.md"].replace(
        "supersedes: ADR-001\n", ""), encoding="utf-8")
    (root / "adr/ADR-001-server-sessions.md").write_text(DECISIONS["adr/ADR-001-server-sessions.md"].replace(
        "superseded_by: ADR-004\n", ""), encoding="utf-8")
    edited, _ = _why(root, tmp_path / "c")
    assert edited == _why(root, tmp_path / "c", MEMORYBANK_CACHE="off")[0] != off
    assert "supersedes" not in edited


def test_a_cold_prime_in_a_git_project_imports_no_shutil(tmp_path):
    """Each cold refresh asks git which new folders it ignores; a missing git is the failed spawn's empty
    answer, so looking git up on PATH first (shutil, with bz2 and lzma) is not needed."""
    project = git_repo(tmp_path / "project")
    root = write_bank(project / "memory_bank", BANK)
    prompt = "why do exports go through a queue?"  # no time words: no git log for document times
    subprocess.run([cli_path(), "--root", str(root), "--prime", prompt], capture_output=True, timeout=60, check=True)
    proc = subprocess.run([sys.executable, "-X", "importtime", cli_path(), "--root", str(root), "--prime", prompt],
                          capture_output=True, text=True, timeout=60)
    modules = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert proc.returncode == 0 and "domain/export.md" in proc.stdout, proc.stderr[-2000:]
    assert "subprocess" in modules  # git was asked
    assert not modules & {"shutil", "bz2", "lzma"}
