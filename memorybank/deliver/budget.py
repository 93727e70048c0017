"""Token estimate for delivery budgets (§14.2).

TEMPORARY HOME: `estimate_tokens` belongs to the language module (`memorybank/lang/`, §7) and must
move there when it lands; delivery then imports it from `memorybank.lang`.
"""

from __future__ import annotations

import re

_CJK = re.compile(r"[^\u0000-\u2e7f]")


def estimate_tokens(text: str) -> int:
    """Tokens an IDE will pay for `text`: 0.25 per character below U+2E80, 0.6 at or above, rounded up.

    Counted in hundredths with integers, so the result never depends on float rounding.
    """
    wide = len(_CJK.findall(text))
    return -(-(25 * (len(text) - wide) + 60 * wide) // 100)
