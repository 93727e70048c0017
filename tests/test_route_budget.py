"""Route answers stay within their token budget whatever the bank holds (issue 14: five results ≤ 300 tokens).

A generated hostile bank maximises every field a row shows: titles, purposes, canonical keys, headings
and body lines far past their caps, matched words thousands of characters long, JSON-escaped quotes and
backslashes, Chinese text, a non-active status, long paths. Both faces are asked through real processes:
the CLI (JSON and text, the first question; the other questions and cases through its entry point in
this process) and one MCP server."""

from __future__ import annotations

import json
import re

import pytest
from conftest import cli_in_process, run_cli, write_bank

from memorybank.lang import estimate_tokens
from memorybank.routefit import ANSWER_TOKENS, PATH_ROOM, cut, shown_words

QUESTIONS = ("thumbnail sizing bubble", "how is the bubble thumbnail sized?", "缩略图 气泡 尺寸")
LONG_WORD = "thumbnail" + "x" * 3000  # one matched word (by prefix) far longer than any row


def _hostile_doc(i: int) -> str:
    zh = "缩略图气泡尺寸" * 60
    title = f'Thumbnail \\"sizing\\" \\\\ bubble {zh} ' + "thumbnail sizing bubble " * 40
    purpose = f"{LONG_WORD} sizing{'z' * 400} bubble{'e' * 400} " + "thumbnail sizing bubble " * 30
    key = ("thumbnail sizing bubble " * 6)[:120]
    heading = "Thumbnail sizing bubble " * 30 + zh
    line = f"The {LONG_WORD} sizing of the bubble thumbnail " * 20 + zh
    return (f'---\ntitle: "{title}"\npurpose: "{purpose}"\ncanonical_for:\n  - "{key}"\n'
            f"status: {'draft' if i % 2 else 'archived'}\n---\n\n# T\n\n"
            + "".join(f"## {heading} {n}\n\n{line}\n\n" for n in range(8)))


def _files(path_chars: int) -> dict[str, str]:
    name = "domain/thumbnail-bubbles/sizing-variant-"
    name += "x" * (path_chars - len(name) - len("00.md"))
    return {f"{name}{i:02d}.md": _hostile_doc(i) for i in range(8)}


def _bank(root, path_chars: int):
    return write_bank(root, _files(path_chars))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    return _bank(tmp_path_factory.mktemp("hostile") / "bank", 72)


def _plain_prefix(shown: str, whole: str) -> bool:
    """A cut field is the start of the field (whitespace runs collapsed), ending in `…` (or `…"`)."""
    flat = " ".join(whole.split())
    head = shown.removesuffix('"').removesuffix("…")
    return flat.startswith(head)


def test_five_hostile_results_fit_300_tokens_in_the_cli_json_and_text_faces(hostile):
    for question in QUESTIONS:
        cli = run_cli if question == QUESTIONS[0] else cli_in_process
        proc = cli("--root", str(hostile), "--route", question, "--json")
        assert proc.returncode == 0, proc.stderr
        rows = json.loads(proc.stdout)["results"]
        assert len(rows) == 5, question
        assert estimate_tokens(proc.stdout.strip()) <= ANSWER_TOKENS, question
        for row in rows:
            assert row["status"] in ("draft", "archived") and (hostile / row["path"]).is_file()
            assert row["title"].endswith("…") and row["title"].startswith("Thumbnail")
            if "section" in row:  # a cut heading is still the start of a real one (bank_read opens a part)
                text = (hostile / row["path"]).read_text(encoding="utf-8")
                headings = re.findall(r"^## (.+)$", text, flags=re.M)
                assert any(_plain_prefix(row["section"], h) for h in headings), row
        text = cli("--root", str(hostile), "--route", question)
        assert text.returncode == 0 and estimate_tokens(text.stdout.strip()) <= ANSWER_TOKENS, question


def test_paths_up_to_path_room_characters_still_fit(tmp_path):
    root = _bank(tmp_path / "bank", PATH_ROOM)
    proc = cli_in_process("--root", str(root), "--route", QUESTIONS[0], "--json")
    rows = json.loads(proc.stdout)["results"]
    assert len(rows) == 5 and all(len(row["path"]) == PATH_ROOM for row in rows)
    assert estimate_tokens(proc.stdout.strip()) <= ANSWER_TOKENS


def test_longer_lists_and_time_windows_keep_the_same_share_per_row(hostile):
    proc = cli_in_process("--root", str(hostile), "--route", QUESTIONS[0], "--limit", "8", "--json")
    rows = json.loads(proc.stdout)["results"]
    assert len(rows) == 8 and estimate_tokens(proc.stdout.strip()) <= ANSWER_TOKENS * 8 // 5
    proc = cli_in_process("--root", str(hostile), "--route", QUESTIONS[0], "--since", "2000-01-01", "--json")
    answer = json.loads(proc.stdout)
    assert "window" in answer and len(answer["results"]) == 5
    assert estimate_tokens(proc.stdout.strip()) <= ANSWER_TOKENS


def test_the_mcp_face_holds_the_same_budget(scratch_server):
    session = scratch_server
    session.load(_files(72))  # the hostile bank, in the worker's server
    for question in QUESTIONS[:2]:
        result = session.call("bank_route", {"question": question})
        assert not result.is_error
        text = result.content[0].text
        assert len(json.loads(text)["results"]) == 5
        assert estimate_tokens(text) <= ANSWER_TOKENS, question


def test_an_answer_within_budget_is_left_whole(tmp_path):
    files = {f"engineering/sync-{i}.md": f"---\ntitle: Sync state {i}\npurpose: How sync state is stored.\n---\n"
             f"\n# Sync state {i}\n\n## Storage\n\nSync state is stored between launches.\n" for i in range(6)}
    root = write_bank(tmp_path / "bank", files)
    rows = json.loads(cli_in_process("--root", str(root), "--route", "sync state storage", "--json").stdout)["results"]
    assert len(rows) == 5
    assert all(row["title"].startswith("Sync state ") and "…" not in json.dumps(row, ensure_ascii=False)
               for row in rows)


def test_cuts_fall_on_word_boundaries_and_inside_cjk_or_one_overlong_word():
    assert shown_words("Thumbnail sizing for the chat bubble", 20) == "Thumbnail sizing…"
    assert shown_words("Thumbnail sizing for the chat bubble", 40) == "Thumbnail sizing for the chat bubble"
    assert shown_words("a\tb\n\u202ec", 10) == "a b c"  # one plain line
    assert shown_words("缩略图" * 20, 10) == "缩略图…"  # 3 × 2.4 + the ellipsis ≤ 10 characters' tokens
    assert shown_words("x" * 100, 10) == "x" * 9 + "…"
    assert cut('say "a" \\ b', 6 * 25) == "say…"  # escaped quotes count twice in JSON
