"""The window a writer's final check leaves open (issue 13 §2): time from the check to the move.

Commits one- and three-file transactions on a temp bank and reports, in microseconds, how long
passed between a target's final comparison with the bytes read and the atomic move that replaces
it (`Transaction.window_ns`). With an atomic exchange the displaced file is compared once more
after the move, so a save landing in that window is put back; this figure is what a second save
would have to hit. Timings are noisy on a loaded machine.

    python benchmarks/commit_window.py [--runs 500]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from memorybank.confined import _RENAME
from memorybank.writers.files import Transaction


def measure(runs: int) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for name in ("a.md", "b.md", "c.md"):
            (root / name).write_text(f"---\ntitle: {name}\n---\n# {name}\n" + "line\n" * 200)
        windows: list[float] = []
        verifies: list[float] = []
        for i in range(runs):
            tx = Transaction(root)
            names = ("a.md",) if i % 2 else ("a.md", "b.md", "c.md")
            for name in names:
                tx.write(name, tx.read(name) + f"edit {i}\n".encode())
            tx.commit()
            windows.append(tx.window_ns / 1000)
            verifies.append(tx.verify_ns / 1000)
    out: dict = {"runs": runs, "exchange": _RENAME is not None}
    for name, values in (("check_to_move", windows), ("move_to_verified", verifies)):
        values.sort()
        out[name] = (statistics.median(values), values[int(len(values) * 0.99) - 1], values[-1])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    result = measure(parser.parse_args().runs)
    print(f"{result['runs']} commits (1 and 3 files), atomic exchange: {result['exchange']}")
    for name in ("check_to_move", "move_to_verified"):
        median, p99, top = result[name]
        print(f"  {name.replace('_', ' ')}: median {median:.1f} µs, p99 {p99:.1f} µs, max {top:.1f} µs")


if __name__ == "__main__":
    main()
