"""Bugs the §16 reliability tests found in the writers and the parsing they rely on, each pinned by the
smallest call that showed it."""

from __future__ import annotations

import os

import pytest
from writekit import PRODUCT_INDEX, assert_clean, findings, make_bank, read, refused

from memorybank.bank import Bank
from memorybank.writers import create, discard, edit, init, promote, set_field, set_list, update_section

V = "product/vision.md"
UP = ["dna/principles.md"]


@pytest.fixture
def bank(tmp_path):
    return make_bank(tmp_path / "bank")


@pytest.mark.parametrize("call", [
    lambda b: edit(b, path=V, find="Fewer surprises.", replace="Fewer\x00surprises."),
    lambda b: update_section(b, path=V, section="Goals", content="a\x00b"),
    lambda b: create(b, path="adr/ADR-009.md", doc_kind="adr", title="T\x00", purpose="P.", derived_from=UP),
    lambda b: create(b, path="adr/ADR-009.md", doc_kind="adr", title="T", purpose="P.", derived_from=UP,
                     body="x\x00"),
], ids=["edit", "update_section", "create-title", "create-body"])
def test_a_nul_character_never_reaches_a_file(bank, call):
    # A NUL makes every reader take the file for binary: validate would report it as broken.
    refused(bank, lambda: call(bank), "NUL character")
    assert_clean(bank)


@pytest.mark.parametrize("title", ["]\x07no", "a [b] c", "back\\slash", "[x](y.md)", "end\\"])
def test_a_title_with_brackets_or_backslashes_is_still_registered(bank, title):
    # The index label escapes `[`, `]` and `\`; the link parsers must honour those escapes.
    out = create(bank, path="adr/ADR-009.md", doc_kind="adr", title=title, purpose="P.", derived_from=UP)
    assert out["registered_in"] == "adr/README.md"
    bank.refresh()
    assert bank.registered_in.get("adr/ADR-009.md") == ["adr/README.md"]
    assert_clean(bank)


LINKY = "see [the other](vision.md) and [gone](nowhere.md)"


def test_link_syntax_in_a_title_or_purpose_stays_text_in_indexes_and_headings(bank):
    # Unescaped, these became index links: one dangling, one registering vision.md a second time.
    create(bank, path="adr/ADR-009.md", doc_kind="adr", title=LINKY, purpose=LINKY, derived_from=UP)
    create(bank, path="product/README-notes.md", doc_kind="product", title="Notes", purpose=LINKY,
           derived_from=UP)
    set_field(bank, path="product/README.md", field="title", value=LINKY)
    set_field(bank, path="product/vision.md", field="purpose", value=LINKY + " too")
    assert_clean(bank)
    bank.refresh()
    assert [link.target for link in bank.docs["product/README.md"].links].count("product/vision.md") == 1
    assert bank.docs["adr/ADR-009.md"].h1 == LINKY.replace("[", "\\[").replace("]", "\\]")
    set_field(bank, path="adr/ADR-009.md", field="title", value="Plain again")
    bank.refresh()
    assert bank.docs["adr/ADR-009.md"].h1 == "Plain again"
    assert "[Plain again](ADR-009.md)" in read(bank, "adr/README.md")
    assert_clean(bank)


DUPLICATE_TITLE = ("---\ntitle: \"No floats: money\"\ndoc_kind: rule\ndoc_function: canonical\npurpose: Money rules.\n"
                   "derived_from:\n    - path: ../dna/principles.md\n      fit: rounding\ntitle: No floats for money\n"
                   "status: draft\n---\n\n# No floats for money\n")


def test_a_header_with_a_duplicate_key_gets_a_new_list_and_a_clear_refusal_for_that_key(tmp_path):
    # ruamel refuses duplicate keys that PyYAML reads (last wins): set_list crashed with DuplicateKeyError.
    bank = make_bank(tmp_path / "bank", {"rules/no-floats.md": DUPLICATE_TITLE,
                                         "rules/README.md": "---\ntitle: Rules\ndoc_function: index\n---\n"
                                                            "- [No floats](no-floats.md)\n"})
    set_list(bank, path="rules/no-floats.md", field="canonical_for", add=["money_type"])
    bank.refresh()
    doc = bank.docs["rules/no-floats.md"]
    assert doc.canonical_for == ("money_type",) and doc.title == "No floats for money"
    assert doc.derived_from[0].fit == "rounding"
    refused(bank, lambda: set_field(bank, path="rules/no-floats.md", field="title", value="New"),
            "`title` appears 2 times")
    assert_clean(bank)


