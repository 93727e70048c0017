"""Crash safety (§16): a writer killed with SIGKILL at any moment leaves every file at its old or its
new bytes, never a partial file; the next write finishes or forgets the interrupted change as a
whole (no index entry lost or doubled); stale temp files are cleaned once they are an hour old.

The writer is a child forked from this (already imported) test process, so a kill costs a fork,
not an interpreter start. The child counts its own mutating system calls (open for writing,
write, mkdir, replace, rename, unlink, utime, fchmod) through thin wrappers around `os`, reports
each on a pipe, and can SIGKILL itself right before the N-th one. Two modes:

- **every point**: for each kind of write (create with index registration, a create that also
  makes a section index and a root entry, set_field with index entries, update_section, an inbox
  note, promote, discard), kill before each namespace-changing call (mkdir, replace, rename,
  unlink) — every state a reader could observe (`--slow`: before every mutating call, and three
  rounds);
- **random moments**: a child runs the whole script while the parent reads a random number of
  progress bytes and then kills it; wherever the kill lands, the same checks hold.

A reference run (no kills) gives the exact bytes of the bank after each step; every intermediate
state is checked against the two states around the interrupted step.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from pathlib import Path

import pytest
from conftest import slow_run
from writekit import fast_tmp

from memorybank.atomic import TEMP_PREFIX
from memorybank.bank import Bank
from memorybank.parse import parse_document
from memorybank.validate import validate
from memorybank.writers import create, discard, init, promote, set_field, update_section
from memorybank.writers.files import LOCK_NAME, STALE_SECONDS

State = dict[str, bytes]
JOURNAL = ".memorybank-journal"
NAMESPACE_CALLS = ("mkdir", "replace", "rename", "unlink", "remove", "rmdir")
MUTATING_CALLS = NAMESPACE_CALLS + ("open", "write", "utime", "fchmod")
WRITERS = {"create": create, "set_field": set_field, "update_section": update_section, "promote": promote,
           "discard": discard}


def script(rounds: int) -> list[tuple[str, dict]]:
    """The writes, in order: every kind of multi-file change the writers make."""
    ops: list[tuple[str, dict]] = []
    for r in range(rounds):
        adr = f"adr/ADR-{r:03d}-store.md"
        ops += [
            ("create", dict(path=adr, doc_kind="adr", title=f"ADR {r}: store", purpose=f"Why store {r} was chosen.",
                            derived_from=["dna/principles.md"], canonical_for=[f"store_{r}"], status="active")),
            ("set_field", dict(path=adr, field="purpose", value=f"Why store {r} was chosen, revised.")),
            ("update_section", dict(path="product/context.md", section="Goals",
                                    content=f"Round {r}: the scope, rewritten.\n\n- one\n- two")),
            ("create", dict(path=f"epics/EP-{r}/charter.md", doc_kind="epic", title=f"Epic {r}",
                            purpose=f"Goal of epic {r}.", derived_from=["product/context.md"], status="active")),
            ("create", dict(path=f"note-{r}.md", doc_kind="note", title=f"Note {r}", purpose=f"A note {r}.",
                            inbox=True)),
            ("promote", dict(path=f"_inbox/note-{r}.md", to="domain/", derived_from=["product/context.md"])),
            ("create", dict(path=f"drop-{r}.md", doc_kind="note", title=f"Drop {r}", purpose=f"To drop {r}.",
                            inbox=True)),
            ("discard", dict(path=f"_inbox/drop-{r}.md", reason=f"Not needed ({r}).")),
            ("set_field", dict(path=adr, field="title", value=f"ADR {r}: the store")),
        ]
    return ops


# -- trees ---------------------------------------------------------------------------------------

def is_debris(name: str) -> bool:
    """Files a killed writer may leave that are not content: temps, the journal, the lock."""
    return name.startswith(TEMP_PREFIX) or name in (JOURNAL, LOCK_NAME)


def read_tree(root: Path) -> tuple[State, list[str]]:
    """`({path: bytes} of every content file, [debris paths])`; empty folders are not content."""
    files: State = {}
    debris: list[str] = []
    for folder, _, names in os.walk(root):
        for name in names:
            full = Path(folder) / name
            rel = full.relative_to(root).as_posix()
            if is_debris(name):
                debris.append(rel)
            else:
                files[rel] = full.read_bytes()
    return files, sorted(debris)


def put_tree(root: Path, state: State) -> None:
    """Make the folder hold exactly `state` (debris removed), rewriting only what differs."""
    current, debris = read_tree(root)
    for rel in debris:
        (root / rel).unlink()
    for rel in current:
        if rel not in state:
            (root / rel).unlink()
    for rel, data in state.items():
        if current.get(rel) != data:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)


def describe(state: State, states: list[State]) -> str:
    same = [i for i, s in enumerate(states) if s == state]
    return f"equals reference state {same}" if same else "matches no reference state"


# -- the child -----------------------------------------------------------------------------------

def run_child(root: Path, ops: list[tuple[str, dict]], start: int, stop: int, kill_at: int | None,
              calls: tuple[str, ...], progress: int) -> None:
    """In a forked child: run ops[start:stop], reporting `o` per op start, `d` per op end, `.` per call.

    With `kill_at`, SIGKILL itself right before the kill_at-th watched call. Never returns.
    """
    try:
        real_write = os.write
        count = 0

        def watch(name, fn):
            def inner(*args, **kwargs):
                nonlocal count
                if name == "open" and not (args[1] & (os.O_WRONLY | os.O_RDWR) and args[1] & os.O_CREAT):
                    return fn(*args, **kwargs)
                count += 1
                real_write(progress, b".")
                if count == kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)
                return fn(*args, **kwargs)
            return inner

        for name in calls:
            setattr(os, name, watch(name, getattr(os, name)))
        bank = Bank(root)
        for index in range(start, stop):
            real_write(progress, b"o")
            name, params = ops[index]
            WRITERS[name](bank, **params)
            real_write(progress, b"d")
        os._exit(0)
    except BaseException:  # noqa: BLE001 - a child must never return into pytest
        import traceback
        traceback.print_exc()
        os._exit(3)


def fork_writer(root: Path, ops, start: int, stop: int, kill_at: int | None, calls) -> tuple[int, int]:
    """Fork a writer child; returns `(pid, read end of its progress pipe)`."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        run_child(root, ops, start, stop, kill_at, calls, write_end)
    os.close(write_end)
    return pid, read_end


