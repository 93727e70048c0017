"""Roles of the Cline "memory bank" layout (issue 14): what a plain bank's core file is for, by its name.

The Cline convention (a published instruction set many plain banks follow) names six core files and
gives each a fixed job: the brief holds scope and goals, the product context why the project exists,
the active context the work in hand, the system patterns the architecture, the tech context the
stack, the progress file the status and what is left. Such a bank says a file's job in its name only,
while a question often asks for the job ("what is left to do", "which stack", "what is out of
scope") in words no line of the file uses; the long files sharing most words with any question
(progress, active context) then win it.

So a core file of a bank that follows the layout gets a *role*: a short description of that job,
written here in our own words from the convention (`ROLES`), which route scores like a low-weight
metadata field (`WEIGHT_ROLE`, half a heading's weight) and names in `why` (`layout: progress`). A Russian
or Chinese question meets the English description through the dictionary's equivalents, as it meets
English metadata.

The role is a prior for banks that say nothing about their files, so it is given only:
- to a file whose name is a core name (case, `-` and `_` ignored: `projectBrief.md`, `tech_context.md`),
- that declares no routing metadata of its own (no `canonical_for`, no `purpose` but an echo of its
  prose): a hand-written purpose says more than the convention can,
- in a folder holding at least `MIN_CORE` of the six core files (the convention keeps them side by
  side): one `progress.md` in an unrelated bank, or core names scattered over unrelated folders
  (`features/x/progress.md`, `ops/techContext.md`), is no evidence of the convention.

A description word shared by several roles weighs less (its idf among the six roles), and a match
is counted once per question concept and role, at its best form. The roles are found when the
bank's documents are indexed (`LayoutIndex`, kept in step with refreshes); a question costs a few
dictionary lookups per concept.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from .bank import Bank
from .derived import DerivedIndex
from .lang import Concept, Lexicon, lexicon_for
from .lang.everyday import everyday_df
from .records import Doc
from .regexes import compiled
from .routefit import shown_words
from .search import SearchIndex
from .termmatch import EXACT, MIN_PREFIX_QUERY, TRANSLATION, term_matches

WEIGHT_ROLE = 0.5  # half a heading: the convention's guess from a file name, not words its author wrote
MIN_CORE = 3  # core files one folder must hold before its files' names are read as the convention's roles
MEMO = 1024  # question concepts whose role matches (and rarity) are kept, per lexicon (and body index state)

# The convention's six core files (normalised name -> the name `why` shows) and each one's job, in our
# words: nouns that name the job; no verb any question uses (`use`, `build`, `solve`) and no word for the
# project itself (`project`, `product`, `system`, `tool`), which questions use whatever they ask.
ROLES: dict[str, tuple[str, str]] = {
    "projectbrief": ("projectbrief", "overview, scope and boundaries, in scope and out of scope, "
                                     "core requirements, goals and non-goals, foundation"),
    "productcontext": ("productContext", "purpose, the problem behind it, motivation, "
                                         "target users, user experience goals, expected behaviour"),
    "activecontext": ("activeContext", "current focus, ongoing work, recent changes, next steps, "
                                       "active decisions, open considerations, learnings and insights"),
    "systempatterns": ("systemPatterns", "architecture, components and their relationships, design "
                                         "patterns, key technical decisions, critical implementation paths"),
    "techcontext": ("techContext", "technologies, technology stack, programming languages, frameworks, "
                                   "libraries, dependencies, development setup, environment, "
                                   "technical constraints"),
    "progress": ("progress", "progress, current status, what is completed and finished, what is left, "
                             "remaining work, known issues, bugs, milestones, evolution of decisions"),
}

# The roles that hold reasons: why the product exists, why the design is as it is (its key decisions).
REASONS = ("productcontext", "systempatterns")


def core_name(path: str) -> str | None:
    """The convention's core file a path names (`memory-bank/techContext.md` → `techcontext`), else None."""
    name = path.rpartition("/")[2]
    if len(name) > 20 or not name.endswith(".md"):
        return None
    key = name[:-3].lower().replace("-", "").replace("_", "")
    return key if key in ROLES else None


def declares_metadata(doc: Doc) -> bool:
    """Does the document say what it is for itself (a canonical key, a purpose that is not an echo)?"""
    return bool(doc.canonical_for) or (doc.purpose is not None and not doc.purpose_echo)


