"""What a complete rule or recipe is: one definition that validate, delivery and guard all apply.

A rule or recipe is judged when it is `status: active` knowledge (not a template, not an `_inbox/`
note): drafts may be half written. Its flaws are:
- a required field missing: a rule needs `do`; a recipe needs `do` or `when`;
- a value of the wrong type: `do`, `dont`, `why`, `when`, `scope`, `topic` are one line of text;
  `priority` is a whole number 1–5; `applies_to` is a glob or a list of globs that compile;
- a template placeholder (`<what to do …>`) left in any of those fields;
- a `guard:` item that cannot run: not a mapping, no `pattern`, a pattern that does not compile
  or can take exponential time, a bad `files` glob, a severity other than error or warning.

validate reports every flaw as an `incomplete-rule` error; delivery withholds the document naming
the flaws; guard reports each flaw as a violation located at the rule document — an error, except
that a guard item that cannot run keeps its own valid severity (an unknown one counts as error, so
a typo never weakens an enforced check) — and still runs the checks that can.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from re import _constants as re_constants  # the parser's node kinds, to spot nested repeats
from re import _parser as re_parser
from typing import Any

from .parse import text_list, text_of
from .placeholder import placeholders
from .records import Doc

FINDING = "incomplete-rule"
KINDS = ("rule", "recipe")
TEXT_FIELDS = ("do", "dont", "why", "when", "scope", "topic")
SEVERITIES = ("error", "warning")


@dataclass(frozen=True, slots=True)
class Flaw:
    """One way a rule or recipe falls short; `short` is the phrase delivery and guard reports use."""

    field: str
    short: str
    fix: str
    guard_severity: str = "error"  # how guard reports it: a broken guard item keeps its own severity


@dataclass(frozen=True, slots=True)
class Check:
    """One `guard:` item of a rule; `problem` says why it cannot run (then it is reported, not run)."""

    index: int
    pattern: str
    files: tuple[str, ...]
    severity: str
    message: str | None
    problem: str | None = None
    exclude: tuple[str, ...] = ()


def judged(doc: Doc) -> bool:
    """Whether the definition applies: an active rule or recipe in the knowledge layers (an index is neither)."""
    return doc.doc_kind in KINDS and doc.status == "active" and doc.is_knowledge and not doc.is_index


def flaws(doc: Doc) -> list[Flaw]:
    """Every flaw of a rule or recipe's definition, in field order (empty when it is complete)."""
    return definition_flaws(doc.doc_kind, doc.frontmatter)


def definition_flaws(doc_kind: str | None, fm: dict[str, Any]) -> list[Flaw]:
    """`flaws` for a frontmatter mapping (the writers judge a document before it exists)."""
    from .deliver.globs import clean_glob, glob_problem  # deliver imports this module
    out: list[Flaw] = []
    for name in TEXT_FIELDS:
        value = fm.get(name)
        if value is not None and isinstance(value, (list, dict)):
            out.append(Flaw(name, f"`{name}` is not one line of text", f"Write `{name}:` as one line."))
        elif isinstance(value, str) and placeholders(value):
            out.append(Flaw(name, f"placeholder left in `{name}`",
                            f"Replace {placeholders(value)[0][:60]} with real text, or remove `{name}`."))
    has_do = text_of(fm.get("do")) is not None and not isinstance(fm.get("do"), (list, dict))
    has_when = text_of(fm.get("when")) is not None and not isinstance(fm.get("when"), (list, dict))
    if doc_kind == "rule" and not has_do:
        out.append(Flaw("do", "no `do`", "Add `do:` with what to do, as one imperative sentence."))
    if doc_kind == "recipe" and not has_do and not has_when:
        out.append(Flaw("do", "no `do` or `when`", "Add `when:` (the situation) and `do:` (what to do)."))
    if "priority" in fm and priority_problem(fm.get("priority")) is not None:
        out.append(Flaw("priority", f"`priority` {priority_problem(fm.get('priority'))}",
                        "Use a whole number from 1 (low) to 5 (high)."))
    applies = fm.get("applies_to")
    if applies is not None:
        items = applies if isinstance(applies, list) else [applies]
        if any(isinstance(i, (list, dict)) for i in items):
            out.append(Flaw("applies_to", "`applies_to` is not a glob or list of globs", "List file globs."))
        for item in text_list(applies):
            if placeholders(item):
                out.append(Flaw("applies_to", "placeholder left in `applies_to`",
                                "Replace it with a real file glob such as src/**/*.py, or remove `applies_to`."))
                break
            if glob_problem(clean_glob(item)):
                out.append(Flaw("applies_to", f"bad glob in `applies_to`: {glob_problem(clean_glob(item))}",
                                "Fix the glob."))
    if doc_kind == "rule":
        for check in checks(fm.get("guard"), ()):
            if check.problem:
                out.append(Flaw("guard", f"guard check {check.index} cannot run: {check.problem}",
                                "Fix the guard item, or remove it.", check.severity))
    return out


def finding_message(flaw: Flaw) -> str:
    """The validate message for a flaw: what is wrong, that delivery/guard are affected, and the fix."""
    return f"Active rule is not complete: {flaw.short}, so delivery withholds it. {flaw.fix}"


def withheld_reason(found: list[Flaw]) -> str:
    """The delivery `withheld` reason: the finding's name, then each flaw."""
    return f"{FINDING}: " + "; ".join(f.short for f in found)


