"""A bank's own vocabulary (§7.4): rows of the tables in `dna/vocabulary.md`.

A row `| term | english, words |` with exactly two cells counts when its left cell is Cyrillic (a
Russian stem) or contains CJK (a Chinese word); everything else — header rows, separator rows,
prose, rows with more cells, Latin left cells — is ignored, so a human can write freely around the
table. Left cells are lowercased (`ё` → `е`); right cells split on commas.
"""

from __future__ import annotations

from .tokens import has_cjk, is_cyrillic

VOCABULARY_PATH = "dna/vocabulary.md"

VocabularyRow = tuple[str, str, tuple[str, ...]]  # (language "ru" | "zh", term, english words)


def parse_vocabulary(text: str) -> tuple[VocabularyRow, ...]:
    """The usable rows of a vocabulary document, in file order."""
    rows: list[VocabularyRow] = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) != 2 or not cells[0] or not cells[1]:
            continue
        term = cells[0].strip("`*_ ").lower().replace("ё", "е")
        english = tuple(w for w in (part.strip().lower() for part in cells[1].split(",")) if w)
        if not term or not english:
            continue
        if has_cjk(term):
            rows.append(("zh", term, english))
        elif is_cyrillic(term) and term.replace("-", "").isalpha():
            rows.append(("ru", term, english))
    return tuple(rows)
