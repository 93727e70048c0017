"""Test banks and route helpers more than one test module uses (one copy, so a fix reaches every user)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from conftest import cli_in_process, git_repo, run_cli

LINKED_WORDS = ("filter", "threshold", "queue", "export", "ledger", "rounding")


def linked_docs(root: Path, count: int, link: Callable[[list[str]], str],
                tail: Callable[[int, list[str]], str]) -> Path:
    """`count` governed pages under domain/ and ops/ sharing words, each deriving from and linking to
    ops/doc-00.md (`link(near)`: the sentence holding the link), with a last `## Zz` section (`tail(i, near)`)."""
    for i in range(count):
        folder = root / ("domain" if i % 2 else "ops")
        folder.mkdir(parents=True, exist_ok=True)
        near = [LINKED_WORDS[(i + k) % len(LINKED_WORDS)] for k in range(3)]
        (folder / f"doc-{i:02}.md").write_text(
            f"---\ntitle: {near[0].title()} {i}\npurpose: How the {near[1]} meets the {near[2]}.\n"
            f"canonical_for: [{near[0]} {near[2]}]\nderived_from:\n  - ../ops/doc-00.md\n---\n# {near[0]}\n\n"
            f"## {near[1].title()} {near[2]}\n\n{link(near)}\n\n## Zz\n\n{tail(i, near)}\n", encoding="utf-8")
    return root


def money_rule(dont: str, extra: str = "") -> str:
    """The no-float-money rule anchored on src/money.py (`extra`: more frontmatter lines, e.g. a guard)."""
    return ("---\ntitle: No float money\ndoc_kind: rule\nstatus: active\npurpose: Read when code handles money.\n"
            f"anchors:\n  - src/money.py\ndo: Store money as integer cents.\ndont: {dont}\n{extra}---\n\n"
            "# No float money\n")


def route_results(bank: Path, question: str, *extra: str, real: bool = False) -> list[dict]:
    """The rows of `--route QUESTION --json` (a real process when `real`, else the CLI in this process)."""
    out = (run_cli if real else cli_in_process)("--root", str(bank), "--route", question, *extra, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["results"]


def route_paths(bank: Path, question: str, real: bool = False) -> list[str]:
    return [row["path"] for row in route_results(bank, question, real=real)]


def primed_paths(bank: Path, prompt: str) -> list[str]:
    """The documents `--prime PROMPT --json` injects (the CLI in this process)."""
    out = cli_in_process("--root", str(bank), "--prime", prompt, "--json")
    assert out.returncode == 0, out.stderr
    return [item["path"] for item in json.loads(out.stdout)["documents"]]


START = "# Bank\n\nStart here.\n"  # a bank's README.md


def release_page() -> str:
    """ops/release.md of the small governed banks: a page on an unrelated topic beside the one asked about."""
    from conftest import doc

    return doc("Release", "Publishing a version.",
               body="## Checklist\n\nThe changelog has an entry before the tag is pushed.\n")


def assert_routes_first(root: Path, pages: dict[str, str], questions: dict[str, str], real: str | None = None) -> None:
    """A bank of `pages` under docs/: each question's first route result is its page. The question `real`
    is asked of a real process first (once, then the others through the CLI in this process)."""
    from conftest import write_bank

    bank = write_bank(root, {f"docs/{name}": text for name, text in pages.items()})
    if real is not None:
        assert route_paths(bank, real, real=True)[:1] == [f"docs/{questions[real]}"]
    for question, page in questions.items():
        paths = route_paths(bank, question)
        assert paths[:1] == [f"docs/{page}"], (question, paths)


def governed_project(root: Path, pages: dict[str, str]) -> Path:
    """A git project at `root` whose bank is `memory_bank/`: its README plus `pages` (paths inside the bank)."""
    files = {"memory_bank/README.md": START}
    files.update({f"memory_bank/{path}": text for path, text in pages.items()})
    return git_repo(root, files)
