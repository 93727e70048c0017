"""Answer type for routing (issue 14): a question asking for a quantity is answered by a line stating one.

Question-answering systems have long matched a question's expected answer type with the passages
that can hold it: "how much memory…", "when is the release due", "what share is done", "сколько…",
"多少…" ask for an amount, a date, a share or a version — a number. Core files of a plain bank restate
the same facts (the tech context's "AX Tree Cache: ~5MB typical" and the system patterns' "accessibility
tree caching"); the one that answers a quantity question states the number beside the question's
words, while the others only name the subject. Word statistics cannot tell them apart; the answer
type can.

So when the question asks for a quantity (`asks_quantity`: interrogative forms of English, Russian
and Chinese written here a priori, not taken from any question set), a document's *number line* is
the body line holding a number (a digit that is not a list item's marker) whose question concepts
weigh most — Σ idf × tier, as `bank_search` picks a best line — ÷ the most a line could weigh (every
concept, typed: the same scale as the body strength, [0, 1)). Route adds `WEIGHT_NUMBER` × that × the
document's multiplier to the row's score and quotes that line in `why`. Only concepts found by their
literals count (the line scan `bank_search` falls back on for the rest is not repeated here); title
and `## ` heading lines are metadata and hold no number line; a question of another type costs one
regex search, and a quantity question one pass over the placed lines of each row with body evidence.

The same holds for other answer types whose answer is a kind of line any bank writes the same way
(`TYPES`, route-plain4), each an interrogative form of the three languages and a test of the line:
- *location* ("where does X live", "in which file/folder", "где лежит", "в какой папке", "在哪个文件",
  "放在哪里"): a line holding a path (`src/chain/evm.rs`, `Sources/App/`, `requirements.txt`) or a
  tree drawing (`├──`, `└──`, `│`);
- *status* ("is X done/implemented/supported yet", "which X are supported", "готово ли", "уже",
  "поддерживается", "完成了吗", "支持哪些"): a line carrying a status mark (✅ ⬜ ❌ 🔄, `[x]`, `[ ]`,
  struck-through text);
- *default* ("by default", "по умолчанию", "默认", "デフォルト"): a line saying default in any of the languages a
  bank is written in (`default`, `по умолчанию`, `默认`, `デフォルト`, `既定`).
- *reason* ("why", "what for", "почему", "зачем", "为什么", "为何"; session 8, route-plain8): a line giving a
  reason (`because`, `so that`, `rationale`, `trade-off`, `simplifies`, `reduces the risk`; `потому что`,
  `чтобы`, `позволяет`; `因为`, `为了`, `避免`; Japanese `理由`, `ため`), or the line just above one in the same
  block. The Cline core files restate a decision (the tech context lists "sequential processing only" among
  its limitations, the progress file ticks it as a mitigation); the file that *decided* it states the reason
  beside it ("Currently, tokens are processed sequentially" / "This approach simplifies error handling"), and
  a reason is usually written on the next line of the same item (`- **Decision**: …` / `- **Rationale**: …`,
  `**永続化:** GCS` / `- 理由: …`), so the line holding the question's words counts when it or one of the
  two lines after it, before a blank line or a heading, gives the reason. The layout's *why* prior
  (`layout.REASONS`) says which files tend to hold reasons; this says which line of which file does.
A question of several types (where does X live and is it done yet) is answered by a line of any of them; an
interrogative of amount makes a question a quantity question, and a status word inside it does not add
the status type ("how many are left" asks a number; `answer_types`, quantity-status).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable

from .evidence import Evidence, kept_body, line_needles, quote, section_at
from .lang import SearchConcept
from .lang.tokens import fold, normalize
from .records import Doc
from .regexes import compiled
from .search import SearchIndex, _placed

# = route.WEIGHT_BODY: the line stating a number beside all of the question's words is worth what prose saying all
# of it is (measured on the allowed sets: a heading's 1.0 gained one question fewer, no set lost more)
WEIGHT_NUMBER = 5.0
# a reason line (route-plain8) weighs less: a line typed by a few common words (because, чтобы, ため) says less
# about which line answers than a number, a path or a status mark does
WEIGHT_REASON = 2.5
REASON_LEAST = 0.5  # ... and answers only when its line carries half the question's weight: a reason about the topic

# Interrogative forms asking for an amount, a duration, a frequency, a date, a share or a version.
# A leading when/когда whose clause a comma closes before more words is a condition ("When the build fails,
# what happens…", "when you get a chance, fix…"): the question, if any, is the clause after it (`_CONDITION`).
_CONDITION = r"(?![^,;]*[,;]\s*\w)"
_QUANTITY_EN = compiled(
    r"\bhow\s+(?:much|many|long|often|big|large|fast|soon|old|far)\b"
    r"|^\W*when\b" + _CONDITION + r"|\bwhen\s+(?:is|are|was|were|will|would|does|do|did|should|can|could)\b"
    r"|\b(?:what|which)\s+(?:percent(?:age)?|share|fraction|proportion|version|date|year|size|number)\b"
    r"|\bat\s+what\s+(?:time|rate|size|point)\b|\bby\s+when\b")
# `когда` only opens a question: inside one it is a conjunction ("что происходит, когда…"); hyphenated
# (когда-нибудь, сколько-то) they are indefinite pronouns
_QUANTITY_RU = compiled(
    r"(?<![а-яa-z0-9_])(?:сколько(?!-)|как\s+(?:часто|долго|скоро|быстро|много)"
    r"|как(?:ой|ая|ую|ого)\s+(?:процент|доля|долю|част|объем|размер|срок|верси)"
    r"|в\s+какой\s+(?:верси|срок|момент)|к\s+какому\s+сроку)|^\W*когда(?![а-я-])" + _CONDITION)
_QUANTITY_ZH = compiled(r"多少|多久|多长|多大|多快|多高|几(?![乎何])|百分之|什么时候|何时"
                        r"|哪个版本|什么版本|哪一版|哪一年|哪天")
# an ordered list item's number, or a deeper heading's outline number (`### 4. Retries`, `### 2.1 Cache`)
_LIST_MARKER = compiled(r"^\s*(?:[-*+]\s+)?\d+[.)]\s|^#{3,6}\s+(?:\d+(?:\.\d+)+\.?|\d+[.)])\s")
# A number stands on its own: a digit run not inside a Latin or Cyrillic word (e2ee, sha256) nor an identifier's
# (ADR-003, FT-001, UTF-8); `v2` is a version. CJK script writes numbers against its characters (占用64MB).
_LETTER = "A-Za-zА-Яа-яЁё"
_DIGIT = compiled(rf"(?<![{_LETTER}\d])(?<![{_LETTER}]-)\d|(?<![{_LETTER}\d])[vV]\d")


def _lowered(question: str) -> str:
    """The question as its concepts read it (attack-route7): NFKC (ＷＨＥＲＥ is where), CJK folded to Simplified
    (哪個 is 哪个, 默認 is 默认: `lang/variants.py`), lowercased, `ё` as `е`."""
    return fold(normalize(question)).lower().replace("ё", "е")


def asks_quantity(question: str) -> bool:
    """Does the question ask for a number (amount, duration, frequency, date, share, version)?"""
    low = _lowered(question)
    return any(p.search(low) is not None for p in (_QUANTITY_EN, _QUANTITY_RU, _QUANTITY_ZH))


# -- route-plain4: location, status and default (see the module doc) --
class _Lazy:
    """A pattern compiled on its first use: most questions never need it, and a cold process pays each compile."""

    __slots__ = ("source", "compiled")

    def __init__(self, source: str) -> None:
        self.source = source
        self.compiled: re.Pattern[str] | None = None

    def __call__(self) -> re.Pattern[str]:
        if self.compiled is None:
            self.compiled = compiled(self.source)
        return self.compiled


_CYRILLIC = compiled("[а-я]")
_CJK = compiled("[\u3400-\u9fff]")
# a word every English form of the type holds (a necessary condition, checked before the pattern)
_LOCATION_GATES = ("where", "file", "folder", "director", "module", "path", "package")
_STATUS_GATES = ("yet", "done", "finish", "complete", "implement", "built", "fixed", "support", "shipped", "released",
                 "working", "started", "planned", "works", "left", "missing", "remaining", "status", "can")
# `where` with a verb of place or a word for code ("where in the source tree does X live", "where will the
# file go"); a file, folder, directory, module or path asked for by which/what/in which
_LOCATION_EN = _Lazy(
    r"\bwhere\b[^?.!]*\b(?:lives?|living|located|sits?|kept|keeps?|goes|go|resides?|defined|implemented"
    r"|placed|put|stored\s+in\s+the\s+(?:code|repo)|files?|folders?|director(?:y|ies)|modules?|code|source)\b"
    r"|\b(?:which|what|in\s+which|in\s+what)\s+(?:[\w-]+\s+)?(?:files?|folders?|director(?:y|ies)|modules?"
    r"|paths?|packages?)\b(?!\s+(?:formats?|types?|sizes?))")
_LOCATION_RU = _Lazy(
    r"(?<![а-я])где\s+(?:[а-я-]+\s+)?(?:лежит|лежат|находит|живет|живут|располож|определ|реализ|описан"
    r"|должен\s+лежать|должны\s+лежать)"
    r"|(?<![а-я])в\s+как(?:ом|ой|их|ую)\s+(?:[а-я-]+\s+)?(?:файл|папк|каталог|директори|модул)"
    r"|(?<![а-я])как(?:ие|ой)\s+файл|(?<![а-я])в\s+какую\s+папку")
_LOCATION_ZH = _Lazy(r"哪个文件|哪些文件|什么文件|哪个目录|什么目录|哪个文件夹|哪个模块|哪个包|什么路径"
                          r"|放在哪|位于哪|在哪里定义|在哪里实现|在哪个")
# done / built / supported yet, what works, what is left; planned; fixed; what it can do (the list of what
# works is the list of what it can do): a yes-no question's auxiliary opens it
# ("is the cache done", not "why are they passed in instead of built inside")
_STATUS_EN = _Lazy(
    r"\byet\b|^\W*(?:is|are|was|were|has|have|had)\b[^?.!,;]*\b(?:done|finished|complete|completed|implemented"
    r"|built|fixed|supported|shipped|released|working|started|planned)\b"
    r"|\bdoes\s+(?:it|the\s+[\w-]+|this)\s+(?:already\s+)?support\b|\b(?:which|what)\b[^?.!]*\b(?:are|is)\s+supported\b"
    r"|\b(?:is|are|was|were|been)\s+(?:already\s+|now\s+)?(?:done|finished|completed|implemented|built|fixed)\b"
    r"|\bwhat\s+works\b|\bwhat(?:'s|\s+is)\s+(?:left|missing|remaining)\b|\bstatus\s+of\b"
    r"|^\W*(?:which|what)\b[^?.!,;]*\bcan\s+(?:already\s+)?be\b|^\W*can\s+(?:it|the\s+[\w-]+|this)\b")
_STATUS_RU = _Lazy(
    r"(?<![а-я])(?:уже|ещ[её]\s+не|готов|сделан|реализован|поддерж|исправлен|починен|планир|запланир|умеет|умеют"
    r"|законч|заверш|выполнен|осталось|остались|остался)")
_STATUS_ZH = _Lazy(r"了吗|完成|支持|实现了|修好|修复了|已经|还没|尚未|计划|做好|进度|做完|上线了")
# Japanese デフォルト too: a line saying it is a default line (`_DEFAULT_LINE`), so a question saying it asks for one
_DEFAULT_Q = _Lazy(r"\bdefaults?\b|\bdefaulted\b|по\s+умолчанию|умолчани|默认|缺省|预设|預設|デフォルト")

# a path: a `/`-joined name ending in a file name or a `/`, or of three parts or more (`a/b/c`), or a file
# name with an extension (`requirements.txt`, `main.rs`; not `e.g.`, `ipfs.io.`); a tree drawing. A bare
# name's extension is written in lowercase: `cache.The` is a sentence missing its space, `ASP.NET` a name;
# and the products named like files (`Node.js`, `socket.io`) are words (s8-robust: both were read as paths,
# so a "where is the … file" question quoted them as its answer)
_DOTTED_NAMES = ("node.js", "vue.js", "next.js", "nuxt.js", "react.js", "angular.js", "ember.js", "backbone.js",
                 "three.js", "chart.js", "d3.js", "express.js", "alpine.js", "moment.js", "p5.js", "socket.io")
_PATH = compiled(
    r"(?<![\w/:.-])(?:\.{1,2}/|~/)?[\w.-]+/(?:[\w.-]+/)*(?:[\w-]+\.[A-Za-z][A-Za-z0-9]{0,5}\b|(?=[\s`'\")]|$))"
    r"|(?<![\w/:.-])[\w.-]+/[\w.-]+/[\w.-]+"
    r"|(?<![\w/.-])(?!(?i:" + "|".join(name.replace(".", r"\.") for name in _DOTTED_NAMES) + r")(?![\w.(/-]))"
    r"[\w-]{2,}\.[a-z][a-z0-9]{0,5}(?![\w.(/-])")
_TREE = frozenset("├└│┌┬┴┼")
_DOT_LETTER = compiled(r"\w\.[A-Za-z]")  # what a file name needs; most prose has only `. `
_STATUS_MARK = compiled(r"[✅✔☑✓⬜☐❌✗✘🔄⏳🚧🟢🟡🔴]|^\s*(?:[-*+]\s+)?\[[ xX]\]\s|~~\S")
_PERCENT = compiled(r"\d\s*[%％]")
# the stems and words a share is asked by (`percentag`, `fract`, `proport` are the English stems)
_SHARE_WORD = compiled(r"(?:percent|fract|proport|shar$|процент|дол[яию]?$|百分|比例|占比)")
_MARK_CHARS = frozenset("✅✔☑✓⬜☐❌✗✘🔄⏳🚧🟢🟡🔴[~")  # a status line holds one of these
_DEFAULT_LINE = compiled(r"default|по\s+умолчанию|умолчани|默认|缺省|デフォルト|既定|預設|预设", re.IGNORECASE)


def states_path(line: str) -> bool:
    """A path or a tree drawing on the line (title and `## ` lines are metadata)."""
    if line.startswith("# ") or line.startswith("## "):
        return False
    if not _TREE.isdisjoint(line):
        return True
    return ("/" in line or _DOT_LETTER.search(line) is not None) and _PATH.search(line) is not None


def states_status(line: str) -> bool:
    """A status mark on the line: a check mark, a cross, a box, a task list's `[x]` / `[ ]`, struck-through text."""
    return not (line.startswith("# ") or line.startswith("## ")) and not _MARK_CHARS.isdisjoint(line) \
        and _STATUS_MARK.search(line) is not None


