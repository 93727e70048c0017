"""Adversarial run on session 4's landings: the CLI's click-free fast path, the saved dictionary tables,
version tokens and the cheaper parse. Each test is a reproduction that failed before its fix.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import cli_in_process, cli_path, doc, hook_path, run_cli, write_bank

from memorybank.lang import lexicon

BANK = {
    "README.md": "# Bank\n\nStart here.\n",
    "ops/release.md": doc("Release", "Publishing a version.", body="## Checklist\n\nTag v1.2.3 after the changelog.\n"),
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("s4") / "memory_bank", BANK)


# -- the fast path: a number too long for int() ---------------------------------------------------

def test_a_number_longer_than_int_reads_is_refused_as_click_refuses_it(bank):
    """Repro before the fix: `--limit` with 5,000 digits passed the fast path's digit check, and `int()`
    (which reads at most 4,300 digits) raised ValueError: a traceback and exit 1, where click (which the
    fast path must equal) says it is not a valid whole number, exit 2."""
    huge = "9" * 5000
    real = run_cli("--root", str(bank), "--route", "release", "--limit", huge)
    assert (real.returncode, real.stdout) == (2, ""), real.stderr[-500:]
    assert "is not a valid whole number" in real.stderr and "Traceback" not in real.stderr
    for args in (("route", "--root", str(bank), "release", "--limit", huge),
                 ("read", "--root", str(bank), "ops/release.md", "--max-bytes", huge),
                 ("--root", str(bank), "--read", "ops/release.md", "--read", "README.md", "--max-bytes", huge)):
        got = cli_in_process(*args)
        assert (got.returncode, got.stdout) == (2, ""), (args, got.stderr[-500:])
        assert "is not a valid whole number" in got.stderr, args


# -- the saved dictionary tables ---------------------------------------------------------------

def test_damaged_saved_tables_are_never_read(tmp_path):
    """Repro before the fix: a bit flipped in `lexicon.marshal` mostly still unmarshalled — as other tables
    (a changed stem, a reference to the wrong object; the sources' mark still matched, so they were used:
    wrong answers), or with a tuple size asking for gigabytes (MemoryError: every process crashed). Now the
    file's bytes are checked against a SHA-256 before marshal reads them."""
    data = Path(lexicon.DATA_FILE).read_bytes()
    target = tmp_path / "lexicon.marshal"
    damaged = [data[:len(data) // 2], data[:32], b"", data[:40] + b"\0" + data[41:],
               data[32:]]  # the format before the digest: marshal data alone
    for at in range(0, len(data), 1499):
        for bit in (0, 7):
            flipped = bytearray(data)
            flipped[at] ^= 1 << bit
            damaged.append(bytes(flipped))
    for number, content in enumerate(damaged):
        target.write_bytes(content)
        assert lexicon.read_saved(str(target)) is None, number
    target.write_bytes(data)
    assert lexicon.read_saved(str(target))[2] == tuple(lexicon.build_builtin_tables())


def test_a_damaged_saved_file_falls_back_to_building_the_tables(tmp_path, monkeypatch):
    """The whole load through `builtin_tables` on a copy of lang/ whose saved file is damaged: the tables
    are built from the sources, equal to the intact file's."""
    folder = tmp_path / "lang"
    shutil.copytree(Path(lexicon.DATA_FILE).parent, folder, ignore=shutil.ignore_patterns("__pycache__"))
    saved = folder / "lexicon.marshal"
    data = bytearray(saved.read_bytes())
    data[len(data) // 2] ^= 1
    saved.write_bytes(bytes(data))
    monkeypatch.setattr(lexicon, "DATA_FILE", str(saved))
    lexicon.builtin_tables.cache_clear()
    try:
        assert lexicon.read_saved() is None
        assert lexicon.builtin_tables() == lexicon.build_builtin_tables()
    finally:
        lexicon.builtin_tables.cache_clear()


# -- version tokens: the line a hit is quoted from ------------------------------------------------

NETWORK = doc("Network", "Addresses.", body="# Network\n\nThe gateway is 1.2.3.4 on the office LAN.\n\n"
              "Upgrade the router firmware to v1.2.3 before the audit.\n")


def test_a_version_is_quoted_from_its_own_line_not_from_a_longer_dotted_number(tmp_path):
    """Repro before the fix: `v1.2.3` is one token (term `1.2.3`), but the hit's line was placed by finding the
    literal `1.2.3` with word-character edges — a dot is none, so `1.2.3.4` (an address) matched, while
    `v1.2.3` did not (a `v` is a word character): search and route quoted the gateway line for a question
    about the firmware version."""
    root = write_bank(tmp_path / "memory_bank", {"ops/net.md": NETWORK, "ops/other.md": doc("Other", "Other.")})
    lines = NETWORK.split("\n")
    firmware = 1 + next(n for n, line in enumerate(lines) if "firmware" in line)
    gateway = 1 + next(n for n, line in enumerate(lines) if "gateway" in line)
    real = run_cli("search", "--root", str(root), "v1.2.3")
    assert real.returncode == 0, real.stderr
    assert f"ops/net.md:{firmware} " in real.stdout and "1.2.3.4" not in real.stdout, real.stdout
    for question in ("1.2.3", "firmware 1.2.3"):
        got = cli_in_process("search", "--root", str(root), question)
        assert f"ops/net.md:{firmware} " in got.stdout, (question, got.stdout)
        routed = cli_in_process("route", "--root", str(root), question)
        quoted = routed.stdout.split(f'L{firmware} "', 1)  # the firmware line, quoted around the evidence
        assert len(quoted) == 2 and ("Upgrade" in quoted[1] or "v1.2.3 " in quoted[1]), (question, routed.stdout)
    address = cli_in_process("search", "--root", str(root), "1.2.3.4")  # the longer number still finds its own line
    assert f"ops/net.md:{gateway} " in address.stdout, address.stdout


# -- a closed stdout -------------------------------------------------------------------------------

def _closed_stdout(command: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    """Run `command` as `command >&-` runs it: file descriptor 1 closed (Python sets sys.stdout to None)."""
    return subprocess.run(command, input=stdin, stderr=subprocess.PIPE, text=True, timeout=60,
                          preexec_fn=lambda: os.close(1), env={**os.environ, "NO_COLOR": "1"})


def test_a_closed_stdout_is_no_traceback(bank):
    """Repro before the fix: `mcp-memorybank --root B --route Q >&-` (and a prompt hook so started) died on
    `None.isatty()` / `None.flush()`: a traceback and exit 1 for a call that had nothing wrong with it; a
    usage error printed its line and then the same traceback. Now a closed stream reads as the null device:
    the exit code is the call's own."""
    routed = _closed_stdout([cli_path(), "--root", str(bank), "--route", "release checklist"])
    assert (routed.returncode, routed.stderr) == (0, "")
    wrong = _closed_stdout([cli_path(), "route", "--root", str(bank), "release", "--limit", "x"])
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr and "whole number" in wrong.stderr
    event = json.dumps({"prompt": "release checklist", "cwd": str(bank.parent)})
    hooked = _closed_stdout([hook_path(), "prime", "--root", str(bank)], event)
    assert (hooked.returncode, hooked.stderr) == (0, "")
