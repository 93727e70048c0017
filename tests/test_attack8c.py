"""Adversarial run on session 8's passage rule (attack8c): a body line holding three of the question's concepts.

Each test names the question an unlucky user typed, what the rule did with it, and why that was wrong.
Small banks written here; `--route --json` runs in process as the CLI.
"""

from __future__ import annotations

import pytest
from banks import route_results
from conftest import doc, write_bank

pytestmark = pytest.mark.usefixtures("cache_off")

FILLER = " ".join(f"filler{k}" for k in range(60))  # ~500 characters of words no question asks


def test_a_long_passage_line_is_quoted_where_its_evidence_is(tmp_path):
    """Before: the passage line of a long paragraph was cut 60 characters before its first concept and then
    to `why`'s 32, so the quote held only the words before the evidence ("…filler41 filler42 fill…"): the
    user saw none of the words that made the document rank. Now quoted as every best line is (`quote`)."""
    root = write_bank(tmp_path / "memory_bank", {
        "ops/gateways.md": doc("Gateways", "How content is fetched.",
                               body=f"## Fetching\n\n{FILLER} the gateway fallback mirror takes over when"
                                    " the primary is down.\n"),
        "ops/other.md": doc("Other", "Something else.", body="## Misc\n\nA gateway is listed here.\n"),
    })
    rows = route_results(root, "gateway fallback mirror")
    assert rows[0]["path"] == "ops/gateways.md"
    quoted = rows[0]["why"]
    assert any(word in quoted for word in ("gateway", "fallback", "mirror")), quoted


def test_a_line_opening_with_a_hash_that_is_no_heading_still_states_the_fact(tmp_path, monkeypatch):
    """Before: any line whose first visible character was `#` was taken for a heading and never counted, so an
    issue reference opening a log line ("#12 the snapshot upload …") or an indented code line gave its page no
    passage share, while markdown (and the bank's own heading scan, `headings.py`) reads a heading only as up
    to three spaces, one to six `#` and a space or the line's end. Now only such a line is skipped."""
    from memorybank import passage

    line = "the snapshot upload waits when the mirror is unavailable"
    bodies = {"hash": f"#12 {line}\n", "indented": f"    # {line}\n", "heading": f"## {line}\n"}
    question = "what happens to the snapshot upload when the mirror is unavailable?"
    found = {}
    for name, body in bodies.items():
        root = write_bank(tmp_path / name / "memory_bank", {"ops/log.md": doc("Log", "Work notes.", body=body)})
        rows = route_results(root, question)
        monkeypatch.setattr(passage, "LEAST_CONCEPTS", 99)  # the rule off
        found[name] = rows[0]["score"] > route_results(root, question)[0]["score"]
        monkeypatch.undo()
    assert found == {"hash": True, "indented": True, "heading": False}