def drain(fd: int) -> bytes:
    out = b""
    while chunk := os.read(fd, 4096):
        out += chunk
    os.close(fd)
    return out


# -- checks --------------------------------------------------------------------------------------

class Crashes:
    """One crash campaign over a script: reference states, the bank folder, and the kill count."""

    def __init__(self, rounds: int) -> None:
        self.ops = script(rounds)
        self.base = fast_tmp("mb-crash-")
        self.root = self.base / "memory_bank"
        init(Bank(self.root), name="Crash")
        self.states = [read_tree(self.root)[0]]
        bank = Bank(self.root)
        for name, params in self.ops:
            WRITERS[name](bank, **params)
            self.states.append(read_tree(self.root)[0])
            bank.refresh()
            assert validate(bank)["summary"]["total"] == 0, f"reference run: {name} {params} left findings"
            assert not read_tree(self.root)[1] or read_tree(self.root)[1] == [LOCK_NAME]
        self.kills = 0
        self.next_writer = Bank(self.root)
        self._parsed: dict[tuple[str, bytes], object] = {}

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    def check_torn(self, step: int) -> None:
        """Right after a kill during ops[step]: each file is its old or new bytes, and parses as well as they do."""
        old, new = self.states[step], self.states[step + 1]
        disk, _ = read_tree(self.root)
        for rel in sorted(set(old) | set(new) | set(disk)):
            assert disk.get(rel) in (old.get(rel), new.get(rel)), \
                f"{rel} is neither its old nor its new version after a kill during {self.ops[step]}"
            if rel.endswith(".md") and rel in disk:
                was = self.parse_error(rel, old.get(rel) or new[rel])
                assert self.parse_error(rel, disk[rel]) == was, f"{rel} no longer parses"

    def parse_error(self, rel: str, data: bytes):
        """`parse_document(rel, data).parse_error`, once per distinct file version (the kills see the
        same few versions of each file again and again; parsing depends on nothing else)."""
        key = (rel, data)
        if key not in self._parsed:
            self._parsed[key] = parse_document(rel, data).parse_error
        return self._parsed[key]

    def recover_and_check(self, step: int) -> int:
        """The next write's start finishes or forgets the interrupted step as a whole; returns the state index.

        The next writer is a long-lived one (as a server is): recovery runs under its lock before it
        reads anything, so what it had indexed before does not matter, and its refresh re-reads only
        the files that changed."""
        from memorybank.writers.session import writing

        with writing(self.next_writer) as tx:  # takes the lock, recovers; writes nothing
            assert not tx.ops
        disk, debris = read_tree(self.root)
        for index in (step, step + 1):
            if disk == self.states[index]:
                assert not [d for d in debris if d == JOURNAL], "recovery left the journal"
                return index
        new = self.states[step + 1]
        differ = sorted(p for p in set(disk) | set(new) if disk.get(p) != new.get(p))
        raise AssertionError(f"after a kill during {self.ops[step]} and recovery, the bank "
                             f"{describe(disk, self.states)} (expected state {step} or {step + 1}); "
                             f"files differing from the new state: {differ}")

    def every_point(self, calls: tuple[str, ...], steps: range) -> None:
        """Kill before each watched call of each step, from the step's old state."""
        for step in steps:
            point = 1
            while True:
                put_tree(self.root, self.states[step])
                pid, fd = fork_writer(self.root, self.ops, step, step + 1, point, calls)
                progress = drain(fd)
                _, status = os.waitpid(pid, 0)
                if os.WIFEXITED(status):
                    assert os.WEXITSTATUS(status) == 0, f"writer failed during {self.ops[step]}"
                    assert read_tree(self.root)[0] == self.states[step + 1]
                    break
                assert os.WTERMSIG(status) == signal.SIGKILL
                assert progress.count(b".") == point
                self.kills += 1
                self.check_torn(step)
                self.recover_and_check(step)
                point += 1

    def random_moments(self, kills: int, rng: random.Random) -> None:
        """Run the script in children killed after a random number of progress reports, from the start
        again each time it completes, until `kills` kills have landed; the debris is left for `sweep`."""
        put_tree(self.root, self.states[0])
        at = 0
        while kills:
            pid, fd = fork_writer(self.root, self.ops, at, len(self.ops), None, MUTATING_CALLS)
            progress = b""
            for _ in range(rng.randint(1, 60)):
                byte = os.read(fd, 1)
                if not byte:
                    break
                progress += byte
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            progress += drain(fd)  # the rest of what it reported before the kill landed
            if os.WIFEXITED(status):  # it finished first: start over
                assert os.WEXITSTATUS(status) == 0
                assert read_tree(self.root)[0] == self.states[-1]
                put_tree(self.root, self.states[0])
                at = 0
                continue
            kills -= 1
            self.kills += 1
            started = at + progress.count(b"o") - 1
            finished = at + progress.count(b"d")
            if started < finished or started < at:  # killed between two steps
                assert read_tree(self.root)[0] == self.states[finished]
                at = finished
                continue
            self.check_torn(started)
            at = self.recover_and_check(started)
        if at < len(self.ops):  # finish the script unkilled
            pid, fd = fork_writer(self.root, self.ops, at, len(self.ops), None, ())
            drain(fd)
            assert os.waitpid(pid, 0)[1] == 0
        assert read_tree(self.root)[0] == self.states[-1]

    def sweep(self) -> int:
        """Age the temps the kills left by two hours; the next write (a fresh start) removes them all."""
        temps = [d for d in read_tree(self.root)[1] if os.path.basename(d).startswith(TEMP_PREFIX)]
        past = time.time() - STALE_SECONDS - 7200
        for rel in temps:
            os.utime(self.root / rel, (past, past))
        bank = Bank(self.root)
        set_field(bank, path="product/context.md", field="owner", value="Sweeper")
        assert read_tree(self.root)[1] == [LOCK_NAME], "debris left after the next write"
        assert validate(bank)["summary"]["total"] == 0
        return len(temps)


