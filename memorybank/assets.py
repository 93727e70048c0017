"""Where the shipped `starter/` and `flows/` folders are, in a wheel or an editable checkout."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def asset_dir(name: str) -> Path:
    """The shipped folder `name` (`starter` or `flows`).

    A wheel carries them inside the package (hatch force-include); an editable install finds them
    at the repository top, one level above the package.
    """
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"shipped folder {name!r} not found beside {_PACKAGE}")


@lru_cache(maxsize=1)
def shipped_template_names() -> frozenset[str]:
    """File names of the shipped templates (e.g. `adr.md`, `brief.md`)."""
    try:
        root = asset_dir("flows")
    except FileNotFoundError:
        return frozenset()
    return frozenset(p.name for p in root.rglob("*.md"))
