"""adopt: turn a folder of plain markdown (a Cline `memory-bank/`, a `docs/` tree) into a governed bank.

No byte of any body changes. A document without frontmatter gets one in front of its original
bytes (a leading BOM moves ahead of the new `---`); a document with frontmatter keeps every line
of it and gains only the keys it lacks of `doc_kind`, `purpose`, `status` (and `title` when it has no
H1; `derived_from` when it ends up active), by `writers.frontmatter` line edits. The starter's
`dna/` contract is added when the bank has none, and an index README in every folder that holds
documents but no README. Everything lands in one all-or-nothing transaction.

Choices:
- Dry run by default: `adopt(bank)` returns the plan and writes nothing; `write=True` applies it.
  Adopting rewrites the head of every document, so the default shows first.
- `title` is the H1 without wrapping emphasis, else the file name; `purpose` the first sentence of
  the first prose paragraph (else the first list item), markdown links and emphasis flattened,
  cut at a word to `PURPOSE_CAP` characters; without any prose, "Read for <title>.".
- `doc_kind` comes from the Cline file names (`CLINE_KINDS`), else from the first folder
  (`FOLDER_KINDS`), else `project` (as does a kind the bank's contract does not declare);
  README.md files are `doc_function: index`, the rest `canonical`. Files are not moved, so the
  layer is the one the folder already gives (reported).
- `derived_from` points at the contract's root document (the starter's `dna/principles.md` when
  adopt adds the contract; the top README.md when the contract names none), relative to the
  document's folder; the root itself gets none.
- Index READMEs are created only on the way to documents that had no frontmatter: an already
  governed bank keeps its layout. An existing README is not edited (its body is the user's), so
  documents it does not link stay `unregistered-doc` warnings; new READMEs link every document
  and sub-index of their folder. The lock/temp `.gitignore` is added with the contract or indexes.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from .bank import Bank
from .echo import flatten
from .errors import BankError
from .headings import scan_headings
from .limits import PURPOSE_MAX, TITLE_MAX
from .project import project_dir
from .writers.create import GOVERNED, INBOX
from .writers.files import Text
from .writers.frontmatter import read_block, render_frontmatter, set_list, set_scalar
from .writers.registry import escape_inline
from .writers.seed import GITIGNORE, _files, _named, shipped
from .writers.session import result, writing

PURPOSE_CAP = PURPOSE_MAX
STARTER_ROOT = "dna/principles.md"
CLINE_KINDS = {"projectbrief.md": "project", "productcontext.md": "product", "systempatterns.md": "engineering",
               "techcontext.md": "engineering", "activecontext.md": "project", "progress.md": "project"}
FOLDER_KINDS = {"dna": "governance", "product": "product", "domain": "domain", "engineering": "engineering",
                "ops": "ops", "adr": "adr", "decisions": "adr", "use-cases": "use-case", "use_cases": "use-case",
                "prd": "prd", "features": "feature", "epics": "epic", "rules": "rule", "recipes": "recipe",
                "flows": "flow", "processes": "process", "prompts": "prompt", "_inbox": "note"}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|[。！？]")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")


def doc_kind_for(path: str) -> str:
    """The doc_kind a plain document gets from its name (the Cline layout) or its first folder."""
    name = posixpath.basename(path).lower()
    if "/" not in path and name in CLINE_KINDS:
        return CLINE_KINDS[name]
    head, sep, _ = path.partition("/")
    return FOLDER_KINDS.get(head, "project") if sep else "project"


def _cap(text: str) -> str:
    if len(text) <= PURPOSE_CAP:
        return text
    cut = text[:PURPOSE_CAP - 1]
    if " " in cut[PURPOSE_CAP // 2:]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def purpose_for(lines: list[str], title: str) -> str:
    """The first sentence of the first paragraph (a list item counts as one), capped; see the module doc."""
    paragraph: list[str] = []
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
            if paragraph:
                break
            continue
        stripped = line.strip()
        if fenced or not stripped:
            if paragraph:
                break
            continue
        if stripped.startswith(("#", "|", ">", "<", "---", "===")):
            if paragraph:
                break
            continue
        if _LIST_ITEM.match(line):
            if paragraph:
                break
            paragraph.append(_LIST_ITEM.sub("", line, count=1).strip())
            continue
        paragraph.append(stripped)
    text = flatten(" ".join(paragraph))
    if not text:
        return f"Read for {title}."
    found = _SENTENCE_END.search(text)
    sentence = text[:found.end()].strip() if found else text
    return _cap(sentence)


def _root_of(bank: Bank, adds_contract: bool) -> str | None:
    if adds_contract:
        return STARTER_ROOT
    roots = sorted(bank.contract.roots) if bank.contract is not None else []
    if roots:
        return roots[0]
    return "README.md" if "README.md" in bank.docs else None  # a contract naming no root: the top index


def _edge(path: str, root: str | None) -> list[str]:
    if root is None or path == root:
        return []
    return [posixpath.relpath(root, posixpath.dirname(path) or ".")]


def _meta_for(bank: Bank, path: str, lines: list[str], root: str | None) -> dict[str, Any]:
    doc = bank.docs[path]
    title = " ".join(doc.title.split()) or posixpath.splitext(posixpath.basename(path))[0]
    if len(title) > TITLE_MAX:
        title = title[:TITLE_MAX - 1].rstrip() + "…"
    index = posixpath.basename(path).lower() == "readme.md"
    kind = doc_kind_for(path)
    allowed = bank.contract.allowed("doc_kind") if bank.contract is not None else frozenset()
    if allowed and kind not in allowed:
        kind = "project" if "project" in allowed else sorted(allowed)[0]
    meta: dict[str, Any] = {"title": title, "doc_kind": kind,
                            "doc_function": "index" if index else "canonical",
                            "purpose": purpose_for(lines, title)}
    edges = _edge(path, root)
    if edges:
        meta["derived_from"] = edges
    meta["status"] = "active"
    return meta


def _index_page(folder: str, title: str, purpose: str, entries: list[tuple[str, str, str]], root: str | None,
                kind: str) -> bytes:
    meta: dict[str, Any] = {"title": title, "doc_kind": kind, "doc_function": "index", "purpose": purpose}
    edges = _edge(posixpath.join(folder, "README.md") if folder else "README.md", root)
    if edges:
        meta["derived_from"] = edges
    meta["status"] = "active"
    lines = ["---", *render_frontmatter(meta), "---", "", f"# {escape_inline(title)}", ""]
    lines += [f"- [{escape_inline(label)}]({target}) — {escape_inline(about)}" for label, target, about in entries]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _plan_indexes(bank: Bank, docs: dict[str, dict[str, Any]], plain: set[str], tx: Any, root: str | None,
                  name: str) -> list[str]:
    """Create README.md in every folder on the way to a plain (frontmatter-less) document that has none.

    Folders of an already governed bank keep the layout they have.
    """
    folders: set[str] = {""} if plain else set()
    for path in plain:
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folders.add("/".join(parts[:depth]))
    created = []
    for folder in sorted(folders, key=lambda f: (-f.count("/"), f)):
        readme = posixpath.join(folder, "README.md") if folder else "README.md"
        if readme in docs or tx.read(readme) is not None:
            continue
        entries: list[tuple[str, str, str]] = []
        for sub in sorted(f for f in folders if f and posixpath.dirname(f) == folder):
            entries.append((sub.rsplit("/", 1)[-1], f"{sub.rsplit('/', 1)[-1]}/README.md",
                            f"the documents under {sub}/"))
        for path, meta in sorted(docs.items()):
            if posixpath.dirname(path) == folder and posixpath.basename(path).lower() != "readme.md":
                entries.append((meta["title"], posixpath.basename(path), meta["purpose"]))
        if folder:
            title = f"{folder.rsplit('/', 1)[-1]} index"
            purpose = f"Read when you look for a document under {folder}/. Lists each one and what it answers."
            kind = FOLDER_KINDS.get(folder.split("/", 1)[0], "project")
        else:
            title = f"{name} memory bank"
            purpose = "Read first. What this memory bank holds and where each document lives."
            kind = "project"
        tx.write(readme, _index_page(folder, title, purpose, entries, root, kind))
        created.append(readme)
    return created


def adopt(bank: Bank, name: str | None = None, write: bool = False) -> dict[str, Any]:
    """Give every document governed frontmatter, add the dna/ contract and index READMEs; a dry run unless `write`.

    Returns `{root, adopted: [{path, title, doc_kind, layer, added}], contract, indexes, files,
    dry_run, warnings}`; `added` lists the keys put into that document's header (empty when it had
    them all). Refuses, writing nothing, when a document is not UTF-8 or its frontmatter does not parse.
    """
    warnings: list[str] = []
    bank.refresh()
    if not bank.root.is_dir():
        raise BankError(f"No bank at {bank.root}: the folder does not exist. Point the root at the folder of "
                        "markdown to adopt.")
    label = (name or project_dir(bank.root).name or "project").strip()
    with writing(bank, dry_run=not write) as tx:
        paths = [p for p in bank.paths if not p.startswith(INBOX)]
        if not paths:
            raise BankError(f"Refused (adopt): {bank.root} holds no markdown documents. Point the root at the "
                            "folder of markdown to adopt, or start a new bank with init.")
        adds_contract = bank.contract is None and not any(p.startswith("dna/") for p in bank.paths)
        root = _root_of(bank, adds_contract)
        adopted: list[dict[str, Any]] = []
        metas: dict[str, dict[str, Any]] = {}
        for path in paths:
            doc = bank.docs[path]
            data = tx.read(path) or b""
            text = Text.decode(data, path)
            close = text.frontmatter_close()
            body = text.contents()[close + 1:] if close is not None else text.contents()
            want = _meta_for(bank, path, body, root)
            metas[path] = want
            if close is None:
                if doc.has_frontmatter:
                    raise BankError(f"Refused (adopt): {path} opens a frontmatter block that is never closed. "
                                    "Add the closing `---` line, then run adopt again; nothing was written.")
                head = text.newline.join(["---", *render_frontmatter(want), "---"]) + text.newline
                raw = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
                tx.write(path, (text.bom + head).encode("utf-8") + raw)
                added = list(want)
            else:
                try:
                    have = read_block(text)
                except BankError:
                    raise BankError(f"Refused (adopt): the frontmatter of {path} does not parse as YAML. Fix it "
                                    "(quote values containing ': '), then run adopt again; nothing was "
                                    "written.") from None
                added = []
                has_h1 = any(level == 1 for level, _, _ in scan_headings(body))
                for key in ("title", "doc_kind", "purpose", "status"):
                    if key == "title" and has_h1:
                        continue  # the H1 is the title (the index reads it); adding the key changes nothing
                    if have.get(key) in (None, ""):
                        set_scalar(text, key, want[key])
                        added.append(key)
                status = have.get("status") or want["status"]
                if status == "active" and not have.get("derived_from") and want.get("derived_from") \
                        and not bank.is_root(path) and not doc.is_template:
                    set_list(text, "derived_from", want["derived_from"])
                    added.append("derived_from")
                if added:
                    tx.write(path, text.encode())
                metas[path] = {**want, **{k: v for k, v in have.items() if k in GOVERNED and v}}
            adopted.append({"path": path, "title": metas[path].get("title", want["title"]),
                            "doc_kind": metas[path].get("doc_kind", want["doc_kind"]), "layer": doc.layer,
                            "added": added})
        contract: list[str] = []
        if adds_contract:
            for rel, full in _files(shipped("starter") / "dna"):
                target = f"dna/{rel}"
                data = full.read_bytes()
                if rel.endswith(".md"):
                    data = _named(data.decode("utf-8"), label).encode("utf-8")
                if tx.read(target) is None:
                    tx.write(target, data)
                    contract.append(target)
        plain = {a["path"] for a in adopted if "doc_function" in a["added"]}  # had no frontmatter at all
        indexes = _plan_indexes(bank, metas, plain, tx, root, label)
        if (contract or indexes) and tx.read(".gitignore") is None:
            tx.write(".gitignore", GITIGNORE.encode())
        unlisted = [p for p in paths if not bank.registered_in.get(p) and posixpath.dirname(p) + "/README.md"
                    not in {f"{i.rpartition('/')[0]}/README.md" for i in indexes}
                    and posixpath.basename(p).lower() != "readme.md"]
        if unlisted:
            shown = ", ".join(unlisted[:5]) + (" …" if len(unlisted) > 5 else "")
            warnings.append(f"{len(unlisted)} document(s) stay unlisted in their folder's existing README "
                            f"(not edited): {shown}. Add a link to each.")
        return result(tx, not write, warnings, root=str(bank.root), adopted=adopted, contract=contract,
                      indexes=indexes)
