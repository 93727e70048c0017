"""The catalog is the one declaration of every action: schemas, signatures and both CLI forms agree with it.

Every subcommand succeeds once on a seeded bank in a real git repository, its `--help` shows an example
and one refusal with `--json` puts the error object on stdout: all through the installed command's entry
point in this process, and for a read, a writer and the server (`REAL`) through the real installed
command too (a fresh interpreter: every import those subcommands need is made by them).
"""

from __future__ import annotations

import inspect
import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURE, cli_in_process, run_cli
from gitrepo import Repo

from memorybank.catalog import ACTIONS, BY_COMMAND, NO_DEFAULT, TOOLS
from memorybank.validate import validate

DATE = "2026-01-10T12:00:00Z"


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.name)
def test_every_parameter_matches_its_capabilitys_signature(action):
    # A parameter added to one face only, or a default copied and drifted, fails here.
    faces = ("mcp", "cli") if action.group is not None else ("cli",)
    for face in faces:
        signature = inspect.signature(action.capability(face))
        params = dict(list(signature.parameters.items())[1:])  # the bank (or its root) comes first
        declared = [p for p in action.params if not p.render and (face == "cli" or p.mcp)]
        assert {p.name for p in declared} <= set(params), (face, set(params))
        for name, actual in params.items():  # what the faces do not pass must be optional
            if name not in {p.name for p in declared}:
                assert actual.default is not inspect.Parameter.empty, (face, name)
        for param in declared:
            actual = params[param.name]
            assert (actual.default is inspect.Parameter.empty) == param.required, (face, param.name)
            if not param.required and param.default is not NO_DEFAULT:
                assert actual.default == param.default, (face, param.name)
    if action.group is not None:
        schema = action.schema()
        assert list(schema["properties"]) == [p.name for p in action.mcp_params]
        assert schema.get("required", []) == [p.name for p in action.mcp_params if p.required]


def test_every_tool_has_a_subcommand_named_after_it():
    for tool in TOOLS:
        assert tool.tool.removeprefix("bank_").replace("_", "-") in BY_COMMAND
    assert {"route", "move", "update-section", "inbox", "serve", "materialize-flows", "install-hook"} <= set(BY_COMMAND)


def test_the_listed_schemas_are_the_catalogs_and_materialize_flows_offers_dry_run():
    from memorybank.server.tools import BY_NAME

    for action in TOOLS:
        assert BY_NAME[action.tool].schema == action.schema()
    assert "dry_run" in BY_NAME["bank_materialize_flows"].schema["properties"]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Repo:
    """A project in git with a starter bank, one domain document with a section, and one inbox note."""
    from memorybank.bank import Bank
    from memorybank.writers import create, init

    repo = Repo(tmp_path_factory.mktemp("seeded") / "project")
    root = repo.path / "memory_bank"
    init(Bank(root), name="Acme")
    create(Bank(root), path="domain/tax.md", doc_kind="domain", title="Tax", purpose="Read for tax rules.",
           derived_from=["../product/context.md"], body="# Tax\n\n## Rules\n\nTax is applied per line.\n")
    create(Bank(root), path="idea.md", doc_kind="domain", title="Idea", purpose="An idea.", inbox=True)
    repo.write("transcript.jsonl", "")
    repo.commit("seed", DATE)
    return repo


