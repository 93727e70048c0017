"""bank_init and bank_materialize_flows (§10.8): seed a bank from the shipped starter, copy templates."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import yaml

from ..assets import asset_dir
from ..bank import Bank
from ..parse import load_yaml, parse_document
from .files import JOURNAL_NAME, LOCK_NAME, TEMP_PREFIX
from .gates import one_line, refuse
from .registry import register
from .session import result, writing
from .templates import BANK_TEMPLATES

PROJECT_NAME = "<project name>"
GITIGNORE = f"{LOCK_NAME}\n{JOURNAL_NAME}\n{TEMP_PREFIX}*\n"


def shipped(name: str) -> Path:
    """A shipped asset folder, or a refusal telling how to get it back."""
    try:
        return asset_dir(name)
    except FileNotFoundError:
        raise refuse(name, f"the shipped `{name}/` folder is missing from this installation.",
                     "Reinstall memorybank (pip install --force-reinstall memorybank).") from None


def _files(base: Path) -> list[tuple[str, Path]]:
    """Every shipped file under `base` as `(POSIX relative path, file)`, sorted; hidden names skipped."""
    out = []
    for folder, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(names):
            if not name.startswith("."):
                full = Path(folder) / name
                out.append((full.relative_to(base).as_posix(), full))
    return sorted(out)


def _named(text: str, name: str) -> str:
    """A starter document with the project name filled in: YAML-quoted in the frontmatter when the
    plain form would not read back as itself, markdown-escaped in the body (a `[x](y.md)` in a name
    must not become an index link)."""
    if PROJECT_NAME not in text:
        return text
    lines = text.split("\n")
    close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0) if lines[0] == "---" else 0
    for i, line in enumerate(lines):
        if PROJECT_NAME not in line:
            continue
        if 0 < i < close:
            key, _, value = line.partition(": ")
            plain = value.replace(PROJECT_NAME, name)
            try:
                reads_back = load_yaml(f"{key}: {plain}") == {key: plain}
            except yaml.YAMLError:
                reads_back = False
            lines[i] = f"{key}: {plain if reads_back else json.dumps(plain, ensure_ascii=False)}"
        else:
            lines[i] = line.replace(PROJECT_NAME, _MD_SPECIAL.sub(r"\\\g<0>", name))
    return "\n".join(lines)


_MD_SPECIAL = re.compile(r"[\\`*_\[\]<>|#]")


def init(bank: Bank, name: str, force: bool = False, dry_run: bool = False) -> dict[str, Any]:
    """Seed a fresh bank from the shipped `starter/`, with the project name filled in.

    Refuses when the root already holds documents outside `_inbox/` unless `force`. With `force`
    the starter files that are missing are added and every existing file is kept as it is (a
    warning names those that differ from the starter): overwriting an index would unregister the
    documents listed in it, and overwriting `dna/` would drop the bank's own rules. To reset a file
    to the starter, delete it first. Also writes a `.gitignore` for the lock and temp files when
    none exists. A dry run lists the files. Returns `{root, name, files, …}`.
    """
    warnings: list[str] = []
    name = one_line("name", name)
    if bank.root.exists() and not bank.root.is_dir():
        raise refuse("init", f"{bank.root} is a file, not a folder.", "Give a folder as the bank's root.")
    bank.refresh()
    existing = [p for p in bank.paths if not p.startswith("_inbox/")]
    if existing and not force:
        raise refuse("init", f"{bank.root} already holds a bank ({len(existing)} documents).",
                     "Use `{force}` to add the starter files it lacks (existing files are kept), or pick an empty "
                     "folder.", names=("force",))
    starter = _files(shipped("starter"))
    if not any(rel.endswith(".md") for rel, _ in starter):
        raise refuse("init", "the shipped `starter/` folder holds no documents.",
                     "Reinstall memorybank (pip install --force-reinstall memorybank).")
    if not dry_run:
        try:
            bank.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise refuse("init", f"cannot create {bank.root}: {exc.strerror}.",
                         "Pick a folder you can write to, or create it first.") from None
    with writing(bank, dry_run) as tx:
        kept = []
        for rel, full in starter:
            data = full.read_bytes()
            if rel.endswith(".md"):
                data = _named(data.decode("utf-8"), name).encode("utf-8")
            current = tx.read(rel)
            if current is None:
                tx.write(rel, data)
            elif current != data:
                kept.append(rel)
        if kept:
            shown = ", ".join(kept[:8]) + (f" and {len(kept) - 8} more" if len(kept) > 8 else "")
            files = "1 existing file that differs" if len(kept) == 1 else f"{len(kept)} existing files that differ"
            warnings.append(f"kept {files} from the starter: {shown}. Delete a file first to reset it.")
        if tx.read(".gitignore") is None:
            tx.write(".gitignore", GITIGNORE.encode())
        return result(tx, dry_run, warnings, root=str(bank.root), name=name)


def materialize_flows(bank: Bank, force: bool = False, dry_run: bool = False) -> dict[str, Any]:
    """Copy the shipped templates into `flows/templates/`, registering each in the templates index.

    A bank template that differs from the shipped one is the bank's own: refused unless `force`.
    Identical copies are left alone. Returns `{copied, unchanged, …}`.
    """
    warnings: list[str] = []
    with writing(bank, dry_run) as tx:
        if not bank.docs:
            raise refuse("materialize", f"no bank at {bank.root}.", "Create one first.", see="init")
        found = []
        for rel, full in _files(shipped("flows")):
            if not rel.endswith(".md"):
                continue
            data = full.read_bytes()
            dest = BANK_TEMPLATES + rel
            doc = parse_document(dest, data)
            if doc.is_template:
                found.append((dest, data, doc))
        conflicts = [dest for dest, data, _ in found if tx.read(dest) not in (None, data)]
        if conflicts and not force:
            raise refuse("materialize", f"the bank's own templates differ from the shipped ones: "
                         f"{', '.join(conflicts)}.", "Pass force to overwrite them with the shipped versions.")
        copied, unchanged = [], []
        for dest, data, doc in found:
            if tx.read(dest) == data:
                unchanged.append(dest)
                continue
            tx.write(dest, data)
            copied.append(dest)
            register(bank, tx, dest, doc.title, doc.purpose or doc.title, doc.doc_kind or "flow")
        return result(tx, dry_run, warnings, copied=copied, unchanged=unchanged)
