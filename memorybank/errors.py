"""The one error type for refusals, and how a refusal is shown."""

import re
from collections.abc import Callable


class BankError(Exception):
    """A refusal: the message names the gate that refused and the fix.

    Capabilities raise it; the CLI prints it to stderr (exit 1) and the MCP server returns it as an
    `isError` result. Nothing is written when it is raised by a writer.

    `see` names the actions the fix points at, as the product names them (`search`, `set_list`):
    each face renders them in its own words (`bank_search` over MCP, `mcp-memorybank search` on the
    command line), so no core message names a tool or a flag. `param` names the parameter whose
    value is not one of the allowed ones: the CLI treats that as a usage error (exit 2).
    """

    def __init__(self, message: str, see: str | tuple[str, ...] | None = None, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.see: tuple[str, ...] = (see,) if isinstance(see, str) else tuple(see or ())
        self.param = param

    def __str__(self) -> str:
        return self.message


def shown(exc: BankError, name: Callable[[str], str]) -> str:
    """The refusal's message with its `see` actions named by a face (`name("search")` → `bank_search`)."""
    if not exc.see:
        return exc.message
    return f"{exc.message} (see {', '.join(name(action) for action in exc.see)})"


MESSAGE_LIMIT = 2000
_LONG_RUN = re.compile(r"\S{201,}")  # a run of non-space characters this long is an echoed value, not prose


def clip(message: str) -> str:
    """A refusal as it is shown: echoed values over 200 characters cut to 120, the whole to 2,000.

    A caller's 1 MB path or heading must not come back as a 1 MB error (it is read by a model).
    """
    text = _LONG_RUN.sub(lambda m: m.group()[:120] + "…", message)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + " … (message cut)"