@pytest.mark.parametrize("then", ["discard", "promote"])
def test_nothing_derives_from_an_inbox_note_so_promote_and_discard_break_no_edge(bank, then):
    # Notes move or vanish; an edge to one became broken-derived-from after promote or discard.
    create(bank, path="n.md", doc_kind="note", title="Note", purpose="A note.", inbox=True)
    refused(bank, lambda: set_list(bank, path=V, field="derived_from", add=["_inbox/n.md"]), "inbox note")
    refused(bank, lambda: create(bank, path="adr/ADR-009.md", doc_kind="adr", title="X", purpose="X.",
                                 derived_from=["../_inbox/n.md"]), "inbox note")
    refused(bank, lambda: create(bank, path="m.md", doc_kind="note", title="M", purpose="M.", inbox=True,
                                 derived_from=["n.md"]), "inbox note")
    if then == "discard":
        discard(bank, path="_inbox/n.md", reason="Not needed.")
    else:
        promote(bank, path="_inbox/n.md", to="product/", derived_from=UP)
    assert_clean(bank)


def test_an_undeclared_doc_kind_does_not_spread_to_the_section_index_created_for_it(tmp_path):
    # The new epics/README.md took the caller's undeclared kind: a finding on a file nobody named.
    bank = make_bank(tmp_path / "bank", base=False)
    init(bank, name="Acme")
    out = create(bank, path="epics/alpha.md", doc_kind="bogus-kind", title="Alpha", purpose="Alpha epic.")
    assert out["created_index"] == "epics/README.md"
    assert any("bogus-kind" in w for w in out["warnings"])
    bank.refresh()
    assert bank.docs["epics/README.md"].doc_kind == "project"
    assert [(f["rule"], f["path"]) for f in findings(bank)] == [("unknown-enum-value", "epics/alpha.md")]


def _killed_between_replaces(bank, call) -> None:
    """Run `call` in a forked child that dies (like SIGKILL: no cleanup) right after its first move of a target."""
    import os

    from memorybank.writers import files as wfiles

    pid = os.fork()
    if pid == 0:
        try:
            def dying(real):
                def move(*args):
                    outcome = real(*args)
                    os._exit(9)
                    return outcome
                return move
            wfiles.exchange = dying(wfiles.exchange)
            wfiles.place_new = dying(wfiles.place_new)
            call()
        finally:
            os._exit(3)
    assert os.WEXITSTATUS(os.waitpid(pid, 0)[1]) == 9


def test_a_writer_killed_between_two_replaces_is_rolled_forward_by_the_next_write(bank):
    # Without a journal the new document stayed on disk with no index entry: rollback never ran.
    _killed_between_replaces(bank, lambda: create(bank, path="adr/ADR-009.md", doc_kind="adr", title="Nine",
                                                   purpose="Ninth.", derived_from=UP))
    assert (bank.root / "adr/ADR-009.md").exists() and "ADR-009" not in read(bank, "adr/README.md")
    assert (bank.root / ".memorybank-journal").exists()
    set_field(bank, path=V, field="owner", value="Ops")  # any next write recovers first
    assert "[Nine](ADR-009.md)" in read(bank, "adr/README.md")
    assert not (bank.root / ".memorybank-journal").exists()
    assert not list(bank.root.rglob(".memorybank-tmp-*"))
    assert_clean(bank)


@pytest.mark.parametrize("journal", [b"not json", b'{"ops": [{"path": "../outside.md", "temp": "../x"}]}',
                                     b'{"ops": [{"path": "product/vision.md", "temp": "adr/.memorybank-tmp-1"}]}'])
