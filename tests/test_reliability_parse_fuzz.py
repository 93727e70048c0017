"""Fuzzing the parsers (§16 "bad input … never a crash"): random bytes and markdown/YAML-ish text
through `parse_document`, `split_frontmatter`, `lenient_frontmatter`, `scan_text`/`scan_headings`
and `resolve_section`. They never raise (except `BankError` where the function refuses by design),
always return a record, and every line number they report points inside the file at what it names.

`--slow` multiplies the examples by twenty.
"""

from __future__ import annotations

from conftest import heavy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memorybank.errors import BankError
from memorybank.headings import normalize_heading, resolve_section, scan_headings, scan_text
from memorybank.parse import lenient_frontmatter, parse_document, split_frontmatter
from memorybank.records import Doc, Section


def examples(n: int):
    """Settings for `n` examples (×20 under --slow); generated data may be large and slow to draw."""
    return settings(max_examples=n * (20 if heavy() else 1), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


TRICKY = "ab Z9:#-*&!|>'\"`[](){}<>\\/.,~\t\r\u00a0\u2028\u0085\ufeff\x00\x1b日本é🙂"
YAML_LINES = [
    "title: Plain", "title: 'quoted: yes'", 'purpose: "a \\" b"', "purpose: a: b", "status: yes", "status: 2024-01-02",
    "derived_from:", "  - ../a.md", "- b.md", "  - path: c.md", "    fit: partial", "derived_from: [a.md, b.md]",
    "canonical_for: key", "anchors: {a: 1}", "k: &x [1, *x]", "k: *missing", "k: !!python/object:os.system x",
    "? complex", ": value", "k: |", "  block", "k: >-", "  folded", "\tk: tab", "k: [[[[", "k: '''", "k: \"\\xZZ\"",
    "k: 2024-13-45", "k: 12:30:00", "k: 0x1F", "k: .inf", "k: 1e999", "%YAML 1.1", "--- !tag", "...", "#comment",
    "  # indented comment", "", " ", "k:", "- - - x", "k: 99999999999999999999999999999",
    "k: 2024-01-01 25:61:61 +99:00",
]
MD_LINES = [
    "# Title", "## Section", "## Section", "##   spaced   ##", " ## indented", "    ## code", "###### deep",
    "####### seven",
    "## ", "#", "#hash", "```", "```python", "``` `x` ```", "~~~", "~~~~", "````", "- [a](a.md)", "* [b](../b.md#x)",
    "1. [c](c/d.md)", "| [e](e.md) | purpose |", "[f](http://x.md)", "[g](/abs.md)", "[h](h.md \"title\")",
    "`[i](i.md)`", "[j](<j.md>)", "![k](k.md)", "[l\\]](l.md)", "[m [n] o](m.md)", "[p](p.md", "](q.md)",
    "as defined in rules/r.md", "described by [s](s.md)", "---", "", "\r", "text with : colon", "<!-- [t](t.md) -->",
]


@st.composite
def documents(draw) -> str:
    """Markdown text: maybe a frontmatter block of YAML-ish lines, then a body of markdown-ish lines."""
    body = draw(st.lists(st.one_of(st.sampled_from(MD_LINES), st.text(TRICKY, max_size=20)), max_size=16))
    head: list[str] = []
    if draw(st.booleans()):
        head = ["---", *draw(st.lists(st.one_of(st.sampled_from(YAML_LINES), st.text(TRICKY, max_size=20)),
                                      max_size=8))]
        if draw(st.integers(0, 9)):  # usually closed
            head.append(draw(st.sampled_from(["---", "--- ", "---\t", "---\r"])))
    newline = draw(st.sampled_from(["\n", "\r\n", "\n", "\r"]))
    text = newline.join(head + body) + draw(st.sampled_from(["", newline]))
    return draw(st.sampled_from(["", "\ufeff"])) + text


PATHS = st.sampled_from(["a.md", "adr/README.md", "deep/x/y.md", "_inbox/n.md", "flows/templates/t.md", "x"])


def lines_of(data: bytes) -> list[str]:
    """The decoded lines as the parser numbers them (1-based = index + 1)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace").split("\n")


def check_doc(doc: Doc, path: str, data: bytes) -> None:
    """Every field of a parsed document is in range and points at what it names."""
    assert isinstance(doc, Doc) and doc.path == path and doc.bytes == len(data)
    lines = lines_of(data)
    count = doc.line_count
    assert count == len(lines) - (1 if lines[-1] == "" else 0)
    assert 1 <= doc.body_line <= count + 2
    assert isinstance(doc.frontmatter, dict) and all(isinstance(k, str) for k in doc.frontmatter)
    assert isinstance(doc.title, str) and doc.title
    if doc.has_frontmatter:
        assert lines[0].rstrip("\r").rstrip(" \t") == "---"
        assert lines[doc.body_line - 2].rstrip("\r").rstrip(" \t") == "---"
    for key, line in doc.key_lines.items():
        assert 2 <= line < doc.body_line - 1 and lines[line - 1].startswith(key), (key, line)
    for edge in doc.derived_from:
        assert edge.line is None or 2 <= edge.line < doc.body_line - 1
        assert edge.target and not edge.target.startswith("/")
    for section in doc.sections:
        assert doc.body_line <= section.line <= count
        assert lines[section.line - 1].lstrip(" ").startswith("##") and section.line - 1 >= 0
    for link in doc.links:
        # a link starts on its line; its text may run on (`[a\nb](c.md)`), so the target may sit below
        assert doc.body_line <= link.line <= count and "[" in lines[link.line - 1]
        assert link.raw in "\n".join(lines[link.line - 1:])
        assert link.raw.split("#", 1)[0].endswith(".md")
    for ref in doc.rule_refs:
        assert doc.body_line <= ref.line <= count and ref.raw in lines[ref.line - 1]
    if doc.error_line is not None:
        assert 1 <= doc.error_line <= max(count, 1)
    assert doc.newline in ("\n", "\r\n")
    again = parse_document(path, data)  # deterministic (Doc compares by identity, so field by field)
    assert [getattr(again, name) for name in Doc.__slots__] == [getattr(doc, name) for name in Doc.__slots__]


@examples(150)
@given(path=PATHS, data=st.binary(max_size=3000))
def test_parse_document_takes_any_bytes(path, data):
    check_doc(parse_document(path, data), path, data)


@examples(80)
@given(path=PATHS, text=documents())
def test_parse_document_takes_any_markdown_and_yaml(path, text):
    data = text.encode("utf-8", errors="surrogatepass")
    check_doc(parse_document(path, data), path, data)


@examples(60)
@given(text=st.one_of(documents(), st.text(TRICKY, max_size=300)))
def test_split_and_lenient_frontmatter_never_raise(text):
    lines = text.split("\n")
    close, error = split_frontmatter(lines)
    assert close is None or (close >= 1 and lines[close].rstrip() == "---")
    assert error is None or close is None
    data = lenient_frontmatter(text)
    assert isinstance(data, dict) and all(isinstance(k, str) for k in data)
    for value in data.values():
        assert value is None or isinstance(value, (str, list))
        if isinstance(value, list):
            assert all(isinstance(v, (str, dict)) for v in value)


@examples(80)
@given(text=st.one_of(documents(), st.text(TRICKY, max_size=300)), first=st.integers(1, 50))
def test_scan_text_reports_headings_and_fences_inside_the_text(text, first):
    headings, fences = scan_text(text, first)
    lines = text.split("\n")
    last = first + len(lines) - 1
    for a, b in fences:
        assert first <= a <= b <= max(last, a)
    assert fences == sorted(fences) and all(b1 < a2 for (_, b1), (a2, _) in zip(fences, fences[1:]))
    for level, title, line in headings:
        assert 1 <= level <= 6 and first <= line <= last and title == title.strip()
        assert not any(a <= line <= b for a, b in fences), "a heading inside fenced code"
        assert lines[line - first].lstrip(" ").startswith("#" * level)
    assert [(lv, t, i + first) for lv, t, i in scan_headings(lines)] == headings


@examples(100)
@given(titles=st.lists(st.one_of(st.sampled_from(["Context", "Decision", "Decision log", "Notes", "Déjà vu", "",
                                                  "A/B", "context"]), st.text(TRICKY, max_size=12)), max_size=6),
       request=st.one_of(st.sampled_from(["Context", "decision", "déjà", "", " ", "##", "Notes "]),
                         st.text(TRICKY, max_size=8)))
def test_resolve_section_returns_one_of_the_sections_or_refuses(titles, request):
    sections = [Section(title=t, line=i + 3) for i, t in enumerate(titles)]
    try:
        found = resolve_section(sections, request, "a.md")
    except BankError as exc:
        assert "a.md" in str(exc) or "empty" in str(exc)
        return
    assert found in sections
    want = normalize_heading(request)
    exact = [s for s in sections if normalize_heading(s.title) == want]
    if exact:
        assert found in exact
    else:
        assert want in normalize_heading(found.title)
