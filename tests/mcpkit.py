"""One real stdio server per test module: the official `mcp` client driven from sync tests.

Spawning the server costs most of an end-to-end test (importing the SDK takes ~0.5 s), so
read-only tests share a session: an anyio blocking portal runs the client's event loop in a
thread, and tests call into it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from anyio.from_thread import start_blocking_portal
from conftest import cli_path
from mcp import Client, StdioServerParameters


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
