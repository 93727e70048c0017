"""Dictionary rows for the words that name a Cline-layout file's job (issue 14, route-roles: `layout.py`).

The role descriptions are English; a Russian or Chinese question meets them through these rows as
through the built-in dictionary's. Only words of the convention's roles that the dictionary lacked;
ours, written from the convention, not from any question set. Read with `dictionary.ROWS`.
"""

from __future__ import annotations

ROWS = """
current, currently | текущ, нынешн | 当前, 目前
focus | фокус | 重点, 焦点
known | известн | 已知
stack | стек | 栈
motivation | мотивац | 动机
purpose | назначени | 目的, 用途
"""