class RoleTerms:
    """The roles' descriptions as terms of one lexicon: term -> {role: weight}, and the terms sorted."""

    __slots__ = ("weights", "sorted", "longest", "_memo")

    def __init__(self, lexicon: Lexicon) -> None:
        holders: dict[str, set[str]] = {}
        for role, (_, text) in ROLES.items():
            for term, _, _ in lexicon.route_terms(text):
                holders.setdefault(term, set()).add(role)
        count = len(ROLES)
        top = _idf(count, 1)
        self.weights = {term: dict.fromkeys(roles, _idf(count, len(roles)) / top) for term, roles in holders.items()}
        self.sorted = sorted(self.weights)
        self.longest = max(map(len, self.sorted), default=0)
        self._memo: dict[Concept, tuple[dict[str, float], tuple[str, ...]]] = {}

    def matches(self, term: str, allow_prefix: bool) -> list[tuple[str, float]]:
        """Description terms a question term meets: itself (1.0) and, if allowed, prefix relatives (0.6),
        by route's rule (`termmatch.term_matches`)."""
        return term_matches(term, self.weights, self.sorted, self.longest, allow_prefix)

    def concept(self, concept: Concept) -> tuple[dict[str, float], tuple[str, ...]]:
        """One question concept's best match per role (× the term's weight among the roles) and the terms its
        rarity is read from (its forms and the description terms it met); memoised, as it depends on the
        lexicon alone."""
        found = self._memo.get(concept)
        if found is None:
            best: dict[str, float] = {}
            forms = [(concept.term, EXACT * concept.weight, concept.prefix)]
            forms.extend((eq, TRANSLATION * concept.weight, len(eq) >= MIN_PREFIX_QUERY) for eq in concept.equivalents)
            met: dict[str, None] = {}
            for form, weight, allow_prefix in forms:
                for term, quality in self.matches(form, allow_prefix):
                    met[term] = None
                    for role, share in self.weights[term].items():
                        score = weight * quality * share
                        if score > best.get(role, 0.0):
                            best[role] = score
            found = (best, (*met, *(form for form, _, _ in forms)) if best else ())
            if len(self._memo) >= MEMO:
                self._memo.clear()
            self._memo[concept] = found
        return found


def _idf(documents: int, holders: int) -> float:
    return math.log(1.0 + (documents - holders + 0.5) / (holders + 0.5))


class LayoutIndex(DerivedIndex):
    """Per bank: the documents that are core files of the layout without metadata of their own (path -> role)."""

    cache_key = "route.layout"

    def _reset(self) -> None:
        self.roles: dict[str, str] = {}
        self.cores: dict[str, str] = {}  # every core file, with metadata or not: the layout's evidence
        self._rarity: dict[str, float] = {}  # term -> its prose rarity, per body index state
        self._common: dict[Concept, float] = {}  # concept -> its rarity, per body index state
        self._rarity_for: tuple | None = None
        assert self.lexicon is not None
        self.terms = RoleTerms(self.lexicon)

    def sync(self) -> None:
        """`DerivedIndex.sync` reading only the documents a core name names: the thousands of other files
        of a large bank cost one name check each (a cold route at 10,000 documents pays ~1 ms, not ~30)."""
        lexicon = lexicon_for(self.bank)
        if lexicon is not self.lexicon or self.pending is None:
            self.lexicon = lexicon
            self._reset()
            paths: Iterable[str] = self.bank.paths
        else:
            paths = self.pending
            for path in paths:
                self._remove(path)
        self.pending = set()
        docs = self.bank.docs
        for path in paths:
            if core_name(path) is not None and (doc := docs.get(path)) is not None and doc.is_knowledge:
                self._add(path, doc)

    def _add(self, path: str, doc: Doc) -> bool:
        role = core_name(path)
        if role is not None:
            self.cores[path] = role
            if not declares_metadata(doc):
                self.roles[path] = role
        return True

    def _remove(self, path: str) -> None:
        self.roles.pop(path, None)
        self.cores.pop(path, None)

    def laid_out(self) -> set[str]:
        """The folders holding at least `MIN_CORE` of the six core files: where names are the layout's."""
        held: dict[str, set[str]] = {}
        for path, role in self.cores.items():
            held.setdefault(path.rpartition("/")[0], set()).add(role)
        return {folder for folder, roles in held.items() if len(roles) >= MIN_CORE}

    def scores(self, concepts: list[Concept], body: SearchIndex) -> dict[str, float]:
        """Per role: Σ over the question's concepts of its best match (`RoleTerms.concept`) × the concept's
        rarity in the bank's prose, that of its most common form or matched term (`limit` in the prose
        makes `ограничение` common, as route weighs a concept)."""
        stamp = (self.bank.generation, body.live, len(body.paths), body.total_postings)
        if stamp != self._rarity_for or len(self._common) >= MEMO:
            self._rarity, self._common, self._rarity_for = {}, {}, stamp
        total: dict[str, float] = {}
        for concept in concepts:
            best, terms = self.terms.concept(concept)
            if not best:
                continue
            rare = self._common.get(concept)
            if rare is None:
                rare = self._common[concept] = min(self.rarity(term, body) for term in terms)
            for role, score in best.items():
                total[role] = total.get(role, 0.0) + score * rare
        return total

    def rarity(self, term: str, body: SearchIndex) -> float:
        """How rare a description word is in the bank's prose: BM25 idf over the documents counted toward
        body statistics ÷ the idf of a one-document word, an everyday word read as common (everyday.py),
        as route weighs a heading word. A word no document's prose holds weighs 1."""
        found = self._rarity.get(term)  # kept per body index state (`scores`)
        if found is None:
            counted = body.population()[0]
            prose = body.postings.get(term)
            df = 0
            if prose is not None:
                ids, paths = prose[0], body.paths
                df = len(ids) if body.live == len(paths) else sum(paths[ident] is not None for ident in ids)
                df = body.counted_df(ids, df)
            assert self.lexicon is not None
            if df and self.lexicon.everyday(term):
                df = everyday_df(df, counted)
            found = 1.0 if counted <= 1 or not df else _idf(counted, max(1, min(df, counted))) / _idf(counted, 1)
            self._rarity[term] = found
        return found