def states_default(line: str) -> bool:
    """The line says default (English, Russian, Chinese, Japanese; Traditional characters folded: 默認 is 默认)."""
    return not (line.startswith("# ") or line.startswith("## ")) and _DEFAULT_LINE.search(fold(line)) is not None


def _asks(low: str, gates: tuple[str, ...], english: _Lazy, russian: _Lazy | None, chinese: _Lazy | None) -> bool:
    """Search the patterns a question could meet: English only when it holds a word every English form needs
    (`gates`), Russian only with Cyrillic, Chinese only with CJK characters (a cold process compiles none of
    them for a question that cannot match)."""
    if any(gate in low for gate in gates) and english().search(low) is not None:
        return True
    if russian is not None and _CYRILLIC.search(low) is not None and russian().search(low) is not None:
        return True
    return chinese is not None and _CJK.search(low) is not None and chinese().search(low) is not None


def asks_location(question: str) -> bool:
    """Does the question ask where something lives (a file, a folder, a path)?"""
    return _asks(_lowered(question), _LOCATION_GATES, _LOCATION_EN, _LOCATION_RU, _LOCATION_ZH)


def asks_status(question: str) -> bool:
    """Does the question ask whether something is done, supported, fixed or planned (yet)?"""
    return _asks(_lowered(question), _STATUS_GATES, _STATUS_EN, _STATUS_RU, _STATUS_ZH)


