"""The one error type for refusals."""


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