# route-plain8: a question asking whom the project is for ("who is it for", "who would use this", "для кого",
# "кто пользуется", "谁会用", "面向哪些人") asks for the target users, a job of the product context alone; its
# words are pronouns no description holds, so it meets that role as a why question meets the reasons'.
# `who` opening the question only: inside one it is a relative pronoun ("someone who has trouble…").
USERS_ROLE = "productcontext"
_WHO_SOURCE = (r"^\W*who\s+(?:is|are|would|will|can|might|should|does|do)\b(?!\s+(?:else|we)\b)|\bfor\s+whom\b"
               r"|(?<![а-я])для\s+кого|^\W*кто\s+(?:будет\s+)?(?:пользу|использу|работает\s+с)"
               r"|谁会用|谁会使用|谁在用|给谁用|面向谁|面向哪些|目标用户")
_WHO: list[re.Pattern[str]] = []


def _folded(question: str) -> str:
    """The question as the intent forms are written: lowercase, "ё" as "е"."""
    return question.lower().replace("ё", "е")


def asks_who_for(question: str) -> bool:
    """Does the question ask whom the project is for (its users)?"""
    if not _WHO:
        _WHO.append(compiled(_WHO_SOURCE))
    return _WHO[0].search(_folded(question)) is not None


# route-plain9: a question's *intent* often names a core file's job in words no role description holds ("will it
# ever…", "how far along", "what are we on now", "walk me through…", "which crate…"), while its body words are
# restated in several core files; such a form meets that role as a who-for question meets the product context's
# (`INTENT_WEIGHT`, per role asked). Interrogative forms of English, Russian and Chinese written here a priori from
# the convention's jobs: scope and future (brief), status and what is left (progress), the work in hand (active
# context), users' experience and value (product context), a walk through a flow (system patterns), the stack and
# setup (tech context).
INTENT_WEIGHT = 1.0
_INTENT_SOURCES: dict[str, str] = {
    "projectbrief": (
        r"\bout\s+of\s+scope\b|\bin\s+scope\b|\bnon-?goals?\b|\bat\s+some\s+point\b|\bsomeday\b"
        r"|^\W*(?:will|would)\s+(?:it|we|they|this|the\s+\w+)\b(?:\s+\w+)?\s+(?:ever|support|work|run|offer|send|do)\b"
        r"|^\W*(?:will|would)\s+there\s+ever\b|\b(?:can|could|will|would)\s+(?:it|we|they|this|the\s+\w+)\s+ever\b"
        r"|планируется\s+ли|^\W*будет\s+ли|(?<![а-я])когда-нибудь|вне\s+рамок|за\s+рамками|не\s+входит"
        r"|以后会|将来会|未来会|是否会|会不会|会做.{0,16}吗|会支持|范围内|范围外|范围之外|不在范围|范围上"),
    "progress": (
        r"\bhow\s+far\s+along\b|\bpercent(?:age)?\s+(?:done|complete|finished)\b|\bwhat(?:'s|\s+is)\s+(?:still\s+)?left\b"
        r"|\bstill\s+missing\b|\bknown\s+(?:issues?|bugs?|problems?)\b|\bfirst\s+release\b|\bplan\s+to\s+change\b"
        r"|(?<![а-я])сколько\s+процент|насколько\s+(?:готов|продвину)|(?:еще|уже)\s+осталось|осталось\s+сделать"
        r"|известн\w+\s+(?:проблем|ошибк|баг)|первый\s+релиз"
        r"|百分之|完成了多少|进度|还剩|剩下|还没有?做|已知的?问题|首个版本|第一个版本"),
    "activecontext": (
        r"\bright\s+now\b|\bat\s+the\s+moment\b|\bnext\s+(?:step|working\s+session|session)\b|\bare\s+we\s+on\s+now\b"
        r"|\bwhere\s+is\s+it\s+tracked\b|\bcurrent(?:ly)?\s+(?:focus|work|working)"
        r"|над\s+чем\s+(?:мы\s+)?(?:сейчас\s+)?работа|следующ\w+\s+шаг|сейчас\s+(?:занима|работа)"
        r"|现在(?:主要)?在(?:忙|做)|目前(?:主要)?在(?:忙|做)|正在(?:忙|做|处理)|下一步|接下来"),
    "productcontext": (
        _WHO_SOURCE + r"|\buser\s+experience\b|\bsuccess\s+metrics?\b|\bcore\s+value\b|\bend\s+users?\b"
        r"|опыт\w*\s+(?:\w+\s+)?пользовател|с\s+точки\s+зрения\s+пользовател|метрик\w*\s+успех|ценност"
        r"|用户体验|核心价值|成功指标"),
    "systempatterns": (
        r"\bwalk\s+(?:me\s+)?through\b|\bstep\s+by\s+step\b|\bend\s+to\s+end\b|\bdata\s+flow\b"
        r"|по\s+шагам|пошагово|поток\s+данных|от\s+начала\s+до\s+конца"
        r"|流程|从头到尾|一步步|数据流|怎么协作|如何协作"),
    "techcontext": (
        r"\b(?:which|what)\s+(?:crate|library|libraries|package|framework|tool)\b|\btech(?:nology)?\s+stack\b"
        r"|\b(?:which|what)\s+(?:\w+\s+)?permissions\b|\b(?:development|dev|local)\s+(?:set\s*up|environment)\b"
        r"|\bset\s*up\s+(?:the\s+|a\s+)?(?:development|dev|local)\b|\bvirtual\s+env"
        r"|как(?:ая|ую|ой|ие)\s+библиотек|(?<![а-я])стек|разрешени|прав[аио]?\s+доступ|виртуальн\w+\s+окружени"
        r"|哪个库|什么库|什么框架|技术栈|权限|虚拟环境"),
}
_INTENTS: list[tuple[str, re.Pattern[str]]] = []  # compiled on first use, as `_WHO`


