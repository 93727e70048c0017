"""The benchmark results file and its Markdown table: one renderer, used by `run.py` and for README.

    python benchmarks/report.py benchmarks/results.json     # print the table README shows

The JSON (`run.py --json FILE`) holds, for every row: `measure`, `unit`, `values` per size, `targets`
per size and `status` (`ok`, `MISS`, `—` without a target, `not available`), plus the run's date and
the machine's load. README's Benchmarks table is this module's output for the committed
`benchmarks/results.json`; a test holds the two together, so regenerate the table, never edit it.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

SUB = "  "  # a measure derived from the row above it is indented by this much


def status_of(values: dict[int, float | None], targets: dict[int, float]) -> str:
    checks = [values[s] <= t for s, t in targets.items() if values.get(s) is not None]
    absent = any(s in values and values[s] is None for s in targets)
    return "not available" if absent else ("—" if not checks else ("ok" if all(checks) else "MISS"))


def row(name: str, unit: str, values: dict[int, float | None], targets: dict[int, float]) -> dict:
    """One row of the results file (a NaN value, a measure that failed, is written as null)."""
    clean = {s: (None if v is not None and math.isnan(v) else v) for s, v in values.items()}
    return {"measure": name.strip(), "sub": name.startswith(SUB), "unit": unit,
            "values": {str(s): v for s, v in clean.items()},
            "targets": {str(s): t for s, t in targets.items()}, "status": status_of(clean, targets)}


def _shown(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f} {unit}" if value < 100 else f"{value:.0f} {unit}"


def markdown(data: dict) -> str:
    """The results file as a Markdown table: a column per size, the target, growth per step, status."""
    sizes = [int(s) for s in data["sizes"]]
    steps = {round(b / a, 2) for a, b in zip(sizes, sizes[1:])}
    growth_head = f"growth per ×{steps.pop():g} docs" if len(steps) == 1 else "growth between sizes"
    header = ["measure"] + [f"{s:,} docs" for s in sizes] + ["target", growth_head, "status"]
    lines_of = [header]
    for item in data["rows"]:
        unit = item["unit"]
        values = {int(s): v for s, v in item["values"].items()}
        cells = [(SUB if item.get("sub") else "") + item["measure"]]
        cells += [_shown(values[s], unit) if s in values else "—" for s in sizes]
        target = " / ".join(f"≤ {t:g} {unit} @{int(s):,}" for s, t in item["targets"].items()) or "—"
        # one factor per step, so a superlinear stretch shows where it happens
        growth = " ".join(f"×{values[b] / values[a]:.1f}" if values.get(a) and values.get(b) is not None else "—"
                          for a, b in zip(sizes, sizes[1:])) or "—"
        lines_of.append(cells + [target, growth, item["status"]])
    widths = [max(len(r[i]) for r in lines_of) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(widths[i]) for i, c in enumerate(r)) + " |" for r in lines_of]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main() -> None:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("results.json"))
    print(markdown(json.loads(path.read_text(encoding="utf-8"))))


if __name__ == "__main__":
    main()
