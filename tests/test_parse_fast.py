"""The fast frontmatter path must agree with the YAML loader whenever it answers."""

import yaml
from conftest import heavy
from hypothesis import given, settings
from hypothesis import strategies as st

from memorybank.parse import _key_lines, fast_frontmatter, load_yaml

SCALAR = st.text(alphabet=st.sampled_from(list("aZ09 -_.:#'\"\\/[]{}&*!|>%@`,?~+eE\tпр中")), max_size=14)
KEY = st.from_regex(r"[a-z_][a-z0-9_-]{0,6}", fullmatch=True)
LINE = st.one_of(
    st.builds(lambda k, v: f"{k}: {v}", KEY, SCALAR),
    st.builds(lambda k: f"{k}:", KEY),
    st.builds(lambda v: f"  - {v}", SCALAR),
    st.builds(lambda v: f"- {v}", SCALAR),
    st.sampled_from(["", "# comment", "  # indented", "  fit: x", "true: 1", "k: 2026-01-32", "k: 0x1f",
                     "k: 1.5", "k: 010", "k: yes", "k: ~", "k: null", "k: 2026-02-03", "k: -7", "k: +.5"]),
)


@settings(max_examples=600 if heavy() else 80, deadline=None)  # a fresh sample every run
@given(st.lists(LINE, max_size=8))
def test_fast_path_agrees_with_yaml(lines):
    key_lines: dict[str, int] = {}
    fast = fast_frontmatter(lines, key_lines)
    if fast is None:
        return
    assert key_lines == _key_lines(["---", *lines], len(lines) + 1), lines  # the lines it found on its way
    text = "\n".join(lines)
    try:
        expected = load_yaml(text) if text.strip() else {}
    except yaml.YAMLError as exc:  # pragma: no cover - a disagreement is the failure
        raise AssertionError(f"fast path accepted what YAML rejects: {lines!r}") from exc
    assert fast == (expected or {}), lines


def test_fast_path_covers_the_common_header():
    lines = ["title: Billing", "status: active", "derived_from:", "  - ../dna/principles.md", "  - flat.md",
             "canonical_for:", "- filter_thresholds", "priority: 3", "date: 2026-01-02", "purpose: 'a: b'"]
    data = fast_frontmatter(lines)
    assert data is not None and data["derived_from"] == ["../dna/principles.md", "flat.md"]
    assert data["purpose"] == "a: b" and data["priority"] == 3 and str(data["date"]) == "2026-01-02"


def test_fast_path_defers_what_it_does_not_model():
    for lines in (["k: a: b"], ["k: [a, b]"], ["k: |", "  text"], ["k: v # c"], ["k:", "  - path: x", "    fit: y"],
                  ["k: 1.5"], ["k: \"a\\nb\""], ["k: 1", "k: 2"]):
        assert fast_frontmatter(lines) is None, lines
