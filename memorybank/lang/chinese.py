"""Chinese: stopwords and forward-maximum-matching segmentation of a CJK run (§7.3).

`segment` walks the run left to right and takes the longest dictionary word starting at each
position (dictionary = built-in words, the bank's vocabulary rows and the stopwords, so stopwords
cut runs cleanly). Characters no word covers are gathered into *leftover* runs; the caller turns a
leftover run into overlapping bigrams (or keeps a single character) so it can still meet Chinese
metadata segmented the same way.
"""

from __future__ import annotations

from collections.abc import Iterator

STOPWORDS = frozenset("""
的 了 是 在 我们 怎么 如何 什么 哪里 哪个 吗 呢 这个 那个 一个 为什么 为何 和 与 及 或 把 被 对 从 到 有
也 就 都 而 要 会 能 去 来 让 给 这 那 个 之 其 以 于 为 中 上 下 里 吧 啊 呀 哦 嗯 请 我 你 他 她 它 他们
你们 怎样 怎么样 哪些 哪儿 多少 几 是否 可以 应该 需要 不 没 没有 不是 而是 还是 或者 以及 并且 但是 因为
所以 如果 那么 这些 那些 一些 已经 正在 关于 有关 时候 的话 找到 查看 哪 用 不用 得 地 着 过 吗 么 所
每个 什么样 哪种 这种 那种 怎么办 在哪 在哪里 哪一个 谁 请问 一下 告诉 知道 看看
""".split())

Leftover = tuple[str, bool]  # (text, is_word)


def segment(run: str, words: frozenset[str] | set[str], max_len: int) -> Iterator[Leftover]:
    """Yield `(piece, True)` for dictionary words and `(piece, False)` for maximal leftover runs."""
    i = 0
    n = len(run)
    pending_start = -1
    while i < n:
        found = 0
        for size in range(min(max_len, n - i), 0, -1):
            if run[i:i + size] in words:
                found = size
                break
        if found:
            if pending_start >= 0:
                yield run[pending_start:i], False
                pending_start = -1
            yield run[i:i + found], True
            i += found
        else:
            if pending_start < 0:
                pending_start = i
            i += 1
    if pending_start >= 0:
        yield run[pending_start:], False


def bigrams(run: str) -> list[str]:
    """Overlapping character bigrams of a run; a one-character run stays itself."""
    if len(run) <= 2:
        return [run]
    return [run[i:i + 2] for i in range(len(run) - 1)]
