"""Adversarial run on issue 19 (questions about time): the parser on hostile and contradictory input.

In-process parser checks (no git, no subprocess): each names the input a demanding user would give.
"""

from __future__ import annotations

import datetime as dt

from memorybank import timewords
from memorybank.timewords import LAST_RELEASE, explicit, find

NOW = dt.date(2026, 12, 1)  # a Tuesday


def test_two_periods_in_one_question_cover_both_not_nothing() -> None:
    """"What changed yesterday and today?" named an empty window (since 12-01 until 11-30): nothing ranked in it."""
    window, topic = find("what changed yesterday and today?", NOW)
    assert (window.start, window.end) == (dt.date(2026, 11, 30), dt.date(2026, 12, 2))
    assert topic == "what changed and ?"
    window, _ = find("last week and вчера 上个月", NOW)
    assert window.start < window.end
    # contradictory bounds cancel each other instead of naming an empty window
    window, _ = find("since 2026-06 before 2026-03", NOW)
    assert window.start is None or window.end is None or window.start < window.end
    # bounds that do overlap still narrow each other
    window, _ = find("since March 2026 before 2026-06", NOW)
    assert (window.start, window.end) == (dt.date(2026, 3, 1), dt.date(2026, 6, 1))


def test_a_question_full_of_time_words_keeps_its_window_words_short() -> None:
    """1,000 characters of "today" echoed all 995 characters back in `window.words` and every `why`."""
    for filler in ("today ", "最近", "last week ", "3 days ago "):
        question = (filler * 400)[:timewords.MAX_EXPRESSION * 5]
        window, _ = find(question, NOW)
        assert window is not None
        assert len(window.words) <= timewords.MAX_EXPRESSION, filler


def test_since_the_last_release_as_an_explicit_value() -> None:
    """README: `--since` takes "the same expressions, a date or a tag"; "the last release" was refused."""
    for value in ("the last release", "last release", "последнего релиза", "上次发布"):
        window = explicit(value, None, NOW)
        assert window is not None and window.tag == LAST_RELEASE, value