def asks_default(question: str) -> bool:
    """Does the question ask what happens or is used by default?"""
    return _asks(_lowered(question), ("default", "умолчан", "默认", "缺省", "预设", "預設", "デフォルト"),
                 _DEFAULT_Q, None, None)


# -- route-plain8: reason (see the module doc) --
_REASON_Q = _Lazy(r"\bwhy\b|\bwhat\s+for\b|\brationale\b|\breasons?\b|(?<![а-я])(?:почему|зачем|по\s+какой\s+причине)"
                  r"|为什么|为何|为啥|什么原因|理由")
# words that give a reason or a purpose, in the four languages banks are written in here (lowercased, folded)
_REASON_LINE = _Lazy(
    r"\b(?:because|due\s+to|so\s+that|in\s+order\s+to|rationale|reasons?|trade-?offs?|benefits?|motivation"
    r"|simplif(?:y|ies)|reduces?\s+the\s+risk|to\s+(?:avoid|prevent|reduce|keep|ensure|allow)"
    r"|rather\s+than|instead\s+of|chosen\s+(?:for|because)|(?:this|that|which)\s+(?:approach|pattern|design|choice)\s+\w+)\b"
    r"|(?<![а-я])(?:потому\s+что|так\s+как|вместо|а\s+не\s|поскольку|из-за|чтобы|ради|причин|обоснован|позволя|упроща|снижа)"
    r"|因为|由于|为了|以便|以免|原因|理由|从而|避免|简化|降低|而不是|而非|ため|ので|により|避け|防ぐ|簡素|容易")


