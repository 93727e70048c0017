"""A question naming a document's own title finds that document first (issue 14, route-title).

The banks below are written the way real ones are: governed documents declare a purpose and keys but no
`title:` (the title is the H1), and a topic word of one document is mentioned in passing by the bodies of
several others, as often as the document about it mentions it. On main 4bfec3e `encryption` ranked the
encryption page 6th: its title was weighed by how many bodies say the word (0.2), its own prose earned
nothing for a word its title and purpose already held, and a page saying the word five times in passing
saturated the body weight. Driven through the real CLI (one process, then the variants in process).
"""

from __future__ import annotations

import json

from conftest import cli_in_process, run_cli, write_bank


def governed(kind: str, purpose: str, h1: str, body: str, keys: tuple[str, ...] = ()) -> str:
    """A governed document as the corpora write them: frontmatter without `title:`, the title in the H1."""
    lines = ["---", f"doc_kind: {kind}", "doc_function: canonical", f"purpose: {purpose}", "status: active"]
    if keys:
        lines += ["canonical_for:", *(f"  - {key}" for key in keys)]
    return "\n".join([*lines, "---", "", f"# {h1}", "", body]) + "\n"


PASSING = "Messages stay encrypted on the wire; an encrypted room needs its keys; encryption is optional here."
GOVERNED = {
    "domain/encryption.md": governed(
        "domain", "Requirements and degraded states of end-to-end encryption support.", "Encryption",
        "## Requirements\n\nEncryption needs a device id and the crypto package. Without them the session "
        "refuses to start rather than fall back to no encryption.\n\n## Key storage\n\nRoom keys are kept "
        "in the platform's secure storage.\n", ("e2ee_requirements",)),
    "domain/sync.md": governed(
        "domain", "How the client keeps its local snapshot of rooms current.", "Sync",
        f"## Snapshot\n\nThe snapshot is written every minute. It is not encrypted. {PASSING}\n\n## Clearing\n\n"
        f"A new login clears it. Encrypted events wait for their keys. {PASSING}\n"),
    "product/context.md": governed(
        "product", "Who the library is for and what they build with it.", "Product Context",
        f"## Users\n\nTeams shipping chat inside a phone app. {PASSING} The timeline shows encrypted "
        "events once decrypted.\n"),
    "ops/server.md": governed(
        "ops", "The local test server and its seeded users.", "Test Server",
        f"## Users\n\nTwo seeded users share an encrypted room. {PASSING} The timeline of that room is "
        "checked after every run; the timeline test reads the timeline twice.\n"),
    "domain/timeline.md": governed(
        "domain", "Which events a room shows and in what order.", "Timeline",
        "## Order\n\nEvents are shown oldest first; the timeline pages backwards on scroll. Edits replace "
        "the shown text, redactions blank it.\n"),
    "engineering/architecture.md": governed(
        "engineering", "How the modules of the library depend on each other.", "Architecture",
        "## Modules\n\nThe session owns the sync loop; the timeline module reads the timeline from the store, "
        "the room list reads the timeline's last event, and the timeline cache is shared.\n"),
}

ROLES = {
    "projectbrief.md": ("Project Brief", "A tool that lets an assistant drive desktop apps. Scope: one machine."),
    "productContext.md": ("Product Context", "People want the assistant to click through apps for them. In the "
                                             "context of a support call the technical context of the caller's "
                                             "machine matters: technical users share more context."),
    "activeContext.md": ("Active Context", "Now: the system permission prompt. The system patterns page is "
                                           "out of date; architecture notes for the system tray, the system "
                                           "menu and the system dialogs follow the usual patterns and the "
                                           "architecture of the system settings. Technical context: none."),
    "systemPatterns.md": ("System Patterns & Architecture", "A server answers tool calls; each app is driven "
                                                             "through its accessibility tree."),
    "techContext.md": ("Technical Context", "Swift 6, the accessibility API, a JSON-RPC transport."),
    "progress.md": ("Progress", "Done: window listing. Left: system settings, system patterns for menus, the "
                                "architecture review, the architecture of system sounds, system patterns for "
                                "dialogs and other system integrations."),
}
PLAIN = {name: f"# {title}\n\n{body}\n" for name, (title, body) in ROLES.items()}


def first(root, question: str, cli=cli_in_process) -> str:
    done = cli("--root", str(root), "--route", question, "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["results"]
    assert rows, question
    return rows[0]["path"]


def test_a_governed_documents_title_word_finds_it_first_in_any_case_or_form(tmp_path):
    root = write_bank(tmp_path / "bank", GOVERNED)
    assert first(root, "encryption", cli=run_cli) == "domain/encryption.md"
    for question in ("Encryption", "ENCRYPTION", "encrypted", "Timeline", "timeline"):
        expected = "domain/timeline.md" if question.lower() == "timeline" else "domain/encryption.md"
        assert first(root, question) == expected, question
    # a question about a detail another page holds still goes there: the title names only one word of it
    assert first(root, "how often is the snapshot written") == "domain/sync.md"


def test_a_plain_banks_title_finds_its_file_first(tmp_path):
    root = write_bank(tmp_path / "memory-bank", PLAIN)
    assert first(root, "System Patterns & Architecture", cli=run_cli) == "systemPatterns.md"
    for question, expected in (("system patterns", "systemPatterns.md"), ("architecture patterns system",
                                                                           "systemPatterns.md"),
                               ("technical context", "techContext.md"), ("Project Brief", "projectbrief.md")):
        assert first(root, question) == expected, question
