"""Hostile inputs against the issue 17 surface (rules, drift, guard, review, hooks): real CLI, real git."""

from __future__ import annotations

import json

from conftest import run_cli, write_bank


def rule(name: str, extra: str) -> str:
    return (f"---\ntitle: {name}\ndoc_kind: rule\nstatus: active\npurpose: Read when testing {name}.\n"
            f"do: Do things right.\n{extra}\n---\n\n# {name}\n")


def test_priority_digit_lookalikes_and_huge_numbers_are_findings_not_crashes(tmp_path):
    # "²".isdigit() is true but int("²") raises; 5,000 digits pass the int conversion limit
    bank = write_bank(tmp_path / "bank", {
        "rules/super.md": rule("super", 'priority: "²"'),
        "rules/huge.md": rule("huge", f'priority: "{"9" * 5000}"'),
        "rules/huge-bare.md": rule("huge-bare", f"priority: {'9' * 5000}"),
    })
    out = run_cli("--root", str(bank), "--validate", "--json", "--rule", "incomplete-rule")
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    flagged = {f["path"] for f in json.loads(out.stdout)["findings"]}
    assert flagged == {"rules/super.md", "rules/huge.md", "rules/huge-bare.md"}
    out = run_cli("--root", str(bank), "--deliver", "--dry-run", "--json", "--project", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr

