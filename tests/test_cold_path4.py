"""Cold path, fourth round (issue 15: the cold build with the cache off). The parse reads every body with
string methods where it ran a regex or `posixpath` per body or per line; each shortcut is held here to
the definition it replaces (the regex or function, on generated and hand-picked inputs), and the real
command answers alike after a route-only cold start with the cache warm and with it off."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from conftest import cli_in_process, run_cli

from memorybank import echo, headings
from memorybank.lang.tokens import lower
from memorybank.parse import _CLOSE, _close, _resolve, fast_frontmatter, load_yaml, parse_document
from memorybank.paths import resolve_from

# The definitions the shortcuts replace, as they were written before them.
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
EMPHASIS = re.compile(r"(\*\*|__|\*|`)")


def _flatten(text: str) -> str:
    return " ".join(EMPHASIS.sub("", LINK.sub(r"\1", text)).split())


def _echoes(purpose: str | None, body: str) -> bool:
    if not purpose:
        return False
    wanted = lower(_flatten(purpose).removesuffix("…").rstrip()).casefold()
    return len(wanted) >= 3 and wanted in lower(_flatten(body[:echo.ECHO_SCAN])).casefold()


def _scan_text(text: str, first_line: int = 1) -> tuple[list, list]:
    """Headings and fences read line by line with the one pattern (the reading `scan_text` shortcuts)."""
    found: list = []
    fences: list = []
    fence = None
    fence_line = 0
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if not line or line[0] not in "#`~ ":
            continue
        if line[0] == " ":
            stripped = line.lstrip(" ")
            if len(line) - len(stripped) > 3 or not stripped or stripped[0] not in "#`~":
                continue
        match = headings._MARK.match(line.rstrip("\r"))
        if match is None:
            continue
        run = match.group("fence")
        if run is not None:
            info = match.group("info")
            if fence is None:
                if run[0] == "`" and "`" in info:
                    continue
                fence, fence_line = run, index + first_line
            elif run[0] == fence[0] and len(run) >= len(fence) and not info.strip():
                fences.append((fence_line, index + first_line))
                fence = None
            continue
        if fence is None:
            found.append((len(match.group("hashes")), (match.group("title") or "").strip(), index + first_line))
    if fence is not None:
        last = first_line + len(lines) - 1 - (1 if text.endswith("\n") else 0)
        fences.append((fence_line, max(last, fence_line)))
    return found, fences


def _strings(rng: random.Random, pieces: list[str], most: int) -> str:
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, most)))


def test_the_echo_check_answers_as_its_two_regexes():
    rng = random.Random(15)
    pieces = list("ab ß*_`[]()!\n\t\u00a0Σσς…x") + ["](", "**", "__", "ſ", "K"]
    seen = 0
    for _ in range(6000):
        body = _strings(rng, pieces, 30)
        if rng.random() < 0.5:  # a passage of the body, so about a third are echoes
            start = rng.randint(0, len(body))
            purpose = body[start:rng.randint(start, len(body))] + ("…" if rng.random() < 0.3 else "")
        else:
            purpose = _strings(rng, pieces, 8)
        assert echo.flatten(body) == _flatten(body), body
        assert echo.echoes(purpose, body) == _echoes(purpose, body), (purpose, body)
        seen += _echoes(purpose, body)
    assert seen > 500
    cases = [("Rounds **half** up.", "Intro.\n\nRounds half\n  up. More."),
             ("the [ledger](a.md) rule", "See the ledger rule here."),
             ("Straße und MASSE", "die strasse und masse"),
             ("snake__case", "snake__case"), ("a_b", "a__b"), ("`code` words", "code words…")]
    for purpose, body in cases:
        assert echo.echoes(purpose, body) == _echoes(purpose, body), (purpose, body)
    assert echo.echoes("Rounds **half** up.", "Intro. Rounds half\n up.") is True


def test_headings_read_as_line_by_line_with_the_pattern():
    rng = random.Random(4)
    pieces = ["#", "##", " ", "   ", "    ", "```", "~~~", "`", "\n", "\n", "\r", "a", "b c", "\t", "#x", "~",
              "####### ", "\x0b", "## T", "###### ", " #", "é"]
    for _ in range(6000):
        text = _strings(rng, pieces, 25)
        first = rng.randint(1, 5)
        assert headings.scan_text(text, first) == _scan_text(text, first), text
    text = "## Plain\n### Closed ###\n#\tTabbed \n  ## Indented\n    ## Code\n```\n## In fence\n```\n## Trailing \\#\n"
    assert headings.scan_text(text) == _scan_text(text)
    assert [title for _, title, _ in headings.scan_text(text)[0]] == ["Plain", "Closed", "Tabbed", "Indented",
                                                                      "Trailing \\#"]


def test_targets_resolve_as_resolve_from():
    rng = random.Random(2)
    pieces = ["../", "..", ".", "/", "a", "b.md", "x", " ", "\\", "#", "c/", "./", "\t", "é", "..."]
    for _ in range(6000):
        raw = _strings(rng, pieces, 7)
        path = rng.choice(["README.md", "a/x.md", "a/b/y.md", "a/b/c/z.md"])
        assert _resolve(path, raw) == resolve_from(path, raw), (path, raw)


def test_the_closing_line_and_key_lines_read_as_their_patterns():
    rng = random.Random(3)
    for _ in range(6000):
        text = "---\n" + _strings(rng, ["---", "-", "\n", "\r", " ", "\t", "a", "--", "\r\n", "----"], 12)
        match = _CLOSE.search(text, 4)
        assert _close(text, 4) == (None if match is None else (match.start(), match.end())), text
    # key and item lines the line scanner reads itself, and the ones it leaves to YAML
    assert fast_frontmatter(["title:   Spaced  ", "list:", "  - one", "  -  two ", "empty:"]) == {
        "title": "Spaced", "list": ["one", "two"], "empty": None}
    for lines in (["url:http://x"], ["9key: x"], [":x"], ["a: 1", "   - x"], ["list:", "  - a", "    - b"],
                  ["list:", " -- a"], ["k\u00e9y: v"]):
        assert fast_frontmatter(lines) is None, lines
    header = "title: Spaced\nlist:\n  - one\nurl: http://x # left to YAML\n"
    assert parse_document("a.md", f"---\n{header}---\n".encode()).frontmatter == load_yaml(header)


BANK = {
    "dna/principles.md": "---\ntitle: Principles\nstatus: active\n---\n# Principles\n\nRules live here.\n",
    "dna/rules.md": ("---\ntitle: Rules\nstatus: active\nderived_from:\n  - principles.md\n---\n# Rules\n\n"
                     "Rounding is defined in `dna/principles.md`.\nThe ledger is deſcribed in `dna/gone.md`.\n"
                     "```\nspecified in dna/fenced.md\n```\nGOVERNED BY [the rules](../dna/missing.md).\n"),
    "domain/README.md": ("---\ntitle: Domain\ndoc_function: index\nstatus: active\nderived_from:\n"
                         "  - ../dna/principles.md\n---\n# Domain\n\n- [Billing](billing.md)\n"
                         "- [Tax](./tax.md#rates)\n- [Up](../dna/rules.md)\n"),
    "domain/billing.md": ("---\ntitle: Billing\nstatus: active\npurpose: Invoices are **rounded** to cents.\n"
                          "derived_from:\n  - ../dna/rules.md\n  - path: tax.md\n    fit: partial\n---\n"
                          "# Billing\n\n## Rounding ##\n\nInvoices are rounded\nto cents. See [tax](tax.md).\n"),
    "domain/tax.md": ("---\ntitle: Tax\nstatus: active\npurpose: Rates per region.\nderived_from:\n"
                      "  - ../dna/rules.md\n---\n# Tax\n\n## Rates\n\nVAT and sales tax.\n"),
}


def test_links_edges_and_claims_answer_alike_after_a_route_only_cold_start(tmp_path, _private_cache_dir):
    """A real `--route` writes the cache; then every reader of links, edges, claims and headings answers
    as it does with the cache off, and the parse found what the shortcuts must not lose."""
    root = tmp_path / "bank"
    for path, text in BANK.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    before = {p: (root / p).read_bytes() for p in BANK}
    assert run_cli("--root", str(root), "--route", "how are invoices rounded").returncode == 0
    assert any(Path(_private_cache_dir).iterdir())  # the route-only cold start wrote the cache
    calls = [("--validate",), ("--graph", "domain/billing.md"), ("--read", "domain/billing.md"),
             ("--read", "domain/billing.md", "--section", "rounding"), ("--route", "tax rates per region"),
             ("--search", "rounded")]
    warm = [run_cli("--root", str(root), *call, "--json").stdout for call in calls]
    off = [cli_in_process("--root", str(root), *call, "--json", env={"MEMORYBANK_CACHE": "off"}).stdout
           for call in calls]  # the reference: the entry point here, with a fresh bank each call
    assert warm == off
    assert {p: (root / p).read_bytes() for p in BANK} == before and sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) == sorted(BANK)
    rules = parse_document("dna/rules.md", BANK["dna/rules.md"].encode())
    assert [ref.raw for ref in rules.rule_refs] == ["dna/principles.md", "dna/gone.md", "../dna/missing.md"]
    index = parse_document("domain/README.md", BANK["domain/README.md"].encode())
    assert [(link.target, link.external) for link in index.links] == [
        ("domain/billing.md", False), ("domain/tax.md", False), ("dna/rules.md", False)]
    billing = parse_document("domain/billing.md", BANK["domain/billing.md"].encode())
    assert [(e.target, e.fit, e.line) for e in billing.derived_from] == [("dna/rules.md", None, 6),
                                                                           ("domain/tax.md", "partial", 7)]
    assert billing.purpose_echo and [s.title for s in billing.sections] == ["Rounding"]
    findings = json.loads(warm[0])["findings"]
    claims = sorted(f["message"].split("`")[1] for f in findings if f["rule"] == "unresolved-rule-reference")
    assert claims == ["../dna/missing.md", "dna/gone.md"]


def test_the_echo_checks_fold_the_dotted_capital_i_as_the_index_does():
    # tokens.lower makes "İstanbul" the word "istanbul"; a purpose or title typed plainly still echoes
    assert echo.echoes("istanbul ferry times", "İstanbul ferry times, the winter table.")
    assert echo.title_echo("istanbul guide", "İstanbul guide")
    assert not echo.echoes("izmir ferry times", "İstanbul ferry times, the winter table.")