def test_a_journal_that_is_not_ours_is_removed_without_acting_on_it(bank, journal):
    from memorybank.writers.files import recover

    (bank.root / ".memorybank-journal").write_bytes(journal)
    before = read(bank, V)
    assert recover(bank.root) == []
    assert read(bank, V) == before and not (bank.root / ".memorybank-journal").exists()


@pytest.mark.parametrize("value", ["2024-1-2", "2024-01-2", "2024-1-02"])
def test_a_date_with_one_digit_month_or_day_reads_as_text_like_yaml_says(bank, value):
    # The fast frontmatter path took these for dates; YAML's timestamp form needs two digits.
    from memorybank.parse import fast_frontmatter, load_yaml

    assert load_yaml(f"k: {value}") == {"k": value}
    assert fast_frontmatter([f"k: {value}"]) in (None, {"k": value})  # None: "let YAML decide"
    set_field(bank, path=V, field="purpose", value=value)
    bank.refresh()
    assert bank.docs[V].frontmatter["purpose"] == value


@pytest.mark.parametrize("spelling", ["dna/../_inbox/n.md", "{root}/_inbox/n.md", "bank/_inbox/n.md", "_inbox/x/n.md"])
def test_every_spelling_of_an_inbox_path_files_an_unregistered_note(bank, spelling):
    # Only a literal `_inbox/` prefix was recognised: other spellings got a template and an index entry,
    # which dangled once the note was promoted or discarded.
    out = create(bank, path=spelling.format(root=bank.root), doc_kind="note", title="N", purpose="A note.")
    assert out["path"] == "_inbox/n.md" and out["registered_in"] is None and out["template"] is None
    discard(bank, path="_inbox/n.md", reason="Done.")
    assert_clean(bank)


@pytest.mark.parametrize("separator", ["\u2028", "\u0085", "\u2029"])
def test_a_yaml_error_line_stays_inside_the_frontmatter_when_yaml_counts_more_line_breaks(separator):
    # YAML breaks lines at these characters too; the reported line ran past the end of the file.
    from memorybank.parse import parse_document

    doc = parse_document("a.md", f"---\n{separator}\n%YAML 1.1\n---".encode())
    assert doc.parse_error and 2 <= doc.error_line <= 4 == doc.line_count


def test_a_server_start_finishes_a_killed_commit_and_removes_stale_temps(bank):
    # §16: "no stray temp files on the next start" — the server repairs before it serves a read.
    from mcpkit import Session

    from memorybank.atomic import TEMP_PREFIX
    from memorybank.writers.files import LOCK_NAME, STALE_SECONDS

    _killed_between_replaces(bank, lambda: create(bank, path="adr/ADR-009.md", doc_kind="adr", title="Nine",
                                                   purpose="Ninth.", derived_from=UP))
    stale = bank.root / "product" / f"{TEMP_PREFIX}1-dead-vision.md"
    stale.write_bytes(b"half a wri")
    past = stale.stat().st_mtime - STALE_SECONDS - 60
    os.utime(stale, (past, past))
    session = Session(bank.root)
    try:
        # the first read already sees the whole commit: the new ADR is registered in its index
        text = session.ok("bank_read", {"path": "adr/README.md"})["content"]
    finally:
        session.close()
    assert "[Nine](ADR-009.md)" in text
    assert not (bank.root / ".memorybank-journal").exists() and not stale.exists()
    assert_clean(bank)
    assert (bank.root / LOCK_NAME).exists()  # the repair took the lock (a start on a clean bank takes none:
    # test_reliability_editing's server starts on one and checks it)


LOOSE = "# Loose note\n\nSome text.\n"
OPEN = "---\ntitle: Open\n\nSome text.\n"


