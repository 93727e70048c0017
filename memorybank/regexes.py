"""Compiled regular expressions kept between processes, as `__pycache__` keeps compiled modules (prime-lean).

Compiling the time-word patterns (`timewords`) cost every cold route and prime process ~40 ms of CPU, more
than routing the question, and the modules a cold process imports compile ~60 more at import (~15 ms).
What `re` builds from a pattern is a program (a list of integers) that `_sre.compile` turns into the
`Pattern`; the program of a pattern and flags is a function of the Python build alone. `compiled` (a
module's patterns) and `compile_all` (the time words) take the programs saved in the parse cache folder
(`cache.cache_dir`, one file per Python build) and compile only the patterns missing there; `flush` (at
the end of a CLI call or a hook, and by `compile_all`) saves what this process compiled.

A program is saved only when the pattern it makes equals `re.compile`'s (`Pattern.__eq__` compares
programs), so a loaded pattern is the one `re` would have built. Anything unusable — caching off
(`MEMORYBANK_CACHE=off`), another build's file, a damaged or foreign file, an interpreter without
`_sre.compile` — means `re.compile`, as before.

The defence (s8-robust). `_sre.compile` checks a program only in part: one changed skip or argument in a
real program still passes and crashes the interpreter when the pattern runs (a random single-word change
does, often). No check short of compiling the pattern again (what the store saves) proves a program
safe, so the store is trusted the way Python trusts `__pycache__`, by who could have written it:
- the file is read as the parse cache is (`cache._read_own`): owned by this user, writable by no one
  else, a regular file never followed through a link, bounded in size, in a folder that only this user
  can change (`cache.trusted_folder`: not group- or world-writable unless sticky); in any other folder
  the store is neither read nor written;
- it names its own (device, inode) (`_where`): a copy from an archive, a restored CI cache or a synced
  home is another file and is not read;
- a CRC-32 over the body catches damaged bytes before `marshal` reads them;
- every program is checked for shape before `_sre` sees it (`_valid`: a 5-tuple of the types `re` hands
  over, code words within `_sre.CODESIZE`, the group tables agreeing, an INFO block first and SUCCESS
  last), and any exception on the way (marshal, shape, `_sre`'s own check) means the pattern is compiled.
What stays open is a program crafted by this very user in place: one who can do that can also edit the
installed modules or their `__pycache__`, which Python runs unchecked.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import zlib

FORMAT = 2  # 2: the file names its own inode (attack-lean)
MAGIC = b"MBREGEX\n"
SUFFIX = ".mbre"
MAX_PATTERNS = 512  # programs in one file: patterns of older code are dropped past it
_LOADED: dict[tuple[str | bytes, int], tuple] = {}  # (pattern, flags) → program, from the file (filled once)
_PENDING: dict[tuple[str | bytes, int], tuple] = {}  # compiled in this process, not saved yet (`flush`)
_STATE = {"read": False}


def _build() -> tuple:
    import _sre

    return (FORMAT, sys.version, sys.hexversion, sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE,
            sys.maxunicode)


def _path() -> str | None:
    from .cache import cache_dir, cache_file, enabled

    if not enabled() or sys.implementation.name != "cpython":
        return None
    banks = sys.modules.get(__package__ + ".bank")
    if banks is not None and any(cache_file(root) is None for root in list(getattr(banks, "_BANKS", ()))):
        return None  # attack-lean: the folder lies in a bank this process opened (never written, as cache_file)
    try:
        tag = zlib.crc32(repr(_build()).encode("utf-8", "surrogatepass"))
    except Exception:  # noqa: BLE001 - an `_sre` without its magic or code size (attack-lean): re.compile
        return None
    return os.path.join(os.path.realpath(cache_dir()), f"regex-{sys.implementation.cache_tag}-{tag:08x}{SUFFIX}")


def _read() -> dict[tuple[str | bytes, int], tuple]:
    if _STATE["read"]:
        return _LOADED
    _STATE["read"] = True
    path = _path()
    if path is None:
        return _LOADED
    try:
        _LOADED.update(_programs(path))
    except Exception:  # noqa: BLE001 - a store of any shape is ignored, never an error (rebuilt at `flush`)
        _LOADED.clear()
    return _LOADED


def _programs(path: str) -> dict[tuple[str | bytes, int], tuple]:
    """The programs of the store at `path` that are fit to hand to `_sre` (see the module's defence)."""
    from .cache import _read_own

    seen: list[os.stat_result] = []
    data = _read_own(path, seen)
    if data is None or not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        return {}
    body = data[len(MAGIC) + 4:]
    if zlib.crc32(body) != int.from_bytes(data[len(MAGIC):len(MAGIC) + 4], "little"):
        return {}
    found = marshal.loads(body)
    if type(found) is not tuple or len(found) != 3:
        return {}
    build, where, programs = found
    if build != _build() or where != _where(seen[0]) or type(programs) is not dict:
        return {}
    import _sre

    limit = 1 << (8 * _sre.CODESIZE)
    return {key: program for key, program in programs.items() if _valid(key, program, limit)}


_FLAGS = int(re.ASCII | re.IGNORECASE | re.LOCALE | re.MULTILINE | re.DOTALL | re.UNICODE | re.VERBOSE
             | re.DEBUG | getattr(re, "TEMPLATE", 0))
_MAX_CODE = 1 << 20  # words in one program (the largest pattern here has well under 10,000)


def _valid(key: object, program: object, limit: int) -> bool:
    """Is `program` shaped as `_program` makes one, for a `(pattern, flags)` key of the right types?"""
    if type(key) is not tuple or len(key) != 2 or type(key[0]) not in (str, bytes) or type(key[1]) is not int:
        return False
    if type(program) is not tuple or len(program) != 5:
        return False
    flags, code, groups, groupindex, indexgroup = program
    if type(flags) is not int or flags & ~_FLAGS or flags < 0 or type(code) is not list:
        return False
    if not 2 <= len(code) <= _MAX_CODE or not all(type(word) is int and 0 <= word < limit for word in code):
        return False
    from re import _constants

    if code[0] != _constants.INFO or code[-1] != _constants.SUCCESS or not 0 < code[1] < len(code):
        return False
    if type(groups) is not int or type(groupindex) is not dict or type(indexgroup) is not tuple:
        return False
    if not 0 <= groups < 1 << 16 or len(indexgroup) != groups + 1 or indexgroup[0] is not None:
        return False
    if any(type(name) is not str or type(number) is not int or not 0 < number <= groups
           or indexgroup[number] != name for name, number in groupindex.items()):
        return False
    return sum(name is not None for name in indexgroup) == len(groupindex)


def _where(info: os.stat_result) -> tuple[int, int]:
    """The file a store was written as (device, inode), saved in it: a copy of a store, from an archive or
    another machine's cache (a restored CI cache, a synced home), is another file and is not read. What
    `_sre.compile` is handed runs unchecked beyond a partial validation: a crafted program can crash the
    interpreter, or match what the pattern does not."""
    return (info.st_dev, info.st_ino)


def _program(pattern: str | bytes, flags: int) -> tuple:
    """What `re.compile(pattern, flags)` hands to `_sre.compile` (re._compiler.compile, step by step)."""
    from re import _compiler, _parser

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, number in groupindex.items():
        indexgroup[number] = name
    return (int(flags | parsed.state.flags), [int(op) for op in code], parsed.state.groups - 1, groupindex,
            tuple(indexgroup))


def _made(pattern: str | bytes, program: tuple) -> re.Pattern:
    import _sre

    return _sre.compile(pattern, *program)  # validates the program (a RuntimeError for one it cannot run)


def compiled(pattern: str | bytes, flags: int = 0) -> re.Pattern:
    """`re.compile(pattern, flags)`, from the saved program when there is one; a pattern compiled here is
    saved by the next `flush` (a module's patterns are compiled at its import, one at a time)."""
    flags = int(flags)
    program = _read().get((pattern, flags))
    if program is not None:
        try:
            return _made(pattern, program)
        except Exception:  # noqa: BLE001 - a program this build refuses: compiled as always
            pass
    found = re.compile(pattern, flags)
    try:
        program = _program(pattern, flags)
        if _made(pattern, program) == found:
            _PENDING[(pattern, flags)] = program
    except Exception:  # noqa: BLE001 - another re: nothing saved, nothing lost
        pass
    return found


def compile_all(specs: list[tuple[str, int]]) -> list[re.Pattern]:
    """`compiled` for each spec; what was compiled here is saved at once."""
    out = [compiled(pattern, flags) for pattern, flags in specs]
    flush()
    return out


def flush() -> None:
    """Save the programs of the patterns this process compiled (nothing to do when none was)."""
    if not _PENDING:
        return
    programs = dict(_PENDING)
    _PENDING.clear()
    path = _path()
    if path is None:
        return
    _LOADED.update(programs)
    kept = _LOADED if len(_LOADED) <= MAX_PATTERNS else programs
    from .cache import replace_private

    def content(where: os.stat_result) -> bytes:
        try:
            body = marshal.dumps((_build(), _where(where), kept))
        except ValueError as error:
            raise OSError("a program marshal cannot write") from error
        return MAGIC + zlib.crc32(body).to_bytes(4, "little") + body

    try:
        replace_private(path, SUFFIX, content)
    except OSError:
        return
