"""Adversarial run on the parse cache (issue 15): a cache file that is not what it claims to be.

Each damaged cache must be ignored (answer identical to MEMORYBANK_CACHE=off, exit 0, nothing on
stderr), replaced by a whole regular file, and never followed, waited on or read without bound.
"""

from __future__ import annotations

import marshal
import os
import re
import shutil
import zlib
from pathlib import Path

from conftest import FIXTURE, cli_in_process, run_cli

from memorybank import cache, regexes
from memorybank.bank import Bank

ASK = ("--route", "filter thresholds", "--json")
TIMING = re.compile(r'"refresh_ms":[0-9.]+')


def _bank(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(FIXTURE, root)
    return root


def _answer(root: Path, real: bool = True, **env: str) -> str:
    """The routed answer with exit 0 and nothing on stderr: a real process (a damaged cache could hang or
    exhaust one; its timeout bounds that), or, for the reference answers, the entry point in-process."""
    proc = (run_cli if real else cli_in_process)("--root", str(root), *ASK, env=env)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr[-2000:]
    return proc.stdout


def _path_of(root: Path) -> Path:
    found = cache.cache_file(str(root))
    assert found is not None
    return Path(found)


def test_a_cache_file_that_is_no_regular_file_is_never_waited_on_followed_or_read_whole(tmp_path):
    """Repro before the fix: a FIFO hung the CLI forever; a symlink to /dev/zero died with
    MemoryError; a 1 GB sparse file was read whole (1 GB RSS, ~6 s); a planted symlink was read."""
    good = _answer(_bank(tmp_path, "reference"), real=False, MEMORYBANK_CACHE="off")
    victim = tmp_path / "victim.mbc"
    victim.write_bytes(b"precious")
    plants = {
        "fifo": lambda p: os.mkfifo(p),
        "devzero": lambda p: os.symlink("/dev/zero", p),
        "symlink": lambda p: os.symlink(victim, p),
        "sparse": lambda p: os.truncate(p.open("wb").name, 1 << 30),
        "folder": lambda p: p.mkdir(),
        "nested": lambda p: p.write_bytes(cache.MAGIC + (9999).to_bytes(4, "little") + b"(\x01\x00\x00\x00" * 5000),
    }
    for name, plant in plants.items():
        root = _bank(tmp_path, name)
        path = _path_of(root)
        plant(path)
        # a link or a folder in the way cannot hang or exhaust a process: those two through the entry point
        assert _answer(root, real=name not in ("symlink", "folder")) == good, name
        if name != "folder":  # a folder in the way is left alone; nothing is cached for that bank
            assert path.is_file() and not path.is_symlink(), name
            assert cache.load(Bank(root)), f"{name}: replaced by a whole cache"
    assert victim.read_bytes() == b"precious"  # the planted link was replaced, its target never written


def test_a_cache_file_another_user_could_have_written_is_not_trusted(tmp_path):
    """A forged cache whose stamps match the disk would answer with its own text (marshal also is not
    safe against hostile bytes): trusted only when owned by this user and writable by nobody else.
    Repro before the fix: the forged title came back from --route."""
    root = _bank(tmp_path, "bank")
    good = _answer(root, real=False)
    path = _path_of(root)
    data = path.read_bytes()
    assert b"Filter thresholds" in data
    forged = data.replace(b"Filter thresholds", b"Forged thresholds")
    start = len(cache.MAGIC) + 4 + int.from_bytes(data[len(cache.MAGIC):len(cache.MAGIC) + 4], "little")
    body = forged[start + 4:]  # a forger writes the body's CRC-32 too: it guards against damage, not forgery
    forged = forged[:start] + zlib.crc32(body).to_bytes(4, "little") + body
    for how in ("other owner", "group writable"):
        path.write_bytes(forged)
        if how == "other owner":
            os.chown(path, 65534, 65534)
        else:
            path.chmod(0o664)
        assert _answer(root, real=how == "other owner") == good, how
        assert path.stat().st_uid == os.geteuid() and path.stat().st_mode & 0o777 == 0o600, how
    path.write_bytes(forged)  # the control: the same forgery, owned by us, is trusted (stamps match)
    path.chmod(0o600)
    assert b"Forged thresholds" in cli_in_process("--root", str(root), *ASK).stdout.encode()


def test_a_cache_with_a_valid_header_but_index_states_of_the_wrong_shape_is_ignored(tmp_path):
    """Repro before the fix: `restore` caught only TypeError/ValueError, so a state of the wrong shape
    (an AttributeError) reached the user as an error."""
    root = _bank(tmp_path, "bank")
    good = _answer(root, real=False)
    path = _path_of(root)
    data = path.read_bytes()
    size = int.from_bytes(data[len(cache.MAGIC):len(cache.MAGIC) + 4], "little")
    start = len(cache.MAGIC) + 4
    stamps, rows, dna, states, maps = marshal.loads(data[start + size + 4:])  # after the body's CRC-32
    assert states
    bad = {key: (mark, (1, 2, 3, 4) if key == "route.index" else (1,) * 12) for key, (mark, _) in states.items()}
    body = marshal.dumps((stamps, rows, dna, bad, maps))
    path.write_bytes(data[:start + size] + zlib.crc32(body).to_bytes(4, "little") + body)
    assert _answer(root, real=False) == good  # an exception, not a hang: the entry point shows it as a process would
    assert cli_in_process("--root", str(root), "--search", "FT-042", "--json").returncode == 0


ACTIONS = (ASK, ("--search", "invoice thresholds", "--json"))


def _all(root: Path, real: bool = False, **env: str) -> list[str]:
    """Route and search answers, through the CLI's entry point in-process (a fresh bank table: the cache
    file is read as a new process reads it), or through real processes (`real`)."""
    out = []
    for args in ACTIONS:
        proc = (run_cli if real else cli_in_process)("--root", str(root), *args, env=env)
        out.append(f"{proc.returncode}:{TIMING.sub('', proc.stdout)}")
    return out


def _same_size_same_mtime(path: Path, old: str, new: str) -> None:
    """Rewrite `path` keeping its size and mtime (`touch -r` after the edit): only the ctime moves."""
    assert len(old) == len(new)
    info = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_swaps_between_runs_and_a_bank_replaced_at_its_path_answer_as_without_the_cache(tmp_path):
    """Between two cached runs: a document replaced by a symlink, one by a folder of its name, one
    deleted and created again with the same size and mtime (its inode free for reuse), one edited
    with size and mtime restored; then the whole bank moved away and another put at the same path
    with the same names, sizes and mtimes. The cached answers equal the uncached ones each time."""
    root = _bank(tmp_path, "bank")
    _all(root)  # writes the cache
    (root / "domain" / "tax.md").unlink()
    os.symlink(root / "domain" / "invoices.md", root / "domain" / "tax.md")
    (root / "features" / "README.md").unlink()
    (root / "features" / "README.md").mkdir()
    billing = root / "domain" / "billing.md"
    info, text = billing.stat(), billing.read_text(encoding="utf-8")
    billing.unlink()
    billing.write_text(text.replace("Filter thresholds", "Sifter thresholds"), encoding="utf-8")
    os.utime(billing, ns=(info.st_atime_ns, info.st_mtime_ns))
    _same_size_same_mtime(root / "domain" / "invoices.md", "invoice", "INVOICE")
    cached = _all(root, real=True)
    assert cached == _all(root, MEMORYBANK_CACHE="off")
    assert "Sifter thresholds" in cached[0]
    other = _bank(tmp_path, "other")
    _same_size_same_mtime(other / "domain" / "billing.md", "Filter thresholds", "Window thresholds")
    for path in other.rglob("*.md"):  # every file as the moved bank had it: same names, sizes, mtimes
        twin = root / path.relative_to(other)
        if twin.is_file() and not twin.is_symlink() and twin.stat().st_size == path.stat().st_size:
            os.utime(path, ns=(twin.stat().st_atime_ns, twin.stat().st_mtime_ns))
    root.rename(tmp_path / "moved")
    other.rename(root)
    cached = _all(root)
    assert cached == _all(root, MEMORYBANK_CACHE="off")
    assert "Window thresholds" in cached[0]


def test_processes_writing_the_cache_at_once_while_files_change_never_answer_wrong(tmp_path):
    """Three CLI processes at once while the bank changes under them (edit, add, delete);
    after each round the cached answers equal the uncached ones and the cache is one whole file."""
    import subprocess

    from conftest import cli_path
    root = _bank(tmp_path, "bank")
    env = {**os.environ, "NO_COLOR": "1"}
    for round_ in range(1):
        procs = [subprocess.Popen([cli_path(), "--root", str(root), *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env)
                 for args in (*ACTIONS, ("--stats", "--json"))]
        _same_size_same_mtime(root / "domain" / "billing.md", "Filter" if round_ == 0 else "Sifter",
                              "Sifter" if round_ == 0 else "Wifter")
        (root / "domain" / f"new{round_}.md").write_text(
            f"---\ntitle: New {round_}\npurpose: Filter thresholds round {round_}.\nstatus: active\n---\n\n# New\n",
            encoding="utf-8")
        (root / "ops").joinpath(sorted(p.name for p in (root / "ops").glob("*.md"))[-1]).unlink()
        for proc in procs:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0 and err == "", err[-2000:]
        assert _all(root) == _all(root, MEMORYBANK_CACHE="off")
        kept = [p.name for p in Path(cache.cache_dir()).iterdir() if not p.name.endswith(regexes.SUFFIX)]
        assert kept == [_path_of(root).name]  # beside the compiled patterns (regexes.py), nothing else


def test_the_default_folder_is_private_and_a_folder_inside_the_bank_is_never_written(tmp_path):
    """An empty MEMORYBANK_CACHE_DIR means the default (XDG) folder, created 0700 with files 0600; a
    relative one resolving inside the bank (cwd = the bank) writes nothing anywhere in it."""
    root = _bank(tmp_path, "bank")
    xdg = tmp_path / "xdg"
    proc = run_cli("--root", str(root), *ASK, env={"MEMORYBANK_CACHE_DIR": " ", "XDG_CACHE_HOME": str(xdg)})
    assert proc.returncode == 0
    made = list((xdg / "memorybank").iterdir())  # the parse cache, and the compiled patterns (regexes.py)
    assert [p.suffix for p in made].count(cache.SUFFIX) == 1
    assert (xdg / "memorybank").stat().st_mode & 0o777 == 0o700 and {p.stat().st_mode & 0o777 for p in made} == {0o600}
    before = sorted((str(p), p.stat().st_size) for p in root.rglob("*"))
    proc = cli_in_process("--root", ".", *ASK, cwd=root, env={"MEMORYBANK_CACHE_DIR": "domain/../cache"})
    assert proc.returncode == 0 and proc.stderr == ""
    assert sorted((str(p), p.stat().st_size) for p in root.rglob("*")) == before


def test_a_server_whose_cache_file_is_a_fifo_starts_ready_and_answers_as_without_the_cache(tmp_path):
    """Repro before the fix: the start-up prefetch blocked opening the FIFO, READY was never set, and
    every tool call waited forever."""
    import json

    import anyio
    from mcpkit import Session, payload
    root = _bank(tmp_path, "bank")
    path = _path_of(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    session = Session(root)

    async def route() -> object:
        with anyio.fail_after(30):
            return await session.client.call_tool("bank_route", {"question": "filter thresholds"})
    try:
        served = payload(session.run(route))
    finally:
        session.close()
    assert served == json.loads(_answer(root, real=False, MEMORYBANK_CACHE="off"))
    assert path.is_file()  # the server's save replaced the FIFO with a whole cache
