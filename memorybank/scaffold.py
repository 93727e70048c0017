"""The bank's scaffolding (issue 18): documents about the bank, not about the project.

Two kinds of document carry no knowledge of their own: the `dna/` layer (the contract: rules about
the bank's frontmatter, layers and lifecycle, which `adopt` and `init` copy from the starter) and
indexes (`doc_function: index`, or a README.md declaring no function: their prose lists other
documents with their titles and purposes). Adopting a plain bank of six documents adds eight of
the first and one of the second.

Body statistics are properties of the project's prose, so they are taken over the knowledge
documents only (`counts_toward_statistics`): BM25's document count, each term's document frequency,
the average length, and route's rarity of metadata words. Counted over everything, a word every
project document holds would look rare next to the eight contract pages, and the short contract
pages would shift every length norm: the same question would rank the same project documents
differently before and after `adopt`. A bank holding nothing but scaffolding counts everything
(there is no other population).

Scaffolding still matches and is still scored with these statistics; search (`later`) and route
rank it after the documents that answer unless the question is about the bank itself.
"""

from __future__ import annotations

from collections.abc import Callable

from .records import Doc

SELF_LAYER = "dna"
INDEX_FUNCTION = "index"


def counts_toward_statistics(doc: Doc) -> bool:
    """True for a document holding the project's own knowledge; False for dna/ contract pages and indexes
    (`doc_function: index`, or a README.md declaring no function: a README declared canonical counts)."""
    if doc.layer == SELF_LAYER:
        return False
    if doc.doc_function is not None:
        return doc.doc_function != INDEX_FUNCTION
    return doc.path.rpartition("/")[2] != "README.md"


def later(question: str, layer: str | None = None) -> Callable[[Doc, bool], bool]:
    """For one question: is a document ranked after every document that is not? (search and route)

    A dna/ page is, unless the question is about the bank itself (`lang.about_bank`) or asks for the
    dna layer, or (route's second argument) the page owns a canonical key the question says whole;
    a declared index (`doc_function: index`) always is: its prose lists the documents that answer."""
    from .lang import about_bank

    self_intent = layer == SELF_LAYER or about_bank(question)

    def test(doc: Doc, owns_key: bool) -> bool:
        return (doc.layer == SELF_LAYER and not self_intent and not owns_key) or doc.doc_function == INDEX_FUNCTION
    return test
