"""The parse cache (issue 15): answers identical with and without it, never written inside the bank,
trusted per file only while the file's stamp matches, and never an error when it is damaged."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import CORPORA, FIXTURE, cli_in_process, cli_path, run_cli

from memorybank import cache, regexes
from memorybank.bank import Bank

READ_ONLY = (
    ("--stats", "--json"),
    ("--route", "filter thresholds", "--json"),
    ("--route", "why do exports go through a queue"),
    ("--route", "пороги фильтрации", "--limit", "3"),
    ("--search", "FT-042", "--json"),
    ("--search", "invoice retries"),
    ("--prime", "why do exports go through a queue, and what are the filter thresholds?"),
    ("--read", "README.md", "--json"),
    ("--validate", "--json"),
    ("--list-inbox", "--json"),
    ("--graph", "domain/billing.md", "--json"),
)
TIMING = re.compile(r'"refresh_ms":[0-9.]+|refreshed in [0-9.,]+ ms')


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every entry under the bank (folders too) with the bytes of every file."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            out[os.path.relpath(os.path.join(folder, name), root) + "/"] = b""
        for name in files:
            path = os.path.join(folder, name)
            out[os.path.relpath(path, root)] = Path(path).read_bytes()
    return out


def _outputs(root: Path, args_list, env: dict[str, str]) -> list[tuple[int, str]]:
    """Each command in its own real process: the cache file is all that passes from one to the next."""
    found = []
    for args in args_list:
        proc = run_cli("--root", str(root), *args, env=env)
        found.append((proc.returncode, TIMING.sub("<ms>", proc.stdout)))
    return found


def _outputs_in_process(root: Path, args_list, env: dict[str, str], capsys, monkeypatch) -> list[tuple[int, str]]:
    """The same commands through `cli.main` in this process, each on a fresh `Bank` loaded from the cache
    file exactly as a new process loads it (the per-process bank table is emptied before each)."""
    from memorybank import bank as bank_module
    from memorybank import cli

    with monkeypatch.context() as patch:
        for key, value in {"NO_COLOR": "1", **env}.items():
            patch.setenv(key, value)
        found = []
        for args in args_list:
            bank_module._BANKS.clear()
            capsys.readouterr()
            try:
                cli.main(["--root", str(root), *args])
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            found.append((code, TIMING.sub("<ms>", capsys.readouterr().out)))
        bank_module._BANKS.clear()
    return found


def _cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*" + cache.SUFFIX))


def _fixture_copy(tmp_path: Path) -> Path:
    root = tmp_path / "bank"
    shutil.copytree(FIXTURE, root)
    return root


@pytest.mark.parametrize("source", ["fixture", "corpus"])
def test_every_read_only_action_answers_the_same_cold_warm_and_off(tmp_path, _private_cache_dir, source, capsys,
                                                                   monkeypatch):
    if source == "fixture":
        root = _fixture_copy(tmp_path)
        actions = READ_ONLY
    else:
        corpus = CORPORA / "ebook_parser" / "memory_bank"
        if not corpus.is_dir():
            pytest.skip("corpus not present")
        root = tmp_path / "corpus"
        shutil.copytree(corpus, root)
        actions = (("--stats", "--json"), ("--route", "parse the table of contents", "--json"),
                   ("--search", "chapter", "--json"), ("--validate", "--json"), ("--prime", "how are chapters split?"))
    before = _snapshot(root)
    # Every action in this process (fresh banks, the cache read back from its file); one routing and
    # one whole-bank action again through real processes, the face users run, where only the cache
    # file carries state from one process to the next.
    cold = _outputs_in_process(root, actions, {}, capsys, monkeypatch)
    assert _cache_files(_private_cache_dir), "the first call wrote a cache file"
    warm = _outputs_in_process(root, actions, {}, capsys, monkeypatch)
    off = _outputs_in_process(root, actions, {"MEMORYBANK_CACHE": "off"}, capsys, monkeypatch)
    assert cold == warm == off
    in_process = cold
    for folder in _cache_files(_private_cache_dir):
        folder.unlink()
    if source != "fixture":  # the real-process face is the same code as the fixture's: driven there once
        assert _snapshot(root) == before
        return
    spawned = [next(a for a in actions if a[0] == "--route" and "--json" in a)]
    cold = _outputs(root, spawned, {})
    assert _cache_files(_private_cache_dir), "the first process wrote a cache file"
    warm = _outputs(root, spawned, {})
    off = _outputs(root, spawned, {"MEMORYBANK_CACHE": "off"})
    assert cold == warm == off == [found for args, found in zip(actions, in_process) if args in spawned]
    assert _snapshot(root) == before  # nothing written inside the bank, not even a folder


def test_the_cache_lives_outside_the_bank_in_the_given_folder(tmp_path, _private_cache_dir):
    root = _fixture_copy(tmp_path)
    before = _snapshot(root)
    cli_in_process("--root", str(root), "--route", "billing")  # a real first process: the test above
    files = _cache_files(_private_cache_dir)
    assert len(files) == 1 and files[0].stat().st_size > 0
    assert _snapshot(root) == before
    inside = cli_in_process("--root", str(root), "--route", "billing",
                            env={"MEMORYBANK_CACHE_DIR": str(root / "cache")})
    assert inside.returncode == 0 and _snapshot(root) == before  # a cache folder in the bank is never used


def test_cache_off_writes_no_file(tmp_path, _private_cache_dir):
    root = _fixture_copy(tmp_path)
    assert cli_in_process("--root", str(root), "--route", "billing", env={"MEMORYBANK_CACHE": "off"}).returncode == 0
    assert _cache_files(_private_cache_dir) == []


def test_the_default_folder_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMORYBANK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if os.sys.platform == "darwin" or os.name == "nt":
        pytest.skip("XDG applies on Linux and other Unixes")
    assert cache.cache_dir() == str(tmp_path / "xdg" / "memorybank")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache.cache_dir() == os.path.join(os.path.expanduser("~"), ".cache", "memorybank")


def _warm(root: Path) -> Bank:
    """A bank as a fresh process sees it: seeded from the cache file, then refreshed."""
    bank = Bank(root)
    assert cache.load(bank)
    bank.refresh()
    return bank


def _cold_then_saved(root: Path) -> None:
    from memorybank.route import route
    bank = Bank(root)
    route(bank, "billing")  # builds the routing and body indexes
    assert cache.save(bank)


def _same_answers(root: Path) -> None:
    """Cache on and off agree on route, search and validate for the bank as it is now.

    Each call is the CLI's entry point on a fresh bank table, so the cached one starts from the cache
    file as a new process does (the real processes of this are in the cold/warm/off test above).
    """
    questions = ("filter thresholds", "invoice", "queue exports", "tax")
    env_off = {"MEMORYBANK_CACHE": "off"}
    for q in questions:
        on = cli_in_process("--root", str(root), "--route", q, "--json")
        off = cli_in_process("--root", str(root), "--route", q, "--json", env=env_off)
        assert on.returncode == off.returncode == 0 and on.stdout == off.stdout, q
        on = cli_in_process("--root", str(root), "--search", q, "--json")
        off = cli_in_process("--root", str(root), "--search", q, "--json", env=env_off)
        assert on.returncode == off.returncode == 0 and on.stdout == off.stdout, q
    on = cli_in_process("--root", str(root), "--validate", "--json")
    off = cli_in_process("--root", str(root), "--validate", "--json", env=env_off)
    assert on.stdout == off.stdout


def test_an_unchanged_bank_parses_nothing_from_a_warm_cache(tmp_path):
    root = _fixture_copy(tmp_path)
    _cold_then_saved(root)
    bank = _warm(root)
    assert bank.parse_count == 0 and bank.docs


def test_edits_renames_deletes_and_additions_are_reparsed(tmp_path):
    root = _fixture_copy(tmp_path)
    cli_in_process("--root", str(root), "--route", "billing")
    billing = root / "domain" / "billing.md"
    billing.write_text(billing.read_text(encoding="utf-8").replace("Filter thresholds", "Sieve limits"),
                       encoding="utf-8")
    (root / "adr" / "ADR-002-queue-for-exports.md").rename(root / "adr" / "ADR-009-queue-for-exports.md")
    (root / "ops" / next(p.name for p in (root / "ops").iterdir() if p.name != "README.md")).unlink()
    (root / "domain" / "tax2.md").write_text("---\ntitle: Tax two\npurpose: Sieve limits for tax.\n---\n"
                                             "# Tax two\n\n## Sieve limits\n\nRates.\n", encoding="utf-8")
    bank = Bank(root)
    assert cache.load(bank)
    bank.refresh()
    assert bank.parse_count == 3  # the edited file, the new one and the renamed one (a new path); no other
    assert "adr/ADR-009-queue-for-exports.md" in bank.docs and "adr/ADR-002-queue-for-exports.md" not in bank.docs
    cli_in_process("--root", str(root), "--route", "sieve limits")  # saves the new state
    _same_answers(root)
    routed = json.loads(cli_in_process("--root", str(root), "--route", "sieve limits", "--json").stdout)
    assert {r["path"] for r in routed["results"]} >= {"domain/billing.md", "domain/tax2.md"}


def test_a_same_size_edit_with_a_new_mtime_is_seen(tmp_path):
    root = _fixture_copy(tmp_path)
    target = root / "domain" / "billing.md"
    cli_in_process("--root", str(root), "--route", "billing")
    text = target.read_text(encoding="utf-8")
    assert "Filter thresholds" in text
    swapped = text.replace("Filter thresholds", "Sifter thresholds")
    assert len(swapped.encode()) == len(text.encode())
    info = target.stat()
    target.write_text(swapped, encoding="utf-8")
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    bank = _warm(root)
    assert bank.parse_count == 1
    assert any(s.title == "Sifter thresholds" for s in bank.docs["domain/billing.md"].sections)
    _same_answers(root)


def test_a_same_size_edit_with_the_mtime_restored_is_seen(tmp_path):
    root = _fixture_copy(tmp_path)
    target = root / "domain" / "billing.md"
    cli_in_process("--root", str(root), "--route", "billing")
    info = target.stat()
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace("Filter thresholds", "Sifter thresholds"), encoding="utf-8")
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))  # `cp -p`: the ctime still moves
    bank = _warm(root)
    assert any(s.title == "Sifter thresholds" for s in bank.docs["domain/billing.md"].sections)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "foreign version", "other bank"])
def test_a_damaged_or_foreign_cache_is_ignored_and_rebuilt(tmp_path, _private_cache_dir, damage):
    root = _fixture_copy(tmp_path)
    good = cli_in_process("--root", str(root), "--route", "filter thresholds", "--json").stdout
    [path] = _cache_files(_private_cache_dir)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "foreign version":
        path.write_bytes(data.replace(b"0.1.0", b"9.9.9", 1))
    else:
        other = tmp_path / "other"
        shutil.copytree(FIXTURE, other)
        cli_in_process("--root", str(other), "--route", "billing")
        [theirs] = [p for p in _cache_files(_private_cache_dir) if p != path]
        shutil.copyfile(theirs, path)
    # a real process reads the damaged file once (garbage); the other damages through the same entry point
    proc = (run_cli if damage == "garbage" else cli_in_process)("--root", str(root), "--route", "filter thresholds",
                                                                "--json")
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout == good
    assert cache.load(Bank(root))  # rewritten whole by that call


def test_two_processes_at_once_agree_and_leave_a_whole_cache(tmp_path, _private_cache_dir):
    root = _fixture_copy(tmp_path)
    env = {**os.environ, "NO_COLOR": "1"}
    args = [cli_path(), "--root", str(root), "--route", "filter thresholds", "--json"]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(4)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert len({out for out, _ in outs}) == 1 and all(err == "" for _, err in outs)
    kept = [p.name for p in _private_cache_dir.iterdir() if not p.name.endswith(regexes.SUFFIX)]  # + compiled patterns
    assert kept == [_cache_files(_private_cache_dir)[0].name]  # no temp left
    bank = Bank(root)
    assert cache.load(bank)


def test_the_folder_is_pruned_oldest_first_beyond_its_bound(tmp_path, _private_cache_dir, monkeypatch):
    monkeypatch.setattr(cache, "MAX_DIR_BYTES", 1)
    old = _private_cache_dir / ("0" * 32 + cache.SUFFIX)
    old.write_bytes(b"x" * 100)
    os.utime(old, ns=(1, 1))
    _cold_then_saved(_fixture_copy(tmp_path))
    assert not old.exists() and len(_cache_files(_private_cache_dir)) == 1


def test_a_bank_over_the_file_bound_is_not_cached(tmp_path, _private_cache_dir, monkeypatch):
    monkeypatch.setattr(cache, "MAX_FILE_BYTES", 10)
    from memorybank.route import route
    bank = Bank(_fixture_copy(tmp_path))
    route(bank, "billing")
    assert not cache.save(bank) and _cache_files(_private_cache_dir) == []


def test_a_vocabulary_change_rebuilds_the_derived_indexes(tmp_path):
    root = _fixture_copy(tmp_path)
    cli_in_process("--root", str(root), "--route", "billing")
    vocabulary = root / "dna" / "vocabulary.md"
    if not vocabulary.exists():
        pytest.skip("fixture has no vocabulary")
    vocabulary.write_text(vocabulary.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    _same_answers(root)


def test_a_started_server_builds_and_caches_the_index_and_answers_as_the_cli(tmp_path, _private_cache_dir):
    from mcpkit import Session, payload
    root = _fixture_copy(tmp_path)
    before = _snapshot(root)
    session = Session(root)
    try:
        served = payload(session.call("bank_route", {"question": "filter thresholds"}))
        searched = payload(session.call("bank_search", {"query": "FT-042"}))
    finally:
        session.close()
    assert _cache_files(_private_cache_dir), "the start-up prefetch saved the index"
    assert served == json.loads(cli_in_process("--root", str(root), "--route", "filter thresholds", "--json").stdout)
    assert searched == json.loads(cli_in_process("--root", str(root), "--search", "FT-042", "--json").stdout)
    assert _snapshot(root) == before
