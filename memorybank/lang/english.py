"""English: a light stemmer and the stopword list.

The stemmer only has to make inflections of one word meet (§5: `rounded`/`rounding`,
`encrypt`/`encryption`, `policy`/`policies`); it is not a linguistic stemmer and it never has to
produce a real word. Both sides of every comparison go through it, so a consistent cut is what
matters. Rules, in order: plural (`-ies`→`y`, `-sses`→`ss`, `-es` after s/x/z/ch/sh, `-s` except after
`s`, `u`, `i`), then one of `-ing`, `-ed`, `-ion` (keeping a vowel, undoubling a final
double consonant), then a final silent `e`. `-ment`, `-er`, `-ly` stay: the prefix rule of the router
bridges `deploy`/`deployment`.
"""

from __future__ import annotations

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing done down during each either else etc ever every few
for from further had has have having he her here hers him his how i if in into is it its itself just
let lets me more most much must my myself no nor not now of off often on once only or other our ours
out over per please same shall she should so some such than that the their theirs them then there
these they this those through thus to too under until up upon us very via was we were what whatever
when where whereas whether which while who whom whose why will with within without would yet you your
yours tell explain know need want find show give look wonder anyone someone something anything
we've i'm it's let's isn't aren't don't doesn't didn't where's what's how's who's
mentioned mention occurs occur appear appears located locate
""".split())

# Words whose tail looks like an inflection but is not one.
_KEEP = frozenset({
    "embed", "need", "speed", "feed", "seed", "bleed", "breed", "shed", "bed", "red", "bring", "string",
    "thing", "ring", "king", "sing", "spring", "during", "nothing", "something", "anything", "everything",
    "status", "analysis", "basis", "axis", "bus", "canvas", "alias", "bias", "news", "series", "species",
    "always", "various", "previous", "class", "less", "process", "access", "success", "address",
    "yes", "this", "has", "was", "is", "its", "does", "us", "plus", "versus", "campus", "corpus",
    "lens", "atlas", "gas", "kubernetes", "https", "http", "postgres", "redis", "ios", "macos",
})
_IRREGULAR = {
    "decision": "decid", "decisions": "decid", "decide": "decid", "decided": "decid", "deciding": "decid",
    "indices": "index", "indexes": "index", "children": "child", "data": "data", "criteria": "criteri",
    "criterion": "criteri", "analyses": "analysis", "apis": "api", "uris": "uri", "utils": "util",
}
_VOWELS = frozenset("aeiouy")
_UNDOUBLE_KEEP = frozenset("lsz")


def _has_vowel(text: str) -> bool:
    return any(ch in _VOWELS for ch in text)


def _undouble(word: str) -> str:
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in _VOWELS and word[-1] not in _UNDOUBLE_KEEP:
        return word[:-1]
    return word


def stem(word: str) -> str:
    """Cut a lowercase ASCII word to the form its inflections share (see the module docstring)."""
    if len(word) <= 2 or word in _KEEP:
        return word
    irregular = _IRREGULAR.get(word)
    if irregular is not None:
        return irregular
    # plural
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith(("xes", "zes", "ches", "shes", "ses")) and len(word) > 4:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word in _KEEP:
        return word
    # one suffix
    if word.endswith("ing") and len(word) >= 5 and _has_vowel(word[:-3]):
        word = _undouble(word[:-3])
    elif word.endswith("ed") and len(word) >= 4 and not word.endswith("eed") and _has_vowel(word[:-2]):
        word = _undouble(word[:-2])
    elif word.endswith("ion") and len(word) >= 6 and word[-4] in "st":
        word = word[:-3]
    # silent e
    if word.endswith("e") and len(word) > 2 and not word.endswith(("ee", "ie")):
        word = word[:-1]
    return word
