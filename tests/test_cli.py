import json
import os
import subprocess
import sys

import pytest
from conftest import FIXTURE, cli_in_process, doc, run_cli, write_bank
from test_validate import expected_rows


def test_validate_prints_planted_findings_and_exits_1():
    proc = run_cli("--root", str(FIXTURE), "--validate")
    assert proc.returncode == 1
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == len(expected_rows()) + 1
    assert lines[0].startswith("error") and "invalid-frontmatter" in lines[0] and "product/pricing.md:4" in lines[0]
    assert lines[-1].startswith("11 findings: 7 errors, 4 warnings")


def test_validate_json_is_exactly_the_capability_dict():
    proc = cli_in_process("--root", str(FIXTURE), "--validate", "--json")
    data = json.loads(proc.stdout)
    assert set(data) == {"findings", "summary"}
    assert [(f["rule"], f["path"], f.get("line")) for f in data["findings"]] == expected_rows()
    assert "\n" not in proc.stdout.strip() and ": " not in proc.stdout.split('"message"')[0]


def test_validate_summary_and_filters():
    proc = cli_in_process("--root", str(FIXTURE), "--validate", "--summary")
    assert proc.stdout.startswith("11 findings: 7 errors, 4 warnings")
    proc = cli_in_process("--root", str(FIXTURE), "--validate", "--severity", "warning", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]["errors"] == 0


def test_validate_clean_bank_exits_0(tmp_path):
    root = write_bank(tmp_path / "b", {"README.md": "[a](a.md)\n", "a.md": doc("A"),
                                       "dna/principles.md": doc("P"), "dna/README.md": "[p](principles.md)\n"})
    (root / "README.md").write_text("[a](a.md) [d](dna/README.md)\n")
    proc = cli_in_process("--root", str(root), "--validate")  # the real process: the planted findings above
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.strip() == "0 findings: 0 errors, 0 warnings"


def test_stats_text_and_json():
    proc = run_cli("--root", str(FIXTURE), "--stats")
    assert proc.returncode == 0
    for word in ("documents", "contract", "layers", "edges", "owners", "parse errs", "ms"):
        assert word in proc.stdout
    data = json.loads(cli_in_process("--root", str(FIXTURE), "--stats", "--json").stdout)
    assert set(data) == {"root", "documents", "bytes", "refresh_ms", "contract", "by_layer", "by_doc_kind", "edges",
                         "canonical", "index_links", "parse_errors", "no_frontmatter", "skipped"}
    assert data["documents"] == sum(1 for _ in FIXTURE.rglob("*.md"))
    assert data["parse_errors"] == ["product/pricing.md"]
    assert data["edges"]["external"] == 1 and data["edges"]["broken"] == 1
    assert set(data["contract"]) == {"sources", "doc_kind", "doc_function", "status", "roots",
                                     "requires_derived_from", "forbids_cycles"}


def test_read_section_and_lines():
    proc = run_cli("--root", str(FIXTURE), "--read", "adr/ADR-001-integer-cents.md", "--section", "decision")
    assert proc.returncode == 0 and "## Decision" in proc.stdout and "## Context" not in proc.stdout
    proc = cli_in_process("--root", str(FIXTURE), "--read", "fixture-bank/adr/ADR-001-integer-cents.md",
                          "--lines", "1-2", "--json")
    assert json.loads(proc.stdout)["content"] == "1: ---\n2: title: \"ADR-001: Store money as integer cents\""


def test_read_batch_json():
    proc = cli_in_process("--root", str(FIXTURE), "--read", "domain/billing.md", "--read", "nope.md", "--json")
    data = json.loads(proc.stdout)
    assert [d["path"] for d in data["documents"]] == ["domain/billing.md"]
    assert data["failed"][0]["path"] == "nope.md"


@pytest.mark.parametrize("target", ["../outside.md", "/etc/hostname", "link.md"])
def test_read_refuses_paths_outside_the_bank(tmp_path, target):
    root = write_bank(tmp_path / "bank", {"a.md": "x"})
    (tmp_path / "outside.md").write_text("secret")
    os.symlink(tmp_path / "outside.md", root / "link.md")
    proc = cli_in_process("--root", str(root), "--read", target)
    assert proc.returncode == 1
    assert "Path must stay inside the bank" in proc.stderr and proc.stdout == ""