SUCCESS = {
    "route": ["tax rules"], "search": ["applied"], "prime": ["which tax rules apply per line?"],
    "read": ["domain/tax.md"],
    "graph": ["domain/tax.md", "--direction", "up"], "changed": ["HEAD"], "validate": [], "drift": [],
    "guard": [], "stats": [], "inbox": [], "index": [], "schema": [],
    "create": ["domain/vat.md", "--kind", "domain", "--title", "VAT", "--purpose", "Read for VAT.",
               "--derived", "tax.md", "--set", "priority=5"],
    "edit": ["domain/tax.md", "--find", "per line", "--replace", "per invoice line"],
    "update-section": ["domain/tax.md", "Rules", "--content", "Tax is rounded once."],
    "set-status": ["domain/tax.md", "active"], "set-field": ["domain/tax.md", "purpose", "Read before tax work."],
    "set-list": ["domain/tax.md", "canonical_for", "--add", "tax_rate"],
    "move": ["domain/tax.md", "domain/taxes.md"], "review": ["domain/tax.md"],
    "promote": ["_inbox/idea.md", "--to", "domain/", "--status", "draft"],
    "discard": ["_inbox/idea.md", "--reason", "Not needed."], "init": ["Other", "--root", "other_bank"],
    "materialize-flows": ["--dry-run"], "deliver": ["--dry-run"], "install-hook": ["--dry-run"],
    "adoption": ["transcript.jsonl"], "surface": [], "serve": [],
    "install": ["--agents", "claude,cursor", "--dry-run"], "uninstall": ["--dry-run"], "adopt": [],
    "import": ["--dry-run"],
}
REFUSAL = {  # args, exit code (2: a value that is not one of the allowed ones)
    "route": ([" "], 1), "prime": (["x", "--root", "nope"], 1), "search": (["x", "--kind", "nokind"], 2),
    "read": (["nope.md"], 1),
    "graph": (["nope.md"], 1), "changed": (["no-such-ref"], 1), "validate": (["--rule", "no-such-rule"], 2),
    "drift": (["--scope", "nope"], 1), "guard": (["/etc/hostname"], 1), "stats": (["--root", "nope"], 1),
    "inbox": (["--root", "nope"], 1), "index": (["--root", "nope"], 1), "schema": (["--root", "nope"], 1),
    "create": (["domain/tax.md", "--kind", "domain", "--title", "T", "--purpose", "P."], 1),
    "edit": (["domain/tax.md", "--find", "zzz", "--replace", "y"], 1),
    "update-section": (["domain/tax.md", "Nope", "--content", "x"], 1),
    "set-status": (["_inbox/idea.md", "active"], 1), "set-field": (["domain/tax.md", "status", "active"], 1),
    "set-list": (["domain/tax.md", "anchors", "--remove", "src/none.py"], 1),
    "move": (["domain/tax.md", "product/context.md"], 1), "review": (["nope.md"], 1),
    "promote": (["domain/tax.md", "--to", "adr/"], 1),
    "discard": (["domain/tax.md", "--reason", "x"], 1), "init": (["Again"], 1),
    "materialize-flows": (["--root", "nope"], 1), "deliver": (["--targets", "curser"], 2),
    "install-hook": (["--project", "nope"], 1), "adoption": (["nope.jsonl"], 1),
    "surface": (["--tools", "bogus"], 2), "serve": (["--tools", "bogus"], 2),
    "install": (["--agents", "emacs"], 2), "uninstall": (["--project", "nope"], 1), "adopt": (["--root", "nope"], 1),
    "import": (["--project", "nope"], 1),
}


def test_every_subcommand_has_a_success_and_a_refusal_case():
    assert set(SUCCESS) == set(REFUSAL) == set(BY_COMMAND)


REAL = {"route", "create", "serve"}  # these also through a real process: a read, a writer, the server


@pytest.mark.parametrize("name", sorted(BY_COMMAND))
def test_every_subcommand_has_its_own_help_with_an_example(name):
    proc = (run_cli if name in REAL else cli_in_process)(name, "--help")
    assert proc.returncode == 0, proc.stderr
    assert f"Usage: mcp-memorybank {name}" in proc.stdout and "Example:" in proc.stdout
    assert "§" not in proc.stdout
    assert ("--json" in proc.stdout) == (name != "serve")


