"""import: every agent-instruction file kind becomes draft rule notes in _inbox/, sources untouched, no twins."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from conftest import cli_in_process, run_cli

from memorybank.bank import Bank
from memorybank.importer import import_instructions
from memorybank.validate import validate
from memorybank.writers import discard, init, promote

SOURCES = {
    "CLAUDE.md": "# Team rules\n\nUse pnpm, never npm.\n\n<!-- memorybank:begin -->\nBank usage.\n"
                 "<!-- memorybank:end -->\n\n## Tests\n\nRun pytest -q before pushing.\n",
    "AGENTS.md": "## Package manager\n\nUse pnpm, never npm.\n",
    "GEMINI.md": "# Gemini\n\nAnswer briefly.\n",
    ".cursorrules": "Prefer small functions.\n",
    ".cursor/rules/api.mdc": "---\ndescription: API rules\nglobs: src/api/**,src/routes/**\nalwaysApply: false\n---\n\n"
                             "# API\n\nReturn typed errors.\n",
    ".github/copilot-instructions.md": "## Style\n\nTwo-space indent in YAML.\n",
    ".github/instructions/py.instructions.md": "---\napplyTo: \"**/*.py\"\n---\nType every function.\n",
    ".clinerules/01-git.md": "# Git\n\nSquash before merge.\n",
    ".windsurfrules": "No print debugging.\n",
    ".windsurf/rules/sec.md": "---\ntrigger: always_on\n---\nNever log secrets.\n",
}


def _project(tmp_path: Path, files: dict[str, str] = SOURCES) -> tuple[Path, Path]:
    project = tmp_path / "project"
    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    bank = project / "memory_bank"
    init(Bank(bank), name="demo")
    return project, bank


def _front(path: Path) -> dict:
    return yaml.safe_load(path.read_text().split("---\n", 2)[1])


def test_import_files_every_source_kind_with_its_lines_and_scope(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    before = {rel: (project / rel).read_bytes() for rel in SOURCES}
    result = import_instructions(Bank(bank))
    assert {rel: (project / rel).read_bytes() for rel in SOURCES} == before
    by_source = {}
    for item in result["filed"]:
        by_source.setdefault(item["source"], []).append(item)
    assert set(by_source) == set(SOURCES)
    assert [(i["lines"], i["title"]) for i in by_source["CLAUDE.md"]] == [("1-3", "Team rules"), ("9-11", "Tests")]
    api = _front(bank / by_source[".cursor/rules/api.mdc"][0]["path"])
    assert api["applies_to"] == ["src/api/**", "src/routes/**"] and api["always_apply"] is False
    assert api["status"] == "draft" and api["doc_kind"] == "rule" and api["source_lines"] == "7-9"
    assert _front(bank / by_source[".github/instructions/py.instructions.md"][0]["path"])["applies_to"] == ["**/*.py"]
    note = (bank / by_source["CLAUDE.md"][0]["path"]).read_text()
    assert "Use pnpm, never npm." in note and "Bank usage." not in note
    assert all(i["path"].startswith("_inbox/import-") for i in result["filed"])
    assert validate(Bank(bank))["summary"]["errors"] == 0


def test_import_never_files_the_same_text_twice(tmp_path: Path) -> None:
    files = {"AGENTS.md": "Use pnpm.\n", "GEMINI.md": "Use   pnpm.\n", ".cursorrules": "Other.\n"}
    project, bank = _project(tmp_path, files)
    first = import_instructions(Bank(bank))
    assert [i["source"] for i in first["filed"]] == ["AGENTS.md", ".cursorrules"]
    assert first["skipped"] == [{"source": "GEMINI.md", "lines": "1-1", "reason": "already filed (same text)"}]
    again = import_instructions(Bank(bank))
    assert again["filed"] == [] and len(again["skipped"]) == 3
    discard(Bank(bank), first["filed"][1]["path"], reason="not a rule")
    promote(Bank(bank), first["filed"][0]["path"], to="rules/", derived_from=["README.md"])
    assert import_instructions(Bank(bank))["filed"] == []


def test_import_skips_files_memorybank_generated(tmp_path: Path) -> None:
    from memorybank.deliver.files import stamp
    project, bank = _project(tmp_path, {".cursor/rules/memorybank-rules.mdc": stamp("---\nalwaysApply: true\n---\n"
                                                                                       "\n- Do it.\n")})
    assert import_instructions(Bank(bank))["filed"] == []


def test_import_through_the_cli_dry_run_then_write(tmp_path: Path) -> None:
    project, bank = _project(tmp_path)
    dry = run_cli("--root", str(bank), "--import", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["dry_run"] is True and not list((bank / "_inbox").glob("import-*"))
    done = cli_in_process("--root", str(bank), "--import")
    assert done.returncode == 0, done.stderr
    assert "filed: 11 notes from 10 files" in done.stdout and len(list((bank / "_inbox").glob("import-*"))) == 11


def test_import_reads_clinerules_as_a_single_file_too(tmp_path: Path) -> None:
    project, bank = _project(tmp_path, {".clinerules": "# Rules\n\nKeep PRs small.\n\n# More\n\nName branches well.\n"})
    result = import_instructions(Bank(bank))
    assert [(i["source"], i["lines"]) for i in result["filed"]] == [(".clinerules", "1-3"), (".clinerules", "5-7")]