def test_usage_errors_exit_2_with_one_line(tmp_path):
    for args in (["--stats", "--validate"], ["--bogus"], ["--validate", "--severity", "fatal"]):
        proc = (run_cli if args == ["--bogus"] else cli_in_process)("--root", str(FIXTURE), *args)
        assert proc.returncode == 2, args
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.mark.parametrize("args, message", [
    (["--section", "Decision"], "--section does nothing without an action flag; it goes with --read"),
    (["--changed-since", "HEAD"], "--changed-since does nothing without an action flag; it goes with --drift"),
    (["--stats", "--limit", "3"], "--limit does nothing with --stats"),
    (["--validate", "--dry-run"], "--dry-run does nothing with --validate"),
    (["--create", "x.md", "--kind", "note", "--title", "X", "--purpose", "P.", "--to", "y/"],
     "--to does nothing with --create; it goes with --promote"),
    (["--read", "README.md", "--read", "domain/tax.md", "--max-bytes", "0"], "0 is not in the range 1<=x<=40000"),
])
def test_an_option_the_action_would_ignore_is_a_usage_error_and_writes_nothing(tmp_path, args, message):
    # A forgotten action flag used to start the MCP server and wait on stdin; a stray option was ignored.
    import shutil
    bank = tmp_path / "bank"
    shutil.copytree(FIXTURE, bank)
    before = {p: p.read_bytes() for p in bank.rglob("*") if p.is_file()}
    # a started server would exit 0 at EOF: where no action flag is given, a real process, never this one
    proc = (cli_in_process if any(a in ("--stats", "--validate", "--create", "--read") for a in args) else run_cli)(
        "--root", str(bank), *args, stdin="")
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert {p: p.read_bytes() for p in bank.rglob("*") if p.is_file()} == before


def test_an_empty_root_and_a_scope_that_names_nothing_are_refused():
    empty = cli_in_process("--root", "", "--stats")
    assert empty.returncode == 2 and "--root is empty" in empty.stderr
    scope = cli_in_process("--root", str(FIXTURE), "--validate", "--scope", "nope")
    assert scope.returncode == 1 and "Scope nope is neither a folder nor a document" in scope.stderr
    ok = cli_in_process("--root", str(FIXTURE), "--validate", "--scope", "adr/", "--json")
    paths = {f["path"] for f in json.loads(ok.stdout)["findings"]}
    assert paths == {"adr/README.md", "adr/ADR-002-queue-for-exports.md"}


def test_missing_bank_is_a_clear_error(tmp_path):
    proc = cli_in_process("--root", str(tmp_path / "nope"), "--stats")
    assert proc.returncode == 1 and "No bank at" in proc.stderr


def test_cli_actions_do_not_import_mcp_or_gitpython():
    code = ("import sys\nfrom memorybank import cli\n"
            "for args in (['--stats'], ['--validate'], ['--read', 'domain/billing.md']):\n"
            "    try:\n        cli.main(['--root', sys.argv[1], *args])\n    except SystemExit:\n        pass\n"
            "print('mcp' in sys.modules, 'git' in sys.modules, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(FIXTURE)], capture_output=True, text=True)
    assert proc.stderr.strip().splitlines()[-1] == "False False"


def test_a_refusal_names_the_actions_it_points_at_in_the_clis_words():
    # The core carries the action as data (`see`); the CLI names its commands, never MCP tools.
    create = cli_in_process("--root", str(FIXTURE), "--create", "domain/tax.md", "--kind", "domain", "--title", "T",
                            "--purpose", "P.", "--dry-run")
    assert create.returncode == 1
    assert "(see `mcp-memorybank edit`, `mcp-memorybank update-section`)" in create.stderr
    assert "bank_" not in create.stderr
    read = cli_in_process("read", "--root", str(FIXTURE), "nowhere/none.md", "--json")
    assert read.returncode == 1 and json.loads(read.stdout) == {"error": {
        "message": "No document at nowhere/none.md. Route the question to find the right path. "
                   "(see `mcp-memorybank route`)", "see": ["route"]}}


def test_read_option_conflicts_are_the_capabilitys_refusals():
    # The rule lives in read(); the CLI only reports it (exit 1, nothing written).
    both = cli_in_process("--root", str(FIXTURE), "--read", "README.md", "--section", "Goals", "--lines", "1-3")
    assert both.returncode == 1 and "Give either `--section` or `--lines`, not both." in both.stderr
    batch = cli_in_process("--root", str(FIXTURE), "--read", "README.md", "--read", "domain/tax.md", "--lines", "1-2")
    assert batch.returncode == 1 and "`--lines` works with one path" in batch.stderr


def test_read_section_typed_without_the_dotted_capital_i(tmp_path):
    # "İstanbul" is indexed as "istanbul" (tokens.lower); --section must name it the same way
    body = "# Trip\n\n## İstanbul hotels\n\nNear the ferry.\n\n## Food\n\nFish.\n"
    bank = write_bank(tmp_path / "b", {"trip.md": doc(body=body)})
    proc = cli_in_process("--root", str(bank), "--read", "trip.md", "--section", "istanbul hotels")
    assert proc.returncode == 0 and "Near the ferry." in proc.stdout and "Fish." not in proc.stdout
