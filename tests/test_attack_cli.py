"""An adversarial run on issue 16's command line: what a hostile user or a busy team types.

Each check runs the real installed `mcp-memorybank`; many checks share one test so the suite stays fast.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from conftest import FIXTURE, cli_in_process, run_cli


def tree(root: Path) -> str:
    """One hash of every file's path and bytes (the writers' gitignored lock file aside)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != ".memorybank.lock"):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def one_json_refusal(proc, code: int) -> dict:
    """A `--json` refusal: one JSON object on stdout and nothing else, stderr one line, the exit code."""
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    body = json.loads(proc.stdout)
    assert proc.stdout.count("\n") == 1 and set(body) == {"error"}, proc.stdout
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    return body["error"]


def test_an_option_is_never_taken_as_another_options_value(tmp_path: Path) -> None:
    """`--route --json`, `--kind --json`, `--root --stats`: click would take the next option as the value
    (route the question "--json" and print text; serve MCP on a folder named "--stats"). Refused as a
    usage error naming the option that lacks its value; `--opt=--json` and `-- --json` stay values."""
    bank = shutil.copytree(FIXTURE, tmp_path / "bank")
    before = tree(bank)
    b = str(bank)
    for args in (["--root", b, "--route", "--json"], ["route", "q", "--kind", "--json", "--root", b],
                 ["--root", "--stats", "--json"], ["search", "q", "--root", "--json"],
                 ["--root", b, "--read", "x.md", "--section", "--json"]):
        error = one_json_refusal(run_cli(*args, stdin=""), 2)
        assert "needs a value, not the option --" in error["message"], error
    proc = cli_in_process("route", "--root", b, "--json", "--", "--json")  # after `--`, a value
    assert proc.returncode == 0 and "results" in json.loads(proc.stdout), proc.stderr
    proc = cli_in_process("route", "q", "--kind=--json", "--root", b, "--json")  # attached, a value: refused by route
    assert "'--json'" in one_json_refusal(proc, 2)["message"]
    assert tree(bank) == before


def test_help_anywhere_in_a_subcommand_shows_its_help(tmp_path: Path) -> None:
    """`route q --kind --help` took `--help` as the kind; `edit X --find --help` ran the edit. Help, exit 0,
    the bank untouched, as the flag form already does."""
    bank = shutil.copytree(FIXTURE, tmp_path / "bank")
    before = tree(bank)
    for args in (["route", "q", "--kind", "--help"], ["edit", "adr/ADR-001-integer-cents.md", "--find", "--help",
                                                      "--replace", "y"], ["route", "--root", "-h", "q"]):
        proc = cli_in_process(*args, "--root", str(bank), stdin="")
        assert proc.returncode == 0 and proc.stdout.startswith(f"Usage: mcp-memorybank {args[0]} "), proc
        assert not proc.stderr
    assert tree(bank) == before


BOMB = ("z=[&a [x,x,x,x,x,x,x,x], &b [*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b], "
        "&d [*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d], &f [*e,*e,*e,*e,*e,*e,*e,*e], [*f,*f,*f,*f]]")


def test_set_values_read_as_the_bank_reads_them_and_bombs_are_refused(tmp_path: Path) -> None:
    """`--set` loaded YAML 1.1 with no alias bound: a one-line alias bomb (2 million values) ran for
    minutes before a refusal, and `n=yes` was written as `true` though the bank reads `yes` as text.
    Now the bank's own loader: a bomb is a usage error at once, `yes` stays text, `5` a number."""
    bank = shutil.copytree(FIXTURE, tmp_path / "bank")
    before = tree(bank)
    create = ["create", "domain/s.md", "--kind", "domain", "--title", "T", "--purpose", "P", "--root", str(bank)]
    error = one_json_refusal(run_cli(*create, "--set", BOMB, "--json", stdin=""), 2)
    assert "--set z" in error["message"] and "aliases" in error["message"], error
    for key, flag in (("title", "--title"), ("derived_from", "--derived")):  # the CLI's words, not MCP's
        error = one_json_refusal(cli_in_process(*create, "--set", f"{key}=x", "--json"), 1)
        assert "through --set" in error["message"] and f"({flag})" in error["message"], error
    assert tree(bank) == before
    proc = cli_in_process(*create, "--set", "n=yes", "--set", "priority=5", "--set", "when=2024-01-02")
    assert proc.returncode == 0, proc.stderr
    text = (bank / "domain" / "s.md").read_text()
    assert "\nn: yes\n" in text and "\npriority: 5\n" in text and "\nwhen: 2024-01-02\n" in text, text
