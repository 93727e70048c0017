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


def plug_closed() -> None:
    """A process started with stdout or stderr closed (`cmd >&-`) has None there, which every print, isatty
    and flush would trip over (a traceback, exit 1). Such a stream reads as the null device, as `print`
    treats None; opening it also takes the free descriptor, so no file opened later becomes "stdout"."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (lives as long as the process)
