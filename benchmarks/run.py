"""Measure memorybank against the SPEC §18 targets on synthetic banks and print a table.

    python benchmarks/run.py            # 400 / 2,000 / 10,000 documents
    python benchmarks/run.py --quick    # 400 / 2,000 only
    python benchmarks/run.py --json out.json

Warm numbers are medians of in-process timers; cold numbers time a whole process. Banks are
generated once (fixed seed) under benchmarks/.cache/.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from synth import cached  # noqa: E402

from memorybank.bank import Bank  # noqa: E402
from memorybank.route import route  # noqa: E402
from memorybank.search import search  # noqa: E402
from memorybank.validate import validate  # noqa: E402

CACHE = HERE / ".cache"
RUNS = 7


def median_ms(fn: Callable[[], object], runs: int = RUNS, setup: Callable[[], object] | None = None) -> float:
    times = []
    for _ in range(runs):
        if setup:
            setup()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def cli() -> str:
    local = Path(sys.executable).parent / "mcp-memorybank"
    return str(local) if local.exists() else (shutil.which("mcp-memorybank") or "mcp-memorybank")


def cold_process(args: list[str], runs: int = 5) -> float:
    return median_ms(lambda: subprocess.run([cli(), *args], capture_output=True, check=False), runs)


class Context:
    """One generated bank and a warm index over it, shared by the rows."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.root = cached(CACHE, size)
        self.bank = Bank(self.root)
        self.bank.refresh()
        self.victim = self.root / sorted(p for p in self.bank.paths if p.startswith("domain/"))[0]


def cold_build(ctx: Context) -> float:
    return median_ms(lambda: Bank(ctx.root).refresh(), runs=5)


def refresh_nothing(ctx: Context) -> float:
    return median_ms(ctx.bank.refresh)


def refresh_one(ctx: Context) -> float:
    def touch() -> None:
        st = ctx.victim.stat()
        os.utime(ctx.victim, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    return median_ms(ctx.bank.refresh, setup=touch)


def validate_warm(ctx: Context) -> float:
    return median_ms(lambda: validate(ctx.bank))


# Questions over the generator's vocabulary, in the three languages; queries mix words and identifiers.
ROUTE_QUESTIONS = ("filter thresholds", "why a queue for exports?", "пороги фильтрации", "缓存同步策略",
                   "session token encryption")
SEARCH_QUERIES = ("cache_42", "invoice export", "where is threshold_7 used?", "同步", "rounding policy")


def _per_query(ctx: Context, fn: Callable[..., dict], queries: tuple[str, ...], refresh: bool) -> float:
    """Median over runs of the mean time per query; indexes are warmed first."""
    for query in queries:
        fn(ctx.bank, query)
    if refresh:
        return median_ms(lambda: [fn(ctx.bank, q) for q in queries]) / len(queries)
    real = ctx.bank.refresh
    ctx.bank.refresh = lambda: None  # type: ignore[method-assign]
    try:
        return median_ms(lambda: [fn(ctx.bank, q) for q in queries]) / len(queries)
    finally:
        ctx.bank.refresh = real  # type: ignore[method-assign]


def route_warm(ctx: Context) -> float:
    return _per_query(ctx, route, ROUTE_QUESTIONS, refresh=True)


def route_only(ctx: Context) -> float:
    return _per_query(ctx, route, ROUTE_QUESTIONS, refresh=False)


def search_warm(ctx: Context) -> float:
    return _per_query(ctx, search, SEARCH_QUERIES, refresh=True)


def search_only(ctx: Context) -> float:
    return _per_query(ctx, search, SEARCH_QUERIES, refresh=False)


def cold_cli_route(ctx: Context) -> float:
    return cold_process(["--root", str(ctx.root), "--route", ROUTE_QUESTIONS[0]], runs=3)


def cold_cli_stats(ctx: Context) -> float:
    return cold_process(["--root", str(ctx.root), "--stats"])


_ONCE: dict[str, float] = {}


def drift_20k(ctx: Context) -> float:
    """bank_drift, 200 anchors, in a generated 20,000-commit repository: measured once (it does not
    depend on the synthetic bank's size), so every size column shows the same number."""
    if "drift" not in _ONCE:
        from drift_bench import measure
        _ONCE["drift"] = measure()["median_ms"]
    return _ONCE["drift"]


# (measure, {size: target ms}, function). Rows grow with each capability.
ROWS: list[tuple[str, dict[int, float], Callable[[Context], float]]] = [
    ("cold build (in process)", {400: 60}, cold_build),
    ("refresh, nothing changed", {400: 2, 10_000: 40}, refresh_nothing),
    ("refresh after one file changed", {400: 3, 10_000: 45}, refresh_one),
    ("bank_route warm (with its refresh)", {400: 3, 10_000: 40}, route_warm),
    ("  route work alone (no refresh)", {}, route_only),
    ("bank_search warm (with its refresh)", {400: 5, 10_000: 60}, search_warm),
    ("  search work alone (no refresh)", {}, search_only),
    ("cold CLI --route (process)", {400: 250, 10_000: 2500}, cold_cli_route),
    ("bank_validate warm", {400: 20, 10_000: 500}, validate_warm),
    ("cold CLI --stats (process)", {}, cold_cli_stats),
    ("bank_drift, 200 anchors, 20k commits", {400: 300}, drift_20k),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="only 400 and 2,000 documents")
    parser.add_argument("--sizes", help="comma-separated sizes, e.g. 400,10000")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else ([400, 2000] if args.quick
                                                                         else [400, 2000, 10_000])
    results: dict[str, dict[int, float]] = {name: {} for name, _, _ in ROWS}
    for size in sizes:
        ctx = Context(size)
        for name, _, fn in ROWS:
            results[name][size] = fn(ctx)
    print(table(results, sizes))
    if args.json:
        Path(args.json).write_text(json.dumps({"sizes": sizes, "results": results}, indent=1))


def table(results: dict[str, dict[int, float]], sizes: list[int]) -> str:
    header = ["measure"] + [f"{s:,} docs" for s in sizes] + ["target", "growth", "status"]
    rows = [header]
    for name, targets, _ in ROWS:
        values = results[name]
        cells = [name] + [f"{values[s]:.2f} ms" if values[s] < 100 else f"{values[s]:.0f} ms" for s in sizes]
        target = " / ".join(f"≤ {t:g} ms @{s:,}" for s, t in targets.items()) or "—"
        growth = "—"
        if len(sizes) > 1 and values[sizes[0]] > 0:
            growth = f"×{values[sizes[-1]] / values[sizes[0]]:.1f} for ×{sizes[-1] / sizes[0]:.0f} docs"
        checks = [values[s] <= t for s, t in targets.items() if s in values]
        status = "—" if not checks else ("ok" if all(checks) else "MISS")
        rows.append(cells + [target, growth, status])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(widths[i]) for i, c in enumerate(r)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
