"""One real stdio server per test module: the official `mcp` client driven from sync tests.

Spawning the server costs most of an end-to-end test (importing the SDK takes ~0.5 s), so
read-only tests share a session: an anyio blocking portal runs the client's event loop in a
thread, and tests call into it.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal
from conftest import cli_path
from mcp import Client, StdioServerParameters

from memorybank.writers.files import LOCK_NAME


def params(root: Path, *extra: str) -> StdioServerParameters:
    # the SDK passes the server only a few variables by default: hand it ours (the test cache folder)
    return StdioServerParameters(command=cli_path(), args=["--root", str(root), *extra], env=dict(os.environ))


def payload(result: Any) -> dict:
    """The JSON of a successful tool result (fails the test on an isError result)."""
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


class Session:
    """A connected client to a spawned `mcp-memorybank`, usable from synchronous code."""

    def __init__(self, root: Path, *extra: str, mode: str = "legacy") -> None:
        self._portal_cm = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        self._client_cm = self.portal.wrap_async_context_manager(Client(params(root, *extra), mode=mode))
        self.client = self._client_cm.__enter__()

    def call(self, name: str, args: dict | None = None) -> Any:
        return self.portal.call(self.client.call_tool, name, args or {})

    def ok(self, name: str, args: dict | None = None) -> dict:
        return payload(self.call(name, args))

    def run(self, func: Any, *args: Any) -> Any:
        """Run `await func(*args)` on the client's loop (e.g. `session.run(session.client.list_tools)`)."""
        return self.portal.call(func, *args)

    def close(self) -> None:
        try:
            self._client_cm.__exit__(None, None, None)
        finally:
            self._portal_cm.__exit__(None, None, None)


class Wire:
    """The real server over raw stdio, reading answers with a guard so a silent server fails the test."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen([cli_path(), "--root", str(root)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.pending = b""
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        assert self.ask(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}).encode())
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    def send(self, line: bytes) -> None:
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def ask(self, line: bytes) -> dict:
        self.send(line)
        while b"\n" not in self.pending:
            if not self.selector.select(timeout=60):  # a guard against a server that never answers
                pytest.fail("the server did not answer")
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            assert chunk, "the server closed the wire"
            self.pending += chunk
        answer, _, self.pending = self.pending.partition(b"\n")
        return json.loads(answer)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=20)


class Snapshot:
    """Every file and folder under `root` as it is now, to put back in place between tests.

    Tests that share one server over a bank they write reset it with `restore()`: files are
    rewritten in place (the server's index re-checks file stamps on every call, so it sees the
    restore); extra files, links and folders are removed; the writers' lock file is left alone.
    A restored file gets an mtime no write ever gives (a counter in 1990), so its stamp differs
    from every one the server saw, even within one clock tick.
    """

    _tick = 0

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, tuple[bytes, int]] = {}
        self.dirs: dict[str, int] = {}
        for folder, dirs, names in os.walk(root):
            rel = os.path.relpath(folder, root)
            self.dirs[rel] = os.stat(folder).st_mode
            for name in names:
                path = os.path.join(folder, name)
                if not os.path.islink(path) and name != LOCK_NAME:
                    self.files[os.path.normpath(os.path.join(rel, name))] = (Path(path).read_bytes(),
                                                                            os.stat(path).st_mode)

    def restore(self) -> None:
        for folder, dirs, names in os.walk(self.root, topdown=False):
            rel = os.path.relpath(folder, self.root)
            for name in names + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
                if name != LOCK_NAME and os.path.normpath(os.path.join(rel, name)) not in self.files:
                    os.unlink(os.path.join(folder, name))
            if rel not in self.dirs:
                os.rmdir(folder)
        for rel, mode in sorted(self.dirs.items()):
            folder = self.root / rel
            folder.mkdir(exist_ok=True)
            os.chmod(folder, mode)
        for rel, (data, mode) in self.files.items():
            path = self.root / rel
            if path.is_symlink():
                path.unlink()
            elif path.exists() and path.read_bytes() == data and os.stat(path).st_mode == mode:
                continue
            path.write_bytes(data)
            os.chmod(path, mode)
            Snapshot._tick += 1
            stamp = 631_152_000 * 10**9 + Snapshot._tick * 1_000
            os.utime(path, ns=(stamp, stamp))
