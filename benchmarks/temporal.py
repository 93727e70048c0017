"""Score route on questions about time (issue 19) over a corpus bank given a scripted git history.

    python benchmarks/temporal.py                                   # the set in benchmarks/relevance/temporal
    python benchmarks/relevance.py --set benchmarks/relevance/temporal   # the same, from the relevance runner

The corpus bank named in `history.yaml` is copied to a temporary folder (corpora are read-only), made
a git repository, and committed file group by file group with the scripted committer dates; questions
are asked with `MEMORYBANK_TODAY` set to the history's `today`. Each question is scored twice: as
asked (time words set the window) and with its time words taken out and no window (the topic alone,
what the router did before issue 19), so the table shows what the window adds. top-1, top-3 and MRR
over the first 10 results, per language and per kind (why: a topic at a time; changed: time only).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from relevance import DEPTH, find_corpora, rank_of, summary  # noqa: E402

from memorybank.bank import Bank  # noqa: E402
from memorybank.errors import BankError  # noqa: E402
from memorybank.route import route, routed  # noqa: E402
from memorybank.timewords import find  # noqa: E402

SET = HERE / "relevance" / "temporal"
REVISED = "\n<!-- revised {date} -->\n"


def _git(cwd: Path, *args: str, date: str | None = None) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Bench",
           "GIT_AUTHOR_EMAIL": "bench@example.invalid", "GIT_COMMITTER_NAME": "Bench",
           "GIT_COMMITTER_EMAIL": "bench@example.invalid"}
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"{date}T12:00:00+00:00"
    subprocess.run(("git", "-c", "commit.gpgsign=false", *args), cwd=cwd, env=env, check=True, capture_output=True)


def build(corpora: Path, history: dict, into: Path) -> Path:
    """The bank copy with its scripted history; returns the bank folder."""
    source = corpora / history["corpus"]
    bank = into / "repo" / "bank"
    shutil.copytree(source, bank)
    repo = bank.parent
    _git(repo, "init", "-q", "-b", "main")
    later = {p for c in history["commits"] if c.get("add") != "*" for p in c.get("add") or ()}
    everything = sorted(str(p.relative_to(bank)) for p in bank.rglob("*") if p.is_file())
    staged_out = [p for p in everything if p in later]
    hold = into / "hold"
    for rel in staged_out:  # park the files later commits add
        (hold / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.move(bank / rel, hold / rel)
    for commit in history["commits"]:
        adds = [] if commit.get("add") == "*" else list(commit.get("add") or ())
        for rel in adds:
            (bank / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(hold / rel, bank / rel)
        if history.get("redate"):  # a decision is recorded the day it is committed: its `date:` says so
            for rel in (adds or [p for p in everything if p not in later]):
                _redate(bank / rel, commit["date"])
        for rel in commit.get("edit") or ():
            with open(bank / rel, "a", encoding="utf-8") as handle:
                handle.write(REVISED.format(date=commit["date"]))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "--allow-empty", "-m", f"history {commit['date']}", date=commit["date"])
    return bank


def _redate(path: Path, date: str) -> None:
    """Set a `date:` frontmatter line (only one already there) to the commit's date."""
    if path.suffix != ".md":
        return
    text = path.read_text(encoding="utf-8")
    head, sep, rest = text.partition("\n---")
    if not text.startswith("---") or not sep:
        return
    lines = [f"date: {date}" if line.startswith("date:") else line for line in head.split("\n")]
    path.write_text("\n".join(lines) + sep + rest, encoding="utf-8")


def ask(bank: Bank, question: str) -> tuple[list[str], list[str]]:
    """Result paths as asked (with its window) and for the topic alone (time words out, no window)."""
    try:
        asked = [r["path"] for r in route(bank, question, limit=DEPTH)["results"]]
    except BankError:
        asked = []
    topic = find(question)[1]
    try:
        alone = [r["path"] for r in routed(bank, topic, DEPTH)[0]["results"]] if topic.strip() else []
    except BankError:
        alone = []
    return asked, alone


def run(corpora: Path, folder: Path = SET) -> dict:
    history = yaml.safe_load((folder / "history.yaml").read_text(encoding="utf-8"))
    questions = yaml.safe_load((folder / "questions.yaml").read_text(encoding="utf-8"))["questions"]
    os.environ["MEMORYBANK_TODAY"] = str(history["today"])
    os.environ["MEMORYBANK_CACHE"] = "off"
    with tempfile.TemporaryDirectory(prefix="mb-temporal-") as tmp:
        bank = Bank(build(corpora, history, Path(tmp)))
        records = []
        for item in questions:
            asked, alone = ask(bank, item["q"])
            records.append({**item, "asked": rank_of(asked, item["expect"]), "topic": rank_of(alone, item["expect"]),
                            "top": asked[:3]})
    out: dict = {"records": records, "aggregates": {}}
    for way in ("asked", "topic"):
        for group in ("en", "ru", "zh", "why", "changed", "all"):
            mine = [r for r in records if group in ("all", r["lang"], r["kind"])]
            out["aggregates"][f"{way}/{group}"] = summary([r[way] for r in mine])
    return out


def table(result: dict) -> str:
    groups = ("en", "ru", "zh", "why", "changed", "all")
    agg = result["aggregates"]
    lines = ["| route | measure | " + " | ".join(groups) + " |", "|---|---|" + "---|" * len(groups)]
    for way, label in (("asked", "as asked (window)"), ("topic", "topic alone (no window)")):
        for key, name in (("top1", "top-1"), ("top3", "top-3"), ("mrr", "MRR")):
            cells = [f"{agg[f'{way}/{g}'][key]:.2f}" if agg[f"{way}/{g}"].get("n") else "—" for g in groups]
            lines.append(f"| {label} | {name} | " + " | ".join(cells) + " |")
    lines.append("| questions | n | " + " | ".join(str(agg[f"asked/{g}"]["n"]) for g in groups) + " |")
    return "\n".join(lines)


def main(folder: Path = SET, corpora: Path | None = None, json_out: str | None = None) -> int:
    corpora = corpora or find_corpora()
    if corpora is None or not corpora.is_dir():
        print("temporal: no corpora folder; pass --corpora DIR or set MEMORYBANK_CORPORA", file=sys.stderr)
        return 2
    result = run(corpora, folder)
    print(table(result))
    if json_out:
        Path(json_out).write_text(json.dumps(result, indent=1, ensure_ascii=False, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--set", type=Path, default=SET)
    args = parser.parse_args()
    sys.exit(main(args.set, args.corpora, args.json))
