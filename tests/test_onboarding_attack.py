"""An adversarial run on issue 18's commands (install --agents, uninstall, deliver's new targets, import, adopt):
each test is one hole found by attacking the real CLI on real project files, pinned so it stays closed.

The promises: nothing outside the project is read or written (a cloned symlink included); a refusal names
the reason and the fix and leaves every byte as it was; no person's edit or save is lost; install then
uninstall gives the project back byte for byte.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import cli_in_process, cli_path, git, run_cli
from writekit import make_bank

from memorybank import limits
from memorybank.deliver.files import stamp

RULE = """---
title: Typed boundaries
doc_kind: rule
purpose: Read before passing data between layers.
status: active
derived_from:
  - ../dna/principles.md
do: Validate every input at the module boundary.
dont: Pass raw dictionaries between layers.
why: Typed boundaries catch mistakes early.
priority: 5
applies_to:
  - src/**/*.py
---

# Typed boundaries
"""
RECIPE = """---
title: Api recipe
doc_kind: recipe
purpose: How to add an endpoint.
status: active
derived_from:
  - ../dna/principles.md
topic: api
when: Adding an endpoint
do: Follow the endpoint pattern.
dont: Copy an old module wholesale.
why: Patterns keep reviews short.
priority: 4
applies_to:
  - src/api/**
---

# Api recipe
"""
TARGETS = "cursor,agents,claude,copilot,skill,mirror,gemini,cline,windsurf,roo,kiro,junie"
AGENTS = "claude,cursor,vscode,gemini"


def project(path: Path, files: dict[str, str | bytes] | None = None, repo: bool = True) -> Path:
    """A project holding a bank (`memory_bank/`, with one rule and one recipe) and `files` of the user's."""
    path.mkdir(parents=True)
    if repo:
        git(path, "init", "-q")
    make_bank(path / "memory_bank", {"rules/typed.md": RULE, "recipes/api.md": RECIPE})
    for rel, content in (files or {}).items():
        target = path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def snapshot(folder: Path) -> dict[str, object]:
    """Every entry under `folder` but git's and the bank's: bytes, `link -> target`, or a folder with its mode."""
    out: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if rel.split("/")[0] in (".git", "memory_bank"):
            continue
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = (path.read_bytes(), oct(path.stat().st_mode))
    return out


def mb(top: Path, *args: str, real: bool = False) -> subprocess.CompletedProcess[str]:
    """The command on the project's bank: through the CLI's entry point in this process, or a real process.

    The install-deliver-uninstall round trip below runs each command once as a real process (its repeats
    and the check in this one); the other attacks are variants of those commands on other files and
    need no process start of their own.
    """
    run = run_cli if real else cli_in_process
    return run(*args[:1], "--root", str(top / "memory_bank"), *args[1:], cwd=top)


# -- symlinks a clone brings: nothing outside the project is read or written ------------------------

def test_no_command_reads_or_writes_outside_the_project_through_a_symlinked_file_or_folder(tmp_path):
    outside = tmp_path / "outside"
    ours = {"command": "mcp-memorybank", "args": ["--root", "${workspaceFolder}/memory_bank"]}
    files = {"mcp.json": json.dumps({"mcpServers": {"memorybank": ours, "keep": {"command": "x"}}}, indent=2),
             "x.json": '{"a": 1}\n', "rules/secret.mdc": "# Secret\nTOKEN=abc\n",
             "copilot-instructions.md": "# Secret\nSECRET COPILOT\n",
             "instructions/memorybank-api.instructions.md": stamp("---\napplyTo: x\n---\n# Ours\n")}
    for rel, text in files.items():
        (outside / rel).parent.mkdir(parents=True, exist_ok=True)
        (outside / rel).write_text(text)
    top = project(tmp_path / "proj")
    (top / ".cursor").symlink_to(outside, target_is_directory=True)
    (top / ".github").symlink_to(outside, target_is_directory=True)
    (top / ".mcp.json").symlink_to(outside / "x.json")
    before, outside_before = snapshot(top), snapshot(outside)

    done = mb(top, "install", "--agents", "claude,cursor")
    assert done.returncode == 1
    for link in (".cursor -> ", ".mcp.json -> "):
        assert link in done.stderr, done.stderr
    assert "leads outside the project" in done.stderr and "Replace the symlink" in done.stderr
    assert snapshot(top) == before

    delivered = mb(top, "deliver", "--targets", "cursor,copilot", "--json")
    assert delivered.returncode == 0, delivered.stderr
    reasons = {c["file"]: c.get("reason", "") for c in json.loads(delivered.stdout)["channels"]}
    assert reasons and all("symlink" in reason and "outside the project" in reason for reason in reasons.values())

    imported = mb(top, "import", "--json")
    assert imported.returncode == 0, imported.stderr
    report = json.loads(imported.stdout)
    assert report["filed"] == [] and any("outside the project" in w for w in report["warnings"])

    removed = mb(top, "uninstall", "--json")
    assert removed.returncode == 0, removed.stderr
    assert json.loads(removed.stdout)["files"] == []
    assert any("outside the project" in n for n in json.loads(removed.stdout)["notes"])
    assert snapshot(top) == before and snapshot(outside) == outside_before
    assert "SECRET" not in "".join(p.read_text() for p in (top / "memory_bank").rglob("*.md"))


# -- config files that are not plain JSON: refused by name, every byte kept ---------------------------

def test_config_files_that_are_not_plain_json_are_refused_by_name_and_left_as_they_were(tmp_path):
    files = {".mcp.json": '{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"b": {"command": "y"}}}\n',
             ".cursor/mcp.json": '{\n  // my servers\n  "mcpServers": {}\n}\n',
             ".vscode/mcp.json": '{"servers": {}, "retries": NaN}\n',
             ".gemini/settings.json": "[" * 100_000 + "]" * 100_000,
             ".claude/settings.json": '{"hooks": {}, "pad": "' + "x" * limits.PROJECT_FILE_MAX + '"}'}
    top = project(tmp_path / "proj", files)
    before = snapshot(top)
    done = mb(top, "install", "--agents", AGENTS)
    assert done.returncode == 1
    for needle in ('the key "mcpServers" appears twice', "comments and trailing commas are not JSON",
                   "NaN is not JSON", "nests deeper than a JSON reader follows",
                   f"over the {limits.PROJECT_FILE_MAX:,}-byte limit"):
        assert needle in done.stderr, (needle, done.stderr)
    assert "5 files need fixing first" in done.stderr and "Traceback" not in done.stderr
    assert snapshot(top) == before
    removed = mb(top, "uninstall")  # uninstall leaves them alone too, and says why
    assert removed.returncode == 0, removed.stderr
    assert snapshot(top) == before


# -- install then uninstall gives the project back, byte for byte ------------------------------------

def test_install_and_deliver_twice_then_uninstall_twice_leave_odd_user_files_byte_identical_without_git(tmp_path):
    # every other test here runs in a git repository; this one in a plain folder
    files = {".mcp.json": '\ufeff{\r\n    "mcpServers":{\r\n\t"a" : { "command" : "x" } ,\r\n  "b":{"command":"y"}'
                          '\r\n   },\r\n  "x": [1,2]\r\n}',
             ".gemini/settings.json": '{"theme":"dark","mcpServers":{"o":{"command":"z"}}}',
             ".vscode/mcp.json": '{\n\t"inputs": [],\n\t"servers": {\n\t\t"o": {"type": "stdio", "command": "y"}'
                                 '\n\t}\n}\n',
             "CLAUDE.md": "# Mine\r\n\r\nNo line break at the end",
             "AGENTS.md": "Agents: be nice.",
             ".junie/guidelines.md": "Junie: keep it short.\n\n\n",
             ".clinerules/team.md": "# Team\nUse tabs.\n"}
    top = project(tmp_path / "proj", files, repo=False)
    before = snapshot(top)
    for again in (False, True):
        assert mb(top, "install", "--agents", AGENTS, real=not again).returncode == 0
        assert mb(top, "deliver", "--targets", TARGETS, real=not again).returncode == 0
    installed = snapshot(top)
    assert installed != before
    assert mb(top, "deliver", "--targets", TARGETS, "--check").returncode == 0
    first = mb(top, "uninstall", "--json", real=True)
    assert first.returncode == 0, first.stderr
    assert snapshot(top) == before
    second = json.loads(mb(top, "uninstall", "--json").stdout)
    assert second["files"] == [] and second["folders"] == []


# -- a person's edit or save is never lost ------------------------------------------------------------

def test_uninstall_keeps_a_managed_block_a_person_edited_until_forced(tmp_path):
    top = project(tmp_path / "proj", {"AGENTS.md": "# Ours\n"})
    assert mb(top, "install").returncode == 0
    assert mb(top, "deliver", "--targets", "agents").returncode == 0
    for rel in ("AGENTS.md", "CLAUDE.md"):
        text = (top / rel).read_text()
        (top / rel).write_text(text.replace("<!-- memorybank:end -->", "MY OWN NOTE\n<!-- memorybank:end -->"))
    kept = {rel: (top / rel).read_bytes() for rel in ("AGENTS.md", "CLAUDE.md")}
    done = mb(top, "uninstall", "--json")
    assert done.returncode == 1
    refused = {f["path"]: f["reason"] for f in json.loads(done.stdout)["files"] if f["action"] == "refused"}
    assert set(refused) == {"AGENTS.md", "CLAUDE.md"} and all("edited by hand" in r for r in refused.values())
    assert {rel: (top / rel).read_bytes() for rel in kept} == kept
    assert mb(top, "uninstall", "--force").returncode == 0
    assert (top / "AGENTS.md").read_text() == "# Ours\n" and not (top / "CLAUDE.md").exists()


@pytest.mark.parametrize("command", ["install", "deliver", "uninstall"])
def test_a_save_landing_between_the_plan_and_the_write_is_never_overwritten(tmp_path, monkeypatch, command):
    # A person's editor saves the file after the command read it: the final check sees it and writes nothing.
    import memorybank.atomic as atomic
    from memorybank.bank import Bank
    from memorybank.deliver import deliver
    from memorybank.errors import BankError
    from memorybank.install import install
    from memorybank.uninstall import uninstall

    top = project(tmp_path / "proj", {"AGENTS.md": "# Ours\n", ".mcp.json": '{"mcpServers": {}}\n'})
    bank = top / "memory_bank"
    if command == "uninstall":
        install(bank)
        deliver(Bank(bank), targets="agents")
    saved = {"AGENTS.md": b"# Ours, saved by a person\n", ".mcp.json": b'{"mcpServers": {"mine": {}}}\n'}
    real = atomic.replace_files

    def editor_saves_first(*args, **kwargs):
        for rel, data in saved.items():
            (top / rel).write_bytes(data)
        return real(*args, **kwargs)

    for module in ("memorybank.install", "memorybank.deliver.files", "memorybank.uninstall"):
        monkeypatch.setattr(f"{module}.replace_files", editor_saves_first)
    with pytest.raises(BankError, match="changed on disk since it was read") as caught:
        if command == "install":
            install(bank)
        elif command == "deliver":
            deliver(Bank(bank), targets="agents")
        else:
            uninstall(bank)
    assert "nothing was" in caught.value.message or "no delivered file was changed" in caught.value.message
    assert {rel: (top / rel).read_bytes() for rel in saved} == saved


def test_two_installs_at_once_leave_one_entry_and_a_clear_refusal_at_most(tmp_path):
    top = project(tmp_path / "proj", {".mcp.json": '{\n  "mcpServers": {\n    "o": {"command": "x"}\n  }\n}\n'})
    env = {**os.environ, "NO_COLOR": "1"}
    procs = [subprocess.Popen([cli_path(), "install", "--root", str(top / "memory_bank")], cwd=top, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=60), p.stderr.read()) for p in procs]
    for proc in procs:
        proc.stdout.close()
        proc.stderr.close()
    assert any(code == 0 for code, _ in results)
    assert all(code == 0 or "changed on disk since it was read" in err for code, err in results), results
    servers = json.loads((top / ".mcp.json").read_text())["mcpServers"]
    assert list(servers) == ["o", "memorybank"]
    hooks = json.loads((top / ".claude/settings.json").read_text())["hooks"]
    assert all(len(groups) == 1 for groups in hooks.values())


# -- names and permissions a person chose ---------------------------------------------------------------

def test_names_that_collide_after_case_folding_and_read_only_files_are_left_alone(tmp_path):
    top = project(tmp_path / "proj", {"claude.md": "# lower\n", ".Cursor/keep.txt": "mine\n", "agents.md": "lower\n",
                                      ".mcp.json": '{"mcpServers": {}}\n', "GEMINI.md": "Gemini.\n"})
    os.chmod(top / ".mcp.json", 0o444)
    os.chmod(top / "GEMINI.md", 0o444)
    before = snapshot(top)
    done = mb(top, "install", "--agents", "claude,cursor")
    assert done.returncode == 1
    assert "collides with the existing claude.md" in done.stderr and "collides with the existing .Cursor" in done.stderr
    assert "read-only. Make it writable (chmod u+w .mcp.json)" in done.stderr
    delivered = mb(top, "deliver", "--targets", "agents,gemini", "--json")
    assert delivered.returncode == 0, delivered.stderr
    reasons = {c["file"]: c.get("reason", "") for c in json.loads(delivered.stdout)["channels"]}
    assert "collides with the existing agents.md" in reasons["AGENTS.md"]
    assert reasons["GEMINI.md"].startswith("read-only; left alone")
    assert snapshot(top) == before


# -- .clinerules as a file in one repository and a folder in another ----------------------------------------

def test_clinerules_as_a_file_is_skipped_with_the_fix_and_as_a_folder_is_delivered_into(tmp_path):
    as_file = project(tmp_path / "a", {".clinerules": "# Team rules\n\nUse tabs.\n"})
    as_folder = project(tmp_path / "b", {".clinerules/team.md": "# Team rules\n\nUse tabs.\n"})
    kept = (as_file / ".clinerules").read_bytes()
    done = mb(as_file, "deliver", "--targets", "cline", "--json")
    assert done.returncode == 0, done.stderr
    reasons = {c.get("reason", "") for c in json.loads(done.stdout)["channels"] if c["action"] == "skipped"}
    assert any(".clinerules is a file" in r and "make it a folder" in r for r in reasons), reasons
    assert (as_file / ".clinerules").read_bytes() == kept
    assert mb(as_folder, "deliver", "--targets", "cline").returncode == 0
    assert (as_folder / ".clinerules/memorybank-rules.md").is_file()
    for top in (as_file, as_folder):
        imported = json.loads(mb(top, "import", "--json").stdout)
        assert [n["title"] for n in imported["filed"]] == ["Team rules"], imported


# -- import never files binary text --------------------------------------------------------------------

def test_import_skips_binary_nul_and_oversized_sources_by_name(tmp_path):
    top = project(tmp_path / "proj", {".cursorrules": b"# Rule\nuse \x00 tabs\n", ".windsurfrules": "# Fine\nOk.\n",
                                      "GEMINI.md": "# Big\n" + "x" * limits.INPUT_LIMIT,
                                      ".github/copilot-instructions.md": b"\xff\xfe# binary\x00\x01"})
    done = mb(top, "import", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [n["source"] for n in report["filed"]] == [".windsurfrules"]
    for needle in (".cursorrules holds NUL characters", "GEMINI.md is over 1 MB",
                   ".github/copilot-instructions.md is not UTF-8"):
        assert any(needle in w for w in report["warnings"]), (needle, report["warnings"])
    assert not any(b"\x00" in p.read_bytes() for p in (top / "memory_bank").rglob("*.md"))
