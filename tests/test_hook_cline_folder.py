"""A Cline-layout project keeps its bank in `memory-bank/`: the hooks and a CLI call without --root find it
as they find `memory_bank/` (attack-s5: the prime hook printed nothing for every Cline project).

Driven through the real `mcp-memorybank-hook prime` fed a UserPromptSubmit payload from a subfolder of a
git project, and the real CLI run there without --root.
"""

from __future__ import annotations

import json
import subprocess

from conftest import cli_in_process, git_repo, hook_env, hook_in_process, hook_path, prompt_payload

CLINE = {
    "src/app.py": "print('hi')\n",
    "memory-bank/projectbrief.md": "# Project Brief\n\nA bot that files invoices sent by mail.\n",
    "memory-bank/techContext.md": "# Tech Context\n\n## Stack\n\nThe mailbox is polled over IMAP every minute; "
                                  "attachments are parsed with pdfminer.\n",
    "memory-bank/progress.md": "# Progress\n\n## Left\n\nRetry of a failed IMAP login is not written yet.\n",
}


def test_prime_hook_and_cli_find_a_cline_memory_bank_folder(tmp_path):
    project = git_repo(tmp_path / "proj", CLINE)
    below = project / "src"
    proc = subprocess.run([hook_path(), "prime"], input=prompt_payload(below, "how often is the IMAP mailbox polled?"),
                          capture_output=True, cwd=str(below), env=hook_env(), timeout=60)
    assert proc.returncode == 0 and "techContext.md" in proc.stdout.decode(), (proc.stdout, proc.stderr)
    found = cli_in_process("--route", "how often is the IMAP mailbox polled?", "--json", cwd=below,
                           env={k: "" for k in ("MEMORYBANK_ROOT",)})
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"][0]["path"] == "techContext.md"


def test_memory_bank_wins_over_memory_dash_bank_in_the_same_folder(tmp_path):
    project = git_repo(tmp_path / "both", {**CLINE, "memory_bank/notes.md": "# Notes\n\nIMAP polling is "
                                           "described in the other folder.\n"})
    proc = hook_in_process("prime", stdin=prompt_payload(project, "how often is the IMAP mailbox polled?"),
                           cwd=project, env=hook_env(), text=True)
    assert proc.returncode == 0
    assert "techContext.md" not in proc.stdout, proc.stdout


def test_a_committed_memory_dash_bank_symlink_out_of_the_project_is_refused(tmp_path):
    # the new folder name gets the same guard as memory_bank/: a clone's symlink never leads the hooks outside
    outside = tmp_path / "outside"
    outside.mkdir()
    for name, text in CLINE.items():
        if name.startswith("memory-bank/"):
            (outside / name.split("/", 1)[1]).write_text(text, encoding="utf-8")
    before = sorted((p.name, p.stat().st_mtime_ns) for p in outside.iterdir())
    project = tmp_path / "proj"
    project.mkdir()
    (project / "memory-bank").symlink_to("../outside")
    git_repo(project, {"src/app.py": "print('hi')\n"})
    for args, event in ((("prime",), "UserPromptSubmit"), ((), "Stop")):
        data = json.loads(prompt_payload(project, "how often is the IMAP mailbox polled?"))
        data["hook_event_name"] = event
        proc = subprocess.run([hook_path(), *args], input=json.dumps(data).encode(), capture_output=True,
                              cwd=str(project), env=hook_env(), timeout=60)
        assert proc.returncode == 0 and proc.stdout == b"", (args, proc.stdout)
        assert b"symlink" in proc.stderr and b"Replace the symlink" in proc.stderr, proc.stderr
    assert sorted((p.name, p.stat().st_mtime_ns) for p in outside.iterdir()) == before