@pytest.mark.parametrize("rel, text, find, replace", [
    ("product/loose.md", LOOSE, "# Loose note", "---\ntitle: Loose\ncanonical_for: [audience]\n---\n# Loose note"),
    ("product/loose.md", LOOSE, "# Loose note", "---\n# Loose note"),
    ("product/open.md", OPEN, "Some text.", "---\nSome text."),
    (V, None, "# Vision", "---\nstatus: archived\n---\n# Vision"),
], ids=["adds-block", "adds-opener", "closes-opener", "body-starts-with-dashes"])
def test_an_edit_can_never_create_or_change_frontmatter(tmp_path, rel, text, find, replace):
    # §10.2: a block written through edit skipped every gate (ssot-conflict, missing-derived-from, no warning).
    bank = make_bank(tmp_path / "bank", {rel: text} if text else None)
    refused(bank, lambda: edit(bank, path=rel, find=find, replace=replace), "frontmatter", "bank_set_field")


def _index(title: str, entries: str) -> str:
    return (f"---\ntitle: {title}\ndoc_kind: product\ndoc_function: index\npurpose: Index of {title.lower()}.\n"
            f"derived_from:\n  - ../README.md\nstatus: active\n---\n# {title}\n\n{entries}")


STYLED = {
    "table/README.md": _index("Table", "| Document | Read when |\n|---|---|\n| [Vision](../product/vision.md) | "
                                        "Who the product serves and why. |\n"),
    "numbered/README.md": _index("Numbered", "1. [Vision](../product/vision.md) — Who the product serves and why.\n"),
    "product/README.md": PRODUCT_INDEX,
}
ODD_TITLES = ["A | B", "X | [y]", "a [b] c", "back\\slash", "tick `code` here", "a `x|y` b", "end\\|", "all |[]\\`"]


@pytest.mark.parametrize("index", sorted(STYLED))
@pytest.mark.parametrize("title", ODD_TITLES)
def test_an_odd_title_gets_one_whole_index_entry_that_follows_its_renames(tmp_path, index, title):
    # §10.5: `|` split a table row, and the entry of `X | [y]` was never found again when the title changed.
    from memorybank.writers.registry import _cells

    bank = make_bank(tmp_path / "bank", STYLED)
    folder = index.split("/")[0]
    doc = f"{folder}/odd.md"
    out = create(bank, path=doc, doc_kind="product", title=title, purpose="Odd | title.", derived_from=UP)
    assert out["registered_in"] == index
    row = read(bank, index).splitlines()[-1]
    if folder == "table":
        assert len(_cells(row)) == 2, row
    create(bank, path=f"{folder}/next.md", doc_kind="product", title="Next", purpose="Next one.", derived_from=UP)
    assert "[Next](next.md)" in read(bank, index)
    assert_clean(bank)
    out = set_field(bank, path=doc, field="title", value="Z | [w]")
    assert out["indexes"] == [index]
    text = read(bank, index)
    assert "](odd.md)" in text and title not in text.replace("Odd | title.", "").replace("Odd \\| title.", "")
    out = set_field(bank, path=doc, field="title", value="Plain")
    assert out["indexes"] == [index] and "[Plain](odd.md)" in read(bank, index)
    assert_clean(bank)


def test_a_table_row_written_before_pipes_were_escaped_is_still_found(tmp_path):
    # Rows written by the earlier writers kept `|` bare in the link text; a rename must still reach them.
    bank = make_bank(tmp_path / "bank", dict(STYLED, **{
        "table/old.md": "---\ntitle: X | [y]\ndoc_kind: product\ndoc_function: canonical\npurpose: Old.\n"
                        "derived_from:\n  - ../dna/principles.md\nstatus: draft\n---\n# X | \\[y\\]\n"}))
    with open(bank.root / "table/README.md", "a") as handle:
        handle.write("| [X | \\[y\\]](old.md) | Old. |\n")
    out = set_field(bank, path="table/old.md", field="title", value="Z")
    assert out["indexes"] == ["table/README.md"]
    assert read(bank, "table/README.md").endswith("| [Z](old.md) | Old. |\n")
    assert read(bank, "table/old.md").endswith("# Z\n")


def test_a_new_path_with_a_pipe_is_refused(bank):
    # A `|` in the link target splits a table row; escaping it would change the target the parsers read.
    refused(bank, lambda: create(bank, path="product/a|b.md", doc_kind="product", title="T", purpose="P.",
                                 derived_from=UP), "`|`")