def priority_problem(value: Any) -> str | None:
    """Why a `priority` value is not a whole number 1–5, or None."""
    if isinstance(value, bool):
        return f"must be a whole number 1–5, not {value!r}"
    value = priority_number(value)
    if not isinstance(value, int):
        return f"must be a whole number 1–5, not {str(value)[:40]!r}"
    if not 1 <= value <= 5:
        return f"must be 1–5, not {value}"
    return None


_DIGITS = re.compile(r"[0-9]{1,6}")


def priority_number(value: Any) -> Any:
    """A `priority` given as a short string of ASCII digits (`"3"`) as its int; other values unchanged.

    `str.isdigit` also accepts `²` and other digit-like characters `int` refuses, and a 5,000-digit
    string overflows `int`'s conversion limit: both raised instead of being reported.
    """
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        return int(value.strip())
    return value


def regex_problem(pattern: str) -> str | None:
    """Why a guard pattern cannot run safely, or None.

    It must compile (any compile failure — a bad range, a repeat count past the limit, nesting
    past the parser's recursion — is reported, never raised), and no repeated group may hold a
    repeat of its own (`(a+)+`, `(\\w+\\s*)*`): Python's regex engine cannot be interrupted, and such a
    pattern takes exponential time on a line that almost matches.
    """
    try:
        parsed = re_parser.parse(pattern)
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError, ValueError, TypeError) as exc:
        return f"bad regex {pattern[:80]!r}: {exc}"
    try:
        nested = _nested_repeat(parsed, inside=False)
    except RecursionError:
        return f"regex {pattern[:80]!r} nests too deeply to check; simplify it"
    if nested:
        return (f"regex {pattern[:80]!r} repeats a group that itself repeats, which can take exponential time; "
                "rewrite it without the nesting, or make the inner repeat possessive (a++) or atomic ((?>…))")
    return None


_REPEATS = (re_constants.MAX_REPEAT, re_constants.MIN_REPEAT)
_ATOMIC = (re_constants.ATOMIC_GROUP, re_constants.POSSESSIVE_REPEAT)


def _nested_repeat(items: Any, inside: bool) -> bool:
    """Whether a parsed pattern has an unbounded-ish repeat (max > 1) inside another one.

    Every other node is searched through: atomic groups, conditionals (`(?(1)…)`), possessive
    repeats and lookarounds can all hold a nested repeat that backtracks exponentially. An atomic
    group or possessive repeat is never backtracked into, so what it holds starts a fresh count
    (`((?>a+))+` is safe, `(?>(a+)+b)` is not).
    """
    for op, av in items:
        if op in _REPEATS:
            low, high, sub = av
            many = high > 1
            if many and inside:
                return True
            if _nested_repeat(sub, inside or many):
                return True
        elif op in _ATOMIC:
            if any(_nested_repeat(sub, False) for sub in _children(av)):
                return True
        elif any(_nested_repeat(sub, inside) for sub in _children(av)):
            return True
    return False


def _children(av: Any) -> Any:
    """The sub-patterns held by a parsed node's argument (a SubPattern, or inside tuples and lists)."""
    if isinstance(av, re_parser.SubPattern):
        yield av
    elif isinstance(av, (tuple, list)):
        for item in av:
            yield from _children(item)


def _one_line(value: Any) -> str | None:
    text = text_of(value)
    return " ".join(text.split()) or None if text is not None else None


def checks(value: Any, fallback_globs: tuple[str, ...]) -> tuple[Check, ...]:
    """The rule's `guard:` list. A check without `files` uses the rule's own scope (or every file).

    A check whose severity is not error/warning cannot run and is reported as an error: the author
    meant it to be enforced, and a typo must not quietly weaken it.
    """
    from .deliver.globs import clean_glob, glob_problem

    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    out = []
    for index, item in enumerate(items, 1):
        if not isinstance(item, dict):
            out.append(Check(index, "", (), "error", None, "a guard item must be a mapping with `pattern`"))
            continue
        pattern = item.get("pattern")
        severity = text_of(item.get("severity")) or "error"
        message = _one_line(item.get("message"))
        files = tuple(clean_glob(g) for g in text_list(item.get("files"))) or fallback_globs or ("**",)
        exclude = tuple(clean_glob(g) for g in text_list(item.get("exclude")))
        problem = None
        if not isinstance(pattern, str) or not pattern:
            problem = "the guard item has no `pattern`"
            pattern = "" if not isinstance(pattern, str) else pattern
        else:
            problem = regex_problem(pattern)
        for field, globs in (("files", files), ("exclude", exclude)):
            bad_glob = next((g for g in globs if glob_problem(g)), None)
            if problem is None and bad_glob is not None:
                problem = f"bad glob in `{field}`: {glob_problem(bad_glob)}"
        if severity not in SEVERITIES:
            problem = problem or f"severity must be error or warning, not {severity!r}"
            severity = "error"
        out.append(Check(index, pattern, files, severity, message, problem, exclude))
    return tuple(out)


def refuse_incomplete(path: str, doc_kind: str | None, fm: dict[str, Any]) -> None:
    """The writers' gate: an active rule or recipe must be complete (else delivery would withhold it)."""
    from .errors import BankError

    found = definition_flaws(doc_kind, fm) if doc_kind in KINDS else []
    if found:
        raise BankError(f"Refused ({found[0].field}): {path} would be an active {doc_kind} that is not complete "
                        f"({'; '.join(f.short for f in found)}), so delivery would withhold it. {found[0].fix} "
                        "Or keep it as status draft until it is.")
