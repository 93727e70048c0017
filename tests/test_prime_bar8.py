"""Prime's bar (issue 14.3), general programming questions: a prompt naming a technology the bank never
mentions, a question asking how two things differ, and questions about the project's workflow. Driven
through the real `mcp-memorybank-hook prime` fed UserPromptSubmit payloads and the real `--prime --json`.

Before these rules "how do I write a left join in SQL?" pointed at the page that says *join* once, and
"how should commit subjects look?" got nothing (commit is a request word).
"""

from __future__ import annotations

import pytest
from banks import governed_project
from conftest import doc
from test_prime_bar import hook_prime, prime_json

# a weather-station firmware bank: its prose says join, tree, process and logs in passing
PAGES = {  # under memory_bank/, beside its README
    "product/context.md": doc("Product context", "Who runs the station, and why in Rust.", body=(
        "## Audience\n\nAllotment growers who mount the station on a shed. The firmware is written in Rust "
        "for its memory safety on a small board.\n")),
    "engineering/storage.md": doc("Storage", "How readings are kept on the board.", body=(
        "## Ring buffer\n\nReadings land in a ring buffer; a nightly job does a join of the rain and wind "
        "series. The sensor tree is walked once a minute, and the upload process writes its logs to flash.\n")),
    "engineering/git-workflow.md": doc("Git workflow", "Branches and history.", body=(
        "## Commits\n\nCommit subjects use the imperative mood and name the sensor they touch.\n")),
    "engineering/testing.md": doc("Testing", "What is verified before a release.", body=(
        "## Checks\n\nEvery push runs the lint checks and the unit checks on the simulator; a push whose "
        "checks fail is never merged.\n")),
    "ops/release.md": doc("Release", "How firmware reaches the boards.", body=(
        "## Versions\n\nVersion 0.3 adds the barometer; each version is flashed over the air.\n")),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return governed_project(tmp_path_factory.mktemp("bar8") / "proj", PAGES)


def test_hook_says_nothing_when_the_prompt_names_a_technology_the_bank_never_mentions(project):
    # `join` is on the storage page, but the question is about SQL, which no page names
    assert hook_prime(project, "how do I write a left join in SQL?", real=True) == ""
    assert hook_prime(project, "Как посмотреть логи пода в Kubernetes?", real=False) == ""
    assert hook_prime(project, "Rust 的闭包怎么写？", real=False) == ""
    assert prime_json(project, "what is a Merkle tree?", real=True) == {"documents": [], "text": ""}


def test_a_technology_the_bank_names_and_the_banks_own_topics_still_point(project):
    out = hook_prime(project, "why is the firmware in Rust?", real=True)
    assert out.startswith("memorybank: likely relevant") and "product/context.md" in out, out
    assert prime_json(project, "how is the sensor tree walked?")["documents"][0]["path"] == "engineering/storage.md"


def test_a_question_about_what_the_project_supports_may_name_a_technology_it_lacks(project):
    assert prime_json(project, "how do I parse JSON in Python?")["documents"] == []
    documents = prime_json(project, "does the station firmware support Python scripts?", real=True)["documents"]
    assert documents and documents[0]["path"] == "product/context.md", documents


def test_a_comparison_points_only_at_a_page_holding_everything_it_compares(project):
    # the storage page says `process` once in its prose, and no page says thread or coroutine
    assert hook_prime(project, "what's the difference between a process and a thread?", real=True) == ""
    assert prime_json(project, "Чем процесс отличается от корутины?")["documents"] == []
    documents = prime_json(project, "what is the difference between lint checks and unit checks?")["documents"]
    assert documents and documents[0]["path"] == "engineering/testing.md", documents
    # both compared things are on the storage page's prose, though its metadata names neither
    documents = prime_json(project, "how does the ring buffer differ from the nightly join?", real=True)["documents"]
    assert documents and documents[0]["path"] == "engineering/storage.md", documents


def test_a_question_about_the_workflow_points_at_the_page_about_it(project):
    out = hook_prime(project, "how should commit subjects look?", real=True)
    assert out.startswith("memorybank: likely relevant") and "engineering/git-workflow.md" in out, out
    documents = prime_json(project, "which checks run on every push?", real=True)["documents"]
    assert documents and documents[0]["path"] == "engineering/testing.md", documents


def test_a_question_about_how_the_sessions_work_just_went_gets_nothing(project):
    # the testing page says checks may fail: the question is about this run, not how the project tests
    assert hook_prime(project, "which checks failed?", real=True) == ""
    assert prime_json(project, "did the lint checks fail again?")["documents"] == []
    assert prime_json(project, "what happens when a push fails its checks?")["documents"][0]["path"] == \
        "engineering/testing.md"
