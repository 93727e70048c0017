"""The server's start-up work on the bank (issue 15: ready, not just started), begun before the SDK import.

`begin` decides the server's mode, repairs the bank (§16) and, for a served bank, starts a thread that
loads the parse cache, refreshes, restores (or builds) the body and routing indexes and saves the
cache. The CLI calls it before it imports the MCP SDK, so this work runs while the import does
(the stat walk and the reads release the interpreter lock) instead of after the client connected;
`serve` calls it again, which does nothing the second time. Calls wait for `READY`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

READY = threading.Event()  # set once the start-up prefetch is done; calls wait for it (one bank per process)
_BEGUN: list[Path] = []


def begin(root: str | Path, off_paths: Sequence[str] = ()) -> None:
    """Repair the bank and start the prefetch once per process (a bank switched off is not touched)."""
    if _BEGUN:
        return
    from ..mode import decide_mode
    path = Path(root).absolute()
    _BEGUN.append(path)
    mode = decide_mode(path, off_paths)
    if mode == "off":
        READY.set()
        return
    from ..leftovers import needs_repair
    if needs_repair(path):  # the writers are imported only when there is something to repair
        from ..writers.files import repair_on_start
        repair_on_start(path)
    if mode == "seed":
        READY.set()
        return
    threading.Thread(target=_prefetch, args=(path,), daemon=True, name="memorybank-prefetch").start()


def _prefetch(root: Path) -> None:
    """Build the index (from the parse cache when it is usable) while the SDK imports and the client
    initializes, so the first bank_route or bank_search is served at warm speed. Both indexes are
    built because routing reads body evidence; search's first, since search needs only it. Any
    failure here only leaves the work to the first call."""
    try:
        from ..bank import bank_for
        from ..cache import save
        from ..route import RouteIndex
        from ..search import SearchIndex
        bank = bank_for(root)
        bank.refresh()
        SearchIndex.of(bank)
        RouteIndex.of(bank)
        save(bank)
        _trim()
    except Exception:  # noqa: BLE001 - the first call rebuilds and reports any real problem
        pass
    finally:
        READY.set()


def _trim() -> None:
    """Hand the heap the start-up left free back to the system (glibc's `malloc_trim`; elsewhere nothing):
    loading the cache and building the indexes leave freed blocks the server would otherwise hold."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
