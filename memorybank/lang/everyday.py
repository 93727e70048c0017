"""Everyday words (issue 14): a prior on general word frequency for banks too small to measure it.

A word's idf says how much it tells documents apart, but a bank of six pages cannot tell a domain
word from an ordinary one: `tool`, `start`, `take`, `нельзя` or `解决` held by one page of six look
as rare as `Solana` or `TOML`, so the short overview page that happens to use the everyday word
wins the question. Ordinary language already knows these words are common. So a word of everyday
language gets a *background* document rate `BACKGROUND` (an ordinary word is in about half of any
collection's pages), and its document frequency in a bank of `n` counted documents is read as the
Beta-smoothed estimate `n · (df + PRIOR · BACKGROUND) / (n + PRIOR)` when that is larger than the bank's own
`df`: the prior is worth `PRIOR` documents, so it decides in a six-page bank (one page of six reads
as ~2.5) and adds at most `PRIOR · BACKGROUND` documents' worth in a large one (one of 10,000 reads
as ~11), where the bank's own count is evidence enough. It only ever makes an everyday word *more*
common (a word every page holds stays as common as the bank says). A word no page holds keeps its
weight (the largest): it tells no page from another either way, and its weight says how much of the
question the bank leaves unanswered, which body evidence and prime read — the prior corrects the
estimate for a word the bank does hold, from a sample too small to trust.

The lists are ours, written for this project from one rule: words any kind of prose uses — verbs of
doing, having, moving and saying; nouns of time, quantity, people, places and things in general;
adjectives of size, age, order and judgement; adverbs of time and degree — that are not already
stopwords (`english.STOPWORDS`, `russian.STOPWORDS`, `chinese.STOPWORDS`) and not the vocabulary of
software work (`file`, `server`, `room`, `step`, `result`, `check` … say which page to read in a
project's bank). A word is listed in the forms a question types (the stemmer or the Russian
dictionary folds the rest). Translations are not followed: the dictionary's rows pair an everyday
word with domain words (`room` with `комната` and `房间`, the Matrix bank's rooms), so each language
lists its own.
"""

from __future__ import annotations

PRIOR = 20.0  # documents the background estimate is worth: 1 of 6 reads ~2.5, 1 of 10,000 reads ~11
BACKGROUND = 0.5  # the document rate of an everyday word in ordinary prose


def everyday_df(df: float, documents: int) -> float:
    """An everyday word's document frequency among `documents`: the bank's `df` or, when larger, the
    estimate smoothed toward the background rate (module doc)."""
    if documents <= 0:
        return df
    smoothed = documents * (df + PRIOR * BACKGROUND) / (documents + PRIOR)
    return max(float(df), smoothed)


EN = """
take takes took taken taking make makes made making get gets got getting go goes went gone going come
comes came coming turn turns turned start starts started begin began begun keep keeps kept put puts
bring brings brought give gives gave given hold holds held move moves moved stay stays leave leaves left
seem seems become becomes became happen happens happened try tries tried ask asks asked say says said
think thinks thought feel feels felt see sees saw seen hear heard mean means meant help helps helped
play plays live lives lived stand stands sit walk talk talks talked speak speaks pay pays paid buy spend
meet meets met follow follows followed lead leads led carry reach reaches cut cuts pick picks fall falls
grow grows grew rise change changes changed changing plan plans planned hope wish like likes love prefer
agree allow allows allowed expect expected learn learned teach remember forget understand choose chose
chosen finish finished end ends ended stop stops stopped continue wait cope deal care worry matter
belong include includes including involve work works worked working win lose lost hit hits hurt miss
missed fit fits aim aimed rely hand handed thing things way ways time times day days week weeks year
years month months hour hours minute minutes moment today tomorrow yesterday people person man men woman
women child children friend friends family group groups part parts place places point points side sides
home world life hands eye eyes head face house door road city country number numbers lot lots kind kinds
fact facts idea ideas question questions answer answers problem problems reason reasons example examples
piece pieces tool tools story beginning middle top bottom front back edge half rest whole good better
best bad worse worst new newer newest old older first second third last next previous big bigger biggest
small smaller little long longer short shorter high higher low lower right wrong real true false full
empty same different own main important possible impossible able unable sure clear easy hard simple
early late quick quickly slow slowly certain usual usually special general common several many few
enough various entire nice great fine again already always never sometimes often still yet soon later
earlier ever really actually just even almost quite rather maybe perhaps probably together away around
inside outside else instead besides also anyway however otherwise exactly especially finally recently
currently eventually ultimately once twice may might
""".split()

RU = """
сам сама само сами самый самая самое самые делать делает делают сделать сделал сделали брать беру берет
берёт берется берётся брали взять возьмет взяли иметь имеет имеют начать начинать начинает начало начали
говорить говорит сказать сказал думать думает знать знает известно известны известен хотеть хочет хотят
мочь может могут можете мог могла должен должна должно должны нельзя важно важный важная важные просто
простой сложно сложный хорошо плохо новый новая новое новые нового новых старый старая старые старых
первый первая первое первые первого первых последний последняя последние следующий следующая другой
другая другое другие других друг друга друзья каждый каждая любой любая много мало несколько сколько
большой большая большое большие большого больших маленький маленькая часто иногда всегда никогда снова
опять теперь потом сначала откуда туда сюда вообще действительно почти очень слишком время времени год
года лет часть части место места дело дела вещь вещи человек люди людей случай случае случаях способ
способа вопрос вопросы ответ ответы проблема проблемы проблемой пример примеры итог остаться остались
осталось остается остаётся появиться появилась появился появились получить получит получает получают
пропасть пропадет против одному один одна одно одни два две жить живет работать работает работают
работал работала работа работы справляться справляется справиться проходит проходить проходят занимать
занимают занимает уметь умеет умеют выбрать выбрали выбрано выбирать выбирается выбрал план планы
планируется планируем держать держит ждать ждет ставить ставит положить помогать помогает помочь
пытаться пытается искать нести идти идет пойти прийти приходит уйти нравится любить случиться случается
происходит бывает казаться кажется считать считается остаться оставить понять понимать инструмент
инструменты инструмента последовательно впоследствии
""".split()

ZH = """
解决 问题 工具 东西 事情 事 时间 地方 方法 方式 情况 结果 部分 开始 结束 继续 出现 发生 使用 进行 通过 得到
获得 选择 选用 能够 可能 一样 不同 其他 别的 重要 简单 容易 困难 第一 最后 现在 以后 以前 总是 经常 有时
真的 实际 实际上 其实 非常 比较 人 人们 大家 自己 别人 今天 昨天 明天 看 说 做 想 拿 放 走 觉得 认为 希望
喜欢 帮助 关心 办法 原来 本来 已 还 再 又 很 太 更 最 新 旧 大 小 多 少 好 坏 次 些 点 样 种 时 年 月 天
""".split()
