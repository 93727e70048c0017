"""Whether the caller is remote (an MCP client), without importing the writers (issue 15: ready).

The server wraps every call in `remote_caller`; the writers (`writers/files.py`) read `REMOTE` to confine
a remote caller's input files to the project.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

REMOTE: ContextVar[Path | None] = ContextVar("memorybank_remote_bank", default=None)


@contextmanager
def remote_caller(root: Path) -> Iterator[None]:
    """Within this block the caller is remote (an MCP client): `body_file`/`content_file` are read only
    inside the project folder of the bank at `root`, never through a symlink, never under `.git/` or any
    other hidden file or folder.

    A person at a shell (the CLI) keeps full access; an agent that a prompt injection steers must
    not copy `~/.ssh/…` into a document that `bank_read` then returns.
    """
    token = REMOTE.set(root)
    try:
        yield
    finally:
        REMOTE.reset(token)
