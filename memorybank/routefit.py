"""Route answers within their token budget (issue 14: five results in ≤ 300 tokens), whatever the bank holds.

An answer of five rows may spend `ANSWER_TOKENS` of the §14.2 estimate (`lang.estimate_tokens`) as
compact JSON (a longer list as much per row); an answer over it has what its wrapper and a time
`window` leave shared by its rows (`fit_answer`). The path, score and status
are never cut (the path is what bank_read opens); the room they leave goes to the title, the section
and `why` by `SHARES` (a field needing less than its share leaves the rest to the others), each cut on
a word boundary with `…` (inside a word only when one word or a CJK run is longer than the room). A
row within its budget is returned as it is. A path longer than about `PATH_ROOM` characters leaves
each field its floor and may pass the budget by its own excess.

The text face (`render.route`) prints the same fields with less punctuation than the JSON, so the
budget holds there too.
"""

from __future__ import annotations

import json
import unicodedata

from .lang.tokens import CJK_FLOOR
from .plain import plain
from .regexes import compiled

ANSWER_TOKENS, ANSWER_ROWS = 300, 5  # five results in ≤ 300 tokens; a longer list gets as much per row
SHARES = {"title": 2, "section": 2, "why": 5}  # of a row's free room, when its fields do not all fit
FLOOR = 8  # characters a cut field keeps at least (with its `…`)
PATH_ROOM = 120  # characters of a path up to which five rows always fit (each field at its floor)
_NARROW, _WIDE, _ESCAPED = 25, 60, 50  # hundredths of a token per character: §14.2, and `"` `\` as JSON escapes
ELLIPSIS = "…"
_TRIM = " ,;:-—·"


_WIDE_CHARS = compiled(f"[^\x00-{chr(ord(CJK_FLOOR) - 1)}]")  # ≥ CJK_FLOOR: a third of the range's compile
_CONTROLS = compiled("[\x00-\x1f]")
_BODY_QUOTE = compiled(r'(?:^|; )body: L\d+ "')  # where `why`'s quoted body excerpt opens (route._result)
_FLAG = ("\U0001f1e6", "\U0001f1ff")  # regional indicators: a flag is a pair of them
# compact JSON, as `json.dumps(..., ensure_ascii=False, separators=(",", ":"))` writes it, without building
# an encoder per call (an encoder keeps no state between calls)
_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def cost(text: str, escaped: bool = True) -> int:
    """Hundredths of a token `text` costs (§14.2's estimate); `escaped`: inside a JSON string, where `"`
    and `\\` take two characters and a control character six. Counted by C-level scans, not per character."""
    total = len(text) * _NARROW
    if not text.isascii():
        total += len(_WIDE_CHARS.findall(text)) * (_WIDE - _NARROW)
    if escaped:
        total += (text.count('"') + text.count("\\")) * (_ESCAPED - _NARROW)
        if not text.isprintable():
            total += len(_CONTROLS.findall(text)) * 5 * _NARROW  # written \u00XX
    return total


def _char(ch: str) -> int:
    if ch >= CJK_FLOOR:
        return _WIDE
    if ch in '"\\':
        return _ESCAPED
    return _NARROW if ch >= " " else 6 * _NARROW


def _plain_char(ch: str) -> int:
    return _WIDE if ch >= CJK_FLOOR else _NARROW


