"""Output to a stream whose encoding cannot hold every character: escapes, never a traceback.

`PYTHONIOENCODING=latin-1` stands for any such stream (a Windows code page when output is redirected).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import cli_path, doc, hook_env, hook_path, prompt_payload, write_bank

QUESTION = "как устроено шифрование сообщений"


def _bank(tmp_path: Path) -> Path:
    body = "## Ключи\n\nСообщения шифруются ключом комнаты → каждый ключ живёт неделю 😀.\n"
    return write_bank(tmp_path / "memory_bank", {
        "domain/crypto.md": doc("Шифрование", "шифрование сообщений", body=body, canonical_for=["crypto"]),
        "domain/other.md": doc("Other", "unrelated notes", body="Nothing here.\n"),
    })


def _run(args: list[str], encoding: str, cwd: Path, **extra) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": encoding}
    return subprocess.run(args, capture_output=True, cwd=cwd, env={**env, **extra.pop("env", {})},
                          timeout=60, **extra)


def test_cli_escapes_what_latin1_cannot_hold(tmp_path: Path) -> None:
    bank = _bank(tmp_path)
    for form in (["--route", QUESTION], ["--search", "шифруются"], ["--read", "domain/crypto.md"]):
        utf8 = _run([cli_path(), "--root", str(bank), *form, "--json"], "utf-8", tmp_path)
        latin = _run([cli_path(), "--root", str(bank), *form, "--json"], "latin-1", tmp_path)
        assert utf8.returncode == latin.returncode == 0, latin.stderr
        assert b"\\u" in latin.stdout  # the Cyrillic went out escaped
        assert json.loads(latin.stdout.decode("latin-1")) == json.loads(utf8.stdout.decode("utf-8"))
    text = _run([cli_path(), "--root", str(bank), "--read", "domain/crypto.md"], "latin-1", tmp_path)
    assert text.returncode == 0 and b"Traceback" not in text.stderr
    assert "\\ud83d\\ude00" in text.stdout.decode("latin-1")  # beyond the BMP: a surrogate pair, as JSON writes it


def test_refusal_in_latin1_is_the_refusal(tmp_path: Path) -> None:
    bank = _bank(tmp_path)
    done = _run([cli_path(), "--root", str(bank), "--read", "нет/такого.md"], "latin-1", tmp_path)
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert "\\u043d\\u0435\\u0442" in done.stderr.decode("latin-1")


def test_prime_hook_in_latin1(tmp_path: Path) -> None:
    _bank(tmp_path)
    env = {**hook_env(), "PYTHONIOENCODING": "latin-1"}
    done = subprocess.run([hook_path(), "prime"], input=prompt_payload(tmp_path, QUESTION + "?"),
                          capture_output=True, cwd=tmp_path, env=env, timeout=60)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert b"domain/crypto.md" in done.stdout and b"\\u" in done.stdout