def asked_roles(question: str) -> list[str]:
    """The core roles whose job the question's form asks for (`_INTENT_SOURCES`), in `ROLES` order."""
    if not _INTENTS:
        _INTENTS.extend((role, compiled(source)) for role, source in _INTENT_SOURCES.items())
    folded = _folded(question)
    return [role for role, pattern in _INTENTS if pattern.search(folded) is not None]


def role_scores(bank: Bank, concepts: list[Concept], body: SearchIndex, intent: bool = False,
                question: str = "") -> dict[str, tuple[float, str]]:
    """Per document holding a role: (its role score × `WEIGHT_ROLE`, the name `why` shows); empty when
    the bank does not follow the layout or no concept meets a role. `intent`: the question asks why
    (`lang.why_intent`), which the reason-holding roles (`REASONS`) answer as if it named their word;
    a `question` asking whom the project is for (`asks_who_for`) meets the product context's role so."""
    layout = LayoutIndex.of(bank)
    folders = layout.laid_out() if layout.roles else set()
    if not folders:
        return {}
    per_role = layout.scores(concepts, body)
    if intent:
        share = _idf(len(ROLES), len(REASONS)) / _idf(len(ROLES), 1)
        for role in REASONS:
            per_role[role] = per_role.get(role, 0.0) + share
    if question and asks_who_for(question):
        per_role[USERS_ROLE] = per_role.get(USERS_ROLE, 0.0) + 1.0  # one role of six: a one-role word's weight
    elif question and INTENT_WEIGHT:
        for role in asked_roles(question):  # route-plain9: the question's form asks for a role's job
            per_role[role] = per_role.get(role, 0.0) + INTENT_WEIGHT
    if not per_role:
        return {}
    return {path: (WEIGHT_ROLE * per_role[role], ROLES[role][0])
            for path, role in layout.roles.items() if per_role.get(role) and path.rpartition("/")[0] in folders}


