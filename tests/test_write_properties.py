"""§16 property: random sequences of writer calls, valid and invalid, never add a finding, and every
refused call leaves every byte (hypothesis stateful testing).

Each example starts from one of two seeded banks: the shipped starter (`init`), or the starter with
hand-written extras in other styles (a table index, a numbered index, a CRLF document with a BOM,
comments, a flow list, a folded scalar, a date, duplicate YAML keys). Steps call every writer with
inputs drawn from hostile pools: paths with `..`, absolute paths inside and outside, backslashes,
unicode, spaces, the root folder's name as a prefix; unresolved, external, self and inbox edges;
YAML-hostile strings (`: `, `#`, quotes, newlines, leading `-`/`*`/`&`, `yes`/`no`, dates, control
and line-separator characters); bodies near and over the 1 MB cap; `content_file` pointing at a
folder, a device, a missing file; random `dry_run`.

After every call:
- refused (BankError): the whole tree is byte-identical (every file re-read), and a dry run
  first gave the same refusal;
- accepted: exactly the files the result lists changed, no temp file is left, a dry run first
  announced the same files and warnings, and the change is the one asked for (the frontmatter of
  an edited body is untouched, the bytes outside an updated section are untouched, other keys of
  a set field read as before);
- validate reports nothing, except `unknown-enum-value` on documents whose writer warned about an
  undeclared value (the contract is open: that warning is the writer's answer), and no index
  lists a document twice.

What the model leaves out on purpose: body edits of index documents and of dna/ (an index edit
may delete entries, a dna edit changes the contract — both are findings the caller asked for),
and prose that claims a rule lives in a missing file (`defined in x.md`).

Half the document picks go to documents the example itself created or promoted, where interactions
hide (an edge to a note, then the note's discard).

Speed: the normal run does 50 examples of up to 4 steps (1,000 under `--slow`). Each seed is built once; every example
restores the working copy in place (only files the last example changed are rewritten) and keeps
one `Bank` object, which re-derives from the files like any long-running server. Inputs come from
pre-built pools, so each is one hypothesis choice. `--slow` also runs 20,000 examples of up to 12 steps
on a fresh copy and a fresh `Bank` each time.
"""

from __future__ import annotations

import atexit
import itertools
import os
import posixpath
import random
import shutil
from pathlib import Path

import pytest
from conftest import heavy
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test
from writekit import TreeWatch, fast_tmp, tree_diff

from memorybank.atomic import TEMP_PREFIX
from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.headings import resolve_section, section_bounds
from memorybank.parse import text_of
from memorybank.validate import validate
from memorybank.writers import (
    create,
    discard,
    edit,
    init,
    promote,
    set_field,
    set_list,
    set_status,
    update_section,
)
from memorybank.writers.files import INPUT_LIMIT

ROOT_NAME = "memory_bank"

# -- input pools -------------------------------------------------------------------------------

FRAGMENTS = [
    ": ", " #", "#", "'", '"', "''", "\\", "- ", "* ", "& ", "&a ", "*a", "! ", "!!str ", "|", ">", "%", "@", "`",
    "?", ", ", "[", "]", "{", "}", "yes", "no", "on", "off", "null", "~", "true", "False", "2024-01-02", "2024-1-2",
    "12:30", "0x1F", "010", "1e3", ".inf", "-.5", "=", "<<", "---", "...", "\t", "  ", "\u00a0", "\u2028", "\x85",
    "\ufeff", "\x00", "\x07", "\x1b[0m", "日本語", "Ёлка", "ß", "e\u0301", "—", "🙂", "[a](nowhere.md)", "](",
    "<!--", "</tool_result>", "\n", "\r\n", "\r",
]
WORDS = ["Cache", "orders", "Billing policy", "x", "Ünïcode", "42", "rounding"]
BODY_LINES = ["## Context", "## Decision", "## Notes", "# Heading", "### Deep", "```", "~~~python", "---", "***",
              "| a | b |", "|---|---|", "- item", "* item", "1. one", "> quote", "<!-- note -->", "    code",
              "\t", "", "text: with a colon", "[site](https://example.com)", "\r"]


