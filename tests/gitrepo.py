"""Real git repositories for tests: fixed identity and dates, no dependence on the user's git config."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from memorybank.bank import Bank


def git_env(date: str | None = None) -> dict[str, str]:
    """An environment for git commands run by tests: no global/system config, fixed identity and date."""
    env = dict(os.environ)
    env.update({
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.invalid",
        "GIT_COMMITTER_NAME": "Test Author", "GIT_COMMITTER_EMAIL": "author@example.invalid",
    })
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    return env


class Repo:
    """A git work tree in a temporary folder, committed with fixed dates."""

    def __init__(self, path: Path, init: bool = True) -> None:
        self.path = path
        if init:
            path.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")

    def copy(self, target: Path) -> Repo:
        """An independent copy (work tree and history) at `target`: build once, copy per test."""
        shutil.copytree(self.path, target, symlinks=True)
        return Repo(target, init=False)

    def git(self, *args: str, date: str | None = None) -> str:
        out = subprocess.run(("git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false") + args,
                             cwd=self.path, env=git_env(date), check=True, capture_output=True, text=True)
        return out.stdout

    def bank(self, folder: str = "memory_bank") -> Bank:
        """A fresh index over the bank folder inside the repository."""
        return Bank(self.path / folder)

    def write(self, rel: str, text: str) -> Path:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return target

    def commit(self, message: str, date: str, files: dict[str, str] | None = None) -> str:
        """Write `files`, stage everything and commit at `date` (ISO, e.g. `2026-01-10T12:00:00Z`); returns the id."""
        for rel, text in (files or {}).items():
            self.write(rel, text)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, date=date)
        return self.git("rev-parse", "HEAD").strip()


    def import_history(self, commits: list[tuple[int, dict[str, str | None]]]) -> None:
        """Append many commits at once with `git fast-import`: `(unix time, {path: text, or None to delete})`.

        The work tree is then reset to the new HEAD. Much faster than one `git commit` per step.
        """
        head = subprocess.run(["git", "rev-parse", "--verify", "--quiet", "HEAD"], cwd=self.path, env=git_env(),
                              capture_output=True, text=True).stdout.strip()
        chunks = []
        for number, (when, changes) in enumerate(commits):
            message = f"bulk {number}".encode()
            chunks.append(b"commit refs/heads/main\ncommitter Test Author <author@example.invalid> %d +0000\n"
                          b"data %d\n%s\n" % (when, len(message), message))
            if number == 0 and head:
                chunks.append(b"from %s\n" % head.encode())
            for path, text in changes.items():
                if text is None:
                    chunks.append(b"D %s\n" % path.encode())
                else:
                    data = text.encode()
                    chunks.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
        subprocess.run(["git", "fast-import", "--quiet"], cwd=self.path, env=git_env(), input=b"".join(chunks),
                       check=True)
        self.git("reset", "-q", "--hard", "main")
