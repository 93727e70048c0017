"""The one error type for refusals, and how a refusal (or a result's hint) is shown by a face."""

import re
from collections.abc import Callable, Iterable

Namer = Callable[[str], str]


def _same(name: str) -> str:
    return name


class BankError(Exception):
    """A refusal: the message names the gate that refused and the fix.

    Capabilities raise it; the CLI prints it to stderr (exit 1) and the MCP server returns it as an
    `isError` result. Nothing is written when it is raised by a writer.

    No core message names a tool, a command or a flag: each face names them in its own words.
    `see` names the actions the fix points at, as the product names them (`search`, `set_list`):
    `bank_search` over MCP, `mcp-memorybank search` on the command line. A parameter is written
    in the message as `{name}` (`"pass {base_version} …"`) and listed in `param` or `names`: MCP
    shows `base_version`, the CLI `--base-version`. `param` is the parameter whose value is not
    one of the allowed ones: the CLI treats that as a usage error (exit 2); `names` are the other
    parameters the message speaks of. `str(exc)` is the message in the product's words.
    """

    def __init__(self, message: str, see: str | tuple[str, ...] | None = None, param: str | None = None,
                 names: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.see: tuple[str, ...] = (see,) if isinstance(see, str) else tuple(see or ())
        self.param = param
        self.names: tuple[str, ...] = tuple(dict.fromkeys([*([param] if param else []), *names]))

    def __str__(self) -> str:
        return spell(self.message, self.names, _same)


def spell(text: str, names: Iterable[str], param: Namer) -> str:
    """`text` with each `{name}` of `names` spelled by a face (`param("base_version")` → `--base-version`).

    Only the listed names are replaced, so braces in an echoed value (`{path, section}`) stay as they are.
    """
    for name in names:
        text = text.replace("{" + name + "}", param(name))
    return text


def said(text: str, see: Iterable[str], names: Iterable[str], action: Namer, param: Namer = _same) -> str:
    """A message as a face shows it: its parameters spelled, and `(see …)` naming the actions it points at."""
    text = spell(text, names, param)
    see = tuple(see)
    return f"{text} (see {', '.join(action(name) for name in see)})" if see else text


def shown(exc: BankError, name: Namer, param: Namer = _same) -> str:
    """The refusal's message as a face shows it (`name("search")` → `bank_search`, `param` spells parameters)."""
    return said(exc.message, exc.see, exc.names, name, param)


MESSAGE_LIMIT = 2000
_LONG_RUN = re.compile(r"\S{201,}")  # a run of non-space characters this long is an echoed value, not prose


def clip(message: str) -> str:
    """A refusal as it is shown: echoed values over 200 characters cut to 120, the whole to 2,000.

    A caller's 1 MB path or heading must not come back as a 1 MB error (it is read by a model).
    """
    text = _LONG_RUN.sub(lambda m: m.group()[:120] + "…", message)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + " … (message cut)"
