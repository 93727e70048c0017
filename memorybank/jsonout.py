"""Compact JSON for tool results: no indentation, UTF-8 kept, dates as ISO text."""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any


def jsonable(value: Any) -> Any:
    """Turn parsed YAML values (dates, tuples, odd keys) into plain JSON-able values."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def dumps(value: Any) -> str:
    """The one JSON encoding every adapter prints: compact, non-ASCII kept."""
    return json.dumps(jsonable(value), ensure_ascii=False, separators=(",", ":"))
