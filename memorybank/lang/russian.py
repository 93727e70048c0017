"""Russian: stopwords, verbal prefixes and a light ending cut for words the dictionary lacks (§7.2).

Known words are found by their dictionary stem (longest stem the word starts with; else one verbal
prefix stripped and retried — see `Lexicon.russian_stem`). A word the dictionary does not know
still has to meet its own inflections (`пользователями`/`пользователей` in a Russian bank), so it is
cut by `cut_ending`: the longest common case/verb ending is removed while ≥3 letters remain. The cut
is crude on purpose — both sides of a comparison get the same cut.
"""

from __future__ import annotations

STOPWORDS = frozenset("""
а без более бы был была были было быть в вам вас весь во вот все всего всех всё вы где да даже для до
его ее её ей ему если есть еще ещё же за здесь и из или им ими их к как какая какие каким каких какое
какой какую кем когда кого ком кто куда ли либо лишь мне мной мы на над надо нам нас наш наша наше наши
не него нее неё ней нем нет ни них но ну о об однако он она они оно от по под после при про раз с со
так также там тебе тем то того тоже той только том ту ты у уже хотя чего чей чем через что чтобы чье
чья эта эти этим этих это этого этой этом этот эту я
почему зачем отчего где-то как-то что-то какой-то нужно нужен нужна нужны можно ли сейчас тут
найти найду найдём найдем искать ищу посмотреть смотреть прочитать почитать читать описан описано
описана описаны описывает расскажи объясни покажи скажи подскажи хочу хотим надо ли
""".split())

# §7.2 lists пере раз при про под об за вы от до на; `рас` (раз before a voiceless consonant) and `по`
# are common enough in software verbs (расшарить, поправить) that we strip them too. Longest first.
VERBAL_PREFIXES = ("пере", "раз", "рас", "при", "про", "под", "об", "за", "вы", "от", "до", "на", "по")

_ENDINGS = tuple(sorted("""
иями ями ами ого его ому ему ыми ими ией ией иях ях ах ям ам ом ем ой ей ий ый ая яя ое ее ые ие ую юю
ов ев ых их ым ию ия ии ью ать ять ить еть уть ует уют ают яют ет ют ит ат ят ут ишь ешь ла ли ло ся сь
а я о е ы и у ю ь й
""".split(), key=len, reverse=True))


def cut_ending(word: str) -> str:
    """Remove the longest known ending while at least three letters remain (unknown words only)."""
    if word.endswith(("ся", "сь")) and len(word) > 5:
        word = word[:-2]
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


# Phrases whose meaning no single word carries (s8-ruphrase): `по очереди` is "sequentially", yet its
# word `очереди` alone is a queue; `в итоге` is "in the end", yet `итог` alone is a total. A question's
# phrase is read as the word after `=` (a word of the dictionary row of its concept, so it reaches
# the English, Chinese and Japanese words of that row), and its words apart no longer count, unless the
# reading keeps one that English says too (`один за другим` is also "one after another"). `по одному` is
# left out: it is "one at a time" and as often "individually" (read each decision on its own, not against
# the others), and its word apart, one, is what English says. Each item
# is words separated by spaces; a word ending in `*` is a stem (any ending), any other word is exact.
# Only general developer speech: a phrase belongs if any project's developer would say it.
PHRASES = """
по очереди, друг за друг* = последовательно
один за други*, одна за друг*, одно за друг* = последовательно один
выход* верси*, выпуск* верси*, выход* релиз*, выход* нов* верси* = релиз
на лету = динамически
в фоне, в фонов* режим* = фоновый
в итоге, в конце концов = впоследствии
на данный момент, на текущий момент, в данный момент, пока что, на сегодняшний день = текущий
"""


def phrase_rows() -> tuple[tuple[str, str], ...]:
    """`(regex, replacement word)` per phrase of `PHRASES`, longest phrase first."""
    rows = []
    for line in PHRASES.strip().splitlines():
        phrases, target = (part.strip() for part in line.split("="))
        for phrase in phrases.split(","):
            words = [w[:-1] + r"\w*" if w.endswith("*") else w + r"(?!\w)" for w in phrase.split()]
            rows.append((len(phrase), r"(?<!\w)" + r"\s+".join(words), target))
    rows.sort(key=lambda row: -row[0])
    return tuple((pattern, target) for _, pattern, target in rows)
