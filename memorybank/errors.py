"""The one error type for refusals, and how a refusal is shown."""

import re


class BankError(Exception):
    """A refusal: the message names the gate that refused and the fix.

    Capabilities raise it; the CLI prints it to stderr (exit 1) and the MCP server returns it as an
    `isError` result. Nothing is written when it is raised by a writer.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


MESSAGE_LIMIT = 2000
_LONG_RUN = re.compile(r"\S{201,}")  # a run of non-space characters this long is an echoed value, not prose


def clip(message: str) -> str:
    """A refusal as it is shown: echoed values over 200 characters cut to 120, the whole to 2,000.

    A caller's 1 MB path or heading must not come back as a 1 MB error (it is read by a model).
    """
    text = _LONG_RUN.sub(lambda m: m.group()[:120] + "…", message)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + " … (message cut)"