def test_the_discard_log_carries_only_a_doc_function_dna_declares(tmp_path, fixture_copy):
    # fixture-bank declares no `log`: the new _inbox/DISCARDED.md became an unknown-enum-value finding.
    bank = Bank(fixture_copy)
    before = findings(bank)
    create(bank, path="n.md", doc_kind="note", title="Note", purpose="A note.", inbox=True)
    assert discard(bank, path="_inbox/n.md", reason="Not needed.")["warnings"] == []
    assert findings(bank) == before
    assert "doc_function" not in read(bank, "_inbox/DISCARDED.md")
    declared = make_bank(tmp_path / "declared")  # this contract declares `log`: the log says what it is
    create(declared, path="n.md", doc_kind="note", title="Note", purpose="A note.", inbox=True)
    discard(declared, path="_inbox/n.md", reason="Not needed.")
    assert "doc_function: log" in read(declared, "_inbox/DISCARDED.md")
    assert_clean(declared)


def test_the_discard_log_refusal_points_at_a_list_that_exists(bank):
    create(bank, path="n.md", doc_kind="note", title="Note", purpose="A note.", inbox=True)
    discard(bank, path="_inbox/n.md", reason="Not needed.")
    refused(bank, lambda: discard(bank, path="_inbox/DISCARDED.md", reason="x"), "the memorybank://inbox resource")


def test_every_tool_name_the_package_mentions_is_a_real_tool():
    # A refusal sent models to `bank_list_inbox`, which was never a tool.
    import ast
    import re
    from pathlib import Path

    import memorybank
    from memorybank.server.tools import BY_NAME

    mention = re.compile(r"(?<![\w.])bank_[a-z_]+\b")
    named: dict[str, str] = {}
    for source in sorted(Path(memorybank.__file__).parent.rglob("*.py")):
        text = source.read_text(encoding="utf-8")
        if not mention.search(text):  # a string in the file holds no name its text does not
            continue
        keys: set[int] = set()
        for node in ast.walk(ast.parse(text)):  # breadth first: a dict before its keys
            if isinstance(node, ast.Dict):  # dict keys are lookup tables (the CLI's name → flag map), not messages
                keys.update(map(id, node.keys))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in keys:
                for name in mention.findall(node.value):
                    named.setdefault(name, source.name)
    assert {n: f for n, f in named.items() if n not in BY_NAME} == {}


def test_an_edit_that_adds_a_link_to_a_missing_document_warns_and_names_it(bank):
    # The new entry became a dangling-index-entry finding while the call returned no warning.
    line = "- [Vision](vision.md) — Who the product serves and why."
    out = edit(bank, path="product/README.md", find=line, replace=line + "\n- [Ghost](ghost.md) — Not there.")
    assert len(out["warnings"]) == 1 and "ghost.md (product/ghost.md)" in out["warnings"][0]
    assert [f["rule"] for f in findings(bank)] == ["dangling-index-entry"]
    out = update_section(bank, path=V, section="Goals", content="See [the index](README.md) and [x](../no/x.md).")
    assert len(out["warnings"]) == 1 and "../no/x.md (no/x.md)" in out["warnings"][0]
    out = edit(bank, path=V, find="Teams that write things down.", replace="Teams, see [vision](vision.md).")
    assert out["warnings"] == []


@pytest.mark.parametrize("field", ["---", "a: b", "#x", "-lead", "1st", "a b", "a.b", "ключ"])
def test_set_field_refuses_a_field_name_that_is_not_a_plain_yaml_key(bank, field):
    # `---` was written as a `---: x` line, a second block delimiter inside the header.
    refused(bank, lambda: set_field(bank, path=V, field=field, value="x"), "not a plain frontmatter key", "letters")


@pytest.mark.parametrize("field", ["owner", "_private", "review-by", "v2"])
def test_set_field_takes_a_plain_yaml_key(bank, field):
    assert set_field(bank, path=V, field=field, value="x")["changed"]
    assert_clean(bank)