@pytest.fixture(scope="module", autouse=True)
def fixed_today():
    """Dates in templates and the discard log are today's: fix them so reference and children agree."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("memorybank.writers.templates.today", lambda: "2024-05-06")
        patch.setattr("memorybank.writers.inbox.today", lambda: "2024-05-06")
        yield


@pytest.fixture(scope="module")
def crashes(request, fixed_today):
    """One reference run per module (the script, its exact states); each test starts from a state it puts."""
    campaign = Crashes(rounds=3 if slow_run(request.config) else 1)
    yield campaign
    campaign.close()


def test_writers_killed_at_every_point_leave_old_or_new_bytes_and_recover_whole(crashes, request):
    heavy = slow_run(request.config)
    crashes.every_point(MUTATING_CALLS if heavy else NAMESPACE_CALLS, range(len(crashes.ops)))
    # 24: the journal is written by one rename inside the bank (no mkdir of the bank folder any more)
    assert crashes.kills >= (250 if heavy else 24), crashes.kills


def test_writers_killed_at_random_moments_leave_old_or_new_bytes_and_recover_whole(crashes, request):
    heavy = slow_run(request.config)
    before = crashes.kills
    crashes.random_moments(500 if heavy else 15, random.Random())
    assert crashes.kills - before == (500 if heavy else 15)
    crashes.sweep()


def test_stale_temp_files_are_cleaned_by_the_next_write_once_an_hour_old(tmp_path):
    root = tmp_path / "memory_bank"
    init(Bank(root), name="Temps")
    old = [root / f"{TEMP_PREFIX}111-aaaa-README.md", root / "adr" / f"{TEMP_PREFIX}222-bbbb-x.md"]
    young = root / "product" / f"{TEMP_PREFIX}333-cccc-context.md"
    for temp in [*old, young]:
        temp.write_bytes(b"half a wri")
    past = os.stat(root / "README.md").st_mtime - STALE_SECONDS - 60
    for temp in old:
        os.utime(temp, (past, past))
    bank = Bank(root)
    set_field(bank, path="product/context.md", field="owner", value="Ops")
    assert [t.exists() for t in old] == [False, False]
    assert young.exists(), "a temp younger than an hour may belong to a live writer elsewhere"
    assert validate(bank)["summary"]["total"] == 0
