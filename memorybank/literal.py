"""Literal questions in routing (s8-literal): an exact thing the question names, found whole in a body.

A literal question names something only a document's body can hold as written: an identifier
(`FT-042`, `URL_CONFIGS`, `CGDisplayCreateImage`), a file, path or dotted name (`ci.yml`,
`.github/workflows/ci.yml`, `urllib.parse.urljoin`), a command-line flag (`--env-vars-file`), a
version (`v0.3.0`), a number joined to its unit (`300ms`), or a quoted or backticked string (an error
message, a phrase). Tokenised, such a thing falls apart into ordinary parts (`ci`, `yml`; `sc`, `16`)
and its one whole term sits among the question's other words, so a document whose metadata says
"screenshot" outranked the only one whose body names `CGDisplayCreateImage`.

The rule: a document that holds one of the question's literals whole (case-insensitive, not inside a
longer word; or as its own file name) ranks before every document that holds none of them, within the
order route already gives (`route._ordered`). Holders are ordered among themselves by the literals they
hold, weighed by rarity (idf over the bank's counted documents), so the rarer or the more of them, the
earlier; a tie keeps route's order.

Why route's order breaks the tie, and not the count of occurrences: in a Cline bank a name is restated
across files (techContext lists a crate, systemPatterns explains it, progress ticks it off). Which of
them answers depends on the rest of the question — "what does X do" wants the file that explains it,
"is X done" the one that tracks progress — and route's order already weighs exactly that: the body
evidence of the question's other words, the metadata, the file roles and answer types. Counting
occurrences would instead favour the longest list that repeats the name.

A literal held by more than half of the counted documents is the bank's own vocabulary (the project's
name, its main crate): it tells the documents apart no better than an ordinary word, and is ignored.
Plain words, capitalised words and acronyms (`HTTP`, `GLB`), lowercase hyphenated words (`built-in`)
and bare numbers are not literals: they are left to the ordinary scoring.
"""

from __future__ import annotations

import math
import re
from weakref import WeakKeyDictionary

from .lang.tokens import lower
from .records import Doc
from .regexes import compiled
from .search import SearchIndex

