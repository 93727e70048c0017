"""Time `bank_drift` with 200 anchors in a 20,000-commit repository (SPEC §18 target: ≤ 300 ms).

    python benchmarks/drift_bench.py [--commits N] [--runs N]

The repository is generated once by `gitrepo.build` (git fast-import, fixed seed) under
benchmarks/.cache/. Each run is a warm `drift(bank)` call: the index is built once; the time is the
git work (top-level lookup, ls-tree, the early-stopping log walk) plus the comparison.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from gitrepo import build  # noqa: E402

from memorybank.bank import Bank  # noqa: E402
from memorybank.drift import _last_commits, drift  # noqa: E402

TARGET_MS = 300.0


def measure(commits: int = 20_000, runs: int = 7) -> dict:
    """Median wall time of a warm drift call, with a summary of what it found."""
    bank_root = build(HERE / ".cache" / f"gitrepo-{commits}", commits=commits)
    bank = Bank(bank_root)
    bank.refresh()
    result = drift(bank)  # warm-up (page cache, pack index)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        drift(bank)
        times.append((time.perf_counter() - start) * 1000)
    walked = _commits_walked(bank)
    return {"commits": commits, "anchors": sum(len(bank.docs[p].anchors) for p in bank.paths),
            "median_ms": round(statistics.median(times), 1), "target_ms": TARGET_MS,
            "walked": walked, "git_floor_ms": round(_git_floor(bank.root.parent, walked), 1),
            "drifted": len(result["drifted"]), "missing": len(result["missing"])}


def _commits_walked(bank: Bank) -> int:
    """How many commits the early-stopping walk had to read (down to the oldest date it needed)."""
    top = bank.root.parent
    files = {f"memory_bank/{p}" for p in bank.paths if bank.docs[p].anchors}
    files |= {a for p in bank.paths for a in bank.docs[p].anchors if not a.endswith("/")}
    dirs = {a.rstrip("/") for p in bank.paths for a in bank.docs[p].anchors if a.endswith("/")}
    oldest = min(_last_commits(top, files, dirs).values())
    out = subprocess.run(["git", "rev-list", "--count", f"--since={oldest}", "HEAD"], cwd=top, capture_output=True,
                         text=True, check=True)
    return int(out.stdout)


def _git_floor(top: Path, walked: int, runs: int = 5) -> float:
    """What git alone takes to print that many commits' file lists (the floor under our number)."""
    args = ["git", "log", f"-{walked}", "-z", "--format=%x1e%ct", "--name-only", "--no-renames", "HEAD"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, cwd=top, stdout=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commits", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    row = measure(args.commits, args.runs)
    verdict = "ok" if row["median_ms"] <= TARGET_MS else "OVER"
    print(f"bank_drift, {row['anchors']} anchors, {row['commits']:,} commits: {row['median_ms']} ms "
          f"(target ≤ {TARGET_MS:.0f} ms, {verdict}); walked {row['walked']:,} commits, git alone "
          f"{row['git_floor_ms']} ms; drifted {row['drifted']}, missing {row['missing']}")


if __name__ == "__main__":
    main()
