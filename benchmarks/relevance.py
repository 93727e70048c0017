"""Score route, search and prime on the question sets under benchmarks/relevance/ and print a table.

    python benchmarks/relevance.py                     # corpora found beside the repository
    python benchmarks/relevance.py --corpora DIR       # or the folder holding the corpus banks
    python benchmarks/relevance.py --json out.json     # also the figures and every question's ranks
    python benchmarks/relevance.py --set benchmarks/relevance/holdout   # score another set folder
    python benchmarks/relevance.py --adopted           # the plain banks only, each an adopted copy (issue 18)
    python benchmarks/relevance.py --set benchmarks/relevance/chores   # off-topic prompts only: every bank
    python benchmarks/relevance.py --known-items       # each document asked for by its own title

Route and search: top-1, top-3 and MRR (over the first 10 results) per bank kind (governed, plain),
per language and per question kind; a question counts as found at the rank of the first expected
document. Prime: recall (an expected document among the injected ones) on every on-topic question,
and silence (nothing injected) on every off-topic prompt against every bank. Prime is read from
`memorybank.prime.prime(bank, prompt)`; until that module exists the prime rows say "not available".

`--adopted` copies every plain bank to a temporary folder, runs `adopt` on the copy (which adds the
dna/ layer of rules about the bank itself and index READMEs) and scores the plain banks' questions
there: adopting a bank must not push its answers out of the top 3 (issue 18).

`--known-items` writes no questions: for every routable document of each corpus bank that is neither an
index nor a template (nor a dna/ page about the bank itself), the question is its own title, as written,
lowercased, without a leading identifier (`ADR-001 —`, `FT-001:`) and with its words in reverse order;
the answer is that document (or any document sharing the question's title). Route and search are
scored per bank and per variant: asking for a document by its name must find it.

The sets were written from the documents before the system was run on them; see the README there.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from memorybank.bank import Bank  # noqa: E402
from memorybank.errors import BankError  # noqa: E402
from memorybank.route import route  # noqa: E402
from memorybank.search import search  # noqa: E402

SETS = HERE / "relevance"
OFFTOPIC = SETS / "offtopic.yaml"
DEPTH = 10  # results asked for; MRR counts ranks up to here
LANGS = ("en", "ru", "zh")
KINDS = ("why", "how", "what", "literal")
BANK_KINDS = ("governed", "plain")


def find_corpora(start: Path = HERE) -> Path | None:
    """The shared corpora folder: $MEMORYBANK_CORPORA, else the nearest `shared/corpora` above `start`."""
    env = os.environ.get("MEMORYBANK_CORPORA")
    if env:
        return Path(env)
    for parent in [start, *start.parents]:
        if (parent / "shared" / "corpora").is_dir():
            return parent / "shared" / "corpora"
    return None


def load_sets(folder: Path = SETS, corpora: Path | None = None) -> list[dict]:
    """Every bank's question set: [{bank, kind, questions: [{q, lang, kind, expect}]}], sorted by file.

    A folder holding `questions.jsonl` (the dev set's layout: one {bank, lang, kind, q, expect} per
    line, `kind` naming the bank kind) is read into the same shape, each bank's folder found under
    `corpora` as its first `memory*` directory."""
    if (folder / "questions.jsonl").is_file():
        return _load_jsonl(folder / "questions.jsonl", corpora)
    return [yaml.safe_load(path.read_text(encoding="utf-8"))
            for path in sorted(folder.glob("*.yaml")) if path != folder / OFFTOPIC.name]


def _load_jsonl(path: Path, corpora: Path | None) -> list[dict]:
    sets: dict[str, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        name = item["bank"]
        if name not in sets:
            inner = next((p.name for p in sorted((corpora or Path()).glob(f"{name}/memory*")) if p.is_dir()), "")
            sets[name] = {"bank": f"{name}/{inner}" if inner else name, "kind": item["kind"], "questions": []}
        sets[name]["questions"].append({"q": item["q"], "lang": item["lang"], "kind": "-", "expect": item["expect"]})
    return [sets[k] for k in sorted(sets)]


def load_offtopic(folder: Path = SETS) -> list[dict]:
    """Off-topic prompts: `offtopic.yaml` ({prompts: [{q, lang}]}) or `offtopic.txt` (one a line)."""
    if (folder / "offtopic.txt").is_file():
        return [{"q": line.strip(), "lang": _lang_of(line)}
                for line in (folder / "offtopic.txt").read_text(encoding="utf-8").splitlines() if line.strip()]
    return yaml.safe_load((folder / OFFTOPIC.name).read_text(encoding="utf-8"))["prompts"]


def _lang_of(text: str) -> str:
    if any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return "zh"
    return "ru" if any("\u0400" <= ch <= "\u04ff" for ch in text) else "en"


def rank_of(paths: Iterable[str], expect: list[str]) -> int | None:
    """1-based rank of the first expected path among distinct result paths, or None."""
    seen: list[str] = []
    for path in paths:
        if path not in seen:
            seen.append(path)
            if path in expect:
                return len(seen)
    return None


def summary(ranks: list[int | None]) -> dict:
    """n, top-1, top-3 and MRR of a list of ranks (None = not found in the first DEPTH)."""
    n = len(ranks)
    if not n:
        return {"n": 0}
    return {"n": n, "top1": sum(r == 1 for r in ranks) / n, "top3": sum(r is not None and r <= 3 for r in ranks) / n,
            "mrr": sum(1 / r for r in ranks if r is not None) / n}


def adopted_copies(corpora: Path, sets: list[dict], into: Path) -> list[dict]:
    """The plain sets, each bank copied under `into` (same relative path) and adopted there."""
    from memorybank.adopt import adopt

    plain = [qset for qset in sets if qset["kind"] == "plain"]
    for qset in plain:
        target = into / qset["bank"]
        shutil.copytree(corpora / qset["bank"], target)
        adopt(Bank(target), write=True)
    return plain


def load_prime() -> Callable[[Bank, str], dict] | None:
    """`memorybank.prime.prime` when the module exists (it lands with route fusion), else None."""
    try:
        from memorybank.prime import prime
    except ImportError:
        return None
    return prime


def _paths(fn: Callable[..., dict], bank: Bank, question: str) -> tuple[list[str], bool]:
    try:
        return [r["path"] for r in fn(bank, question, limit=DEPTH)["results"]], False
    except BankError:
        return [], True


def run(corpora: Path, sets: list[dict], offtopic: list[dict],
        prime: Callable[[Bank, str], dict] | None) -> dict:
    """Ask every question of every bank; return per-question records plus the aggregates."""
    records: list[dict] = []
    silences: list[dict] = []
    errors = 0
    for qset in sets:
        bank = Bank(corpora / qset["bank"])
        for item in qset["questions"]:
            record = {"bank": qset["bank"], "bank_kind": qset["kind"], "q": item["q"], "lang": item["lang"],
                      "kind": item["kind"], "expect": item["expect"]}
            for name, fn in (("route", route), ("search", search)):
                paths, failed = _paths(fn, bank, item["q"])
                errors += failed
                record[name] = rank_of(paths, item["expect"])
            if prime is not None:
                injected = [d["path"] for d in _primed(prime, bank, item["q"])]
                record["prime"] = any(p in item["expect"] for p in injected)
            records.append(record)
        if prime is not None:
            for prompt in offtopic:
                silences.append({"bank": qset["bank"], "q": prompt["q"], "lang": prompt["lang"],
                                 "silent": not _primed(prime, bank, prompt["q"])})
    return {"records": records, "offtopic": silences, "errors": errors, "prime": prime is not None,
            "aggregates": aggregate(records, silences, prime is not None)}


def _primed(prime: Callable[[Bank, str], dict], bank: Bank, prompt: str) -> list[dict]:
    try:
        return prime(bank, prompt)["documents"]
    except BankError:
        return []


def aggregate(records: list[dict], silences: list[dict], primed: bool) -> dict:
    """Summaries keyed "capability/bank kind/group" where group is all, a language or a question kind."""
    out: dict[str, dict] = {}
    for cap in ("route", "search"):
        for bank_kind in (*BANK_KINDS, "all"):
            mine = [r for r in records if bank_kind in ("all", r["bank_kind"])]
            out[f"{cap}/{bank_kind}/all"] = summary([r[cap] for r in mine])
            for lang in LANGS:
                out[f"{cap}/{bank_kind}/{lang}"] = summary([r[cap] for r in mine if r["lang"] == lang])
            for kind in KINDS:
                out[f"{cap}/{bank_kind}/{kind}"] = summary([r[cap] for r in mine if r["kind"] == kind])
    if primed:
        for bank_kind in (*BANK_KINDS, "all"):
            mine = [r for r in records if bank_kind in ("all", r["bank_kind"])]
            rate = sum(r["prime"] for r in mine) / max(1, len(mine))
            out[f"prime/{bank_kind}/recall"] = {"n": len(mine), "rate": rate}
        for lang in (*LANGS, "all"):
            mine = [s for s in silences if lang in ("all", s["lang"])]
            out[f"prime/offtopic/{lang}"] = {"n": len(mine), "rate": sum(s["silent"] for s in mine) / max(1, len(mine))}
    return out


KNOWN_VARIANTS = ("title", "lower", "unprefixed", "reordered")
_ID_HEAD = re.compile(r"^\s*(\S*\d\S*?)\s*(?::|\s[—–-])\s+(?=\S)")  # `ADR-001 —`, `FT-001:`, `STEP-07`


def known_questions(title: str) -> dict[str, str]:
    """The known-item questions a title gives, by variant (a variant equal to an earlier one is left out)."""
    title = " ".join(title.split())
    head = _ID_HEAD.match(title)
    bare = title[head.end():] if head else title
    words = [w for w in bare.split() if any(ch.isalnum() for ch in w)]
    found = {"title": title, "lower": title.lower(), "unprefixed": bare,
             "reordered": " ".join(reversed(words))}
    out: dict[str, str] = {}
    for name in KNOWN_VARIANTS:
        if found[name] and found[name] not in out.values():
            out[name] = found[name]
    return out


def known_item_sets(corpora: Path, sets: list[dict]) -> list[dict]:
    """Per corpus bank: [{bank, kind, questions: [{q, variant, expect}]}] from its documents' own titles."""
    from memorybank.placeholder import placeholders
    from memorybank.scaffold import counts_toward_statistics

    out = []
    for qset in sets:
        bank = Bank(corpora / qset["bank"])
        bank.refresh()
        asked: dict[tuple[str, str], list[str]] = {}
        for path, doc in sorted(bank.docs.items()):
            if (not doc.is_knowledge or doc.is_index or not counts_toward_statistics(doc) or not doc.title
                    or "templates" in path.split("/")[:-1] or placeholders(doc.title)):
                continue
            for variant, question in known_questions(doc.title).items():
                asked.setdefault((variant, question), []).append(path)
        questions = [{"q": q, "variant": v, "expect": expect} for (v, q), expect in asked.items()]
        out.append({"bank": qset["bank"], "kind": qset["kind"], "questions": questions})
    return out


