"""A Cline-layout project keeps its bank in `memory-bank/`: the hooks and a CLI call without --root find it
as they find `memory_bank/` (attack-s5: the prime hook printed nothing for every Cline project).

Driven through the real `mcp-memorybank-hook prime` fed a UserPromptSubmit payload from a subfolder of a
git project, and the real CLI run there without --root.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import cli_in_process, git_repo, hook_in_process, hook_path

CLINE = {
    "src/app.py": "print('hi')\n",
    "memory-bank/projectbrief.md": "# Project Brief\n\nA bot that files invoices sent by mail.\n",
    "memory-bank/techContext.md": "# Tech Context\n\n## Stack\n\nThe mailbox is polled over IMAP every minute; "
                                  "attachments are parsed with pdfminer.\n",
    "memory-bank/progress.md": "# Progress\n\n## Left\n\nRetry of a failed IMAP login is not written yet.\n",
}


def payload(cwd: Path, prompt: str) -> bytes:
    return json.dumps({"session_id": "s-1", "transcript_path": str(cwd / "t.jsonl"), "cwd": str(cwd),
                       "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
                       "prompt": prompt}).encode()


def hook_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if k == "MEMORYBANK_CACHE_DIR" or not (k.startswith("MEMORYBANK_") or k == "CLAUDE_PROJECT_DIR")}


def test_prime_hook_and_cli_find_a_cline_memory_bank_folder(tmp_path):
    project = git_repo(tmp_path / "proj", CLINE)
    below = project / "src"
    proc = subprocess.run([hook_path(), "prime"], input=payload(below, "how often is the IMAP mailbox polled?"),
                          capture_output=True, cwd=str(below), env=hook_env(), timeout=60)
    assert proc.returncode == 0 and "techContext.md" in proc.stdout.decode(), (proc.stdout, proc.stderr)
    found = cli_in_process("--route", "how often is the IMAP mailbox polled?", "--json", cwd=below,
                           env={k: "" for k in ("MEMORYBANK_ROOT",)})
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"][0]["path"] == "techContext.md"


def test_memory_bank_wins_over_memory_dash_bank_in_the_same_folder(tmp_path):
    project = git_repo(tmp_path / "both", {**CLINE, "memory_bank/notes.md": "# Notes\n\nIMAP polling is "
                                           "described in the other folder.\n"})
    proc = hook_in_process("prime", stdin=payload(project, "how often is the IMAP mailbox polled?"),
                           cwd=project, env=hook_env(), text=True)
    assert proc.returncode == 0
    assert "techContext.md" not in proc.stdout, proc.stdout