def asks_reason(question: str) -> bool:
    """Does the question ask why (a reason or a purpose)?"""
    low = _lowered(question)
    return _REASON_Q().search(low) is not None


def states_reason(line: str) -> bool:
    """The line gives a reason or a purpose (title and `## ` lines are metadata)."""
    return not (line.startswith("# ") or line.startswith("## ")) and \
        _REASON_LINE().search(fold(normalize(line)).lower().replace("ё", "е")) is not None


def _reason_near(text: list[str], line: int) -> bool:
    """The line, or one of the two after it in the same block (before a blank line or a heading), gives a reason."""
    for at in range(line, min(line + 3, len(text))):
        current = text[at]
        if at > line and (not current.strip() or current.lstrip().startswith("#")):
            return False
        if states_reason(current):
            return True
    return False


# answer type -> (does the question ask it, does a line state it)
TYPES: dict[str, tuple[Callable[[str], bool], Callable[[str], bool]]] = {
    "quantity": (asks_quantity, lambda line: states_number(line)),
    "location": (asks_location, states_path),
    "status": (asks_status, states_status),
    "default": (asks_default, states_default),
    "reason": (asks_reason, states_reason),  # a line's neighbours count too (`_reason_near`)
}


# -- quantity-status: a yes-no clause about a status (`is it done yet`, `готово ли`, `完成了吗`), the one status
# form that asks on its own beside an interrogative of amount --
_STATUS_CLAUSE = _Lazy(
    r"(?:^|[,;]\s*(?:and\s+|but\s+)?|\band\s+)(?:is|are|was|were|has|have|had|does|do|did|can)\s+"
    r"(?:it|they|this|that|these|those|the\s+[\w-]+)\b"
    r"|(?<![а-я])(?:готов|сделан|реализован|поддерживает|заверш|выполнен|исправлен|починен|законч)[а-я]*\s+ли(?![а-я])"
    r"|吗")


