"""Time expressions (issue 19) → windows of days, per family and language; no I/O, so cheap."""

from __future__ import annotations

import datetime as dt

import pytest

from memorybank.errors import BankError
from memorybank.timewords import LAST_RELEASE, RECENT_DAYS, explicit, expression, find, today

WED = dt.date(2026, 12, 2)  # a Wednesday; its week starts Monday 2026-11-30
D = dt.date


def window(question: str, now: dt.date = WED) -> tuple[dt.date | None, dt.date | None]:
    found, _ = find(question, now)
    assert found is not None, question
    return found.start, found.end


# (question, [start, end)) — end exclusive; None = open
FAMILIES = [
    # today / yesterday
    ("what changed today?", D(2026, 12, 2), D(2026, 12, 3)),
    ("что поменяли сегодня", D(2026, 12, 2), D(2026, 12, 3)),
    ("今天改了什么", D(2026, 12, 2), D(2026, 12, 3)),
    ("what changed yesterday?", D(2026, 12, 1), D(2026, 12, 2)),
    ("что изменилось вчера", D(2026, 12, 1), D(2026, 12, 2)),
    ("昨天改了什么", D(2026, 12, 1), D(2026, 12, 2)),
    # this / last week
    ("billing this week", D(2026, 11, 30), D(2026, 12, 3)),
    ("кэш на этой неделе", D(2026, 11, 30), D(2026, 12, 3)),
    ("本周的计费", D(2026, 11, 30), D(2026, 12, 3)),
    ("billing last week", D(2026, 11, 23), D(2026, 11, 30)),
    ("кэш на прошлой неделе", D(2026, 11, 23), D(2026, 11, 30)),
    ("上周的缓存", D(2026, 11, 23), D(2026, 11, 30)),
    # this / last month
    ("auth this month", D(2026, 12, 1), D(2026, 12, 3)),
    ("в этом месяце", D(2026, 12, 1), D(2026, 12, 3)),
    ("这个月", D(2026, 12, 1), D(2026, 12, 3)),
    ("why Clerk last month?", D(2026, 11, 1), D(2026, 12, 1)),
    ("что решили в прошлом месяце", D(2026, 11, 1), D(2026, 12, 1)),
    ("上个月为什么用 Clerk", D(2026, 11, 1), D(2026, 12, 1)),
    # this / last quarter and year
    ("this quarter", D(2026, 10, 1), D(2026, 12, 3)),
    ("в прошлом квартале", D(2026, 7, 1), D(2026, 10, 1)),
    ("上季度", D(2026, 7, 1), D(2026, 10, 1)),
    ("this year", D(2026, 1, 1), D(2026, 12, 3)),
    ("в прошлом году", D(2025, 1, 1), D(2026, 1, 1)),
    ("去年", D(2025, 1, 1), D(2026, 1, 1)),
    # recently
    ("recently", WED - dt.timedelta(days=RECENT_DAYS - 1), D(2026, 12, 3)),
    ("недавно", WED - dt.timedelta(days=RECENT_DAYS - 1), D(2026, 12, 3)),
    ("最近的决定", WED - dt.timedelta(days=RECENT_DAYS - 1), D(2026, 12, 3)),
    # N units ago: that day, that calendar week or month
    ("decided 3 days ago", D(2026, 11, 29), D(2026, 11, 30)),
    ("a few weeks ago", D(2026, 11, 9), D(2026, 11, 16)),
    ("two months ago", D(2026, 10, 1), D(2026, 11, 1)),
    ("5 дней назад", D(2026, 11, 27), D(2026, 11, 28)),
    ("три дня назад", D(2026, 11, 29), D(2026, 11, 30)),
    ("неделю назад", D(2026, 11, 23), D(2026, 11, 30)),
    ("三天前", D(2026, 11, 29), D(2026, 11, 30)),
    ("两个月前", D(2026, 10, 1), D(2026, 11, 1)),
    # rolling: the last N units up to today
    ("in the last 10 days", D(2026, 11, 23), D(2026, 12, 3)),
    ("за последние 2 недели", D(2026, 11, 18), D(2026, 12, 3)),
    ("最近3天", D(2026, 11, 30), D(2026, 12, 3)),
    # since / after / before / until a date: ISO, a month, a year
    ("changes since 2026-03-05", D(2026, 3, 5), None),
    ("since March 2026", D(2026, 3, 1), None),
    ("since 2026-03", D(2026, 3, 1), None),
    ("since March", D(2026, 3, 1), None),
    ("after March 2026", D(2026, 4, 1), None),
    ("before 2026-06", None, D(2026, 6, 1)),
    ("until 2026-06-15", None, D(2026, 6, 16)),
    ("in 2025", D(2025, 1, 1), D(2026, 1, 1)),
    ("decided in March 2026", D(2026, 3, 1), D(2026, 4, 1)),
    ("с марта 2026", D(2026, 3, 1), None),
    ("с 2026-03-01", D(2026, 3, 1), None),
    ("после 2026-06", D(2026, 7, 1), None),
    ("自2026年3月以来", D(2026, 3, 1), None),
    ("自3月以来", D(2026, 3, 1), None),
    ("2026年6月之前", None, D(2026, 6, 1)),
    # expressions narrow each other
    ("after March 2026 before 2026-06", D(2026, 4, 1), D(2026, 6, 1)),
]


