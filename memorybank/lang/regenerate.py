"""Rewrite `lexicon.marshal`, the built-in dictionary's tables, from the sources in this folder.

    python -m memorybank.lang.regenerate

Run it after changing a word list, the stemmer or `lexicon.py`; until then the tables are built in
every process (the same result, ~20 ms slower) and `tests/test_cold_process.py` fails.
"""

from __future__ import annotations

from .lexicon import DATA_FILE, write_builtin_tables

if __name__ == "__main__":
    write_builtin_tables()
    print(f"wrote {DATA_FILE}")