@pytest.mark.parametrize("name", sorted(BY_COMMAND))
def test_every_subcommand_succeeds(seeded, tmp_path, name, fresh=False):
    repo = seeded.copy(tmp_path / "project")
    bank = repo.path / "memory_bank"
    args = SUCCESS[name]
    root = [] if "--root" in args else ["--root", "memory_bank"]
    as_json = [] if name == "serve" else ["--json"]
    real = fresh or name in REAL
    proc = (run_cli if real else cli_in_process)(name, *args, *root, *as_json, cwd=repo.path, stdin="")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if as_json:
        json.loads(proc.stdout)
    from memorybank.bank import Bank
    assert validate(Bank(bank))["summary"]["errors"] == 0  # no writer leaves an error behind


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BY_COMMAND))
def test_every_subcommand_succeeds_in_a_fresh_interpreter(seeded, tmp_path, name):
    """The same, each a real process: a lazily imported module a command needs but never imports itself
    would pass in-process (the test process has it already) and fail here."""
    test_every_subcommand_succeeds(seeded, tmp_path, name, fresh=True)


@pytest.fixture(scope="module")
def refusing(seeded, tmp_path_factory) -> Repo:
    """One copy for every refusal: each test proves its own call left every byte as it found it."""
    return seeded.copy(tmp_path_factory.mktemp("refusing") / "project")


