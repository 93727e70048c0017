"""Prime's bar (issue 14.3), short questions: a short on-topic question whose one topic word every page of
the bank holds is primed. Driven through the real `mcp-memorybank-hook prime` fed UserPromptSubmit
payloads and the real `--prime --json`.

Before this change the bar asked for a word some document lacks, so a bank about kites could not answer
"which kites might come later?".
"""

from __future__ import annotations

import pytest
from conftest import doc, git_repo
from test_prime_bar import hook_prime, prime_json

# every page says kites: the bank's own vocabulary, held by all of its documents
BANK = {
    "memory_bank/README.md": "# Bank\n\nStart here.\n",
    "memory_bank/product/context.md": doc("Product context", "Who flies with the app.", body=(
        "## Audience\n\nWeekend flyers who build their own kites and log each flight.\n")),
    "memory_bank/product/roadmap.md": doc("Roadmap", "What ships next.", body=(
        "## Next\n\nBox kites, delta kites and foil kites are planned for a future release.\n")),
    "memory_bank/engineering/telemetry.md": doc("Telemetry", "What the app records during a flight.", body=(
        "## Samples\n\nAltitude and line tension of the kites are sampled ten times a second.\n")),
    "memory_bank/ops/deploy.md": doc("Deploy", "How a release reaches the store.", body=(
        "## Upload\n\nThe build is uploaded through the company proxy; screenshots show the kites in flight.\n")),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return git_repo(tmp_path_factory.mktemp("bar3") / "proj", BANK)


def test_hook_primes_a_short_question_whose_topic_word_every_page_holds(project):
    out = hook_prime(project, "which kites might come later?", real=True)
    assert out.startswith("memorybank: likely relevant") and "product/roadmap.md" in out, out


def test_cli_primes_a_short_question_about_the_banks_own_vocabulary(project):
    documents = prime_json(project, "which kites might come later?", real=True)["documents"]
    assert documents and documents[0]["path"] == "product/roadmap.md", documents


def test_an_unknown_word_beside_the_documents_own_subject_still_points(project):
    # `Pixel` no page holds, but telemetry is the telemetry page's subject (its title and purpose)
    documents = prime_json(project, "does telemetry record altitude on a Pixel?")["documents"]
    assert documents and documents[0]["path"] == "engineering/telemetry.md", documents
