"""Languages (§7): one tokenizer, dictionaries and concepts for English, Russian and Chinese.

Used by routing (`memorybank.route`), body search (`memorybank.search`) and delivery (token
estimates). Entry points:

- `lexicon_for(bank)` — the bank's `Lexicon` (built-in dictionary + `dna/vocabulary.md`), cached in
  `bank.cache` per `dna_generation`; the same object comes back while the vocabulary rows are equal,
  so indexes can test `lexicon is index.lexicon` to know whether they must re-tokenise.
- `Lexicon.route_terms(text)`, `Lexicon.concepts(question)` — routing fields and questions.
- `Lexicon.search_counts(text)`, `Lexicon.search_concepts(query)` — body index and search queries.
- `why_intent(question)` — does the question ask for a reason (§5)?
- `estimate_tokens(text)` — the CJK-aware token estimate of §14.2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..regexes import compiled
from .lexicon import STOPWORDS, Concept, Lexicon, SearchConcept, SearchForm, build_lexicon
from .tokens import estimate_tokens, scan
from .vocabulary import VOCABULARY_PATH, parse_vocabulary

if TYPE_CHECKING:
    from ..bank import Bank

__all__ = [
    "STOPWORDS", "Concept", "Lexicon", "SearchConcept", "SearchForm", "build_lexicon", "estimate_tokens",
    "about_bank", "lexicon_for", "parse_vocabulary", "scan", "why_intent",
]

_CACHE_KEY = "lang.lexicon"


def lexicon_for(bank: Bank) -> Lexicon:
    """The lexicon of a (refreshed) bank: built-in dictionary merged with its `dna/vocabulary.md` rows."""
    cached = bank.cache.get(_CACHE_KEY)
    if isinstance(cached, tuple) and cached[0] == bank.dna_generation:
        return cached[1]
    text = bank.dna_texts.get(VOCABULARY_PATH)
    lexicon = build_lexicon(parse_vocabulary(text) if text else ())
    bank.cache[_CACHE_KEY] = (bank.dna_generation, lexicon)
    return lexicon


_WHY_EN = compiled(r"\b(?:why|rationale|reasons?|reasoning|decided|decisions?|trade-?offs?|instead\s+of)\b")
# Russian markers at a word start only: `разрешение` (permission) holds `решени` but is no decision.
_WHY_RU = compiled(r"(?<![а-яa-z0-9_])(?:почему|зачем|обоснован|вместо|решени)")
_WHY_ZH = compiled(r"为什么|为何|原因|理由|决定(?!性)|而不是")  # 决定性 is "decisive", not a decision


def why_intent(question: str) -> bool:
    """True when the question asks *why* (English, Russian or Chinese markers of §5)."""
    low = question.lower().replace("ё", "е")
    return any(p.search(low) is not None for p in (_WHY_EN, _WHY_RU, _WHY_ZH))


# The product's own words: a question naming the bank, its frontmatter or its contract is about the
# bank itself, and only then do the dna/ documents (rules about the bank) compete with the project's.
_BANK_EN = compiled(r"\b(?:memory[ -]?banks?|banks?|frontmatter|front[ -]matter|canonical(?:_for)?|doc_kind|"
                    r"doc_function|derived_from|dna|governance|governed|templates?|inbox|vocabulary)\b")
_BANK_RU = compiled(r"(?<![а-яa-z0-9_])(?:банк|фронтматтер|шаблон|словар|инбокс)")
_BANK_ZH = compiled(r"记忆库|知识库|文档库|资料库|模板|词汇表|收件箱|元数据")


def about_bank(question: str) -> bool:
    """True when the question is about the bank itself (its documents' rules), not about the project."""
    low = question.lower().replace("ё", "е")
    return any(p.search(low) is not None for p in (_BANK_EN, _BANK_RU, _BANK_ZH))
