"""Time expressions (issue 19): "last month", "на прошлой неделе", "上个月" → a window of days.

`find(question)` spots the expressions in a route question or a prompt and returns the window they
name together with the question without them (the topic); `explicit(since, until)` reads the
`since`/`until` parameters, where the whole value must be one expression (or an ISO date, a month,
a tag). Everything resolves against `today()`: the local date, or `MEMORYBANK_TODAY=YYYY-MM-DD`.

A `Window` is `[start, end)` in whole days (None: open on that side). What each family means:
- today, yesterday: that day. this week / month / quarter / year: from its first day to today;
  last week / month / quarter / year: the whole previous calendar period (weeks start on Monday).
- recently, lately, недавно, 最近: the last `RECENT_DAYS` days, today included.
- N days / weeks / months / years ago: that day, that calendar week, month or year (not "since").
- the last / past N days (weeks, months), за последние N дней, 最近N天: the rolling N units up to today.
- since X: from the start of X; after X: from the end of X; before X: until its start; until X: to its end,
  where X is an ISO date, a month (`2026-03`, `March 2026`, `марта 2026`, `2026年3月`; a month
  without a year is its latest occurrence up to today), a year, or a tag (`v1.2.0`, "the last
  release": resolved from git by the caller, see `Window.tag`). in X: X itself.

Words are matched whole: a letter, digit or hyphen next to a match cancels it, so `weekly-report`,
`last-week-notes` or `todays_job` stay topic words. Bounds: a question is already capped (limits), an
explicit value at `MAX_EXPRESSION` characters, N at `MAX_UNITS` of its unit; years 1970–2999.
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import re

from .errors import BankError
from .frozen import Value, assign

RECENT_DAYS = 30
MAX_EXPRESSION = 200
MAX_FOUND = 4  # time expressions read from one question: the window's words stay short, the search linear
MAX_UNITS = {"day": 3660, "week": 520, "month": 120, "year": 100}
LAST_RELEASE = "last release"  # Window.tag value meaning "the newest tag reachable from HEAD"
TODAY_VARIABLE = "MEMORYBANK_TODAY"
_ONE_DAY = _dt.timedelta(days=1)


class Window(Value):
    """Days `[start, end)`; None leaves that side open. `words` is how the caller said it."""

    start: _dt.date | None
    end: _dt.date | None
    words: str
    tag: str | None  # "since <tag>": the start is the tag's commit date (the caller resolves it)

    __slots__ = ("start", "end", "words", "tag")

    def __init__(self, start: _dt.date | None, end: _dt.date | None, words: str, tag: str | None = None) -> None:
        assign(self, "start", start)
        assign(self, "end", end)
        assign(self, "words", words)
        assign(self, "tag", tag)

    def holds(self, day: _dt.date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day < self.end)

    def shown(self) -> dict:
        """The window as a result shows it: first and last day included, and the words."""
        out: dict = {"words": self.words}
        if self.start is not None:
            out["since"] = self.start.isoformat()
        if self.end is not None:
            out["until"] = (self.end - _ONE_DAY).isoformat()
        if self.tag is not None:
            out["tag"] = self.tag
        return out


def today() -> _dt.date:
    """The local date, or `MEMORYBANK_TODAY` (YYYY-MM-DD) for tests and reproducible runs."""
    value = os.environ.get(TODAY_VARIABLE, "").strip()
    if not value:
        return _dt.date.today()
    try:
        return _dt.date.fromisoformat(value)
    except ValueError:
        raise BankError(f"{TODAY_VARIABLE}={value[:40]!r} is not a date. Set it to YYYY-MM-DD (e.g. 2026-11-30), "
                        "or unset it to use the local date.") from None


# -- the pieces ---------------------------------------------------------------------------------

_B = r"(?<![\w\-])"  # a match starts and ends at a word edge; a hyphen joins words too
_E = r"(?![\w\-])"
_EN_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december")
_EN_MONTH = (r"(?P<m_en>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
             r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_RU_MONTH = r"(?P<m_ru>январ[ьяе]|феврал[ьяе]|март[ае]?|апрел[ьяе]|ма[йяе]|июн[ьяе]|июл[ьяе]|август[ае]?|сентябр[ьяе]|октябр[ьяе]|ноябр[ьяе]|декабр[ьяе])"  # noqa: E501
_RU_STEMS = ("январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август", "сентябр", "октябр", "ноябр", "декабр")
_YEAR = r"(?:19[7-9]\d|2\d{3})"
_ZH_NUM = r"[0-9一二两三四五六七八九十]{1,3}"
_NUM_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
              "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3,
              "couple of": 2, "few": 3, "several": 3,
              "один": 1, "одну": 1, "одна": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6,
              "семь": 7, "восемь": 8, "девять": 9, "десять": 10, "пару": 2, "несколько": 3}
_EN_NUM = r"(?P<n>\d{1,4}|a couple of|couple of|a few|few|several|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"  # noqa: E501
_RU_NUM = r"(?P<n>\d{1,4}|одну|один|одна|два|две|три|четыре|пять|шесть|семь|восемь|девять|десять|пару|несколько)"
_EN_UNIT = r"(?P<u>days?|weeks?|months?|years?)"
_RU_UNIT = r"(?P<u>дн(?:ей|я)|день|сутки|сут(?:ок)?|недел[ьюи]|недель|месяц(?:а|ев)?|год(?:а)?|лет)"
_ZH_UNIT = r"(?P<u>天|日|周|个星期|星期|个礼拜|礼拜|个月|年)"

# A point in time X after since/after/before/until/in (named groups read by `_point`).
_EN_POINT = (rf"(?:(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})|(?P<ym>{_YEAR})-(?P<mm>\d{{2}})"
             rf"|{_EN_MONTH}\.?(?:\s+(?P<y_en>{_YEAR}))?"
             rf"|(?P<y>{_YEAR})|(?P<rel>(?:the\s+)?(?:last|latest|previous)\s+(?:release|tag|version))"
             rf"|(?P<tag>v\d+(?:\.\d+)*(?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?))")
_RU_POINT = (rf"(?:(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})|(?P<ym>{_YEAR})-(?P<mm>\d{{2}})"
             rf"|(?:(?P<d_ru>\d{{1,2}})\s+)?{_RU_MONTH}(?:\s+(?P<y_ru>{_YEAR})(?:\s*(?:года|год|г\.?))?)?"
             rf"|(?P<y>{_YEAR})(?:\s*(?:года|году|г\.?))?"
             rf"|(?P<rel>(?:последнего|прошлого|предыдущего)\s+(?:релиза|тега|выпуска)|(?:последней|прошлой|предыдущей)\s+версии)"  # noqa: E501
             rf"|(?P<tag>v\d+(?:\.\d+)*(?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?))")
_ZH_POINT = (rf"(?:(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})|(?P<ym>{_YEAR})-(?P<mm>\d{{2}})"
             rf"|(?:(?P<y_zh>{_YEAR})年)?(?P<m_zh>{_ZH_NUM})月(?:(?P<d_zh>{_ZH_NUM})[日号])?|(?P<y>{_YEAR})年"
             rf"|(?P<rel>上次发布|上一次发布|上个版本|上一个版本|上次发版|最近一次发布|上个发布)"
             rf"|(?P<tag>v\d+(?:\.\d+)*(?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?))")

# (pattern, kind) in the order they are tried; earlier (longer) forms win overlaps.
_SPECS: list[tuple[str, str]] = [
    # explicit points: since / after / before / until / in
    (rf"{_B}(?:ever\s+)?since\s+{_EN_POINT}{_E}", "since"),
    (rf"{_B}(?:after)\s+{_EN_POINT}{_E}", "after"),
    (rf"{_B}(?:before|prior\s+to)\s+{_EN_POINT}{_E}", "before"),
    (rf"{_B}(?:until|till|up\s+to|through)\s+{_EN_POINT}{_E}", "until"),
    (rf"{_B}(?:in|during|on)\s+{_EN_POINT}{_E}", "in"),
    (rf"{_B}(?:начиная\s+)?(?:с|со)\s+{_RU_POINT}{_E}", "since"),
    (rf"{_B}после\s+{_RU_POINT}{_E}", "after"),
    (rf"{_B}до\s+{_RU_POINT}{_E}", "before"),
    (rf"{_B}(?:в|во)\s+{_RU_POINT}{_E}", "in"),
    (rf"(?:自从|自|从){_ZH_POINT}(?:以来|起|开始|至今)?", "since"),
    (rf"{_ZH_POINT}(?:以来|起)", "since"),
    (rf"{_ZH_POINT}(?:之后|以后)", "after"),
    (rf"{_ZH_POINT}(?:之前|以前)", "before"),
    (rf"在?(?P<y_zh>{_YEAR})年(?P<m_zh>{_ZH_NUM})月", "in"),
    # bare points, after every form that gives them a preposition
    (rf"{_B}{_EN_MONTH}\.?\s+(?P<y_en>{_YEAR}){_E}", "in"),
    (rf"{_B}(?P<iso>\d{{4}}-\d{{2}}-\d{{2}}){_E}", "in"),
    # rolling: the last N units
    (rf"{_B}(?:in|over|during|for|within)?\s*(?:the\s+)?(?:last|past|previous)\s+{_EN_NUM}\s+{_EN_UNIT}{_E}",
     "rolling"),
    (rf"{_B}(?:in|over|during|for|within)\s+(?:the\s+)?(?:last|past)\s+(?P<u>week|month|year){_E}", "rolling1"),
    (rf"{_B}(?:the\s+)?past\s+(?P<u>week|month|year){_E}", "rolling1"),
    (rf"{_B}за\s+последни[ей]\s+{_RU_NUM}\s+{_RU_UNIT}{_E}", "rolling"),
    (rf"{_B}за\s+последн(?:юю|ий|ие)\s+(?P<u>неделю|месяц|год){_E}", "rolling1"),
    (rf"(?:最近|过去|近)(?P<n>{_ZH_NUM}){_ZH_UNIT}", "rolling"),
    # N units ago
    (rf"{_B}{_EN_NUM}\s+{_EN_UNIT}\s+ago{_E}", "ago"),
    (rf"{_B}(?:{_RU_NUM}\s+)?{_RU_UNIT}\s+назад{_E}", "ago"),
    (rf"(?P<n>{_ZH_NUM}){_ZH_UNIT}(?:之前|以前|前)", "ago"),
    # named periods
    (rf"{_B}(?:the\s+)?day\s+before\s+yesterday{_E}|{_B}позавчера{_E}|前天", "day-2"),
    (rf"{_B}today{_E}|{_B}сегодня{_E}|今天|今日", "day0"),
    (rf"{_B}yesterday{_E}|{_B}вчера{_E}|昨天|昨日", "day-1"),
    (rf"{_B}(?:(?:in|during|over)\s+)?this\s+(?P<u>week|month|quarter|year){_E}", "this"),
    (rf"{_B}(?:(?:in|during|over)\s+)?(?:last|previous|the\s+previous)\s+(?P<u>week|month|quarter|year){_E}", "last"),
    (rf"{_B}(?:на|за)\s+(?:этой|эту)\s+(?P<u>неделе|неделю){_E}|{_B}(?:в|за)\s+(?:этом|этот)\s+(?P<u2>месяце|месяц|квартале|квартал|году|год){_E}", "this"),  # noqa: E501
    (rf"{_B}(?:на|за)\s+(?:прошлой|прошлую|предыдущей|предыдущую)\s+(?P<u>неделе|неделю){_E}|{_B}(?:в|за)\s+(?:прошлом|прошлый|предыдущем|предыдущий)\s+(?P<u2>месяце|месяц|квартале|квартал|году|год){_E}", "last"),  # noqa: E501
    (r"(?P<u>本周|这周|这一周|这个星期|这星期|本星期|这个礼拜|本月|这个月|这月|本季度|这个季度|这季度|今年|本年)",  # noqa: E501
     "this"),
    (r"(?P<u>上周|上一周|上个星期|上星期|上个礼拜|上个月|上月|上一个月|上季度|上个季度|上一季度|去年|上一年)", "last"),
    (rf"{_B}(?:recently|lately|of\s+late){_E}|{_B}(?:недавно|недавние|недавних|недавнее|в\s+последнее\s+время){_E}"
     r"|最近(?!邻)|近期|近来", "recent"),
]
# Compiling the patterns costs ~40 ms, paid by every cold route and prime process: they are compiled on
# first need (their programs kept between processes: `regexes`), and a question holds a time expression
# only if it holds one of these (or a digit) — every pattern above needs a digit or one of these words,
# case-folded as IGNORECASE folds (`ſ` → `s`).
_TRIGGERS = ("since", "after", "before", "prior", "until", "till", "through", "last", "latest", "previous",
             "past", "ago", "today", "yesterday", "this", "recent", "late",
             "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
             *_RU_STEMS, "последн", "прошл", "предыдущ", "назад", "сегодня", "вчера", "позавчера", "эт",
             "недавн", "год", "недел", "месяц",
             "月", "年", "天", "日", "周", "星期", "礼拜", "季度", "前", "以来", "近", "过去", "上", "去", "今", "昨",
             "本", "这", "自", "从")


def _may_hold_time(question: str) -> bool:
    folded = question.casefold()
    return any(ch.isdigit() for ch in folded) or any(word in folded for word in _TRIGGERS)


@functools.cache
def _compiled() -> list[tuple[re.Pattern, str]]:
    from .regexes import compile_all  # prime-lean: the programs saved by an earlier process, else compiled

    patterns = compile_all([(pattern, re.IGNORECASE) for pattern, _ in _SPECS])
    return [(pattern, kind) for pattern, (_, kind) in zip(patterns, _SPECS)]
_UNIT_OF = {"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
            "year": "year", "years": "year", "quarter": "quarter",
            "天": "day", "日": "day", "周": "week", "个星期": "week", "星期": "week", "个礼拜": "week",
            "礼拜": "week", "个月": "month", "年": "year"}
_ZH_PERIOD = {"周": "week", "星期": "week", "礼拜": "week", "月": "month", "季度": "quarter", "年": "year"}


def _unit(word: str) -> str:
    word = word.lower()
    if word in _UNIT_OF:
        return _UNIT_OF[word]
    if word.startswith(("дн", "ден", "сут")):
        return "day"
    if word.startswith("недел"):
        return "week"
    if word.startswith("месяц"):
        return "month"
    if word.startswith("квартал"):
        return "quarter"
    if word.startswith(("год", "лет")):
        return "year"
    for key, unit in _ZH_PERIOD.items():
        if key in word:
            return unit
    if word in ("今年", "本年", "去年", "上一年"):
        return "year"
    raise ValueError(word)


def _zh_number(text: str) -> int:
    """`三` → 3, `十五` → 15, `二十` → 20, `12` → 12."""
    if text.isdigit():
        return int(text)
    digits = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (digits.get(tens, 1) if tens else 1) * 10 + (digits.get(ones, 0) if ones else 0)
    if len(text) == 1 and text in digits:
        return digits[text]
    raise ValueError(text)


def _count(text: str | None) -> int:
    if not text:
        return 1
    text = " ".join(text.lower().split())
    if text in _NUM_WORDS:
        return _NUM_WORDS[text]
    return _zh_number(text)


# -- calendar arithmetic ------------------------------------------------------------------------

def _add_months(day: _dt.date, months: int) -> _dt.date:
    """The first day of the month `months` after `day`'s month."""
    index = day.year * 12 + day.month - 1 + months
    return _dt.date(index // 12, index % 12 + 1, 1)


def _period(day: _dt.date, unit: str) -> tuple[_dt.date, _dt.date]:
    """The calendar period of `unit` holding `day`: `[first day, first day of the next)`."""
    if unit == "day":
        return day, day + _ONE_DAY
    if unit == "week":
        first = day - _dt.timedelta(days=day.weekday())
        return first, first + _dt.timedelta(days=7)
    if unit == "month":
        first = day.replace(day=1)
        return first, _add_months(first, 1)
    if unit == "quarter":
        first = day.replace(month=(day.month - 1) // 3 * 3 + 1, day=1)
        return first, _add_months(first, 3)
    first = day.replace(month=1, day=1)
    return first, first.replace(year=first.year + 1)


def _back(day: _dt.date, unit: str, n: int) -> _dt.date:
    """`day` moved `n` units back (a month back from 31 March is the last day of February)."""
    if unit == "day":
        return day - _dt.timedelta(days=n)
    if unit == "week":
        return day - _dt.timedelta(days=7 * n)
    months = n * {"month": 1, "quarter": 3, "year": 12}[unit]
    first = _add_months(day.replace(day=1), -months)
    last = _add_months(first, 1) - _ONE_DAY
    return first.replace(day=min(day.day, last.day))


def _month_number(match: re.Match) -> int | None:
    groups = match.groupdict()
    if groups.get("m_en"):
        word = groups["m_en"].lower()
        return next(i for i, name in enumerate(_EN_MONTHS, 1) if name.startswith(word[:3]))
    if groups.get("m_ru"):
        word = groups["m_ru"].lower()
        return next(i for i, stem in enumerate(_RU_STEMS, 1)
                    if word.startswith(stem) and (stem != "ма" or len(word) == 2))
    if groups.get("m_zh"):
        return _zh_number(groups["m_zh"])
    if groups.get("mm"):
        return int(groups["mm"])
    return None


def _point(match: re.Match, now: _dt.date) -> tuple[_dt.date, _dt.date] | str:
    """The period a matched point names (`[start, end)`), or a tag name (`LAST_RELEASE` for "the last release")."""
    groups = match.groupdict()
    if groups.get("iso"):
        day = _dt.date.fromisoformat(groups["iso"])
        return day, day + _ONE_DAY
    if groups.get("rel"):
        return LAST_RELEASE
    if groups.get("tag"):
        return groups["tag"]
    month = _month_number(match)
    year_text = groups.get("ym") or groups.get("y_en") or groups.get("y_ru") or groups.get("y_zh")
    if year_text and not 1970 <= int(year_text) <= now.year + 1:  # `in 2048 bytes` is not a year
        raise ValueError(year_text)
    if groups.get("y") and not 1970 <= int(groups["y"]) <= now.year + 1:
        raise ValueError(groups["y"])
    if month is not None:
        if not 1 <= month <= 12:
            raise ValueError(month)
        if year_text:
            first = _dt.date(int(year_text), month, 1)
        else:  # a month without a year: its latest occurrence up to today
            first = _dt.date(now.year if month <= now.month else now.year - 1, month, 1)
        day_text = groups.get("d_ru") or groups.get("d_zh")
        if day_text:
            day = first.replace(day=_zh_number(day_text))
            return day, day + _ONE_DAY
        return first, _add_months(first, 1)
    if groups.get("y"):
        first = _dt.date(int(groups["y"]), 1, 1)
        return first, first.replace(year=first.year + 1)
    raise ValueError("no point")


def _window(match: re.Match, kind: str, now: _dt.date) -> Window:
    words = " ".join(match.group(0).split())
    tomorrow = now + _ONE_DAY
    if kind in ("since", "after", "before", "until", "in"):
        point = _point(match, now)
        if isinstance(point, str):
            if kind not in ("since", "after"):
                raise ValueError("a tag bounds only the start")
            return Window(None, None, words, tag=point)
        first, following = point
        return {"since": Window(first, None, words), "after": Window(following, None, words),
                "before": Window(None, first, words), "until": Window(None, following, words),
                "in": Window(first, following, words)}[kind]
    if kind.startswith("day"):
        day = now - _dt.timedelta(days=-int(kind[3:]))
        return Window(day, day + _ONE_DAY, words)
    if kind == "recent":
        return Window(now - _dt.timedelta(days=RECENT_DAYS - 1), tomorrow, words)
    groups = match.groupdict()
    unit = _unit(groups.get("u") or groups.get("u2") or "")
    if kind == "this":
        return Window(_period(now, unit)[0], tomorrow, words)
    if kind == "last":
        first = _period(now, unit)[0]
        return Window(_period(_back(first, unit, 1), unit)[0], first, words)
    n = _count(groups.get("n")) if kind != "rolling1" else 1
    if n < 1 or n > MAX_UNITS.get(unit, 0):
        raise ValueError(n)
    if kind in ("rolling", "rolling1"):
        return Window(_back(now, unit, n) + (_ONE_DAY if unit == "day" else _dt.timedelta()), tomorrow, words)
    first, following = _period(_back(now, unit, n), unit)  # "ago": that day, week, month or year
    return Window(first, following, words)


def _intersect(windows: list[Window]) -> Window:
    start = max((w.start for w in windows if w.start is not None), default=None)
    end = min((w.end for w in windows if w.end is not None), default=None)
    tag = next((w.tag for w in windows if w.tag is not None), None)
    return Window(start, end, " ".join(w.words for w in windows), tag)


def _hull(windows: list[Window]) -> Window:
    """The days from the earliest start to the latest end (a side open in any window stays open)."""
    start = None if any(w.start is None for w in windows) else min(w.start for w in windows)
    end = None if any(w.end is None for w in windows) else max(w.end for w in windows)
    tag = next((w.tag for w in windows if w.tag is not None), None)
    return Window(start, end, " ".join(w.words for w in windows), tag)


# -- entry points -------------------------------------------------------------------------------

def find(question: str, now: _dt.date | None = None) -> tuple[Window | None, str]:
    """The window a question's time expressions name (None when it names none), and the question without them.

    Several expressions narrow each other ("since March 2026 before 2026-06"). An expression that
    names nothing real (`31 February`, `5000 days ago`) is left in the topic as words.
    """
    if not isinstance(question, str) or not question or not _may_hold_time(question):
        return None, question
    found: list[tuple[int, int, Window]] = []
    taken: list[tuple[int, int]] = []
    day = None
    for pattern, kind in _compiled():
        if len(found) >= MAX_FOUND:
            break
        for match in pattern.finditer(question):
            if len(found) >= MAX_FOUND:
                break
            start, end = match.span()
            if start == end or any(start < b and a < end for a, b in taken):
                continue
            if day is None:
                day = now or today()
            try:
                window = _window(match, kind, day)
            except (ValueError, KeyError, StopIteration, OverflowError):
                continue
            found.append((start, end, window))
            taken.append((start, end))
    if not found:
        return None, question
    found.sort(key=lambda item: item[0])
    topic, at = [], 0
    for start, end, _ in found:
        topic.append(question[at:start])
        at = end
    topic.append(question[at:])
    windows = [w for _, _, w in found]
    window = _intersect(windows)
    if window.start is not None and window.end is not None and window.start >= window.end:
        window = _hull(windows)  # "yesterday and today": both days, not an empty window
    return window, " ".join("".join(topic).split())


HOW = ('Give an ISO date (2026-03-01), a month (2026-03, "March 2026"), a tag (v1.2.0), or words such as '
       '"last week", "3 days ago", "since March", "на прошлой неделе", "上个月".')


def expression(value: str, now: _dt.date | None = None) -> Window | None:
    """The window one whole value names (`"last week"`, `"2026-03"`, `"since v1.2"`), or None when it is not
    one expression from end to end. A bare tag-like value (`v1.2.0`) is a tag."""
    text = " ".join(value.split()) if isinstance(value, str) else ""
    if not text or len(text) > MAX_EXPRESSION:
        return None
    starts = (f"since {text}", f"с {text}", f"自{text}")  # "the last release", "последнего релиза", "上次发布"
    for candidate in (text, f"in {text}", *starts):  # a bare point (`2026-03`, `March 2026`) means that period
        window, rest = find(candidate, now)
        if candidate in starts and (window is None or window.tag is None):
            continue  # only a release or a tag is read as its own start
        if window is not None and not rest.strip(" ,.;:!?？。，"):
            return window.replace(words=text)
    if re.fullmatch(r"v\d+(?:\.\d+)*(?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?", text):
        return Window(None, None, text, tag=text)
    return None


def explicit(since: str | None, until: str | None, now: _dt.date | None = None) -> Window | None:
    """The window of route's `since`/`until` parameters (each an expression: its start, its end); None if neither.

    A bad value is refused with what to give instead, naming the parameter.
    """
    if since is None and until is None:
        return None
    parts = []
    for name, value in (("since", since), ("until", until)):
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip():
            raise BankError(f"`{name}` is empty. {HOW}", see="changed", param=name)
        if len(value) > MAX_EXPRESSION:
            raise BankError(f"`{name}` is {len(value):,} characters; a time is at most {MAX_EXPRESSION}. {HOW}",
                            see="changed", param=name)
        window = expression(value, now)
        if window is None:
            raise BankError(f"Cannot read `{name}` {value.strip()[:80]!r} as a time. {HOW}", see="changed",
                            param=name)
        if name == "since":
            parts.append(Window(window.start, None, f"since {window.words}", window.tag))
        else:
            if window.tag is not None:
                raise BankError(f"`until` {value.strip()[:80]!r} is a tag; a tag can only start a window (give it "
                                f"as `since`). {HOW}", see="changed", param=name)
            parts.append(Window(None, window.end or window.start, f"until {window.words}"))
    merged = _intersect(parts)
    if merged.start is not None and merged.end is not None and merged.start >= merged.end:
        raise BankError(f"The window {merged.words!r} is empty: its start is not before its end. Give `since` "
                        "earlier than `until`.", see="changed")
    return merged