MOST = 0.5  # a literal held by more than this share of the counted documents is not evidence
HELD_KEPT = 64  # literals whose holders are kept per index
READ_MOST = 256  # bodies read to place one literal: past this many candidates it is common (route stays cheap)
SPAN_MIN, SPAN_MAX = 3, 80  # characters of a quoted or backticked literal
# backticks, double quotes (straight, curly), guillemets, and single quotes standing around a span
_SPANS = compiled(r"`([^`\n]+)`|(?<![=\w])\"([^\"\n]+)\"|“([^”\n]+)”|«([^»\n]+)»|(?<![\w])'([^'\n]+)'(?![\w])")
_BRACKETS = compiled(r"(?<!\w)\[[^\]\s][^\]]{1,40}\]|<[\w-]{1,30}>")  # `[object Object]`, `<empty-line>`
_TOKEN = compiled(r"[^\s\u3000-\u303f\uff00-\uffef\u2e80-\u9fff\uac00-\ud7af]+")  # CJK and full-width cut tokens
_TRIM = "?!,;:.)»\"'`…"
_CAMEL = compiled(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_DOTTED = compiled(r"\w\.\w")
_MIXED = compiled(r"[A-Za-z]\d|\d[A-Za-z%]")
_HYPHEN_MARKED = compiled(r"\w-\w")
_INSIDE = compiled(r"\w(?:::|:|=[\"']?)\w|\(\)|^@\w|^--?[A-Za-z]|^<[^>]+>$|^\[[^\]]+\]$")
_HELD: WeakKeyDictionary = WeakKeyDictionary()  # index -> {(its state, a literal's forms, ...): holders}
_WORDISH = compiled(r"[0-9A-Za-z_]")
_PLURAL_ACRONYM = compiled(r"[A-Z]{2,}s")
_VERSION = compiled(r"^[vV](\d+(?:\.\d+)+)$")
_NAME = compiled(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+")
_HUMPS = compiled(r"([a-z0-9])([A-Z])")
_SEMVER = compiled(r"\d+\.\d+(?:\.0)?")
# file extensions written two ways for one format: `config.yml` is the bank's `config.yaml`
_SAME_EXTENSION = {"yml": "yaml", "yaml": "yml", "jpg": "jpeg", "jpeg": "jpg", "htm": "html", "html": "htm",
                   "tif": "tiff", "tiff": "tif"}


def question_literals(question: str) -> tuple[tuple[str, ...], ...]:
    """The literals a question names, in order, each once, as its forms (`_forms`, lowercased, the whole
    literal first; see the module docstring)."""
    found: list[str] = []
    # one pass each, never a `replace` per match: quadratic in the question's length (defect s10-review)
    rest = _SPANS.sub(lambda match: _spanned(match, found), question)
    rest = _BRACKETS.sub(lambda match: found.append(match.group(0)) or " ", rest)
    for token in _TOKEN.findall(rest):
        token = _trimmed(token.lstrip("(\"'`«"))
        if _is_literal(token):
            found.append(_VERSION.sub(r"\1", token))  # `v0.3.0` and `0.3.0` are one version (`lang.tokens.version`)
    return tuple(dict.fromkeys(tuple(dict.fromkeys(lower(form) for form in _forms(item))) for item in found))


def _spanned(match: re.Match, found: list[str]) -> str:
    """A quoted or backticked span, kept in `found` when its length fits, and the blank it leaves."""
    span = next(group for group in match.groups() if group is not None).strip()
    if SPAN_MIN <= len(span) <= SPAN_MAX:
        found.append(span)
    return " "


def _trimmed(token: str) -> str:
    """A token without its trailing punctuation, in one pass from the end.

    A closing `)` stays when the token opens one (`db.session()`); a closing quote stays while the token
    holds its quotes in pairs (`linear="no"`). The trimmed characters never include `(`, so whether the
    token opens a bracket is known once; the quotes are counted once and uncounted as they go."""
    opens = "(" in token
    quotes = {'"': token.count('"'), "'": token.count("'")}
    end = len(token)
    while end and token[end - 1] in _TRIM:
        last = token[end - 1]
        if (last == ")" and opens) or (last in quotes and quotes[last] % 2 == 0):
            break
        if last in quotes:
            quotes[last] -= 1
        end -= 1
    return token[:end]


def _is_literal(token: str) -> bool:
    if len(token) < 3 or not token.isascii() or not token.isprintable() or not any(ch.isalnum() for ch in token):
        return False
    if token.isdigit() or all(len(part) <= 1 for part in token.split(".")):  # `404`, `e.g`
        return False
    if "_" in token.strip("_") or "/" in token or _DOTTED.search(token) or _INSIDE.search(token):
        return True
    if _PLURAL_ACRONYM.fullmatch(token):  # `PDFs`, `URLs`: a plural word, not an identifier
        return False
    if _CAMEL.search(token):
        return True
    # letters and digits mixed: a name (`flate2`, `sha256`) or a number with its unit (`300ms`, `10MB`),
    # not a short abbreviation written as a word (`k8s`, `i18n`, `e2e`, `fb2`)
    if _MIXED.search(token) and (len(token) >= 5 or token[0].isdigit()):
        return True
    # a hyphen joined to a digit (`SC-16`, `ERC-1155`, `UTF-8`), not two words (`built-in`, `DRM-locked`)
    return bool(_HYPHEN_MARKED.search(token)) and any(ch.isdigit() for ch in token)


def _forms(literal: str) -> tuple[str, ...]:
    """The ways a body can hold a literal (as typed): whole; a plural identifier as its singular
    (`HeadingBlocks`); alternatives joined by a slash each on its own (`ParseOk/ParseErr`); a member of
    a named type as that type (`ParseFailure.message`: the page about `ParseFailure`)."""
    forms = [literal]
    if literal.endswith("s") and len(literal) > 4 and literal[-2].islower() and _CAMEL.search(literal) \
            and literal.isalnum():
        forms.append(literal[:-1])
    sides = literal.split("/")
    if len(sides) == 2 and all(_is_literal(side) for side in sides):
        forms.extend(sides)
    head, dot, member = literal.partition(".")
    if dot and member.isalpha() and member.islower() and _is_literal(head) and "/" not in head:
        forms.append(head)
    forms.extend(_spellings(literal))
    return tuple(forms)


def _spellings(literal: str) -> list[str]:
    """attack8b: the same thing as a body writes it another way, so a short prompt naming it is not judged
    foreign (prime's silence) and its holders still rank: a call as its name (`fetch_orders()`), a flag
    without its value (`--env=prod`: `--env prod`), a path without `./` or a trailing `/` (`./src/api/`), and
    an identifier in the other case convention (`fetchOrders` / `fetch_orders`, `MAX_RETRIES` / `maxRetries`:
    the body is lowercased, so the camel form is the parts joined), a version with or without its last `.0`,
    a file name with the other spelling of its extension (`config.yml` / `config.yaml`, `logo.jpg` / `logo.jpeg`:
    one format, so prime is not silent on "what does config.yml set?" in a bank that writes config.yaml)."""
    found = []
    stem, dot, extension = literal.rpartition(".")
    other = _SAME_EXTENSION.get(extension.lower()) if dot and stem and stem[-1].isalnum() else None
    if other is not None:
        found.append(f"{stem}.{other}")
    if _SEMVER.fullmatch(literal):  # a version and its `.0` are one release (`v0.3`: the bank's `v0.3.0`)
        found.append(literal[:-2] if literal.endswith(".0") and literal.count(".") == 2 else literal + ".0")
    if literal.endswith("()") and _is_literal(literal[:-2]):
        found.append(literal[:-2])
    if literal.startswith("-") and "=" in literal and _is_literal(literal.split("=", 1)[0]):
        found.append(literal.split("=", 1)[0])
    path = literal.removeprefix("./").rstrip("/")
    if path != literal and _is_literal(path):
        found.append(path)
    name = found[0] if found and literal.endswith("()") else literal
    if _NAME.fullmatch(name):
        parts = [part for part in _HUMPS.sub(r"\1_\2", name).lower().split("_") if part]
        if len(parts) > 1:
            found.extend(form for form in ("_".join(parts), "".join(parts)) if len(form) >= 4)
    return found


def literal_holders(index: SearchIndex, docs: dict[str, Doc],
                    literals: tuple[tuple[str, ...], ...]) -> dict[str, float]:
    """Per path, the summed rarity (idf) of the question's literals its body holds whole, or its file
    name is; only documents holding at least one literal appear (empty when the question names none)."""
    if not literals:
        return {}
    counted = index.population()[0]
    held: dict[str, float] = {}
    for forms in literals:
        holders = _holders(index, docs, forms, counted)
        holders.extend(path for path in _titled(index, docs, forms[0]) if path not in holders)
        if not holders or len(holders) > MOST * max(counted, 1):
            continue
        weight = math.log(1 + max(counted, len(holders)) / len(holders))
        for path in holders:
            held[path] = held.get(path, 0.0) + weight
    return held


def _titled(index: SearchIndex, docs: dict[str, Doc], literal: str) -> list[str]:
    """attack8b: the documents a file name's stem titles (`README.md`: "README conventions"; `package.json`:
    "Package manifest"), which hold it as surely as a body naming it. A common file is named in passing by
    a changelog or a checklist, and those alone held it: "what must README.md contain?" went to the changelog
    before the page about the readme. Only a bare file name (one dot, a short alphabetic extension), whose
    stem is what the file is; a path or dotted name is found in bodies only."""
    stem, dot, extension = literal.rpartition(".")
    if not dot or not stem or "/" in literal or "." in stem or not extension.isalpha() or len(extension) > 5:
        return []
    lexicon = index.lexicon
    assert lexicon is not None
    wanted = set(lexicon.search_counts(stem)[0])
    if not wanted:
        return []
    stamp = (index.bank.generation, index.live, len(index.paths), index.total_postings, "title", stem)
    memo = _HELD.setdefault(index, {})  # memoised as `_holders` is: a warm server reads no title again
    found = memo.get(stamp)
    if found is None:
        found = tuple(path for path, doc in docs.items() if wanted <= set(lexicon.search_counts(doc.title)[0]))
        if len(memo) >= HELD_KEPT:
            memo.pop(next(iter(memo)))
        memo[stamp] = found
    return list(found)


def bank_holds(index: SearchIndex, docs: dict[str, Doc], literals: tuple[tuple[str, ...], ...]) -> bool:
    """Does any document hold one of the literals (however many do: the bank's own name counts)? A page a
    file name's stem titles holds it (`_titled`: "what must README.md contain?" on a bank whose page is
    "README conventions" is on topic, attack8b)."""
    counted = index.population()[0]
    return any(_holders(index, docs, forms, counted, everywhere=True) or _titled(index, docs, forms[0])
               for forms in literals)


def _holders(index: SearchIndex, docs: dict[str, Doc], forms: tuple[str, ...], counted: int,
             everywhere: bool = False) -> list[str]:
    """The paths holding one of a literal's forms (`_forms`); a form's holders are not read past `MOST`
    of the documents unless `everywhere` (then the first holder found is enough). Memoised per index
    state (`HELD_KEPT` literals), so a warm server asked again reads no body again."""
    stamp = (index.bank.generation, index.live, len(index.paths), index.total_postings, forms, counted, everywhere)
    memo = _HELD.setdefault(index, {})
    found = memo.get(stamp)
    if found is None:
        found = _read_holders(index, docs, forms, counted, everywhere)
        if len(memo) >= HELD_KEPT:
            memo.pop(next(iter(memo)))
        memo[stamp] = found
    return list(found)


def _read_holders(index: SearchIndex, docs: dict[str, Doc], forms: tuple[str, ...], counted: int,
                  everywhere: bool) -> tuple[str, ...]:
    lexicon = index.lexicon
    assert lexicon is not None
    holders: list[str] = []
    for form in forms:
        for path in _form_holders(index, docs, lexicon, form, counted, everywhere):
            if path not in holders:
                holders.append(path)
        if everywhere and holders:
            break
    return tuple(holders)


def _form_holders(index: SearchIndex, docs: dict[str, Doc], lexicon, literal: str, counted: int,
                  everywhere: bool) -> list[str]:
    """The paths whose body holds this one form whole (or whose file name it is), found among the documents
    holding each of its index terms; none are read past `MOST` of the documents (or `READ_MOST` of them:
    on a large bank a literal whose every part co-occurs that often tells few documents apart, and reading
    them all would cost a warm route more than the rest of it) unless `everywhere`."""
    terms, _ = lexicon.search_counts(literal)
    candidates: set[int] | None = None
    for term in sorted(terms, key=lambda term: len(index.postings.get(term, ((),))[0])):
        entry = index.postings.get(term)
        ids = set(entry[0]) if entry is not None else set()
        candidates = ids if candidates is None else candidates & ids
        if not candidates:
            break
    holders = []
    if "." in literal:  # a document named by the literal holds it (`systemPatterns.md`)
        holders.extend(path for path in docs
                       if path.lower() == literal or path.lower().rsplit("/", 1)[-1] == literal)
    if candidates and (everywhere or len(candidates) <= min(READ_MOST, MOST * max(counted, 1))):
        for ident in sorted(candidates):
            path = index.paths[ident]
            doc = docs.get(path) if path is not None else None
            if doc is None or path in holders:
                continue
            body = index.body(path, doc)
            if body and _holds(lower(body), literal):
                holders.append(path)
                if everywhere:
                    break
    return holders


def _holds(low: str, literal: str) -> bool:
    """Does the lowercased body hold the literal, not inside a longer word (`ci.yml`, not `xci.yml`)?"""
    at = low.find(literal)
    while at >= 0:
        end = at + len(literal)
        before = low[at - 1] if at else " "
        if before == "v" and literal[0].isdigit() and (at < 2 or not _WORDISH.match(low[at - 2])):
            before = " "  # a version after its `v`: `v0.3.0` holds `0.3.0`
        after = low[end] if end < len(low) else " "
        if not (_WORDISH.match(before) and _WORDISH.match(literal[0])) and \
                not (_WORDISH.match(after) and _WORDISH.match(literal[-1])):
            return True
        at = low.find(literal, at + 1)
    return False