def answer_types(question: str, reasons: bool = False) -> tuple[str, ...]:
    """The answer types the question asks (`TYPES`' names, in their order); empty when it asks none.

    An interrogative of amount (how many, сколько, 多少, 几) makes the question a quantity question: a status
    word inside it (`how many are left`, `сколько уже готово`, `已经完成多少`) names what is counted, and its
    answer is a number, so status lines do not answer it — unless a clause of its own asks the status
    (`is it done yet, and how long will the rest take?`).

    `reasons`: whether a reason line may answer (off unless asked: route asks it for a bank laid out as
    the Cline core files, `layout.role_scores`). A governed bank says where its reasons live — a decision
    record's metadata, lifted for a why question (`route.WHY_FACTOR`) — and there a reason word on a line
    measured as noise (a page saying *rather than* beside the question's words outranked the record); a
    plain bank says nothing, and the line giving the reason is the best evidence of the file that made the
    decision."""
    types = tuple(name for name, (asks, _) in TYPES.items() if (reasons or name != "reason") and asks(question))
    if "quantity" in types and "status" in types and _STATUS_CLAUSE().search(_lowered(question)) is None:
        types = tuple(name for name in types if name != "status")
    return types


def _by_weight(item: tuple[int, float]) -> tuple[float, int]:
    return -item[1], item[0]


