"""Score route and search on the route-fusion dev set (a tuning set, NOT the held-out benchmark).

    python benchmarks/relevance/dev/score.py [--prime]

Prints top-1 / top-3 per bank kind and language for route (and search), and with --prime the
share of on-topic questions whose expected document is injected and of off-topic prompts that
get nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from memorybank.bank import Bank  # noqa: E402
from memorybank.route import route  # noqa: E402
from memorybank.search import search  # noqa: E402

CORPORA = HERE.parents[3].parent / "shared" / "corpora"


def bank_root(name: str) -> Path:
    return next(p for p in sorted((CORPORA / name).glob("memory*")) if p.is_dir())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prime", action="store_true")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    questions = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines() if line.strip()]
    banks: dict[str, Bank] = {}
    table: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    primed = [0, 0]
    for q in questions:
        bank = banks.setdefault(q["bank"], Bank(bank_root(q["bank"])))
        for tool, fn in (("route", route), ("search", search)):
            paths = [r["path"] for r in fn(bank, q["q"], limit=5)["results"]]
            rank = next((i for i, p in enumerate(paths) if p in q["expect"]), 99)
            row = table[(tool, q["kind"], q["lang"])]
            row[0] += 1
            row[1] += rank == 0
            row[2] += rank < 3
            if args.misses and tool == "route" and rank >= 3:
                print(f"MISS {q['bank']}: {q['q']!r} -> {paths[:3]} want {q['expect']}")
        if args.prime and q["kind"] != "literal":
            from memorybank.prime import prime
            got = [d["path"] for d in prime(bank, q["q"])["documents"]]
            primed[0] += 1
            primed[1] += any(p in q["expect"] for p in got)
    for (tool, kind, lang), (n, one, three) in sorted(table.items()):
        print(f"{tool:6} {kind:8} {lang}  n={n:2}  top1={one / n:.2f}  top3={three / n:.2f}")
    if args.prime:
        from memorybank.prime import prime
        offtopic = [line for line in (HERE / "offtopic.txt").read_text().splitlines() if line.strip()]
        silent = total = 0
        for bank in banks.values():
            for prompt in offtopic:
                total += 1
                silent += not prime(bank, prompt)["documents"]
                if args.misses and prime(bank, prompt)["documents"]:
                    print(f"NOISE {bank.root.parent.name}: {prompt!r} -> {prime(bank, prompt)['text']}")
        print(f"prime recall on-topic {primed[1] / primed[0]:.2f} (n={primed[0]}); "
              f"silence off-topic {silent / total:.2f} (n={total})")


if __name__ == "__main__":
    main()