# -- route-plain8: a question asking how something works is not answered by the overview files --
# The brief and the product context say what the project must do and why it exists: their requirement and
# goal lists name nearly every feature once ("Download and store NFT metadata", "Support for IPFS content"),
# and being the shortest core files, BM25's length normalisation lifts such a passing mention above the file
# that describes the mechanism (the system patterns' pipeline, the tech context's setup, the progress file's
# mitigation). A question asking *how* something works or is done is answered by the file describing it, not
# by the overview restating that it exists, so in a how question the overview rows weigh × `HOW_OVERVIEW`.
# Measured on the allowed sets before the rule: of 45 how questions, the overview won 10, rightly once.
# A how question: `how does/is/can…` opening it (not `how many/much/often/long/far`, which ask a number:
# answertype), Russian `как` opening the question or `каким образом` (not `как часто`/`как долго`, nor `так, как`),
# Chinese `怎么`/`怎样`/`如何` (not `为什么`).
OVERVIEW = frozenset({"projectbrief", "productcontext"})
HOW_OVERVIEW = 0.5
_HOW_SOURCE = (
    r"^\W*how\s+(?:does|do|did|is|are|was|were|can|could|should|would|will|must|to)\b"
    r"|\bhow\s+(?:does|do|is|are)\s+(?:it|the|this|that|they|a|an)\b"
    r"|^\W*как\s+(?!часто|долго|скоро|много|быстро)[а-я]|(?<![а-я])каким\s+образом"
    r"|怎么(?!样的)|怎样|如何")
_HOW: list[re.Pattern[str]] = []  # compiled on first use: a cold prime process asked nothing pays no compile


def asks_how(question: str) -> bool:
    """Does the question ask how something works or is done (not how much, how often, how long)?"""
    if not _HOW:
        _HOW.append(compiled(_HOW_SOURCE))
    return _HOW[0].search(question.lower().replace("ё", "е")) is not None


def overview_damped(bank: Bank, question: str, rows: list) -> list:
    """Route's scored rows with the overview files' (`OVERVIEW`: core files of the layout without metadata of their
    own, in a laid-out folder) score, metadata, body and prose × `HOW_OVERVIEW` when the question asks how
    (`asks_how`); else `rows` itself."""
    if not rows or not asks_how(question):
        return rows
    layout = LayoutIndex.of(bank)
    if not any(role in OVERVIEW for role in layout.roles.values()):
        return rows
    folders = layout.laid_out()
    overview = {path for path, role in layout.roles.items()
                if role in OVERVIEW and path.rpartition("/")[0] in folders}
    if not overview:
        return rows
    return [(row[0], round(row[1] * HOW_OVERVIEW, 4), row[2], row[3] * HOW_OVERVIEW, row[4] * HOW_OVERVIEW,
             row[5] * HOW_OVERVIEW, row[6]) if row[2] in overview else row for row in rows]


def with_role(row: dict, roles: dict[str, tuple[float, str]], size: int) -> dict:
    """A route result row whose `why` names its document's role first (`layout: progress`), when it has one."""
    found = roles.get(row["path"])
    if found is None:
        return row
    why = f"layout: {found[1]}; {row['why']}" if row["why"] else f"layout: {found[1]}"
    return {**row, "why": shown_words(why, size, why=True)}