def _line_test(types: tuple[str, ...]) -> Callable[[str], bool]:
    """The test of a line stating any of the answer types."""
    if not types:
        return lambda line: False
    if len(types) == 1:
        return TYPES[types[0]][1]
    tests = [TYPES[name][1] for name in types]
    return lambda line: any(states(line) for states in tests)


def states_number(line: str) -> bool:
    """A digit on the line that is not an ordered list item's or a heading's number; title and `## ` lines are
    metadata."""
    if line.startswith("# ") or line.startswith("## "):
        return False
    return _DIGIT.search(_LIST_MARKER.sub("", line, count=1)) is not None


def number_line(index: SearchIndex, evidence: Evidence, doc: Doc, needles: list,
                types: tuple[str, ...] = ("quantity",), shape: tuple[tuple[bool, ...], float] | None = None
                ) -> tuple[float, tuple[int, str, str | None]] | None:
    """The document's best number line (or line of another of the answer `types`): its weight ÷ the most a
    line could weigh, and the line as `evidence.best_line` gives one (1-based file line, excerpt, `## `
    heading above); None when no such line holds a question concept.

    `needles`: `evidence.line_needles(index, evidence)`; the lines each concept is placed on are kept
    with the body, shared with `best_line`. `shape`: `_shape(evidence)`, when the caller reads several rows."""
    body = kept_body(index, doc)
    if body is None or not body.text or not evidence.concepts:
        return None
    shares, held = _shape(evidence) if shape is None else shape
    scores: dict[int, float] = {}
    placed = body.placed
    percent: dict[int, int] | None = None
    for share, concept_needles, weight in zip(shares, needles, evidence.weights):
        key = tuple(concept_needles)
        lines = placed.get(key)
        if lines is None:
            lines = placed[key] = _placed(body.low, concept_needles)
        if share:  # a percentage says the word for a share in any language (route-plain4)
            if percent is None:
                percent = _percent_lines(body.low)
            lines = {**percent, **lines} if percent else lines
        for line, tier in lines.items():
            scores[line] = scores.get(line, 0.0) + weight * tier
    text = body.lines
    test = _line_test(tuple(name for name in types if name != "reason"))
    near = "reason" in types
    best: tuple[float, int] | None = None
    for line, score in sorted(scores.items(), key=_by_weight):  # heaviest first, first line on ties
        if (near and _reason_near(text, line)) or test(text[line]):
            best = (score, line)
            break
    if best is None:
        return None
    at = doc.body_line + best[1]
    excerpt = quote(text[best[1]], evidence.concepts)
    return best[0] / (10 * held), (at, excerpt, section_at(doc, at))


