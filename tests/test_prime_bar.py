"""Prime's bar (issue 14.3): a generic request about code already in the conversation, or a question about
the clock, gets nothing; an on-topic prompt still gets its pointer. Driven through the real
`mcp-memorybank-hook prime` fed UserPromptSubmit payloads and the real `--prime --json`.

The bank holds the very words of code those requests use (JSON, imports, an unused variable, a loop, a
type hint, a regular expression, a name, time, day, week), each in fewer than all documents: the bar
before this change pointed at a document for every one of them.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import cli_in_process, doc, git_repo, hook_env, hook_in_process, hook_path, prompt_payload, run_cli

BANK = {
    "memory_bank/README.md": "# Bank\n\nStart here.\n",
    "memory_bank/domain/sync.md": doc("Sync", "How the client keeps up with the homeserver.", body=(
        "## Token\n\nThe sync token is kept as JSON in the session store, so a relaunch resumes where it "
        "stopped. A loop retries the request with backoff.\n")),
    "memory_bank/domain/media.md": doc("Media", "Attachments and thumbnails.", body=(
        "## Links\n\nA regular expression accepts mxc links. The upload function takes a type hint for the "
        "MIME type; the display name of a file is kept.\n")),
    "memory_bank/engineering/style.md": doc("Code style", "How the code is kept tidy.", body=(
        "## Rules\n\nImports are sorted by the linter. An unused variable fails the build. List "
        "comprehensions are preferred, and two nested if statements are merged.\n")),
    "memory_bank/ops/release.md": doc("Release", "Shipping a build.", body=(
        "## Schedule\n\nThe release day is Tuesday every week; the time and date of the build go in the changelog.\n")),
    "memory_bank/ops/oncall.md": doc("On-call", "Who answers pages.", body="## Rota\n\nThe rota rotates by team.\n"),
}

# Requests about code the user has in front of them: every word is a word of code itself or of the request.
CODE_REQUESTS = [
    "please reformat this JSON", "sort these imports", "delete the unused variable",
    "turn this loop into a list comprehension", "add a type hint to this function",
    "merge these two if statements", "explain this regular expression",
    "Перепиши этот цикл покороче", "удали эту неиспользуемую переменную",
    "把这个变量改个名字", "把这个函数改成异步的",
]
CLOCK = ["what time is it?", "какой сегодня день недели?", "what's the date today?"]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return git_repo(tmp_path_factory.mktemp("bar") / "proj", BANK)


def hook_prime(project: Path, prompt: str, real: bool) -> str:
    """What the UserPromptSubmit hook adds to the agent's context: a real process, or its entry point here."""
    if real:
        proc = subprocess.run([hook_path(), "prime"], input=prompt_payload(project, prompt), capture_output=True,
                              cwd=str(project), env=hook_env(), timeout=60)
    else:
        proc = hook_in_process("prime", stdin=prompt_payload(project, prompt), cwd=project, env=hook_env())
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.decode()


def prime_json(project: Path, prompt: str, real: bool = False) -> dict:
    proc = (run_cli if real else cli_in_process)("--root", str(project / "memory_bank"), "--prime", prompt, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_hook_prime_says_nothing_to_a_generic_request_about_code_in_the_chat(project):
    # one real hook process per language, the other prompts through the same entry point in this process
    real = {"please reformat this JSON", "Перепиши этот цикл покороче", "把这个变量改个名字"}
    noisy = {prompt: out for prompt in CODE_REQUESTS if (out := hook_prime(project, prompt, prompt in real))}
    assert noisy == {}


def test_hook_prime_still_points_an_on_topic_prompt_at_its_document(project):
    out = hook_prime(project, "why is the sync token kept as JSON?", real=True)
    assert out.startswith("memorybank: likely relevant") and "domain/sync.md" in out, out


def test_cli_prime_json_is_empty_for_a_code_request_and_points_for_the_bank_topic(project):
    assert prime_json(project, "sort these imports", real=True) == {"documents": [], "text": ""}
    # the same words of code are topical when nothing points at code in the conversation
    assert prime_json(project, "how are imports sorted here?")["documents"][0]["path"] == "engineering/style.md"
    assert prime_json(project, "how are mxc links accepted?")["documents"][0]["path"] == "domain/media.md"


def test_clock_and_calendar_small_talk_gets_nothing_but_a_topic_with_a_day_does(project):
    for prompt in CLOCK:
        assert prime_json(project, prompt)["documents"] == [], prompt
    assert hook_prime(project, CLOCK[0], real=True) == ""
    assert prime_json(project, "which day of the week do we release?")["documents"][0]["path"] == "ops/release.md"


@pytest.mark.parametrize(("prompt", "path"), [
    ("why is the rota almost never different?", "ops/oncall.md"),
    ("does the backoff really begin again almost at once?", "domain/sync.md"),
])
def test_everyday_words_the_bank_lacks_do_not_silence_an_on_topic_question(project, prompt, path):
    # `almost`, `never`, `really`, `again` are ordinary language no page happens to hold, not missing topics
    assert [d["path"] for d in prime_json(project, prompt)["documents"]][:1] == [path]
