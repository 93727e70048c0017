"""The writer flags of the real `mcp-memorybank` command: --init, --create, the inbox, --materialize-flows."""

from __future__ import annotations

import json

from conftest import cli_in_process, run_cli
from writekit import assert_clean

from memorybank.bank import Bank
from memorybank.writers import create, init


def test_cli_writer_flags_end_to_end(tmp_path):
    root = str(tmp_path / "memory_bank")
    proc = cli_in_process("--root", root, "--init", "Demo")  # the writers' real process: the create below
    assert proc.returncode == 0 and proc.stdout.startswith("done: name Demo")
    assert "# Demo memory bank" in (tmp_path / "memory_bank" / "README.md").read_text()

    body = tmp_path / "body.md"
    body.write_text("## Rule\n\nKeep money in cents.\n")
    proc = run_cli("--root", root, "--create", "rules/cents.md", "--kind", "rule", "--title", "Cents",
                   "--purpose", "Read when code handles money.", "--derived", "dna/principles.md,product/context.md",
                   "--canonical", "money_unit", "--anchors", "src/money.py", "--status", "active",
                   "--set", "do=Store cents.", "--set", "dont=Use floats.", "--body-file", str(body), "--json")
    out = json.loads(proc.stdout)
    proc = cli_in_process("--root", root, "--create", "rules/more.md", "--kind", "rule", "--title", "More",
                          "--purpose", "Read later.", "--dry-run", "--json")
    assert json.loads(proc.stdout)["dry_run"] is True and not (tmp_path / "memory_bank/rules/more.md").exists()
    assert proc.returncode == 0 and out["path"] == "rules/cents.md" and out["registered_in"] == "rules/README.md"
    assert set(out) == {"path", "version", "template", "registered_in", "created_index", "files", "dry_run",
                        "warnings"}
    text = (tmp_path / "memory_bank/rules/cents.md").read_text()
    assert "do: Store cents.\ndont: Use floats.\n" in text and "Keep money in cents." in text

    proc = cli_in_process("--root", root, "--create", "x.md", "--kind", "note", "--title", "Idea", "--purpose",
                          "Later.", "--inbox")
    assert proc.returncode == 0 and "path _inbox/x.md" in proc.stdout
    create(Bank(root), path="y.md", doc_kind="note", title="Other", purpose="Drop.", inbox=True)
    listed = json.loads(cli_in_process("--root", root, "--list-inbox", "--json").stdout)
    assert [n["path"] for n in listed["notes"]] == ["_inbox/x.md", "_inbox/y.md"]
    proc = cli_in_process("--root", root, "--promote", "_inbox/x.md", "--to", "engineering/", "--kind", "engineering",
                          "--derived", "product/context.md")
    assert proc.returncode == 0 and "path engineering/x.md" in proc.stdout
    proc = cli_in_process("--root", root, "--discard", "_inbox/y.md", "--reason", "Not needed.")
    assert proc.returncode == 0 and "log _inbox/DISCARDED.md" in proc.stdout
    proc = cli_in_process("--root", root, "--materialize-flows", "--json")
    assert proc.returncode == 0 and "flows/templates/adr.md" in json.loads(proc.stdout)["copied"]
    assert_clean(Bank(root))


def test_cli_refusals_exit_1_and_usage_errors_exit_2(tmp_path):
    root = str(tmp_path / "memory_bank")
    init(Bank(root), name="Demo")
    proc = run_cli("--root", root, "--create", "../out.md", "--kind", "x", "--title", "T", "--purpose", "P")
    assert proc.returncode == 1 and proc.stderr.strip() == "mcp-memorybank: Path must stay inside the bank: ../out.md"
    proc = cli_in_process("--root", root, "--create", "a.md", "--title", "T", "--set", "k=v")
    assert proc.returncode == 2 and "--create needs --kind, --purpose" in proc.stderr
