"""Atomic file replacement: temp file in the same folder, fsync, `os.replace` (§10, §16).

Standard library only (the stop hook uses it). Writers are expected to share this one routine.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace `path` with `data` so readers see the old bytes or the new, never a partial file.

    Keeps the old file's permission bits (a new file gets the umask default, not mkstemp's 0600), and
    writes through a symlink to its target instead of replacing the link. The temp file is removed
    on any failure.
    """
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
