"""Prime's bar (issue 14.3), the session's own work: a request to commit, rebase, rerun the build, fix the
layout, take back a message, or a word about lunch, gets nothing, and so does a question about the
message in the chat ("what does this error message mean?"); a question about how the project does
those things still gets its pointer. Driven through the real `mcp-memorybank-hook prime` fed
UserPromptSubmit payloads and the real `--prime --json`.

The bank documents its own branches, CI, layout, messages and even the team's lunch, each in fewer than
all pages: the bar before this change pointed at a page for every chore below.
"""

from __future__ import annotations

import pytest
from conftest import doc, git_repo
from test_prime_bar import hook_prime, prime_json

BANK = {
    "memory_bank/README.md": "# Bank\n\nStart here.\n",
    "memory_bank/engineering/git.md": doc("Git workflow", "Branches and history.", body=(
        "## Branches\n\nA feature branch is rebased onto master before it merges; the commit message names "
        "the ticket. A merge conflict in the lockfile is solved by regenerating it.\n")),
    "memory_bank/ops/ci.md": doc("Continuous integration", "What happens on every push.", body=(
        "## Pipeline\n\nThe pipeline builds the package and runs the test suite; a failing test stops the "
        "release. Verbose output goes to the log. A missing dependency is installed from the mirror.\n")),
    "memory_bank/engineering/layout.md": doc("Layout", "How source files look.", body=(
        "## Whitespace\n\nTabs are replaced by four spaces and lines wrap at 100 characters.\n")),
    "memory_bank/domain/chat.md": doc("Messages", "How a message reaches a room.", body=(
        "## Edits\n\nA message is sent to the room and kept in the timeline; an edited message replaces "
        "the earlier one.\n")),
    "memory_bank/domain/sync.md": doc("Sync", "How the client keeps up with the homeserver.", body=(
        "## Token\n\nThe sync token is kept in the session store; a loop retries with backoff.\n")),
    "memory_bank/team/rituals.md": doc("Rituals", "How the team spends the day.", body=(
        "## Day\n\nStandup at ten, lunch together at one; on rainy days the walk after lunch is skipped.\n")),
}

CHORES = [
    "rebase my branch onto master and fix the conflicts", "amend the commit message",
    "rerun the test suite with verbose output", "the build is failing, restart it",
    "replace the tabs with spaces and wrap the long lines", "ignore my earlier message",
    "install the missing dependency and try again", "grabbing lunch, back in an hour",
    "сборка упала, перезапусти её", "прогони тесты ещё раз", "создай новую ветку для этого",
    "把所有测试再跑一遍", "合并的时候出现冲突了，保留我的改动", "把制表符换成空格",
    # questions about what is in the chat: the words of the conversation behind a pointer are request words
    "what does this error message mean?", "что означает это сообщение?", "这条消息是什么意思？",
    # a question to the agent about its own work, and a request whatever its inner clause asks
    "did you rerun the test suite?", "ты перезапустил сборку?", "add a log line so we can see which test fails",
]
# one real hook process per language; the others through `--prime --json` in this process
REAL = {"rerun the test suite with verbose output", "сборка упала, перезапусти её", "把所有测试再跑一遍"}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_repo(tmp_path_factory.mktemp("bar2") / "proj", BANK)


def test_the_sessions_own_chores_get_nothing_in_every_language(project):
    noisy = {prompt: out for prompt in CHORES if prompt in REAL and (out := hook_prime(project, prompt, real=True))}
    noisy |= {prompt: docs for prompt in CHORES if prompt not in REAL
              and (docs := [d["path"] for d in prime_json(project, prompt)["documents"]])}
    assert noisy == {}


def test_cli_prime_json_is_empty_for_a_chore(project):
    assert prime_json(project, "squash these commits and push the branch", real=True) == {"documents": [], "text": ""}


@pytest.mark.parametrize(("prompt", "path"), [
    ("which branch is a feature rebased onto before it merges?", "engineering/git.md"),
    ("what does the pipeline run on every push?", "ops/ci.md"),
    ("how many spaces replace a tab?", "engineering/layout.md"),
    ("what happens to an edited message?", "domain/chat.md"),
    ("как исправляют конфликт слияния в lockfile?", "engineering/git.md"),
    ("add a retry to the sync loop", "domain/sync.md"),  # a request: the sync words anchor it
])
def test_a_question_about_how_the_project_does_its_chores_still_points(project, prompt, path):
    assert path in [d["path"] for d in prime_json(project, prompt)["documents"]]


def test_hook_prime_still_points_an_on_topic_question_about_the_build(project):
    out = hook_prime(project, "what stops the release when the build runs?", real=True)
    assert out.startswith("memorybank: likely relevant") and "ops/ci.md" in out, out