def run_known_items(corpora: Path, sets: list[dict]) -> dict:
    """Route and search every known-item question; per-question ranks and summaries per bank and variant."""
    records = []
    for qset in known_item_sets(corpora, sets):
        bank = Bank(corpora / qset["bank"])
        for item in qset["questions"]:
            record = {"bank": qset["bank"], "bank_kind": qset["kind"], **item}
            for name, fn in (("route", route), ("search", search)):
                record[name] = rank_of(_paths(fn, bank, item["q"])[0], item["expect"])
            records.append(record)
    aggregates: dict[str, dict] = {}
    for cap in ("route", "search"):
        groups = sorted({r["bank"] for r in records}) + [f"kind:{k}" for k in BANK_KINDS] + \
            [f"variant:{v}" for v in KNOWN_VARIANTS] + ["all"]
        for group in groups:
            label, _, value = group.partition(":")
            mine = [r for r in records if group == "all" or r["bank"] == group
                    or (label == "kind" and r["bank_kind"] == value) or (label == "variant" and r["variant"] == value)]
            aggregates[f"{cap}/{group}"] = summary([r[cap] for r in mine])
    return {"records": records, "aggregates": aggregates}


def known_table(result: dict) -> str:
    """Markdown: route and search top-1 / top-3 / MRR per bank, bank kind and variant."""
    agg = result["aggregates"]
    groups = [key.partition("/")[2] for key in agg if key.startswith("route/")]
    lines = ["| known items | n | route top-1 | route top-3 | route MRR | search top-1 | search top-3 | search MRR |",
             "|---|---|---|---|---|---|---|---|"]
    for group in groups:
        r, s = agg[f"route/{group}"], agg[f"search/{group}"]
        cells = [_cell(stats, key) for stats in (r, s) for key in ("top1", "top3", "mrr")]
        lines.append(f"| {group.split('/')[0]} | {r['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(stats: dict, key: str) -> str:
    return f"{stats[key]:.2f}" if stats.get("n") else "—"


def table(result: dict) -> str:
    """Markdown: route and search per bank kind × language and × question kind, then prime."""
    agg = result["aggregates"]
    groups = (*LANGS, *KINDS, "all")
    lines = ["| capability | banks | measure | " + " | ".join(groups) + " |",
             "|---|---|---|" + "---|" * len(groups)]
    for cap in ("route", "search"):
        for bank_kind in (*BANK_KINDS, "all"):
            for key, label in (("top1", "top-1"), ("top3", "top-3"), ("mrr", "MRR")):
                cells = [_cell(agg[f"{cap}/{bank_kind}/{g}"], key) for g in groups]
                lines.append(f"| {cap} | {bank_kind} | {label} | " + " | ".join(cells) + " |")
    sizes = ["n"] + [str(agg[f"route/all/{g}"]["n"]) for g in groups]
    lines.append("| questions | all | " + " | ".join(sizes) + " |")
    if not result["prime"]:
        lines.append("\nprime: not available (memorybank.prime is not on this branch yet)")
    else:
        recall = " · ".join(f"{k} {agg[f'prime/{k}/recall']['rate']:.2f}" for k in (*BANK_KINDS, "all")
                            if agg[f"prime/{k}/recall"]["n"])
        silent = " · ".join(f"{k} {agg[f'prime/offtopic/{k}']['rate']:.2f}" for k in (*LANGS, "all")
                            if agg[f"prime/offtopic/{k}"]["n"])  # a set may hold prompts in one language only
        lines.append(f"\nprime recall on on-topic questions: {recall}")
        lines.append(f"prime silence on off-topic prompts ({agg['prime/offtopic/all']['n']} prompt × bank): {silent}")
    if result["errors"]:
        lines.append(f"\n{result['errors']} question(s) refused (counted as not found)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, help="folder holding the corpus banks (default: shared/corpora)")
    parser.add_argument("--json", metavar="FILE", help="also write aggregates and every question's ranks as JSON")
    parser.add_argument("--adopted", action="store_true",
                        help="score the plain banks' questions on adopted copies of them (issue 18)")
    parser.add_argument("--set", type=Path, default=SETS, metavar="DIR",
                        help="folder holding the question set (default: benchmarks/relevance)")
    parser.add_argument("--known-items", action="store_true",
                        help="ask for every document by its own title (and variants of it) instead of a set")
    args = parser.parse_args()
    corpora = args.corpora or find_corpora()
    if (args.set / "history.yaml").is_file():  # a set over a scripted git history: questions about time
        from temporal import main as temporal
        return temporal(args.set, corpora, args.json)
    if corpora is None or not corpora.is_dir():
        print("relevance: no corpora folder; pass --corpora DIR or set MEMORYBANK_CORPORA", file=sys.stderr)
        return 2
    began = time.perf_counter()
    if args.known_items:
        result = run_known_items(corpora, load_sets(SETS, corpora))
        print(known_table(result))
        print(f"\n({len(result['records'])} questions in {time.perf_counter() - began:.1f} s)", file=sys.stderr)
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
        return 0
    sets = load_sets(args.set, corpora)
    if not sets:  # an off-topic-only set (chores/): its prompts against every bank of the default set
        sets = [{**qset, "questions": []} for qset in load_sets(SETS, corpora)]
    with tempfile.TemporaryDirectory(prefix="relevance-adopted-") as scratch:
        if args.adopted:
            sets, corpora = adopted_copies(corpora, sets, Path(scratch)), Path(scratch)
        result = run(corpora, sets, load_offtopic(args.set), load_prime())
    print(table(result))
    print(f"\n({len(result['records'])} questions over {len(sets)} banks "
          f"in {time.perf_counter() - began:.1f} s)", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
