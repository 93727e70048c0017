"""Deterministic synthetic banks for the benchmarks: realistic headers, sections, edges and indexes."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

SECTIONS = ("layer", "knowledge", "decision", "delivery", "flow")
FOLDERS = {
    "product": "product", "domain": "domain", "engineering": "engineering", "ops": "ops",
    "adr": "adr", "features": "feature", "processes": "process",
}
WORDS = ("cache invoice threshold filter session token queue export import release package dependency error "
         "schema template index quarantine architecture security user page screen book chapter image cover "
         "message notification device key encryption storage sync deploy build test review policy rounding "
         "billing tax ledger report audit metric alert retry timeout backoff webhook payment account plan").split()
CONTRACT = """# Governance

The root document is `principles.md`. Every active document except the root must define `derived_from`.
Cyclic dependencies are forbidden.

| field | values |
|---|---|
| `doc_kind` | `governance`, `index`, `product`, `domain`, `engineering`, `ops`, `adr`, `feature`, `process` |
| `doc_function` | `canonical`, `index`, `template`, `reference` |
| `status` | `draft`, `active`, `archived` |
| `delivery_status` | `planned`, `in_progress`, `done`, `cancelled` |
| `decision_status` | `proposed`, `accepted`, `superseded`, `rejected` |
"""


_SYLLABLES = ("ka", "ro", "mi", "te", "su", "no", "va", "li", "dor", "pen", "tar", "gel", "bis", "qua", "zen")
# A long tail of made-up words, so documents differ like real prose does: a few words are everywhere,
# most are rare. Real vocabulary words (WORDS) stay common enough for the benchmark questions.
TAIL = tuple(sorted({a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in _SYLLABLES}))[:3000]


def _word(rng: random.Random) -> str:
    if rng.random() < 0.45:
        return rng.choice(WORDS)
    return TAIL[min(int(rng.paretovariate(0.9)) - 1, len(TAIL) - 1) if rng.random() < 0.5
                else rng.randrange(len(TAIL))]


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(_word(rng) for _ in range(n)).capitalize()


def generate(root: Path, size: int, seed: int = 42) -> Path:
    """Write a bank of `size` documents under `root` (replacing it). Same seed, same bytes."""
    rng = random.Random(seed)
    if root.exists():
        shutil.rmtree(root)
    (root / "dna").mkdir(parents=True)
    header = "---\ntitle: {t}\ndoc_kind: governance\ndoc_function: canonical\npurpose: {p}\n{d}status: active\n---\n\n"
    (root / "dna/principles.md").write_text(header.format(t="Principles", p="Root.", d="") + "# Principles\n")
    (root / "dna/governance.md").write_text(
        header.format(t="Governance", p="Declared values.", d="derived_from:\n  - principles.md\n") + CONTRACT)
    (root / "dna/README.md").write_text("---\ntitle: DNA\ndoc_function: index\nstatus: active\nderived_from:\n"
                                        "  - principles.md\n---\n\n- [P](principles.md)\n- [G](governance.md)\n")
    paths: list[str] = []
    per_folder: dict[str, list[tuple[str, str, str]]] = {f: [] for f in FOLDERS}
    folders = list(FOLDERS)
    for i in range(size - 3 - len(FOLDERS) - 1):
        folder = folders[i % len(folders)]
        name = f"{folder[:3].upper()}-{i:05d}-{rng.choice(WORDS)}-{rng.choice(WORDS)}.md"
        path = f"{folder}/{name}"
        title = _sentence(rng, rng.randint(2, 6))
        purpose = _sentence(rng, rng.randint(6, 16)) + "."
        lines = ["---", f"title: {title}", f"doc_kind: {FOLDERS[folder]}", "doc_function: canonical",
                 f"purpose: {purpose}"]
        ups = rng.sample(paths, k=min(len(paths), rng.randint(1, 5))) if paths else []
        lines.append("derived_from:")
        lines += [f"  - ../{u}" for u in ups] or ["  - ../dna/principles.md"]
        if rng.random() < 0.5:
            lines.append("canonical_for:")
            lines += [f"  - {rng.choice(WORDS)}_{rng.choice(WORDS)}_{i}" for _ in range(rng.randint(1, 3))]
        for extra in range(rng.randint(0, 5)):
            lines.append(f"extra_{extra}: {rng.choice(WORDS)}")
        if rng.random() < 0.05:
            lines.append("anchors:")
            lines.append(f"  - src/{rng.choice(WORDS)}/")
        if folder == "features":
            lines.append(f"delivery_status: {rng.choice(['planned', 'in_progress', 'done'])}")
        lines.append(f"status: {rng.choice(['active'] * 8 + ['draft', 'archived'])}")
        if rng.random() < 0.005:
            lines.append(f"summary: broken: {rng.choice(WORDS)} header")  # a few invalid-YAML files
        lines.append("---")
        body = [f"# {title}", ""]
        for _ in range(rng.randint(3, 10)):
            body += [f"## {_sentence(rng, rng.randint(1, 4))}", ""]
            for _ in range(rng.randint(2, 6)):
                body.append(_sentence(rng, rng.randint(8, 24)) + f" See `{rng.choice(WORDS)}_{rng.randint(1, 99)}`.")
            body.append("")
            if rng.random() < 0.2:
                body += ["```python", f"def {rng.choice(WORDS)}():", "    return 1", "```", ""]
        (root / folder).mkdir(exist_ok=True)
        (root / path).write_text("\n".join(lines + body) + "\n", encoding="utf-8")
        paths.append(path)
        per_folder[folder].append((name, title, purpose))
    root_links = ["- [DNA](dna/README.md)"]
    for folder, entries in per_folder.items():
        text = [f"---\ntitle: {folder}\ndoc_kind: index\ndoc_function: index\npurpose: Index of {folder}.",
                "derived_from:\n  - ../dna/principles.md\nstatus: active\n---\n", f"# {folder}\n"]
        text += [f"- [{title}]({name}) — {purpose}" for name, title, purpose in entries]
        (root / folder / "README.md").write_text("\n".join(text) + "\n", encoding="utf-8")
        root_links.append(f"- [{folder}]({folder}/README.md)")
    (root / "README.md").write_text("---\ntitle: Bank\ndoc_kind: index\ndoc_function: index\npurpose: Root.\n"
                                    "derived_from:\n  - dna/principles.md\nstatus: active\n---\n\n"
                                    + "\n".join(root_links) + "\n", encoding="utf-8")
    return root


def cached(cache: Path, size: int, seed: int = 42) -> Path:
    """A generated bank under `cache`, reused when its marker says it was built with this size and seed."""
    root = cache / f"bank-{size}"
    marker = cache / f"bank-{size}.ok"
    if not (root.is_dir() and marker.exists() and marker.read_text() == f"{size}:{seed}:v2"):
        generate(root, size, seed)
        marker.write_text(f"{size}:{seed}:v2")
    return root
