"""Issue 13 §2: a person editing a file while the real CLI and the real server write to the same bank.

The person is a separate process saving `adr/README.md` in a loop with plain file writes, in both
styles editors use: write a temp and rename it over the file, or truncate the file and write it in
place (one write, as many editors do). Before each save it looks at the file (and again under the
bank lock, when no writer is mid-commit, if the first look is suspicious): the file must still hold
its last save — the marker and every line — or a writer's edit of exactly that save. A refused
write is fine; a save that a writer overwrote with an edit of an older save, or a half-saved
(truncated) file a writer made permanent, is not.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import heavy, run_cli
from mcpkit import Session, Snapshot
from writekit import make_bank, tree_hash

from memorybank.writers.files import LOCK_NAME

ENTRIES = 100
WRITES = 20 if heavy() else 12  # server calls; the CLI adds its own alongside (`--slow`: more of both)
CLI_WRITES = 2 if heavy() else 1
REFUSED = ("changed on disk since it was read", "kept changing while it was read", "is empty on disk")

EDITOR = r'''
import fcntl, json, os, sys
path, lock, style, stop, template = sys.argv[1:6]
template = open(template).read()
saves = lost = broken = 0
examples = []


def verdict(seen, last):
    lines = seen.split("\n")
    if not (seen.startswith("---\n") and "# Decisions" in seen and all(
            f"- entry {i:03d} of the index" in lines for i in range(1, 101))):
        return "broken"
    return "ok" if f"editor_save: {last}\n" in seen else "lost"


def confirmed(last):
    # a suspicious look is checked again under the bank lock, when no writer is mid-commit
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        seen = open(path).read()
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    return verdict(seen, last), seen


while not os.path.exists(stop) and saves < 20000:
    if saves:  # before saving again: the file still holds my last save, or a writer's edit of exactly it
        result = verdict(open(path).read(), saves)
        if result != "ok":
            result, seen = confirmed(saves)
            if result == "broken":
                broken += 1
                examples.append(seen[:120])
            elif result == "lost":
                lost += 1
                examples.append(next(l for l in seen.split("\n") if l.startswith("editor_save")))
    saves += 1
    data = template.replace("editor_save: 0", f"editor_save: {saves}")
    if style == "rename":
        temp = os.path.join(os.path.dirname(path), ".README.md.swp")
        with open(temp, "w") as handle:
            handle.write(data)
        os.replace(temp, path)
    else:
        with open(path, "w") as handle:  # O_TRUNC, then one write
            handle.write(data)
print(json.dumps({"saves": saves, "lost": lost, "broken": broken, "examples": examples[:3]}))
'''


def _index() -> str:
    entries = "\n".join(f"- entry {i:03d} of the index" for i in range(1, ENTRIES + 1))
    return ("---\ntitle: Decisions\neditor_save: 0\ndoc_kind: adr\ndoc_function: index\n"
            "purpose: Index of decision records.\nderived_from:\n  - ../README.md\nstatus: active\n---\n"
            f"# Decisions\n\n## Entries\n\n{entries}\n\n## Notes\n\nNothing yet.\n")


def _outcome(text: str, errors: list[str]) -> str:
    if any(reason in text for reason in REFUSED):
        return "refused"
    errors.append(text)
    return "error"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for both save styles (a start costs a second of CPU); each gets the bank back as built."""
    bank = make_bank(tmp_path_factory.mktemp("editing") / "bank")
    (bank.root / "adr/README.md").write_text(_index())
    before = tree_hash(bank.root)
    session = Session(bank.root)
    session.ok("bank_read", {"path": "adr/README.md"})
    # a start on a clean bank repairs nothing, so it takes no lock and creates no file
    assert not (bank.root / LOCK_NAME).exists() and tree_hash(bank.root) == before
    session.bank, session.snapshot = bank, Snapshot(bank.root)
    yield session
    session.close()


@pytest.mark.parametrize("style", ["rename", "in-place"])
def test_a_person_saving_while_the_cli_and_server_write_loses_no_save(tmp_path, style, server):
    server.snapshot.restore()
    session, bank = server, server.bank
    index = bank.root / "adr/README.md"
    assert index.read_text() == _index()
    template = tmp_path / "template.md"
    template.write_text(_index())
    stop = tmp_path / "stop"
    counts = {"ok": 0, "refused": 0, "error": 0}
    errors: list[str] = []
    editor = subprocess.Popen([sys.executable, "-c", EDITOR, str(index), str(bank.root / ".memorybank.lock"),
                               style, str(stop), str(template)], stdout=subprocess.PIPE, text=True)

    def cli_writer() -> None:
        for i in range(CLI_WRITES):
            proc = run_cli("--root", str(bank.root), "--create", f"adr/ADR-{i:03d}-cli.md", "--kind", "adr",
                           "--title", f"CLI decision {i}", "--purpose", f"Decision {i} from the CLI.",
                           "--derived", "dna/principles.md")
            key = "ok" if proc.returncode == 0 else _outcome(proc.stderr, errors)
            counts[key] += 1

    try:
        thread = threading.Thread(target=cli_writer)
        thread.start()
        for i in range(WRITES):
            if i % 2:
                args = {"path": "adr/README.md", "field": "owner", "value": f"writer {i}"}
                result = session.call("bank_set_field", args)
            else:
                result = session.call("bank_update_section", {"path": "adr/README.md", "section": "Notes",
                                                              "content": f"Note {i} from the server."})
            counts["ok" if not result.is_error else _outcome(result.content[0].text, errors)] += 1
        thread.join()
    finally:
        stop.write_text("")
        out, _ = editor.communicate(timeout=60)
    seen = json.loads(out)
    assert not errors, (errors[:3], counts)
    assert seen["saves"] > 0 and counts["ok"] + counts["refused"] == WRITES + CLI_WRITES
    assert seen["lost"] == 0, seen  # no editor save silently overwritten
    assert seen["broken"] == 0, seen  # no half-saved file made permanent
    assert not list(Path(bank.root).rglob(".memorybank-tmp-*"))
