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