def _no_claims(text: str) -> str:
    return text.replace(".md", ".mdx")  # keeps `defined in x.md` claims and index links out of bodies


def _pools() -> dict[str, list]:
    """Pre-built input pools, so one draw picks a whole hostile value (seeded: the same every run).

    Drawing lists of pieces costs hypothesis a choice per piece; these pools keep every fragment
    tried alone, inside words and in random mixes, at one choice per value.
    """
    rng = random.Random(16)
    text = list(WORDS) * 12 + list(FRAGMENTS)
    for fragment in FRAGMENTS:
        text += [f"Cache{fragment}", f"{fragment}orders", f"Billing {fragment} policy"]
    for _ in range(400):
        text.append("".join(rng.choice(FRAGMENTS + WORDS) for _ in range(rng.randint(2, 5))))
    bodies: list = [None] * 40
    for _ in range(260):
        lines = [rng.choice(BODY_LINES) if rng.random() < 0.6 else rng.choice(text) for _ in range(rng.randint(0, 6))]
        bodies.append(_no_claims("\n".join(lines)))
    bodies += list(HUGE)
    keys = ["k_money", "k_users", "k_cache", "product_context", "doc_kind_values"]
    key_lists: list = [None, None, [], ["k_money"], ["k_users", "k_cache"], ["k_cache", "k_cache"], ["product_context"],
                       ["doc_kind_values"]]
    key_lists += [[rng.choice(text)] for _ in range(20)] + [[rng.choice(keys), rng.choice(text)] for _ in range(10)]
    values: list = [True, False, 0, 7, -3, None, ["a", "b"], {"a": "b"}, "planned", "done", "accepted", "2025-02-03",
                    "true", "7", " padded "] + text
    extra_keys = ["owner", "delivery_status", "tags", "n", "flag", "nested", "title", "bad key", "_x", "when"]
    extra_values = [rng.choice(text), "planned", "bogus", 12, True, None, [], ["a", rng.choice(text)],
                    {"k": rng.choice(text)}, 1.5, 10**20]
    extras: list = [None] * 20 + [{rng.choice(extra_keys): rng.choice(extra_values)
                                   for _ in range(rng.randint(1, 3))} for _ in range(80)]
    def edge_spec() -> tuple[int, str]:
        return rng.randint(0, 10**6), rng.choice(EDGE_FORMS)

    edges: list = [[]] * 10 + [[edge_spec()] for _ in range(60)] + [[edge_spec(), edge_spec()] for _ in range(30)]
    items: list = [[]] * 4 + [[edge_spec()] for _ in range(40)] + [[rng.choice(keys + text)] for _ in range(40)] + [
        [edge_spec(), rng.choice(keys)] for _ in range(16)]
    removals: list = [[]] * 6 + [[rng.randint(0, 3)] for _ in range(12)] + [[edge_spec()] for _ in range(12)] + [
        [rng.choice(keys + text)] for _ in range(10)]
    return {"text": text, "bodies": bodies, "keys": key_lists, "values": values, "extras": extras, "edges": edges,
            "items": items, "removals": removals}


HUGE = {"<huge: just under 1 MB>": INPUT_LIMIT - 300, "<huge: just over 1 MB>": INPUT_LIMIT + 10}


