"""Garbage collection paused around bulk builds of the index (issue 15).

The index is made of acyclic records (documents, postings, tuples): the cyclic collector finds nothing
in them, yet a build of 10,000 documents triggers it hundreds of times over an ever larger heap (a
third of a cold build at 50,000). While a build runs it is off; afterwards what was built is moved
to the permanent generation (`gc.freeze`), so later collections do not walk it again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bulk() -> Iterator[None]:
    """Pause the cyclic collector for a bulk build (nested uses keep it paused until the outer ends)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.enable()