@pytest.mark.parametrize(("question", "start", "end"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_each_family_in_each_language_resolves_to_its_window(question: str, start, end) -> None:
    assert window(question) == (start, end)


@pytest.mark.parametrize(("question", "tag"), [("what changed since v1.2.0?", "v1.2.0"),
                                               ("since the last release", LAST_RELEASE),
                                               ("с последнего релиза", LAST_RELEASE),
                                               ("自上次发布以来", LAST_RELEASE),
                                               ("自v2.0以来", "v2.0")])
def test_since_a_tag_names_the_tag_for_git_to_date(question: str, tag: str) -> None:
    found, _ = find(question, WED)
    assert found is not None and found.tag == tag and found.start is None


def test_month_without_a_year_is_its_latest_occurrence() -> None:
    assert window("since December", D(2026, 3, 10)) == (D(2025, 12, 1), None)
    assert window("since March", D(2026, 3, 10)) == (D(2026, 3, 1), None)


def test_last_month_from_january_is_last_december_and_weeks_start_on_monday() -> None:
    assert window("last month", D(2026, 1, 15)) == (D(2025, 12, 1), D(2026, 1, 1))
    assert window("this week", D(2026, 11, 30)) == (D(2026, 11, 30), D(2026, 12, 1))  # a Monday
    assert window("a month ago", D(2026, 3, 31)) == (D(2026, 2, 1), D(2026, 3, 1))


@pytest.mark.parametrize("question", ["weekly-report format", "last-week-notes", "todays_job runner",
                                      "the most recent invoice", "с кэшем и очередью", "最近邻算法",
                                      "retry in 2048 bytes", "since we switched to Clerk", "the month field",
                                      "yesterdays-cache"])
def test_time_words_inside_topic_words_are_not_time(question: str) -> None:
    assert find(question, WED) == (None, question)


def test_time_words_leave_the_topic_and_the_rest_stays() -> None:
    assert find("why did we switch to Clerk last month?", WED)[1] == "why did we switch to Clerk ?"
    assert find("что мы решили по кэшу на прошлой неделе?", WED)[1] == "что мы решили по кэшу ?"
    assert find("上个月我们为什么决定用 Clerk？", WED)[1] == "我们为什么决定用 Clerk？"


def test_an_expression_naming_nothing_real_stays_topic() -> None:
    assert find("5000 years ago", WED)[0] is None
    assert find("since 2026-02-31", WED)[0] is None


def test_a_whole_value_is_one_expression_or_none() -> None:
    assert expression("last week", WED).start == D(2026, 11, 23)
    assert (expression("2026-03", WED).start, expression("2026-03", WED).end) == (D(2026, 3, 1), D(2026, 4, 1))
    assert expression("March 2026", WED).end == D(2026, 4, 1)
    assert expression("v1.2.0", WED).tag == "v1.2.0"
    assert expression("HEAD~3", WED) is None
    assert expression("billing last week", WED) is None  # not a time from end to end
    assert expression("x" * 300, WED) is None


def test_explicit_since_until_bound_the_window_and_bad_values_are_refused_by_name() -> None:
    both = explicit("2026-03", "2026-05", WED)
    assert (both.start, both.end) == (D(2026, 3, 1), D(2026, 6, 1))  # until a month: to its end
    assert explicit("last week", None, WED).start == D(2026, 11, 23) and explicit("last week", None, WED).end is None
    for since, until, said in (("garbage", None, "since"), (None, "", "until"), ("x" * 300, None, "since"),
                               (None, "v1.2", "until")):
        with pytest.raises(BankError) as err:
            explicit(since, until, WED)
        assert err.value.param == said and "ISO date" in err.value.message and err.value.see == ("changed",)
    with pytest.raises(BankError, match="empty"):
        explicit("2026-06", "2026-03", WED)


def test_memorybank_today_overrides_the_date_and_a_bad_value_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYBANK_TODAY", "2026-01-15")
    assert today() == D(2026, 1, 15)
    assert find("last month")[0].start == D(2025, 12, 1)
    monkeypatch.setenv("MEMORYBANK_TODAY", "tomorrow")
    with pytest.raises(BankError, match="MEMORYBANK_TODAY"):
        today()
    assert find("billing rules") == (None, "billing rules")  # no time words: the date is never read
