"""The fixed cost of a cold process (issues 14/15): what a `--route`, `--prime` or prompt-hook process imports,
the flag form's click-free fast path, the saved dictionary tables, and the lean exit.

No timing here: each check is about work a process must not do (an import, a rebuild), seen in a real
process of the installed scripts (`python -X importtime` lists every module it imported).
"""

from __future__ import annotations

import json
import marshal
import subprocess
import sys
from pathlib import Path

import pytest
from banks import START, release_page
from conftest import cli_path, doc, hook_path, write_bank

from memorybank import cli
from memorybank.lang import lexicon

# Frontmatter the fast scanner reads without YAML: a process over this bank has no reason to import yaml.
BANK = {
    "README.md": START,
    "domain/cache.md": doc("Cache", "How the parse cache is invalidated.", canonical_for=["parse_cache"],
                           body="## Invalidation\n\nA file whose stamp changed is parsed again.\n"),
    "ops/release.md": release_page(),
}
# none is used by these calls; dataclasses (with inspect, ast, dis) cost ~50 ms per process to import and decorate
NEVER = ("mcp", "yaml", "jsonschema", "git", "click", "ctypes", "tempfile", "dataclasses", "inspect")


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return write_bank(tmp_path_factory.mktemp("cold") / "memory_bank", BANK)