@pytest.mark.parametrize("name", sorted(BY_COMMAND))
def test_every_subcommand_refuses_with_a_json_error_and_changes_nothing(refusing, name):
    repo = refusing
    before = {p: p.read_bytes() for p in repo.path.rglob("*") if p.is_file() and ".git" not in p.parts}
    args, code = REFUSAL[name]
    root = [] if "--root" in args else ["--root", "memory_bank"]
    as_json = [] if name == "serve" else ["--json"]
    proc = (run_cli if name in REAL else cli_in_process)(name, *args, *root, *as_json, cwd=repo.path, stdin="")
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert proc.stderr.startswith("mcp-memorybank: ") and len(proc.stderr.strip().splitlines()) == 1
    if as_json:
        error = json.loads(proc.stdout)["error"]
        assert error["message"] and isinstance(error["see"], list)
    after = {p: p.read_bytes() for p in repo.path.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before


def test_move_rewrites_edges_and_index_entries_in_one_commit_with_no_new_findings(tmp_path):
    bank = tmp_path / "bank"
    shutil.copytree(FIXTURE, bank)
    from memorybank.bank import Bank
    found = {(f["rule"], f["path"]) for f in validate(Bank(bank))["findings"]}
    proc = run_cli("move", "domain/billing.md", "adr/billing-rules.md", "--root", str(bank), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["indexes"] == ["domain/README.md"]
    assert out["edges"] == ["domain/invoices.md", "engineering/architecture.md"]
    assert not (bank / "domain/billing.md").exists() and (bank / "adr/billing-rules.md").is_file()
    assert "- ../adr/billing-rules.md" in (bank / "domain/invoices.md").read_text()
    assert "path: ../adr/billing-rules.md" in (bank / "engineering/architecture.md").read_text()
    assert "[Billing](../adr/billing-rules.md)" in (bank / "domain/README.md").read_text()
    assert {(f["rule"], f["path"]) for f in validate(Bank(bank))["findings"]} == found


def test_move_refuses_a_name_that_differs_only_by_case_and_a_stale_version_but_renames_case_only(tmp_path):
    from memorybank.bank import Bank
    from memorybank.errors import BankError
    from memorybank.read import read
    from memorybank.writers import move

    bank = tmp_path / "bank"
    shutil.copytree(FIXTURE, bank)
    def files() -> dict:  # the lock file the writer takes is not bank content
        return {p: p.read_bytes() for p in bank.rglob("*") if p.is_file() and p.name != ".memorybank.lock"}

    before = files()
    with pytest.raises(BankError, match="collides with the existing domain/invoices.md"):
        move(Bank(bank), "domain/billing.md", "domain/Invoices.md")
    with pytest.raises(BankError, match="now version"):
        move(Bank(bank), "domain/billing.md", "domain/bills.md", base_version="000000000000")
    assert files() == before
    version = read(Bank(bank), "domain/billing.md")["version"]
    done = move(Bank(bank), "domain/billing.md", "domain/Billing.md", base_version=version)
    assert done["path"] == "domain/Billing.md" and done["indexes"] == ["domain/README.md"]
    assert "[Billing](Billing.md)" in (bank / "domain/README.md").read_text()


def test_move_re_aims_the_moved_documents_own_relative_links_and_edges(seeded, tmp_path):
    repo = seeded.copy(tmp_path / "project")
    bank = repo.path / "memory_bank"
    context = bank / "product/context.md"
    context.write_text(context.read_text() + "\nSee [the tax rules](../domain/tax.md#rules).\n")
    proc = cli_in_process("move", "domain/tax.md", "features/tax/tax.md", "--root", str(bank), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["links"] == ["product/context.md"]
    assert "- ../../product/context.md" in (bank / "features/tax/tax.md").read_text()
    assert "[the tax rules](../features/tax/tax.md#rules)" in context.read_text()
    from memorybank.bank import Bank
    assert validate(Bank(bank))["summary"]["total"] == 0


def test_the_bank_is_found_from_a_subfolder_and_a_file_as_root_says_so(seeded, tmp_path):
    repo = seeded.copy(tmp_path / "project")
    deep = repo.path / "src" / "pkg"
    deep.mkdir(parents=True)
    proc = run_cli("stats", "--json", cwd=deep, env={"MEMORYBANK_ROOT": ""})
    assert proc.returncode == 0, proc.stderr
    assert Path(json.loads(proc.stdout)["root"]).resolve() == (repo.path / "memory_bank").resolve()
    afile = cli_in_process("stats", "--root", str(repo.path / "transcript.jsonl"))
    assert afile.returncode == 2 and "is a file" in afile.stderr


def test_help_after_an_action_flag_shows_help_and_usage_errors_print_json_with_json():
    proc = cli_in_process("--root", str(FIXTURE), "--route", "--help")
    assert proc.returncode == 0 and "Usage:" in proc.stdout
    bad = run_cli("graph", "x.md", "--depth", "9", "--root", str(FIXTURE), "--json")
    assert bad.returncode == 2 and "9 is not in the range" in json.loads(bad.stdout)["error"]["message"]


def test_set_values_are_yaml_typed_in_the_order_given(seeded, tmp_path):
    repo = seeded.copy(tmp_path / "project")
    bank = repo.path / "memory_bank"
    proc = cli_in_process("create", "domain/vat.md", "--kind", "domain", "--title", "VAT", "--purpose",
                          "Read for VAT.", "--derived", "tax.md", "--set", "priority=5", "--set", "applies_to=a,b",
                          "--set", "owners=[\"x\", \"y\"]", "--root", str(bank))
    assert proc.returncode == 0, proc.stderr
    text = (bank / "domain/vat.md").read_text()
    assert "priority: 5\napplies_to:\n  - a\n  - b\nowners:\n  - x\n  - y\n" in text


def test_the_readme_cli_reference_lists_every_command():
    from conftest import REPO

    text = (REPO / "README.md").read_text(encoding="utf-8")
    reference = text[text.index("## CLI reference"):text.index("### The flag form")]
    for name in BY_COMMAND:
        assert f"| `{name}" in reference, name


def test_the_declared_dependencies_are_exactly_the_third_party_imports():
    import ast
    import re
    import sys
    import tomllib

    from conftest import REPO

    declared = {re.split(r"[<>=!\[ ]", d)[0].lower().replace("_", "-")
                for d in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]}
    distribution = {"yaml": "pyyaml", "ruamel": "ruamel.yaml", "mcp_types": "mcp-types"}
    def statements(tree: ast.Module):  # an import is a statement: no need to walk every expression
        stack = [tree]
        while stack:
            node = stack.pop()
            yield node
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                if isinstance(inner := getattr(node, field, None), list):
                    stack.extend(inner)

    imported = set()
    for source in (REPO / "memorybank").rglob("*.py"):
        for node in statements(ast.parse(source.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "memorybank":
                    imported.add(distribution.get(top, top))
    assert imported == declared
