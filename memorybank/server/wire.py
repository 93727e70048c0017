"""The stdio wire in front of the SDK: a request the SDK cannot read still gets an answer.

The SDK's stdio transport drops a line its JSON parser rejects (a lone surrogate such as `\\ud800`,
nesting past its recursion limit, a number past its range) without replying, so the client waits
forever. Each incoming line is checked with the same parser first; a rejected line that is still a
request (it has an `id` and a `method`) is rewritten before the SDK sees it:

- `tools/call` keeps its id and tool name, and its arguments become one marker that `call_tool`
  turns into an `isError` result naming the reason;
- any other method keeps its id and method with `params` the SDK refuses, so it answers with a
  JSON-RPC "invalid params" error.

Two kinds of line are answered here, before the SDK sees them (the SDK would drop both):

- a request behind stray bytes (`\xff\xfe{"id":85,...}`) gets a JSON-RPC parse error (-32700)
  with its id;
- a line longer than `REQUEST_MAX` characters is never held in memory: its first characters are
  kept (for the id), the rest is read and dropped, and a `tools/call` gets an `isError` result
  while any other request gets a JSON-RPC "invalid request" error, both naming the limit.

Lines that are not requests (no id, not JSON at all) are passed on unchanged: there is nobody to
answer. The id and method are read with Python's `json` (which has no such limits) or, if even that
fails, from the start of the line.

Serving stdin ourselves means the fd-0 claim the SDK would make is made here: while serving, fd 0
points at the null device so child processes (git) can never read the wire.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import mcp_types as types

from ..limits import REQUEST_MAX

INVALID = "\u0000memorybank-unreadable"  # the marker key: no client sends a NUL-prefixed argument name
_ID = re.compile(r'^\s*\{.{0,200}?"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")', re.S)
_METHOD = re.compile(r'"method"\s*:\s*"([\w/.\-]{1,100})"')
_NAME = re.compile(r'"name"\s*:\s*"([\w.\-]{1,100})"')
_REASONS = (("hex escape", "a lone UTF-16 surrogate escape (\\ud800-\\udfff)"),
            ("recursion limit", "nesting deeper than the parser allows"),
            ("out of range", "a number too large to read"))


def reason_of(exc: Exception) -> str:
    text = str(exc)
    for needle, reason in _REASONS:
        if needle in text:
            return reason
    return "JSON the SDK cannot read"


def _small_int(text: str) -> int | None:
    return int(text) if len(text) <= 18 else None


def _parts(line: str) -> tuple[Any, str | None, str | None]:
    """`(id, method, tool name)` of a request line, or Nones when it does not read as a request."""
    try:
        data = json.loads(line, parse_int=_small_int)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict):
        params = data.get("params")
        name = params.get("name") if isinstance(params, dict) else None
        return data.get("id"), data.get("method"), name
    ident, method = _ID.search(line), _METHOD.search(line[:2000])
    if ident is None or method is None:
        return None, None, None
    try:
        value = json.loads(ident.group(1))
    except ValueError:
        return None, None, None
    name = _NAME.search(line[:4000])
    return value, method.group(1), name.group(1) if name else None


def _plain(value: Any) -> bool:
    """A string that survives the SDK's parser (no lone surrogates)."""
    return isinstance(value, str) and bool(value) and not any("\ud800" <= c <= "\udfff" for c in value)


def sanitize(line: str) -> str:
    """The line itself when the SDK can read it, else a readable request with the same id."""
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return line
    except Exception as exc:  # the SDK would drop the line; decide whether someone waits for an answer
        reason = reason_of(exc)
    ident, method, name = _parts(line)
    if not (isinstance(ident, int) and not isinstance(ident, bool) or _plain(ident)) or not _plain(method):
        return line
    if method == "tools/call" and _plain(name):
        params: dict[str, Any] = {"name": name, "arguments": {INVALID: reason}}
    else:
        params = {"_meta": f"unreadable request: {reason}"}
    return json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n"


_HEAD = 4000  # characters of an over-long line kept to find its id, method and tool name


def _error(ident: Any, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=message))


def _answerable(ident: Any) -> bool:
    return isinstance(ident, int) and not isinstance(ident, bool) or _plain(ident)


def screen(line: str) -> str | types.JSONRPCError:
    """`sanitize`, plus a parse error (-32700) for a request behind stray bytes that nobody else would answer."""
    out = sanitize(line)
    if out is not line:
        return out
    brace = line.find("{")
    if brace <= 0 or not line[:brace].strip():
        return out  # readable, or not a request at all
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return out
    except Exception:  # unreadable as a whole: is a request hiding behind the stray bytes?
        pass
    ident, method, _ = _parts(line[brace:])
    if not _answerable(ident) or not _plain(method):
        return out
    return _error(ident, types.PARSE_ERROR,
                  f"Parse error: the line starts with {brace} character(s) that are not JSON, so nothing was run. "
                  "Send each request as one JSON object per line, with nothing before it.")


def oversized(head: str) -> str | types.JSONRPCError | None:
    """The answer to a request line over `REQUEST_MAX` characters, from its first characters (None: no id)."""
    ident, method = _ID.search(head), _METHOD.search(head)
    if ident is None or method is None:
        return None
    try:
        value = json.loads(ident.group(1))
    except ValueError:
        return None
    if not _answerable(value) or not _plain(method.group(1)):
        return None
    reason = (f"more than {REQUEST_MAX:,} characters, over the request size limit; "
              "send smaller arguments (a body is capped at 1 MB anyway)")
    name = _NAME.search(head)
    if method.group(1) == "tools/call" and name is not None:
        params = {"name": name.group(1), "arguments": {INVALID: reason}}
        return json.dumps({"jsonrpc": "2.0", "id": value, "method": "tools/call", "params": params}) + "\n"
    return _error(value, types.INVALID_REQUEST, f"Invalid request: the request holds {reason}.")


Reply = Callable[[types.JSONRPCError], Awaitable[None]]


class SanitizedLines:
    """Async lines of a text file, screened (what `stdio_server` iterates); some are answered via `reply`.

    Lines are read with a size bound, so a client sending one endless line cannot make the server
    hold it; `reply` is set once the SDK's write stream exists.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.reply: Reply | None = None

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _read(self, size: int) -> str:
        return await anyio.to_thread.run_sync(self.stream.readline, size, abandon_on_cancel=True)

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            line = await self._read(REQUEST_MAX + 1)
            if not line:
                return
            verdict: str | types.JSONRPCError | None
            if len(line) > REQUEST_MAX and not line.endswith("\n"):
                head = line[:_HEAD]
                del line
                while True:  # drop the rest of the line without holding it
                    rest = await self._read(1 << 16)
                    if not rest or rest.endswith("\n"):
                        break
                verdict = oversized(head)
            else:
                verdict = screen(line)
            if isinstance(verdict, str):
                yield verdict
            elif verdict is not None and self.reply is not None:
                await self.reply(verdict)


@contextmanager
def claimed_stdin() -> Iterator[SanitizedLines]:
    """Serve the wire from a private duplicate of fd 0 and point fd 0 at the null device meanwhile."""
    import io

    private = os.dup(0)
    os.set_inheritable(private, False)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    stream = io.TextIOWrapper(os.fdopen(private, "rb", closefd=False), encoding="utf-8", errors="replace")
    try:
        yield SanitizedLines(stream)
    finally:
        os.dup2(private, 0)
