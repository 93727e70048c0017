"""`bank_guard` (§15): check code files against the `guard:` patterns of the bank's active rules.

A guard item is `{pattern, files, message?, severity}`; a line matching `pattern` in a file matching
`files` is a violation, reported with the rule's `do`/`dont` so the agent can fix it without
searching. Paths are relative to the project top (the git top-level holding the bank, else the
bank's parent), like the globs.

Choices the SPEC leaves open:
- Only `status: active` rules guard. A guard item without `files` uses the rule's own scope
  (anchors/applies_to), or every file when the rule has none.
- A rule whose definition has flaws (`rules.flaws`: a guard item that cannot run, no `do`, a
  placeholder…) gets one error violation per flaw, named `incomplete-rule` like validate's finding
  and located at the field's line (so an enforced check that cannot run fails the commit until it
  is fixed); its checks that can run still run.
- The bank's own documents are never guarded (validate governs them); binary files (a NUL byte in the
  first 8 KB) are skipped and not counted; deleted files are skipped.
- Whole files are checked, unless `changed_lines`: then only the lines git sees as added or changed
  (all lines of an untracked file). A guard item's `exclude` globs exempt files its `files` cover;
  a line holding `memorybank: ignore <rule>` (path, path without `.md`, or file stem), or below
  such a line, is not flagged for that rule.
- `staged` lists only staged files and reads them from the working tree, which equals the index
  under pre-commit (it stashes unstaged changes first).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .bank import Bank
from .deliver import delivery_project
from .deliver.globs import matches
from .deliver.sources import Source, source_of
from .errors import BankError
from .gitutil import GitFailure, has_commits, run_git, split_z, untracked
from .limits import GUARD_FILE_BYTES_MAX, GUARD_FILES_MAX, GUARD_VIOLATIONS_MAX
from .project import bank_relpath, git_toplevel
from .rules import FINDING, flaws

_SNIFF = 8192


def guard(bank: Bank, files: list[str] | None = None, staged: bool = False, changed_lines: bool = False) -> dict:
    """Check the given files, or the files git sees as changed, against the rules' guard patterns.

    With `changed_lines`, only the lines git sees as added or changed (staged ones with `staged`)
    are checked: for pre-commit on legacy code that does not comply yet.
    """
    bank.refresh()
    top = delivery_project(bank)
    rules = _guard_rules(bank, top)
    bank_rel = bank_relpath(bank.root, top)
    paths = _given(top, files) if files else _changed(bank, top, staged)
    paths = [p for p in paths if _bank_path(p, bank_rel) not in bank.docs]
    notes: list[str] = []
    if len(paths) > GUARD_FILES_MAX:  # only git's list gets here: a caller's list is refused in _given
        notes.append(f"{len(paths):,} changed files; only the first {GUARD_FILES_MAX:,} (by path) were checked. "
                     "Pass the files to check, or commit in smaller steps.")
        paths = paths[:GUARD_FILES_MAX]
    if changed_lines and git_toplevel(top) is None:
        raise BankError(f"The project folder {top} is not in a git repository, so there are no changed lines to "
                        "find. Check whole files (leave changed_lines off).")

    violations: list[dict] = []
    compiled: list[tuple[Source, int, re.Pattern[str], tuple[str, ...], str, str]] = []
    for rule in rules:
        for flaw in flaws(bank.docs[rule.path]):  # the definition validate and delivery apply
            violations.append(_violation(_doc_path(bank_rel, rule.path), bank.docs[rule.path].line_of(flaw.field),
                                         rule, flaw.guard_severity, f"{FINDING}: {flaw.short}. {flaw.fix}"))
        for check in rule.checks:
            if check.problem:
                continue
            message = check.message or f"matches the forbidden pattern {check.pattern}"
            compiled.append((rule, check, re.compile(check.pattern), message))

    checked = 0
    renames: dict[str, str] | None = None  # new path -> old path, read once when changed lines are asked for
    for rel in paths:
        if os.path.islink(top / rel):
            continue  # git tracks the link, not what it points to (which may be outside the project)
        applicable = [c for c in compiled
                      if matches(rel, c[1].files) and not (c[1].exclude and matches(rel, c[1].exclude))]
        text = _text(top / rel)
        if text is None:
            continue
        if text is _TOO_BIG:
            notes.append(f"{rel} is over the {GUARD_FILE_BYTES_MAX:,}-byte limit of a checked file; not checked.")
            continue
        checked += 1
        if not applicable:
            continue
        if changed_lines and renames is None:
            renames = _renames(top, staged)
        only = _changed_lines(top, rel, staged, renames or {}) if changed_lines else None
        lines = text.split("\n")
        for number, line in enumerate(lines, 1):
            if only is not None and number not in only:
                continue
            line = line.rstrip("\r")
            for rule, check, pattern, message in applicable:
                if pattern.search(line) and not _suppressed(rule.path, line, lines[number - 2] if number > 1 else ""):
                    violations.append(_violation(rel, number, rule, check.severity, message))
    violations.sort(key=lambda v: (v["file"], v["line"] or 0, v["rule"], v["message"]))
    used = sorted({c[0].path for c in compiled})
    out = {"passed": not any(v["severity"] == "error" for v in violations), "files_checked": checked,
           "violations": violations[:GUARD_VIOLATIONS_MAX], "rules_used": used}
    if len(violations) > GUARD_VIOLATIONS_MAX:
        out["violations_total"] = len(violations)
        notes.append(f"{len(violations):,} violations; the first {GUARD_VIOLATIONS_MAX:,} are listed.")
    if notes:
        out["notes"] = notes[:20] + ([f"… and {len(notes) - 20:,} more notes"] if len(notes) > 20 else [])
    return out


_IGNORE = re.compile(r"memorybank:\s*ignore\s+([\w./-]+)")


def _suppressed(rule_path: str, line: str, above: str) -> bool:
    """Whether `memorybank: ignore <rule>` on the line (or the line above) names this rule.

    The rule is named by its bank path (`rules/no-print.md`), without `.md`, or by its file stem.
    """
    stem = rule_path.rpartition("/")[2].removesuffix(".md")
    names = {rule_path, rule_path.removesuffix(".md"), stem}
    return any(m.group(1) in names for text in (line, above) for m in _IGNORE.finditer(text))


_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


def _base(top: Path, staged: bool) -> tuple[str, ...]:
    return ("diff", "--cached") if staged else ("diff", "HEAD") if has_commits(top) else ("diff", "--cached")


def _renames(top: Path, staged: bool) -> dict[str, str]:
    """Files git sees as renamed (a `git mv`, edited or not): `{new path: old path}`."""
    try:
        fields = split_z(run_git(top, *_base(top, staged), "-M", "--name-status", "-z", "--no-color",
                                 "--diff-filter=R", "--no-relative"))
    except GitFailure as exc:
        raise BankError(f"git could not list the renamed files: {exc.stderr or exc}") from exc
    return {fields[i + 2]: fields[i + 1] for i in range(0, len(fields) - 2, 3) if fields[i].startswith("R")}


def _changed_lines(top: Path, rel: str, staged: bool, renames: dict[str, str]) -> set[int] | None:
    """Line numbers added or changed in `rel` (against the index with `staged`, else HEAD); None = every line.

    A renamed file is compared with its old path, so moving legacy code adds no lines to check.
    """
    spec = f":(top,literal){rel}"
    try:
        if not split_z(run_git(top, "ls-files", "-z", "--", spec)):
            return None  # untracked: every line is new
        old = renames.get(rel)
        specs = (f":(top,literal){old}", spec) if old else (spec,)
        out = run_git(top, *_base(top, staged), "-U0", "--no-color", "--no-ext-diff",
                      "-M" if old else "--no-renames", "--", *specs)
    except GitFailure as exc:
        raise BankError(f"git could not list the changed lines of {rel}: {exc.stderr or exc}") from exc
    found: set[int] = set()
    for match in _HUNK.finditer(out):
        start, count = int(match.group(1)), int(match.group(2) or 1)
        found.update(range(start, start + count))
    return found


def _guard_rules(bank: Bank, top: Path) -> list[Source]:
    out = []
    for path in bank.paths:
        doc = bank.docs[path]
        if doc.doc_kind == "rule" and doc.status == "active" and doc.is_knowledge and "guard" in doc.frontmatter:
            out.append(source_of(bank, doc, top, top))
    return out


def _violation(file: str, line: int | None, rule: Source, severity: str, message: str) -> dict:
    return {"file": file, "line": line, "rule": rule.path, "severity": severity, "message": message,
            "do": rule.do, "dont": rule.dont}


def _doc_path(bank_rel: str, path: str) -> str:
    return path if bank_rel in ("", ".") else f"{bank_rel}/{path}"


def _bank_path(rel: str, bank_rel: str) -> str | None:
    """A project-relative path as a bank path, or None when it is outside the bank."""
    if bank_rel in ("", "."):
        return rel
    return rel[len(bank_rel) + 1:] if rel.startswith(bank_rel + "/") else None


def _given(top: Path, files: list[str]) -> list[str]:
    """Caller-named files (absolute, or relative to the project top) as top-relative paths; refuses strays."""
    if len(files) > GUARD_FILES_MAX:
        raise BankError(f"{len(files):,} files were given, over the {GUARD_FILES_MAX:,}-file limit of one guard call. "
                        "Check them in batches of at most that many.")
    out: list[str] = []
    seen: set[str] = set()
    real_top = os.path.realpath(top)
    for raw in files:
        text = str(raw).strip()
        if not text or "\x00" in text:
            raise BankError("A file path is empty or holds a NUL character. Pass plain file paths.")
        full = os.path.realpath(text if os.path.isabs(text) else os.path.join(top, text))
        rel = os.path.relpath(full, real_top).replace(os.sep, "/")
        if rel == ".." or rel.startswith("../"):
            raise BankError(f"File {raw} is outside the project folder {top}; guard checks files of this project.")
        if os.path.isdir(full):
            raise BankError(f"{raw} is a folder; pass the files to check.")
        if not os.path.isfile(full):
            raise BankError(f"No file at {raw}. Pass existing files, or none to check what git sees as changed.")
        if rel not in seen:
            seen.add(rel)
            out.append(rel)
    return sorted(out)


def _changed(bank: Bank, top: Path, staged: bool) -> list[str]:
    """Changed files from git: staged, plus unstaged and untracked unless `staged`; deleted ones left out."""
    if git_toplevel(top) is None:  # the project's repository: a symlinked bank may live elsewhere
        raise BankError(f"The project folder {top} is not in a git repository, so there are no changed files "
                        "to find. Pass the files to check.")
    try:
        found = set(split_z(run_git(top, "diff", "--cached", "--name-only", "-z", "--diff-filter=d")))
        if not staged:
            found.update(split_z(run_git(top, "diff", "--name-only", "-z", "--diff-filter=d")))
            found.update(untracked(top))
    except GitFailure as exc:
        raise BankError(f"git could not list the changed files: {exc.stderr or exc}") from exc
    return sorted(p for p in found if os.path.isfile(top / p))


_TOO_BIG = "\0too big"  # a sentinel no decoded file text equals (a NUL would have made it binary)


def _text(path: Path) -> str | None:
    """The file's text, `_TOO_BIG` past `GUARD_FILE_BYTES_MAX`, or None for a binary or unreadable file."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(GUARD_FILE_BYTES_MAX + 1)
    except OSError:
        return None
    if len(data) > GUARD_FILE_BYTES_MAX:
        return _TOO_BIG
    if b"\0" in data[:_SNIFF]:
        return None
    return data.decode("utf-8", errors="replace")