@pytest.mark.parametrize("separator, code", [("\u2028", "U+2028"), ("\u2029", "U+2029"), ("\x85", "U+0085")])
@pytest.mark.parametrize("call", [
    lambda b, s: create(b, path="adr/ADR-009.md", doc_kind="adr", title=f"T{s}x", purpose="P.", derived_from=UP),
    lambda b, s: create(b, path="adr/ADR-009.md", doc_kind="adr", title="T", purpose=f"P{s}x", derived_from=UP),
    lambda b, s: set_field(b, path=V, field="purpose", value=f"Who{s}and why."),
    lambda b, s: set_list(b, path=V, field="canonical_for", add=[f"key{s}two"]),
], ids=["create-title", "create-purpose", "set_field", "set_list"])
def test_a_line_separator_is_a_line_break_to_the_one_line_gate(bank, call, separator, code):
    # They passed as "one line" and landed inside index entries, where editors break the line.
    refused(bank, lambda: call(bank, separator), code, "one line")


def test_an_anchor_drift_and_delivery_cannot_check_is_a_warning(tmp_path):
    # `../../../../etc/passwd` was taken silently; drift then listed it as missing on every run.
    from gitrepo import Repo

    from memorybank.drift import drift

    repo = Repo(tmp_path / "proj")
    bank = make_bank(repo.path / "memory_bank")
    repo.write("src/x.py", "x = 1\n")
    out = set_list(bank, path=V, field="anchors", add=["../../../../etc/passwd", "src/"])
    assert len(out["warnings"]) == 1 and "../../../../etc/passwd leaves the repository" in out["warnings"][0]
    out = create(bank, path="adr/ADR-009.md", doc_kind="adr", title="Nine", purpose="Ninth.", derived_from=UP,
                 anchors=[str(repo.path / "src/x.py"), "/etc/passwd", "a/../src/x.py"])
    warned = [w for w in out["warnings"] if w.startswith("anchor ")]
    assert len(warned) == 2 and "`src/x.py`" in warned[0] and "/etc/passwd is outside the repository" in warned[1]
    assert warned[0].startswith(f"anchor {repo.path / 'src/x.py'} is absolute")
    assert_clean(bank)
    repo.commit("all", "2026-01-10T12:00:00Z")
    missing = {(m["path"], m["anchor"]) for m in drift(bank)["missing"]}
    assert missing == {(V, "../../../../etc/passwd"), ("adr/ADR-009.md", "/etc/passwd")}


def test_an_absolute_anchor_outside_git_is_a_warning(bank):
    out = set_list(bank, path=V, field="anchors", add=["/srv/app/x.py"])
    assert out["warnings"] == ["anchor /srv/app/x.py is absolute: delivery reports it as missing. Give it relative "
                               "to the repository top."]


def test_a_root_relative_derived_from_is_stored_relative_to_the_document(bank):
    # `--derived /product/vision.md` used to be stored verbatim, unlike every other edge.
    out = create(bank, path="adr/ADR-011-slash.md", doc_kind="adr", title="Slash", purpose="Leading slash.",
                 derived_from=["/product/vision.md"])
    assert "  - ../product/vision.md\n" in read(bank, "adr/ADR-011-slash.md")
    assert not [w for w in out["warnings"] if "derived_from" in w]
    assert_clean(bank)


@pytest.mark.parametrize("first, then", [("[", True), ("]", "x"), ("(", "y"), ("-", "z"), ("Vision", "v")],
                         ids=["open-bracket", "close-bracket", "paren", "bullet-marker", "title-word"])
def test_a_purpose_that_is_link_syntax_is_replaced_as_text_never_in_the_entrys_markup(bank, first, then):
    # Found by test_write_properties: purpose "[" then True; the index's purpose update replaced the
    # first "[" on the entry line (the link's own bracket), so the entry stopped linking the document.
    set_field(bank, path=V, field="purpose", value=first)
    set_field(bank, path=V, field="purpose", value=then)
    assert_clean(bank)
    bank.refresh()
    assert bank.registered_in.get(V) == ["product/README.md"]
    entry = next(line for line in read(bank, "product/README.md").splitlines() if "(vision.md)" in line)
    assert entry.startswith("- [Vision](vision.md) — ")
    assert entry.endswith(str(then).lower() if then is True else str(then))