def expand(body: str | None) -> str | None:
    """Pools hold a short name for the huge bodies (hypothesis keeps drawn values around)."""
    size = HUGE.get(body) if body is not None else None
    return body if size is None else "## Big\n" + "word " * (size // 5)



FOLDERS = ["adr", "domain", "engineering", "features/FT-001", "epics", "prompts", "rules", "product", "", "newsec",
           "deep/a/b", "日本", "flows/templates", "_inbox", "dna"]
NAMES = ["alpha", "beta", "ADR-002-cache", "naïve-ß", "日本語", "with space", "README", "x.y", ".hidden",
         "node_modules/x", "a(b)", "e\u0301", "a`b"]
PATH_FORMS = ["plain"] * 6 + ["dotslash", "backslash", "absolute", "outside", "dotdot", "detour", "rootname", "noext",
                              "upper", "padded", "double", "nul"]
KINDS = ["adr", "domain", "feature", "epic", "rule", "recipe", "product", "note", "bogus-kind", "", "a: b"]
STATUSES = ["draft", "draft", "active", "active", "archived", "bogus", " active ", "Active", ""]
FIELDS = ["purpose", "title", "owner", "delivery_status", "decision_status", "status", "doc_kind", "derived_from",
          "template_for", '"purpose"', "a: b", "- x", "tags", "when", ""]
LIST_FIELDS = ["derived_from", "canonical_for", "must_not_define", "anchors", "tags", "title"]
EDGE_FORMS = ["rooted", "relative", "absolute", "anchor", "fit", "missing", "external", "self", "empty", "escape"]
POOLS = _pools()
TEXT = st.sampled_from(POOLS["text"])
ONE_LINE = TEXT
CONTENT = st.sampled_from(POOLS["bodies"])
KEY_LISTS = st.sampled_from(POOLS["keys"])
VALUES = st.sampled_from(POOLS["values"])
EXTRA = st.sampled_from(POOLS["extras"])
KEYS = TEXT
ANCHORS = st.sampled_from([None, None, ["src/"], ["./lib\\x.py", "src/"], [""], ["src/", "src/"]])
DRY = st.sampled_from([False, False, True])
PICK = st.integers(0, 10**6)
# Composite draws: each is one hypothesis choice (draws, not work, dominate a step's overhead).
NEW_PATHS = st.sampled_from(list(itertools.product(FOLDERS, NAMES, PATH_FORMS)))
KIND_STATUS = st.sampled_from(list(itertools.product(KINDS, STATUSES)))
EDGES = st.sampled_from(POOLS["edges"])
ITEMS = st.sampled_from(POOLS["items"])
REMOVALS = st.sampled_from(POOLS["removals"])
INBOX_DRY = st.sampled_from([(False, False)] * 3 + [(False, True), (True, False), (True, True)])
REPLACEMENTS = st.sampled_from(POOLS["text"] + [b or "" for b in POOLS["bodies"]])
SECTIONS = st.sampled_from([None, None, "", "zz", 0, 1, 2, 3, 5, 8])
MAYBE_TEXT = st.sampled_from([None] * 40 + POOLS["text"])
MAYBE_STATUS = st.sampled_from([None, None, None, *STATUSES])
MAYBE_EDGES = st.sampled_from([None] * 30 + POOLS["edges"])


# -- seeds and workspaces ------------------------------------------------------------------------

STYLED = {
    "domain/README.md": (
        "---\ntitle: Domain\ndoc_kind: domain\ndoc_function: index\n"
        "purpose: Read when you need the language and rules of the problem domain.\n"
        "derived_from:\n  - ../dna/governance.md\nstatus: active\n---\n\n# Domain\n\n"
        "| Document | Purpose |\n|---|---|\n| [Billing](billing.md) | How invoices are rounded. |\n"),
    "domain/billing.md": (
        "\ufeff---\r\ntitle: Billing\r\ndoc_kind: domain  # the kind\r\ndoc_function: canonical\r\n"
        "purpose: 'How invoices are rounded.'\r\nderived_from: [../product/context.md]\r\n"
        "canonical_for:\r\n- invoice_rounding\r\nreviewed: 2024-05-06\r\nnotes: >-\r\n  folded\r\n  text\r\n"
        "status: active\r\n---\r\n\r\n# Billing\r\n\r\n## Rounding\r\n\r\nHalf up, in cents.\r\n\r\n"
        "## Examples\r\n\r\n```\r\n## not a section\r\n```\r\n"),
    "rules/README.md": (
        "---\ntitle: Rules\ndoc_kind: rule\ndoc_function: index\n"
        "purpose: Read when you need the rules and recipes delivered to coding agents.\n"
        "derived_from:\n  - ../dna/governance.md\nstatus: active\n---\n\n# Rules\n\n"
        "1. [`rules/no-floats.md`](no-floats.md) — Read when code handles money.\n"),
    "rules/no-floats.md": (
        "---\ntitle: \"No floats: money\"\ndoc_kind: rule\ndoc_function: canonical\n"
        "purpose: Read when code handles money.\nderived_from:\n    - path: ../domain/billing.md\n"
        "      fit: rounding\ntitle: No floats for money\nstatus: draft\n---\n\n# No floats for money\n\n"
        "## Rule\n\nUse integer cents.\n"),
}


def build_seed(name: str, target: Path) -> None:
    init(Bank(target), name="Prop")
    if name == "styled":
        for rel, text in STYLED.items():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_bytes(text.encode("utf-8"))
    bank = Bank(target)
    found = validate(bank)["findings"]
    assert found == [], f"seed {name} is not clean: {found}"


def doubles(bank: Bank) -> set[tuple[str, str]]:
    """(index, target) pairs where an index links the same document more than once."""
    out = set()
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.is_index:
            targets = [link.target for link in doc.links]
            out |= {(path, t) for t in targets if targets.count(t) > 1}
    return out


class Workspace:
    """A seed bank and one working copy restored to it in place before each example."""

    def __init__(self, name: str) -> None:
        base = fast_tmp("mb-prop-")
        atexit.register(shutil.rmtree, base, True)  # kept for the whole session, removed at exit
        self.seed = base / "seed" / ROOT_NAME
        build_seed(name, self.seed)
        self.files: dict[str, tuple[bytes, int]] = {}
        for folder, _, names in os.walk(self.seed):
            rel_dir = Path(folder).relative_to(self.seed).as_posix()
            for n in names:
                full = Path(folder) / n
                rel = posixpath.normpath(posixpath.join(rel_dir, n))
                self.files[rel] = (full.read_bytes(), full.stat().st_mtime_ns)
        self.root = base / "work" / ROOT_NAME
        shutil.copytree(self.seed, self.root)
        self.bank = Bank(self.root)
        self.inputs = base / "inputs"
        self.inputs.mkdir()
        (self.inputs / "small.md").write_text("## Heading\n\nFrom a file: with a colon.\n", encoding="utf-8")
        (self.inputs / "big.md").write_bytes(b"x" * (INPUT_LIMIT + 1))
        (self.inputs / "latin1.md").write_bytes("café".encode("latin-1"))
        (self.inputs / "folder").mkdir()
        self.watch = TreeWatch(self.root)
        self.seed_view = self.watch.snapshot()
        self.last_view = self.seed_view  # what the last example left (set at its teardown)
        self.bank.refresh()
        self.doubles = doubles(self.bank)

    def restore(self) -> dict[str, str]:
        """Put the working copy back to the seed's bytes, touching only what the last example changed.

        Returns the tree view of the restored copy (equal, hash for hash, to the seed's).
        """
        seed, last = self.seed_view, self.last_view
        for rel in sorted((p for p in last if p.endswith("/") and p not in seed), key=len, reverse=True):
            shutil.rmtree(self.root / rel, ignore_errors=True)
        for rel in sorted(p for p in seed if p.endswith("/") and p not in last):
            (self.root / rel).mkdir(parents=True, exist_ok=True)
        for rel, digest in last.items():
            if rel.endswith("/") or seed.get(rel) == digest:
                continue
            if rel not in seed:
                (self.root / rel).unlink(missing_ok=True)
        for rel, digest in seed.items():
            if rel.endswith("/") or last.get(rel) == digest:
                continue
            data, mtime = self.files[rel]
            full = self.root / rel
            full.unlink(missing_ok=True)
            full.write_bytes(data)
            os.utime(full, ns=(mtime, mtime))
        self.last_view = seed
        return dict(seed)

    def fresh_copy(self) -> tuple[Path, Bank]:
        root = fast_tmp("mb-prop-fresh-") / ROOT_NAME
        shutil.copytree(self.seed, root)
        return root, Bank(root)


_WORKSPACES: dict[str, Workspace] = {}


def workspace(name: str) -> Workspace:
    if name not in _WORKSPACES:
        _WORKSPACES[name] = Workspace(name)
    return _WORKSPACES[name]


# -- the machine ---------------------------------------------------------------------------------

def _frontmatter_bytes(data: bytes) -> bytes:
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if not lines or lines[0].lstrip("\ufeff").rstrip() != "---":
        return b""
    for i in range(1, len(lines)):
        if lines[i].rstrip() == "---":
            return "\n".join(lines[:i + 1]).encode("utf-8")
    return data


class Writers(RuleBasedStateMachine):
    fresh = False

    def __init__(self) -> None:
        super().__init__()
        self.cleanup: Path | None = None

    @initialize(seed=st.sampled_from(["starter", "styled"]))
    def start(self, seed: str) -> None:
        space = workspace(seed)
        self.space = space
        self.inputs = space.inputs
        if self.fresh:
            self.root, self.bank = space.fresh_copy()
            self.cleanup = self.root.parent
            self.watch = TreeWatch(self.root)
            self.view = self.watch.snapshot()
        else:
            self.root, self.bank, self.watch = space.root, space.bank, space.watch
            self.view = space.restore()  # the tree as it is now; attempt() keeps it current
        self.validated: dict[str, str] | None = self.view  # every seed was validated clean when built
        self.warned: set[str] = set()
        self.recent: list[str] = []
        self.bank.refresh()
        self.baseline_doubles = space.doubles

    def teardown(self) -> None:
        if self.cleanup is not None:
            shutil.rmtree(self.cleanup, ignore_errors=True)
        elif hasattr(self, "space"):
            self.space.last_view = self.watch.snapshot()  # whatever happened, the next restore starts from disk

    # -- helpers -------------------------------------------------------------------------------

    def all_docs(self) -> list[str]:
        return self.bank.paths  # attempt() refreshes after every change

    def notes(self) -> list[str]:
        return [p for p in self.all_docs() if p.startswith("_inbox/")]

    def editable(self) -> list[str]:
        """Documents whose bodies the model edits freely: not indexes, not the contract."""
        return [p for p in self.all_docs() if not self.bank.docs[p].is_index and not p.startswith("dna/")]

    def choose(self, pick: int, pool: list[str]) -> str:
        """Half the picks go to documents this example made (interactions hide there), the rest anywhere."""
        recent = [p for p in self.recent if p in pool]
        if recent and pick % 2:
            return recent[(pick // 2) % len(recent)]
        return pool[pick % len(pool)]

    def caller_path(self, path: str, form: str) -> str:
        """An existing document's path as a caller might write it (some forms are refused)."""
        return {
            "plain": path, "dotslash": "./" + path, "backslash": path.replace("/", "\\"),
            "absolute": str(self.root / path), "outside": "/etc/" + path, "dotdot": "../" + path,
            "detour": "dna/../" + path, "rootname": f"{ROOT_NAME}/{path}", "noext": path[:-3],
            "upper": path.upper(), "padded": f"  {path}  ", "double": path.replace("/", "//"),
            "nul": path + "\x00",
        }[form]

    def new_path(self, folder: str, name: str, form: str) -> str:
        path = f"{folder}/{name}.md" if folder else f"{name}.md"
        return self.caller_path(path, form)

    def edge(self, doc_path: str, pick: int, form: str) -> object:
        docs = self.all_docs()
        target = self.choose(pick, docs)
        here = posixpath.dirname(doc_path) or "."
        return {
            "rooted": target, "relative": posixpath.relpath(target, here), "absolute": str(self.root / target),
            "anchor": target + "#section", "fit": {"path": target, "fit": "partial: yes"}, "missing": "nowhere.md",
            "external": "../../outside/spec.md", "self": doc_path, "empty": "", "escape": "/etc/passwd.md",
        }[form]

    def attempt(self, label: str, writer, dry: bool, **params) -> dict | None:
        """Call a writer (after a dry run when `dry`) and check the §16 promises about what it did."""
        before = self.view
        planned: dict | BankError | None = None
        if dry:
            try:
                planned = writer(self.bank, dry_run=True, **params)
            except BankError as exc:
                planned = exc
            assert self.watch.snapshot() == before, f"{label}: a dry run wrote"
        try:
            out = writer(self.bank, **params)
        except BankError as exc:
            after = self.watch.full()
            assert after == before, f"{label}: refused ({exc}) but changed {tree_diff(before, after)}"
            if dry:
                assert isinstance(planned, BankError) and str(planned) == str(exc), \
                    f"{label}: dry run said {planned!r}, the real call refused: {exc}"
            return None
        after = self.view = self.watch.snapshot()
        diff = tree_diff(before, after)
        reported = {f["path"]: f["action"] for f in out["files"]}
        past = {"create": "created", "update": "updated", "delete": "deleted"}
        for path, change in diff.items():
            assert path in reported and past[reported[path]] == change, \
                f"{label}: {path} {change} but the result lists {out['files']}"
        for path, action in reported.items():
            if action != "update":
                assert diff.get(path) == past[action], f"{label}: result says {action} {path}; disk says {diff}"
        assert not [p for p in after if TEMP_PREFIX in p], f"{label}: temp files left"
        if dry:
            assert not isinstance(planned, BankError), f"{label}: dry run refused ({planned}), the real call did not"
            assert planned is not None
            assert planned["files"] == out["files"] and planned["warnings"] == out["warnings"], \
                f"{label}: dry run {planned} vs real {out}"
        self.bank.refresh()
        return out

    def note_warnings(self, out: dict | None, path_key: str = "path") -> None:
        if out and any("is not declared in dna/" in w for w in out["warnings"]):
            self.warned.add(out[path_key])

    def read_bytes(self, path: str) -> bytes:
        return (self.root / path).read_bytes()

    # -- rules ---------------------------------------------------------------------------------

    @rule(where=NEW_PATHS, kind_status=KIND_STATUS, title=ONE_LINE, purpose=ONE_LINE, edges=EDGES, keys=KEY_LISTS,
          must_not=KEY_LISTS, anchors=ANCHORS, body=CONTENT, extra=EXTRA, inbox_dry=INBOX_DRY)
    def make(self, where, kind_status, title, purpose, edges, keys, must_not, anchors, body, extra, inbox_dry):
        (folder, name, form), (kind, status), (inbox, dry) = where, kind_status, inbox_dry
        target = (f"{folder}/{name}.md" if folder else f"{name}.md")
        derived = [self.edge(target, pick, edge_form) for pick, edge_form in edges]
        out = self.attempt("create", create, dry, path=self.new_path(folder, name, form), doc_kind=kind, title=title,
                           purpose=purpose, derived_from=derived or None, canonical_for=keys,
                           must_not_define=must_not, anchors=anchors, status=status, body=expand(body),
                           extra=extra, inbox=inbox)
        if out is None:
            return
        self.note_warnings(out)
        self.recent.append(out["path"])
        doc = self.bank.docs[out["path"]]
        assert doc.title == title.strip() and doc.purpose == purpose.strip() and doc.doc_kind == kind.strip()
        assert doc.status == (status or "draft").strip()
        if not doc.in_inbox:
            assert self.bank.registered_in.get(doc.path), f"{doc.path} is not registered: {out}"

    @rule(pick=PICK, form=st.sampled_from(PATH_FORMS), status=st.sampled_from(STATUSES), release=st.booleans(),
          dry=DRY)
    def status(self, pick, form, status, release, dry):
        docs = self.all_docs()
        path = self.choose(pick, docs)
        before = self.bank.docs[path].frontmatter
        out = self.attempt("set_status", set_status, dry, path=self.caller_path(path, form), status=status,
                           release_canonical=release)
        if out and out["changed"]:
            after = self.bank.docs[path].frontmatter
            assert after["status"] == status.strip()
            touched = {"status", "canonical_for"} if out["released"] else {"status"}
            assert {k: v for k, v in before.items() if k not in touched} == \
                {k: v for k, v in after.items() if k not in touched}

    @rule(pick=PICK, form=st.sampled_from(PATH_FORMS[:3]), field=st.sampled_from(FIELDS), value=VALUES,
          dry=DRY)
    def field(self, pick, form, field, value, dry):
        docs = self.all_docs()
        path = self.choose(pick, docs)
        before = self.bank.docs[path].frontmatter
        out = self.attempt("set_field", set_field, dry, path=self.caller_path(path, form), field=field, value=value)
        if out and out["changed"]:
            after = self.bank.docs[path].frontmatter
            want = str(value).lower() if isinstance(value, bool) else str(value).strip()
            assert text_of(after.get(field)) == want, f"set_field {field}={value!r} reads back {after.get(field)!r}"
            assert {k: v for k, v in before.items() if k != field} == \
                {k: v for k, v in after.items() if k != field}

    @rule(pick=PICK, field=st.sampled_from(LIST_FIELDS), add=ITEMS, remove=REMOVALS, dry=DRY)
    def lists(self, pick, field, add, remove, dry):
        docs = self.all_docs()
        path = self.choose(pick, docs)
        doc = self.bank.docs[path]
        current = list(doc.frontmatter.get(field) or []) if isinstance(doc.frontmatter.get(field), list) else []

        def item(spec):
            if isinstance(spec, tuple):
                return self.edge(path, *spec)
            if isinstance(spec, int):  # an item that is there now
                return current[spec % len(current)] if current else "absent"
            return spec

        before = doc.frontmatter
        out = self.attempt("set_list", set_list, dry, path=path, field=field, add=[item(a) for a in add] or None,
                           remove=[item(r) for r in remove] or None)
        if out and out["changed"]:
            after = self.bank.docs[path].frontmatter
            assert {k: v for k, v in before.items() if k != field} == \
                {k: v for k, v in after.items() if k != field}

    @rule(pick=PICK, start=st.integers(0, 10**6), length=st.integers(0, 30),
          new=REPLACEMENTS, section=SECTIONS, dry=DRY)
    def change_body(self, pick, start, length, new, section, dry):
        docs = self.editable()
        path = self.choose(pick, docs)
        data = self.read_bytes(path)
        text = data.decode("utf-8", errors="replace")
        at = start % (len(text) + 1)
        find = _no_claims(text[at:at + length])
        sections = self.bank.docs[path].sections
        if isinstance(section, int):
            section = sections[section % len(sections)].title if sections else "none"
        out = self.attempt("edit", edit, dry, path=path, find=find, replace=expand(new), section=section)
        if out and out["changed"]:
            assert _frontmatter_bytes(self.read_bytes(path)) == _frontmatter_bytes(data), "edit touched frontmatter"

    @rule(pick=PICK, which=PICK, content=CONTENT,
          source=st.sampled_from([None, None, None, "small.md", "big.md", "latin1.md", "folder", "missing.md",
                                  "/dev/null"]),
          append=st.booleans(), dry=DRY)
    def section(self, pick, which, content, source, append, dry):
        docs = self.editable()
        path = self.choose(pick, docs)
        doc = self.bank.docs[path]
        name = doc.sections[which % len(doc.sections)].title if doc.sections and which % 5 else "Nope"
        content_file = None if source is None else (source if source.startswith("/") else str(self.inputs / source))
        data = self.read_bytes(path)
        out = self.attempt("update_section", update_section, dry, path=path, section=name, content=expand(content),
                           content_file=content_file, mode="append" if append else "replace")
        if out and out["changed"]:
            old, new = data.split(b"\n"), self.read_bytes(path).split(b"\n")
            first, last = out["lines"]
            _, old_last = section_bounds(doc.sections, resolve_section(doc.sections, name, path), doc.line_count)
            assert new[:first - 1] == old[:first - 1], "update_section changed lines above the section"
            below_old, below_new = old[old_last:], new[last:]
            if old_last == doc.line_count:  # the last section: it may gain the file's final newline
                below_old, below_new = [b for b in below_old if b], [b for b in below_new if b]
            assert below_new == below_old, "update_section changed lines below the section"

    @rule(pick=PICK, folder=st.sampled_from(FOLDERS + ["adr/"]), name=st.sampled_from([None, *NAMES]),
          form=st.sampled_from(PATH_FORMS[:4]), edges=MAYBE_EDGES, title=MAYBE_TEXT, keys=KEY_LISTS,
          status=MAYBE_STATUS, dry=DRY)
    def promote_note(self, pick, folder, name, form, edges, title, keys, status, dry):
        notes = self.notes()
        if not notes:
            return
        note = self.choose(pick, notes)
        to = folder if name is None else self.new_path(folder, name, form)
        guess = to if to.endswith(".md") else f"{to.rstrip('/')}/{posixpath.basename(note)}"
        derived = None if edges is None else [self.edge(guess, p, f) for p, f in edges]
        out = self.attempt("promote", promote, dry, path=note, to=to, derived_from=derived, title=title,
                           canonical_for=keys, status=status)
        if out:
            self.warned.discard(note)
            self.note_warnings(out)
            self.recent.append(out["path"])

    @rule(pick=PICK, reason=ONE_LINE, dry=DRY)
    def discard_note(self, pick, reason, dry):
        notes = self.notes()
        if not notes:
            return
        note = self.choose(pick, notes)
        out = self.attempt("discard", discard, dry, path=note, reason=reason)
        if out:
            self.warned.discard(note)

    # -- the invariant -------------------------------------------------------------------------

    @invariant()
    def bank_stays_clean(self):
        view = self.view
        if view == self.validated:
            return
        found = [f for f in validate(self.bank)["findings"]
                 if not (f["rule"] == "unknown-enum-value" and f["path"] in self.warned)]
        assert found == [], "\n".join(f"{f['rule']} {f['path']}:{f.get('line', '')}: {f['message']}" for f in found)
        doubled = doubles(self.bank) - self.baseline_doubles
        assert not doubled, f"an index lists a document twice: {sorted(doubled)}"
        self.validated = view


class FreshWriters(Writers):
    fresh = True


# The normal run draws a fresh sample each time (not derandomized) and replays failures from the example
# database, so many quick runs add up; `--slow` runs the 1,000-example sweep and the heavy variant.
_FAST = settings(max_examples=1000 if heavy() else 50, stateful_step_count=4, deadline=None, derandomize=False,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
_HEAVY = settings(_FAST, max_examples=20_000, stateful_step_count=12)

TestWriterSequences = Writers.TestCase
TestWriterSequences.settings = _FAST


@pytest.mark.slow
def test_writer_sequences_heavy_on_fresh_banks():
    run_state_machine_as_test(FreshWriters, settings=_HEAVY)
