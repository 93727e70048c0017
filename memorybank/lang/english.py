"""English: a light stemmer and the stopword list.

The stemmer makes the forms of one word family meet, inflectional and derivational alike
(`rounded`/`rounding`, `encrypt`/`encryption`, `policy`/`policies`, `limit`/`limiting`/`limitation`,
`configure`/`configuration`, `deploy`/`deployment`): a Russian or Chinese question reaches English
prose through the English words of a dictionary row, stemmed by this same function, so the row's
`limitation` must land where the body's `limiting` does. It never has to produce a real word; both
sides of every comparison go through it, so a consistent cut is what matters.

Rules, in order: plural (`-ies`→`y`, `-sses`→`ss`, `-es` after s/x/z/ch/sh, `-s` except after `s`, `u`,
`i`); one of `-ing`, `-ed` (keeping a vowel, undoubling a final double consonant, restoring the `e` of
`-ate`/`-ize`/`-ble`); then Porter's derivational steps 2–4 (Porter 1980: `-ization`→`-ize`,
`-ational`→`-ate`, `-fulness`→`-ful` …; `-ness`, `-ful`, `-ative` dropped; `-ment`, `-ance`, `-ence`,
`-er`, `-ity`, `-ive`, `-ize`, `-ate`, `-able` … dropped), each only while the rest keeps Porter's
*measure* (vowel–consonant runs) above 1, so short words keep their ending (`user`, `client`, `version`,
`document`); `-ion` after s/t is cut from words of 6+ letters (`action`/`act`); then a final silent `e`.
`-ant` is kept: `important` must not become `import`.
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


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel→consonant transitions (`tr`=0, `trouble`=1, `private`=2)."""
    m, previous = 0, False
    for i, ch in enumerate(stem):
        vowel = ch in "aeiou" or (ch == "y" and i > 0 and not previous)
        if previous and not vowel:
            m += 1
        previous = vowel
    return m


# Porter 1980 steps 2 and 3 (suffix → replacement, when the rest has m > 0), written for words whose
# final `y` is kept (this stemmer maps `-ies` to `y`, not `i`); longest suffix first within a step.
_STEP2 = (("ational", "ate"), ("tional", "tion"), ("ization", "ize"), ("isation", "ize"), ("iveness", "ive"),
          ("fulness", "ful"), ("ousness", "ous"), ("biliti", "ble"), ("bility", "ble"), ("ation", "ate"),
          ("ality", "al"), ("ivity", "ive"), ("alism", "al"), ("ously", "ous"), ("ently", "ent"),
          ("izer", "ize"), ("iser", "ize"), ("ator", "ate"), ("ency", "ence"), ("ancy", "ance"),
          ("ably", "able"), ("ally", "al"), ("ibly", "ible"))
_STEP3 = (("icate", "ic"), ("ative", ""), ("alize", "al"), ("alise", "al"), ("icity", "ic"), ("ical", "ic"),
          ("ness", ""), ("ful", ""))
# step 4: dropped when the rest has m > 1
_STEP4 = ("ement", "ance", "ence", "able", "ible", "ment", "ism", "ate", "ity", "ous", "ive", "ize", "ise",
          "ent", "al", "er", "ic", "ou")
_STEP2_ENDS = tuple(suffix for suffix, _ in _STEP2)
_STEP3_ENDS = tuple(suffix for suffix, _ in _STEP3)


def _replaced(word: str, step: tuple[tuple[str, str], ...], ends: tuple[str, ...]) -> str:
    """One Porter step: the first suffix of `step` that ends the word, replaced when the stem before
    it keeps a consonant-vowel sequence (measure > 0); the word unchanged otherwise."""
    if word.endswith(ends):
        for suffix, replacement in step:
            if word.endswith(suffix):
                if _measure(word[:-len(suffix)]) > 0:
                    return word[:-len(suffix)] + replacement
                break
    return word


def _derivational(word: str) -> str:
    # each step's loop runs only when one of its suffixes ends the word (one C-level `endswith` over
    # the whole tuple): most words end in none, and the lexicon stems ~1,000 words at every start
    word = _replaced(word, _STEP2, _STEP2_ENDS)
    word = _replaced(word, _STEP3, _STEP3_ENDS)
    if word.endswith(_STEP4):
        for suffix in _STEP4:
            if word.endswith(suffix):
                if _measure(word[:-len(suffix)]) > 1:
                    return word[:-len(suffix)]
                break
    if word.endswith("ion") and len(word) >= 6 and word[-4] in "st":
        word = word[:-3]
    return word


def stem(word: str) -> str:
    """Cut a lowercase ASCII word to the form its family shares (see the module docstring)."""
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
    # one inflection
    cut = ""
    if word.endswith("ing") and len(word) >= 5 and _has_vowel(word[:-3]):
        cut = word[:-3]
    elif word.endswith("ed") and len(word) >= 4 and not word.endswith("eed") and _has_vowel(word[:-2]):
        cut = word[:-2]
    if cut:
        word = cut + "e" if cut.endswith(("at", "iz", "bl")) else _undouble(cut)
    word = _derivational(word)
    # silent e
    if word.endswith("e") and len(word) > 2 and not word.endswith(("ee", "ie")):
        word = word[:-1]
    return word
