"""Each face speaks its own words, the flag form is the catalog's too, and exit codes mean one thing.

Refusals and hints that point at an action or a parameter carry it as data; the CLI names
`mcp-memorybank search` and `--force`, MCP names `bank_search` and `force`. Driven through the
real command and one real MCP server.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, cli_in_process, cli_path, run_cli

from memorybank.catalog import ACTIONS, BY_NAME

TOOL = re.compile(r"\bbank_[a-z]")  # `memory_bank/` is a folder, not a tool
FLAG = re.compile(r"(?<![\w-])--[a-z]")


@pytest.fixture(scope="module")
def bank(tmp_path_factory) -> Path:
    return _faces_bank(tmp_path_factory.mktemp("faces") / "memory_bank")


def _faces_bank(root: Path) -> Path:
    """A starter bank with one domain document and one document no index lists (an unregistered-doc finding)."""
    from memorybank.bank import Bank
    from memorybank.writers import create, init

    init(Bank(root), name="Acme")
    create(Bank(root), path="domain/tax.md", doc_kind="domain", title="Tax", purpose="Read for tax rules.",
           derived_from=["../product/context.md"], body="# Tax\n\n## Rules\n\nTax is applied per line.\n")
    (root / "domain/stray.md").write_text("---\ntitle: Stray\npurpose: Nobody lists it.\ndoc_kind: domain\n"
                                          "status: draft\nderived_from:\n  - ../product/context.md\n---\n\n# Stray\n")
    return root


NOWHERE = "kubernetes helm quantum"
# (command args, tool, tool args, what the CLI says, what MCP says): refusals and results that point somewhere
POINTING = [
    (["init", "Acme"], None, {}, "Use `--force`", ""),  # bank_init is offered only before the bank exists
    (["edit", "domain/tax.md", "--find", "", "--replace", "x"], "bank_edit",
     {"path": "domain/tax.md", "find": "", "replace": "x"}, "`--find` is empty", "`find` is empty"),
    (["edit", "domain/tax.md", "--find", "line", "--replace", "x", "--base-version", "000000000000"], "bank_edit",
     {"path": "domain/tax.md", "find": "line", "replace": "x", "base_version": "000000000000"},
     "pass `--base-version`", "pass `base_version`"),
    (["set-list", "domain/tax.md", "anchors"], "bank_set_list", {"path": "domain/tax.md", "field": "anchors"},
     "`--add` and/or `--remove`", "`add` and/or `remove`"),
    (["create", "domain/tax.md", "--kind", "domain", "--title", "T", "--purpose", "P."], "bank_create",
     {"path": "domain/tax.md", "doc_kind": "domain", "title": "T", "purpose": "P."},
     "(see `mcp-memorybank edit`, `mcp-memorybank update-section`)", "(see bank_edit, bank_update_section)"),
    (["route", NOWHERE], "bank_route", {"question": NOWHERE}, "(see `mcp-memorybank search`)", "(see bank_search)"),
    (["search", "zzqqxx"], "bank_search", {"query": "zzqqxx"}, "(see `mcp-memorybank route`)", "(see bank_route)"),
    (["route", NOWHERE, "--kind", "domain"], "bank_route", {"question": NOWHERE, "doc_kind": "domain"},
     "with --kind=domain", "with doc_kind=domain"),
    (["validate"], "bank_validate", {}, "(see `mcp-memorybank create`)", "(see bank_create)"),
]


def test_the_cli_names_commands_and_options_never_tools(bank):
    for args, _, _, cli_says, _ in POINTING:  # the same entry point in this process; the text face is real
        proc = cli_in_process(*args, "--root", str(bank), "--json")
        out = proc.stdout + proc.stderr
        assert cli_says in out, (args, out)
        assert not TOOL.search(out), (args, out)
        said = json.loads(proc.stdout)
        if "error" in said:
            assert proc.returncode == 1 and all(" " not in name for name in said["error"]["see"])
    text = run_cli("route", NOWHERE, "--root", str(bank))  # the text face too
    assert "(see `mcp-memorybank search`)" in text.stdout and not TOOL.search(text.stdout)


def test_mcp_names_tools_and_parameters_never_flags(scratch_server):
    session = scratch_server
    _faces_bank(session.load())  # the same bank, in the worker's server
    for _, tool, tool_args, _, mcp_says in POINTING:
        if tool is None:
            continue
        result = session.call(tool, tool_args)
        text = result.content[0].text
        assert mcp_says in text, (tool, text)
        assert not FLAG.search(text), (tool, text)
        if not result.is_error and '"see"' in text:
            assert all(name.startswith("bank_") for row in _with_see(json.loads(text)) for name in row["see"])


def _with_see(value):
    if isinstance(value, dict):
        if "see" in value:
            yield value
        for item in value.values():
            yield from _with_see(item)
    elif isinstance(value, list):
        for item in value:
            yield from _with_see(item)


# -- exit codes: 0 ok, 1 findings or a refusal, 2 a usage error ----------------------------------------

USAGE = [  # a value that is not one of the allowed ones; the message lists the allowed ones
    (["install", "--agents", "emacs", "--dry-run"], "Choose from claude"),
    (["--install", "--agents", "emacs", "--dry-run"], "Choose from claude"),  # the flag form alike
    (["deliver", "--targets", "curser", "--dry-run"], "Choose from cursor"),
    (["validate", "--rule", "no-such-rule"], "Rules: "),
    (["route", "tax", "--kind", "nokind"], "Use one of: "),
    (["route", "tax", "--layer", "nolayer"], "Use one of: dna"),
    (["set-status", "domain/tax.md", "nostatus", "--dry-run"], "Use one of: "),
    (["read", "domain/tax.md", "--lines", "abc"], '"40-80"'),
    (["graph", "domain/tax.md", "--format", "svg"], "'text', 'mermaid', 'dot'"),
    (["surface", "--tools", "bogus"], "groups: find"),
]


def test_a_value_not_among_the_allowed_ones_exits_2_naming_them(bank):
    before = {p: p.read_bytes() for p in bank.rglob("*") if p.is_file()}
    for args, names in USAGE:  # one of each exit code also through a real process
        root = ["--root", str(bank)]
        run = run_cli if args == USAGE[0][0] else cli_in_process
        proc = run(*(args[:1] + root + args[1:] if args[0].startswith("--") else [*args, *root]))
        assert proc.returncode == 2 and names in proc.stderr, (args, proc.returncode, proc.stderr)
    assert {p: p.read_bytes() for p in bank.rglob("*") if p.is_file()} == before
    assert run_cli("read", "nope.md", "--root", str(bank)).returncode == 1  # a refusal
    assert cli_in_process("validate", "--root", str(bank)).returncode == 0  # warnings only


# -- the flag form is generated from the catalog -----------------------------------------------------

def test_every_catalog_parameter_of_a_flag_action_is_reachable_by_its_flag_form_option():
    from memorybank.cli import LEGACY, OPTION_ACTIONS, command

    options = {opt: p.name for p in command.params for opt in p.opts}
    for action in LEGACY:
        assert options[f"--{action.flag.replace('_', '-')}"] == f"a_{action.flag}"
        for param in action.params:
            if param.arg and param.flag == "":
                continue  # the action flag's own value
            if param.name == "files":
                assert action.flag in OPTION_ACTIONS["files"]
                continue
            spelled = f"--no-{param.option}" if param.type == "boolean" and param.default is True else \
                f"--{param.option}"
            assert options.get(spelled) == param.flag_dest, (action.name, param.name)
            assert action.flag in OPTION_ACTIONS[param.flag_dest], (action.name, param.name)


def test_the_flag_form_and_the_command_give_the_same_result(bank):
    sub = run_cli("graph", "domain/tax.md", "--direction", "up", "--no-neighbours", "--root", str(bank), "--json")
    flag = cli_in_process("--root", str(bank), "--graph", "domain/tax.md", "--direction", "up", "--no-neighbours",
                          "--json")
    assert sub.returncode == flag.returncode == 0 and json.loads(sub.stdout) == json.loads(flag.stdout)
    help_text = cli_in_process("--route", "--help").stdout
    assert "--no-neighbours" in help_text and "--must-not-define" in help_text and "§" not in help_text


def test_the_readme_flag_table_maps_every_flag_action_to_its_command():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| flag form | command |"):text.index("The pre-commit hooks are listed under")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()[2:] if line]
    for action in ACTIONS:
        if action.flag:
            flag, command = f"`--{action.flag.replace('_', '-')}", f"`{action.cli_name}"
            assert any(re.search(re.escape(flag) + r"[ `]", row[0]) and command in row[1] for row in rows), action.name
    only = next(row for row in rows if row[0] == "—")[1]
    assert {a.cli_name for a in ACTIONS if not a.flag and a.name != "serve"} == set(re.findall(r"`([a-z-]+)`", only))


# -- the rest of issue 16 §5 ----------------------------------------------------------------------------

def test_colour_on_a_terminal_unless_no_color(bank):
    def on_tty(**env: str) -> bytes:
        leader, follower = pty.openpty()
        full = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | env
        proc = subprocess.run([cli_path(), "stats", "--root", str(bank)], stdout=follower, stderr=subprocess.PIPE,
                              env=full, timeout=60)
        os.close(follower)
        out = b""
        try:
            while chunk := os.read(leader, 65536):
                out += chunk
        except OSError:  # the terminal closed: all was read
            pass
        os.close(leader)
        assert proc.returncode == 0, proc.stderr
        return out

    assert b"\x1b[" in on_tty()
    assert b"\x1b[" not in on_tty(NO_COLOR="1")


def test_read_json_has_one_shape_for_one_path_and_many_and_completion_is_served(bank):
    one = json.loads(cli_in_process("read", "domain/tax.md", "--root", str(bank), "--json").stdout)
    two = json.loads(cli_in_process("read", "domain/tax.md", "product/context.md", "--root", str(bank),
                                    "--json").stdout)
    assert [d["path"] for d in one["documents"]] == ["domain/tax.md"] and len(two["documents"]) == 2
    assert set(one) == set(two) == {"documents", "bytes", "budget"}
    script = run_cli(env={"_MCP_MEMORYBANK_COMPLETE": "bash_source"})
    assert script.returncode == 0 and "_MCP_MEMORYBANK_COMPLETE" in script.stdout
    assert '_MCP_MEMORYBANK_COMPLETE=bash_source mcp-memorybank' in (REPO / "README.md").read_text(encoding="utf-8")


def test_see_and_param_name_real_actions_and_parameters():
    # what a face is asked to spell must exist in the catalog, or it would be shown raw
    from memorybank.catalog import param_for

    assert param_for("cli", "status", "set_status") == "STATUS" and param_for("cli", "status", "route") == "--status"
    assert param_for("cli", "doc_kind") == "--kind" and param_for("cli", "claude_md") == "--no-claude-md"
    assert param_for("mcp", "base_version") == "base_version" and BY_NAME["search"].tool == "bank_search"
