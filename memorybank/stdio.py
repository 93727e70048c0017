"""`echo`: click.echo's output for one line of text, without importing click on the common path.

Importing click costs ~45 ms of every cold CLI call, while a call's output is one `write`. The plain
case — POSIX, a real text stream whose encoding is not ASCII, text without an escape character — is
exactly what click.echo does there: write the text and a newline, then flush. Anything else (a
Windows console, an ASCII-encoded stream click re-wraps, ANSI codes click strips off a non-terminal,
another stream object) goes through click.echo itself, so the output never differs.
"""

from __future__ import annotations

import codecs
import io
import os
import sys


def echo(text: str, err: bool = False) -> None:
    """Print `text` and a newline to stdout (stderr with `err`), as `click.echo(text, err=err)` does."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # no console (pythonw): click prints nothing either
        return
    if "\x1b" in text or os.name == "nt" or not _plain(stream):
        import click

        click.echo(text, err=err)
        return
    stream.write(text + "\n")
    stream.flush()


def _plain(stream: object) -> bool:
    """A stream click.echo writes to as it is: a text file with an encoding (not ASCII) and an errors mode."""
    if type(stream) is not io.TextIOWrapper or not stream.errors or not stream.encoding:
        return False
    try:
        return codecs.lookup(stream.encoding).name != "ascii"
    except LookupError:
        return True  # click's `is_ascii_encoding` reads an unknown codec as not ASCII


ESCAPE = "memorybank.escape"


def plug_streams() -> None:
    """Make stdout and stderr safe to print anything to, before a command starts.

    A process started with a stream closed (`cmd >&-`) has None there, which every print, isatty and
    flush would trip over (a traceback, exit 1): it reads as the null device, as `print` treats None
    (opening it also takes the free descriptor, so no file opened later becomes "stdout"). A stream
    whose encoding cannot hold every character (`PYTHONIOENCODING=latin-1`, a Windows code page when
    output is redirected) writes what it cannot hold as `\\uXXXX` escapes (surrogate pairs beyond the
    BMP) instead of raising: text stays readable and JSON output stays valid JSON that decodes to the
    same strings. A stream already given an errors mode other than strict is left as it is.
    """
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (lives as long as the process)
        elif type(stream) is io.TextIOWrapper and stream.errors == "strict" and not _holds_all(stream.encoding):
            try:
                codecs.lookup_error(ESCAPE)
            except LookupError:
                codecs.register_error(ESCAPE, _escape)
            stream.reconfigure(errors=ESCAPE)


def _holds_all(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "ascii").name.startswith("utf")
    except LookupError:
        return True  # an unknown codec: nothing to adjust


def _escape(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler of `plug_streams`: each character the encoding lacks as JSON's `\\uXXXX`."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    parts = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            parts.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            parts.append(f"\\u{code:04x}")
    return "".join(parts), error.end
