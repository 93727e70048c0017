"""Rewrite `lexicon.marshal`, the built-in dictionary's tables, from the sources in this folder.

    python -m memorybank.lang.regenerate [FILE]

Run it after changing a word list, the stemmer or `lexicon.py`; until then the tables are built in
every process (the same result, ~20 ms slower) and `tests/test_cold_process.py` fails. FILE (default:
the package's own `lexicon.marshal`) writes the tables elsewhere, for a check that leaves the package
alone. Runs at once are safe: each writes a temporary file of its own and renames it over FILE.
"""

from __future__ import annotations

import sys

from .lexicon import DATA_FILE, write_builtin_tables

if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else DATA_FILE
    write_builtin_tables(target)
    print(f"wrote {target}")