def names_share(concept: SearchConcept) -> bool:
    """Is the concept a word for a share (percent, fraction, proportion, процент, доля, 百分比, 比例)?"""
    return any(_SHARE_WORD.match(form.label) is not None for form in concept.forms)


def _percent_lines(low: str) -> dict[int, int]:
    """The 0-based lines holding a percentage (`60%`, `約 60 ％`), each at the typed form's tier."""
    found: dict[int, int] = {}
    line, counted = 0, 0
    for match in _PERCENT.finditer(low):
        line += low.count("\n", counted, match.start())
        counted = match.start()
        found[line] = 10
    return found


def _shape(evidence: Evidence) -> tuple[tuple[bool, ...], float]:
    """Per concept, whether it names a share; and the most a line of this bank could weigh (÷ 10): Σ idf of
    the concepts some document holds (a share concept: a percentage holds it). A word no page holds is on no
    line; counting it would shrink every line's weight alike, and most where the question is worded least
    like the bank (route-plain4)."""
    shares = tuple(names_share(concept) for concept in evidence.concepts)
    held = sum(weight for share, weight, df in zip(shares, evidence.weights, evidence.dfs) if df or share)
    return shares, held if held > 0 else evidence.total


Row = tuple[bool, float, str, float, float, float, bool]  # route's scored row (route._fused_order)


def with_number_lines(rows: list[Row], limit: int, index: SearchIndex, evidence: Evidence, docs: dict[str, Doc],
                      factor: Callable[[str], float], types: tuple[str, ...] = ("quantity",)
                      ) -> tuple[list[Row], dict[str, tuple[int, str, str | None]]]:
    """Route's rows for a quantity question (or of other answer `types`): a row with body evidence
    gets `WEIGHT_NUMBER` × its number line's weight × its multiplier added to its score and body part; the
    lines, by path, for `why`.

    A number line weighs at most the document's coverage of the question (`Evidence.coverage`, × Σ idf ÷ the
    held concepts' Σ idf: `_shape`), so rows are
    read best reach first (score + that bound), and only while a row could still reach the `limit`-th
    score. Route passes `limit = len(rows)` (every row weighed): its fused order ranks all the rows, and a
    row left short would move the ranks of the others."""
    needles: list | None = None
    lines: dict[str, tuple[int, str, str | None]] = {}
    ids, raw = index.ids, evidence.raw
    reach: list[tuple[float, int]] = []
    shape = _shape(evidence)
    held = shape[1]
    # a share concept may be placed on a percentage the prose does not spell (`60%` for `процент`): it may
    # reach a line of any row with a body, beyond the concepts the row's prose holds
    share = sum(weight for named, weight in zip(shape[0], evidence.weights) if named)
    reasoning = types == ("reason",)  # a why question only: a line of another type keeps its weight
    weighs = WEIGHT_REASON if reasoning else WEIGHT_NUMBER
    for number, row in enumerate(rows):
        sid = ids.get(row[2])
        if sid is not None and (share or raw.get(sid)):
            most = evidence.coverage(sid) * evidence.total + share if raw.get(sid) else share
            reach.append((-row[1] + weighs * min(most, held) / held * factor(row[2]), number))
    reach.sort(key=lambda item: (-item[0], item[1]))
    scores = {number: -row[1] for number, row in enumerate(rows) if not row[0]}  # `later` rows rank after these
    out = list(rows)
    for bound, number in reach:
        if len(scores) >= limit and bound < heapq.nlargest(limit, scores.values())[-1]:
            break  # neither this row nor any after it can reach the `limit`-th score
        row = rows[number]
        if needles is None:
            needles = line_needles(index, evidence)
        found = number_line(index, evidence, docs[row[2]], needles, types, shape)
        if found is None or not found[0] or (reasoning and found[0] < REASON_LEAST):
            continue
        extra = weighs * found[0] * factor(row[2])
        lines[row[2]] = found[1]
        out[number] = (row[0], round(row[1] - extra, 4), row[2], row[3], row[4] + extra, row[5], row[6])
        if number in scores:
            scores[number] = -out[number][1]
    return out, lines
