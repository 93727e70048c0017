"""The prompt and session hooks (issue 14.3): `mcp-memorybank-hook prime` and `mcp-memorybank-hook session-start`.

Claude Code runs `prime` on `UserPromptSubmit` (stdin: `{"prompt", "cwd", "session_id", …}`) and
`session-start` on `SessionStart`; for both, plain text on stdout with exit 0 is added to the agent's
context. `prime` prints `prime.prime`'s injection or nothing; `session-start` prints `prime.overview`.
The bank is found as the Stop hook finds it (`--root`, `$MEMORYBANK_ROOT`, else `memory_bank/` or
`memory-bank/` up to the git top-level), and the same off switches silence them.

They never fail the prompt: any error prints nothing on stdout, one line on stderr, and exits 0.
A prime runs on every prompt, cold: only the bank index, routing and the body index are imported
(no mcp, no GitPython, no click), and only after a bank has been found.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from .hook import Quiet, answer, find_bank, no_bank_at, parse_args, read_payload
from .mode import OFF_MARKER
from .project import git_toplevel, linked_out

PROG = "mcp-memorybank-hook"
COMMANDS = ("prime", "session-start")

USAGE = f"""usage: {PROG} prime|session-start [--root BANK]

prime          UserPromptSubmit hook: prints pointers to the bank documents that likely answer the
               prompt (at most 3, ≤ 200 tokens), or nothing when none clears the confidence bar.
session-start  SessionStart hook: prints a short overview of the bank (≤ 120 tokens).
Both read the hook's JSON payload on stdin and always exit 0. Bank: --root, else $MEMORYBANK_ROOT,
else memory_bank/ (or memory-bank/) in the working folder or its ancestors up to the
git top-level.
MEMORYBANK_HOOK=off or a .memorybank-off file beside the bank silences them."""


def _event(stream) -> dict:
    return read_payload(stream, "the hook's JSON payload")


def _bank_folder(event: dict, explicit_root: str | None) -> Path:
    if os.environ.get("MEMORYBANK_HOOK", "").strip().lower() in ("off", "0", "false", "no"):
        raise Quiet
    raw_cwd = event.get("cwd")
    cwd = Path(os.path.realpath(raw_cwd if isinstance(raw_cwd, str) and raw_cwd else os.getcwd()))
    explicit = explicit_root or os.environ.get("MEMORYBANK_ROOT") or None
    top = None if explicit else (git_toplevel(cwd) if cwd.is_dir() else None)
    bank = find_bank(explicit, cwd, top)
    if bank is None and explicit_root:
        raise no_bank_at(explicit_root)
    if bank is None or (bank.parent / OFF_MARKER).exists():
        raise Quiet
    escape = linked_out(bank)
    if escape is not None:
        raise ValueError(escape.message)
    return bank


def respond(command: str, event: dict, explicit_root: str | None) -> str:
    """The text to print for one hook event ('' for nothing)."""
    folder = _bank_folder(event, explicit_root)
    from .bank import Bank, answered
    from .cache import save
    from .prime import overview, prime
    from .regexes import flush

    def run(bank: Bank) -> str:
        if command == "prime":
            prompt = event.get("prompt")
            return prime(bank, prompt)["text"] if isinstance(prompt, str) else ""
        return overview(bank)

    bank, text = answered(folder, run)  # a malformed part of the cache file: answered from the files
    save(bank)
    flush()  # the patterns this prompt compiled are taken ready-made by the next one
    return text


def main(command: str, argv: list[str]) -> None:
    """Entry point of both subcommands: print the text or nothing; always exit 0."""
    def respond_to_event() -> str | None:
        explicit = parse_args(argv, USAGE, command)  # before stdin is read: a usage error must not wait for input
        return respond(command, _event(sys.stdin), explicit)

    answer(f"{PROG} {command}", respond_to_event)
    with contextlib.suppress(OSError, ValueError):  # then skip the interpreter's teardown of the index
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(0)