def imported(command: list[str], stdin: str = "") -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run an installed script under `python -X importtime`; its result and every module it imported."""
    proc = subprocess.run([sys.executable, "-X", "importtime", *command], input=stdin, capture_output=True,
                          text=True, timeout=60)
    names = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    return proc, {name.split(".")[0] for name in names} | names


def test_route_and_prime_processes_import_nothing_they_do_not_use(bank):
    route = [cli_path(), "--root", str(bank), "--route", "how is the cache invalidated"]
    subprocess.run(route, capture_output=True, timeout=60, check=True)  # the second call reads the parse cache
    prime = [cli_path(), "--root", str(bank), "--prime", "how is the cache invalidated"]
    hook = [hook_path(), "prime", "--root", str(bank)]
    event = json.dumps({"prompt": "how is the cache invalidated", "cwd": str(bank.parent)})
    for command, stdin in ((route, ""), (prime, ""), (hook, event)):
        proc, modules = imported(command, stdin)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "domain/cache.md" in proc.stdout, (command, proc.stdout)
        assert "memorybank.search" in modules  # the listing is real: it holds what the call did use
        assert sorted(modules & set(NEVER)) == [], command


def test_session_start_hook_imports_no_mcp_yaml_or_click(bank):
    proc, modules = imported([hook_path(), "session-start", "--root", str(bank)], json.dumps({"cwd": str(bank.parent)}))
    assert proc.returncode == 0 and proc.stdout.strip(), proc.stderr[-2000:]
    assert sorted(modules & {"mcp", "yaml", "jsonschema", "git", "click"}) == []


def test_a_usage_error_and_help_still_go_through_click(bank):
    proc, modules = imported([cli_path(), "--root", str(bank), "--route", "x", "--limit", "abc"])
    assert proc.returncode == 2 and "whole number" in proc.stderr and "click" in modules
    proc, modules = imported([cli_path(), "--route", "x", "--help"])
    assert proc.returncode == 0 and "--route" in proc.stdout and "click" in modules


def test_the_cli_flushes_its_output_and_skips_the_interpreters_teardown(bank):
    # `os._exit` after the flush: the whole answer reaches a pipe, and no exit handler runs.
    code = ("import atexit, sys\natexit.register(lambda: print('teardown ran', file=sys.stderr))\n"
            "from memorybank.cli import main\nsys.argv = ['mcp-memorybank', *sys.argv[1:]]\nmain()\n")
    proc = subprocess.run([sys.executable, "-c", code, "--root", str(bank), "--route", "how is the cache invalidated",
                           "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "teardown ran" not in proc.stderr
    assert json.loads(proc.stdout)["results"][0]["path"] == "domain/cache.md"


# -- the flag form's fast path hands `_flag_run` exactly what click would ---------------------------

def _kind(param) -> tuple[str, object]:
    import click

    if param.name == "root":
        return "root", None
    if param.is_flag:
        return "flag", None
    if param.multiple:
        return "many", None
    if isinstance(param.type, click.IntRange):
        return "whole", (param.type.min, param.type.max)
    if isinstance(param.type, click.Choice):
        return "choice", tuple(param.type.choices)
    return "text", None


def test_the_fast_paths_option_table_is_the_click_commands():
    import click

    options = [p for p in cli.command.params if isinstance(p, click.Option) and p.expose_value]  # not --version
    table = {opt: (p.name, *_kind(p)) for p in options for opt in p.opts}
    assert cli._flag_spec() == table


@pytest.mark.parametrize("args", [
    ["--root", "B", "--route", "how is the cache invalidated"],
    ["--root=B", "--route=cache", "--limit=3", "--json"],
    ["--route", "cache", "--kind", "domain", "--layer", "knowledge", "--status", "active", "--limit", "2"],
    ["--root", "B", "--prime", "why a queue?", "--json"],
    ["--read", "a.md", "--read", "b.md", "--max-bytes", "400"],
    ["--graph", "domain/cache.md", "--direction", "up", "--depth", "2", "--format", "dot", "--no-neighbours"],
    ["--validate", "--summary", "--severity", "error"],
    ["--root", "B"],
    ["--stats", "--json"],
])
def test_the_fast_path_parses_a_plain_command_line_as_click_does(tmp_path, args):
    args = [str(tmp_path) if a == "B" else a.replace("=B", f"={tmp_path}") for a in args]
    assert cli._fast_flag_values(args) == cli.command.make_context("mcp-memorybank", list(args)).params


@pytest.mark.parametrize("args", [
    ["--route", "x", "extra.md"],  # FILES
    ["--route", "x", "--limit", "abc"], ["--route", "x", "--limit", "0"], ["--route", "x", "--limit", "+3"],
    ["--route", "a", "--route", "b"], ["--route", "x", "--section", "S"],  # given twice; misplaced
    ["--route", "x", "--search", "y"], ["--route", "-x"], ["--route"], ["--json=1", "--stats"],
    ["--read", "a.md", "--no-neighbours"],  # an option of another action
    ["--graph", "a.md", "--direction", "sideways"], ["--version"], ["-h"], ["--", "--route", "x"],
    ["--root", "FILE", "--route", "x"],
])
def test_anything_else_is_left_to_click(tmp_path, args):
    (tmp_path / "file").write_text("not a folder")
    args = [str(tmp_path / "file") if a == "FILE" else a for a in args]
    assert cli._fast_flag_values(args) is None


# -- the saved dictionary tables ----------------------------------------------------------------

def test_the_saved_dictionary_tables_are_what_the_sources_build():
    form, mark, tables, everyday = lexicon.read_saved()
    stale = "memorybank/lang/lexicon.marshal is stale: run `python -m memorybank.lang.regenerate`"
    assert (form, mark) == (lexicon.DATA_FORMAT, lexicon.sources_mark()), stale
    assert tables == tuple(lexicon.build_builtin_tables()), stale
    assert everyday == lexicon.build_everyday(lexicon.Lexicon()) == lexicon.builtin_everyday(), stale
    assert lexicon.builtin_tables() == lexicon.build_builtin_tables()


def test_a_vocabulary_merges_into_copies_of_the_saved_tables():
    saved = lexicon.builtin_tables()
    before = marshal.loads(marshal.dumps(tuple(saved)))  # a deep copy
    merged = lexicon.Lexicon((("ru", "деплойщик", ("deployer",)), ("zh", "部署器", ("deployer", "rollout"))))
    assert merged.ru_canon["деплойщик"] == "деплойщик" and "деплойщик" in merged.ru_group["деплойщик"]
    assert merged.zh_en["部署器"] == ("deploy", "rollout") and "部署器" in merged.zh_words  # English stemmed
    assert tuple(lexicon.builtin_tables()) == before  # the shared tables are untouched


@pytest.mark.parametrize("args", [
    ["route", "--root", "B", "how is the cache invalidated"],
    ["route", "cache", "--root=B", "--limit=3", "--json", "--kind", "domain"],
    ["search", "cache", "--limit", "2"],
    ["read", "a.md", "b.md", "--max-bytes", "400"],
    ["graph", "a.md", "--no-neighbours"], ["graph", "a.md", "--neighbours", "--format", "dot"],
    ["prime", "why a queue?", "--json"],
    ["graph", "domain/cache.md", "--direction", "up", "--depth", "2"],
    ["stats", "--json"], ["validate", "--summary"],
])
def test_the_fast_path_parses_a_plain_subcommand_as_click_does(tmp_path, args):
    args = [str(tmp_path) if a == "B" else a.replace("=B", f"={tmp_path}") for a in args]
    command = cli.commands.get_command(None, args[0])
    assert cli._fast_sub_values(args[0], args[1:]) == command.make_context(args[0], list(args[1:])).params


@pytest.mark.parametrize("args", [
    ["route"], ["route", "a", "b"], ["route", "x", "--limit", "0"], ["route", "--", "-x"], ["route", "x", "--bogus"],
    ["read"], ["serve", "--root", "B"], ["guard", "a.md"], ["route", "x", "--json=yes"],
])
def test_any_other_subcommand_line_is_left_to_click(args):
    assert cli._fast_sub_values(args[0], args[1:]) is None