def cut(text: str, room: int, escaped: bool = True) -> str:
    """`text` within `room` hundredths of a token (see `cost`): whole when it fits, else cut with `…`, on a
    word boundary when the cut falls inside a Latin or Cyrillic word (CJK has none: it is cut anywhere;
    one word longer than half the room is cut inside)."""
    spent = cost(text, escaped)
    if spent <= room:
        return text
    room -= _NARROW  # the ellipsis
    if spent == len(text) * _NARROW:  # every character costs the same: the cut is a division
        end = max(0, room // _NARROW)
    else:
        char = _char if escaped else _plain_char
        end = 0
        for end, ch in enumerate(text):
            room -= char(ch)
            if room < 0:
                break
    end = _grapheme_start(text, end)
    head = text[:end]
    if head and " " not in (head[-1], text[end]) and max(head[-1], text[end]) < CJK_FLOOR:
        space = head.rfind(" ")
        if space >= len(head) // 2:
            head = head[:space]
    return head.rstrip(_TRIM) + ELLIPSIS


def _grapheme_start(text: str, end: int) -> int:
    """`end`, moved back so the cut keeps no letter without its combining marks and no half of a flag."""
    start = end
    while 0 < end < len(text) and unicodedata.combining(text[end]):
        end -= 1
    if end == 0:  # one letter with a run of marks longer than the room: cut inside the run
        return start
    run = 0
    while run < end and _FLAG[0] <= text[end - 1 - run] <= _FLAG[1]:
        run += 1
    return end - run % 2


def cut_why(text: str, room: int, escaped: bool = True) -> str:
    """`cut` for a `why` line: a cut that keeps the opening quote of its body excerpt (`body: L42 "…"`) gets
    the closing one back, within `room`. The quotes inside the excerpt are the line's own: their count says
    nothing about whether the excerpt is closed."""
    opened = _BODY_QUOTE.search(text)
    if opened is None or not text.endswith('"') or cost(text, escaped) <= room:
        return cut(text, room, escaped)
    shown = cut(text, room - (_ESCAPED if escaped else _NARROW), escaped)
    return shown + '"' if len(shown) - 1 >= opened.end() else shown


def shown_words(text: str, size: int, why: bool = False) -> str:
    """`text` as one plain line (whitespace runs as one space) within the tokens of `size` Latin characters,
    cut on a word boundary with `…` (the word-boundary form of `plain.shown`); `why`: by `cut_why`."""
    return (cut_why if why else cut)(" ".join(plain(text).split()), size * _NARROW, escaped=False)


def _encoded(row: dict) -> int:
    return cost(_compact(row)) + _NARROW  # + its comma


def fit_answer(answer: dict) -> dict:
    """A route answer within its budget (see the module doc): unchanged when it fits; else what the rest
    of the answer (its wrapper, a `window`) leaves of the budget goes to the rows, a row needing less
    than an even share keeping what it has and the others sharing the rest evenly."""
    rows = answer.get("results") or []
    if not rows:
        return answer
    total = ANSWER_TOKENS * 100 * max(len(rows), ANSWER_ROWS) // ANSWER_ROWS
    # `cost` adds up over the pieces of a text, and the answer's JSON is its shell with the rows and the
    # commas between them inside: shell + Σ row (+ its comma) equals the whole + one comma. One dump
    # answers the common case, an answer within its budget
    if cost(_compact(answer)) + _NARROW <= total:
        return answer
    shell = cost(_compact({**answer, "results": []}))
    room = total - shell
    need = [_encoded(row) for row in rows]
    if sum(need) <= room:
        return answer
    budget = dict.fromkeys(range(len(rows)), 0)
    left = list(range(len(rows)))
    while left:
        share = room // len(left)
        small = [i for i in left if need[i] <= share]
        if not small:
            budget.update(dict.fromkeys(left, share))
            break
        for i in small:
            budget[i] = need[i]
            room -= need[i]
            left.remove(i)
    return {**answer, "results": [fit(row, budget[i]) for i, row in enumerate(rows)]}


def fit(row: dict, budget: int) -> dict:
    """One route row within `budget` hundredths of a token as compact JSON, its comma included."""
    if _encoded(row) <= budget:
        return row
    names = [name for name in SHARES if isinstance(row.get(name), str)]
    room = budget - _encoded({**row, **dict.fromkeys(names, "")})
    need = {name: cost(row[name]) for name in names}
    given: dict[str, int] = {}
    open_names = list(names)
    while open_names:  # water-filling: a field that needs less than its share takes only what it needs
        weight = sum(SHARES[name] for name in open_names)
        share = {name: max(room, 0) * SHARES[name] // weight for name in open_names}
        small = [name for name in open_names if need[name] <= share[name]]
        if not small:
            given.update(share)
            break
        for name in small:
            given[name] = need[name]
            room -= need[name]
            open_names.remove(name)
    out = dict(row)
    for name in names:
        room = max(given[name], FLOOR * _NARROW)
        out[name] = cut_why(row[name], room) if name == "why" else cut(row[name], room)
    return out
