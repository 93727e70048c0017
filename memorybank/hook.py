"""The Claude Code Stop hook (`mcp-memorybank-hook`, §13.1): ask once per real change to file durable facts.

Reads the Stop event JSON on stdin and either stays silent (exit 0, no output) or prints
`{"decision": "block", "reason": …}`, which makes the agent continue with the reason as its next
instruction. It is silent when the event says a stop hook is already active, when there is no bank,
when the git tree is clean and nothing was committed since the session began (its transcript's first
timestamp, else the hook's first sight of the session), when the tree's fingerprint (and HEAD, after
such commits) is the one it last asked about, or while the cooldown since its last ask runs.

Choices the spec leaves open:
- Changes under the bank's `_inbox/` are left out of the dirty check and the fingerprint: filing the
  notes it asked for is not new work to ask about.
- A relative `--root` / `MEMORYBANK_ROOT` is resolved against `$CLAUDE_PROJECT_DIR` when Claude Code
  sets it, else against the event's `cwd`.
- An inbox note's age is its file's modification time; `_inbox/README.md` and `_inbox/DISCARDED.md`
  are not notes.
- `MEMORYBANK_HOOK=off` or a `.memorybank-off` file beside the bank (the server's off switch, §11.4)
  silences it.

Standard library only (no mcp, no GitPython, no bank index) so a stop costs a few `git` calls. It never
writes into the bank; its state is one small JSON file per (session, bank) in the temp folder. Any
internal error exits 0 with one line on stderr: the hook must never fail the agent.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from .atomic import write_atomic
from .limits import HOOK_STDIN_MAX
from .mode import OFF_MARKER  # the server's off switch silences the hook too
from .project import bank_relpath, git_toplevel, linked_out

PROG = "mcp-memorybank-hook"
BANK_FOLDERS = ("memory_bank", "memory-bank")  # ours, then the Cline layout's folder
COOLDOWN_MIN = 30.0
INBOX_MAX = 8
INBOX_MAX_AGE_DAYS = 14.0
INBOX_WALK_MAX = 10_000  # entries of _inbox/ the reminder looks at
NOT_NOTES = frozenset({"README.md", "DISCARDED.md"})
HASH_LIMIT = 16 * 1024 * 1024  # larger dirty files are fingerprinted by size and mtime, not content

USAGE = f"""usage: {PROG} [--root BANK]

Claude Code Stop hook for memorybank. Reads the Stop event JSON on stdin; prints a block decision
asking the agent to file durable facts as _inbox notes when the git tree changed since its last ask.
Bank: --root, else $MEMORYBANK_ROOT, else memory_bank/ (or memory-bank/) in the working folder or its
ancestors up to the git top-level. Environment: MEMORYBANK_CAPTURE_COOLDOWN_MIN (default {COOLDOWN_MIN:g}),
MEMORYBANK_INBOX_MAX (default {INBOX_MAX}), MEMORYBANK_INBOX_MAX_AGE_DAYS (default {INBOX_MAX_AGE_DAYS:g}),
MEMORYBANK_HOOK_STATE_DIR (default: the temp folder), MEMORYBANK_HOOK=off to disable.
See hooks/README.md."""


class Quiet(Exception):
    """Stop here without output (a normal outcome, not an error)."""


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return value if value >= 0 else default


def parse_args(argv: list[str], usage: str = "", command: str = "") -> str | None:
    """Return the `--root` value; `--help` prints usage. An unknown argument is refused on stderr.

    A typo in settings.json (`--rot`) would otherwise leave a hook that silently looks for the
    wrong bank; the refusal still exits 0 (the hook must never fail the agent). The prompt and
    session hooks parse their arguments here too (`command` names the subcommand in the usage).
    """
    usage = usage or USAGE
    sub = f" {command}" if command else ""
    root = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            print(usage)
            raise Quiet
        if arg == "--root" and i + 1 < len(argv):
            root = argv[i + 1]
            i += 1
        elif arg.startswith("--root=") and arg != "--root=":
            root = arg.split("=", 1)[1]
        elif arg in ("--root", "--root="):
            raise ValueError("--root needs a value (the bank folder); nothing was checked")
        else:
            raise ValueError(f"unknown argument {arg[:80]!r}; usage: {PROG}{sub} [--root BANK]; nothing was checked")
        i += 1
    return root


def no_bank_at(root: str) -> ValueError:
    """The refusal for a `--root` argument naming no folder: a typo in settings must not silence the hook."""
    base = os.environ.get("CLAUDE_PROJECT_DIR") or "the working folder"
    return ValueError(f"--root {root[:80]!r} names no folder (relative to {base}); nothing was checked")


def read_payload(stream, what: str = "the Stop event JSON") -> dict:
    """The hook's JSON object from stdin, read to at most `HOOK_STDIN_MAX` bytes (a larger one is refused unparsed).

    Every refusal is a ValueError whose message `main` prints as one stderr line before exiting 0.
    """
    if stream is None or stream.isatty():
        raise Quiet
    data = stream.buffer.read(HOOK_STDIN_MAX + 1) if hasattr(stream, "buffer") else stream.read(HOOK_STDIN_MAX + 1)
    if len(data) > HOOK_STDIN_MAX:
        raise ValueError(f"hook payload is over {HOOK_STDIN_MAX // (1024 * 1024)} MB; skipped")
    try:
        event = json.loads(data or "null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"stdin is not {what} ({exc.__class__.__name__}); skipped") from None
    if not isinstance(event, dict):
        raise ValueError("stdin is not a JSON object; skipped")
    return event


def find_bank(explicit: str | None, cwd: Path, top: Path | None) -> Path | None:
    """The bank folder: explicit root, else `memory_bank/` — or Cline's `memory-bank/` beside none — in `cwd` or
    its ancestors up to the git top (the nearest folder holding either wins)."""
    if explicit:
        base = os.environ.get("CLAUDE_PROJECT_DIR") or str(cwd)
        path = Path(base, os.path.expanduser(explicit))
        return path if path.is_dir() else None
    folder = cwd
    while True:
        for name in BANK_FOLDERS:
            candidate = folder / name
            if candidate.is_dir():
                return candidate
        if top is None or folder == top or folder == folder.parent or top not in folder.parents:
            return None
        folder = folder.parent


def _git_status(top: Path) -> bytes:
    proc = subprocess.run(["git", "--no-optional-locks", "-C", str(top), "status", "--porcelain=v1", "-z",
                           "--untracked-files=all"], capture_output=True, timeout=20)
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError("git status failed" + (f": {detail[0]}" if detail else ""))
    return proc.stdout


def dirty_entries(status: bytes, skip_prefix: str | None) -> list[tuple[bytes, str]]:
    """Parse `git status --porcelain -z` into `(entry bytes, path)`; entries under `skip_prefix` are dropped."""
    parts = status.split(b"\0")
    entries: list[tuple[bytes, str]] = []
    i = 0
    while i < len(parts):
        item = parts[i]
        i += 1
        if len(item) < 4:
            continue
        code, path = item[:2], item[3:].decode("utf-8", "surrogateescape")
        entry = item
        if b"R" in code or b"C" in code:  # rename/copy: the next field is the old path
            if i < len(parts):
                entry += b"\0" + parts[i]
            i += 1
        if skip_prefix and (path + "/").startswith(skip_prefix):
            continue
        entries.append((entry, path))
    return entries


def fingerprint(top: Path, entries: list[tuple[bytes, str]]) -> str:
    """Hash of the status entries plus every dirty file's content (size+mtime above HASH_LIMIT)."""
    digest = hashlib.sha256()
    for entry, path in entries:
        digest.update(entry + b"\0")
        try:
            st = os.lstat(top / path)
        except OSError:
            digest.update(b"-\0")  # deleted
            continue
        if not stat.S_ISREG(st.st_mode):
            digest.update(b"~\0")
        elif st.st_size > HASH_LIMIT:
            digest.update(f"{st.st_size}:{st.st_mtime_ns}\0".encode())
        else:
            try:
                with open(top / path, "rb") as fh:
                    digest.update(hashlib.file_digest(fh, "sha256").digest())
            except OSError:
                digest.update(b"?\0")
    return digest.hexdigest()


def state_file(session_id: str, bank: Path) -> Path:
    """One small JSON file per (session, bank) in `$MEMORYBANK_HOOK_STATE_DIR` or the temp folder."""
    folder = os.environ.get("MEMORYBANK_HOOK_STATE_DIR")
    if not folder:
        uid = os.getuid() if hasattr(os, "getuid") else "user"
        import tempfile  # the Stop hook's state only: the prompt hooks import this module too

        folder = os.path.join(tempfile.gettempdir(), f"memorybank-hook-{uid}")
    key = hashlib.sha256(f"{session_id}\0{os.path.realpath(bank)}".encode()).hexdigest()[:24]
    return Path(folder, f"{key}.json")


def _load_state(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_state(path: Path, data: dict) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data).encode("utf-8"))


def inbox_queue(bank: Path, now: float) -> tuple[int, float]:
    """`(notes waiting in _inbox/, age in days of the oldest)`; hidden entries and non-notes skipped.

    Like the index, never through a symlink (an `_inbox -> /` would walk the disk) and at most
    INBOX_WALK_MAX entries looked at: the count only decides whether to remind."""
    count, oldest = 0, now
    try:
        if not stat.S_ISDIR(os.lstat(bank / "_inbox").st_mode):
            return 0, 0.0
    except OSError:
        return 0, 0.0
    seen = 0
    for folder, dirs, files in os.walk(bank / "_inbox"):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        seen += len(dirs) + len(files)
        if seen > INBOX_WALK_MAX:
            break
        at_top = folder == str(bank / "_inbox")
        for name in files:
            if not name.endswith(".md") or name.startswith(".") or (at_top and name in NOT_NOTES):
                continue
            try:
                info = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode):  # a symlinked or special "note" is no note (the index skips it)
                continue
            mtime = info.st_mtime
            count += 1
            oldest = min(oldest, mtime)
    return count, max(0.0, (now - oldest) / 86400)


def session_start(event: dict, state: dict, now: float) -> float:
    """When the session began: its transcript's first timestamp, else when this hook first saw it."""
    path = event.get("transcript_path")
    if isinstance(path, str) and path:
        try:
            with open(path, "rb") as fh:
                head = fh.read(65536).split(b"\n")
        except OSError:
            head = []
        for line in head[:50]:
            try:
                stamp = json.loads(line).get("timestamp")
                return datetime.fromisoformat(str(stamp).replace("Z", "+00:00")).timestamp()
            except (ValueError, AttributeError, TypeError):
                continue
    first = state.get("first_seen")
    return float(first) if isinstance(first, (int, float)) else now


def session_commits(top: Path, since: float) -> tuple[int, str]:
    """`(commits committed since the session began, HEAD id)`: work the agent already committed counts too."""
    stamp = datetime.fromtimestamp(since, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    proc = subprocess.run(["git", "--no-optional-locks", "-C", str(top), "rev-list", "--count", f"--since={stamp}",
                           "HEAD", "--"], capture_output=True, timeout=20)
    if proc.returncode != 0:  # no commit yet
        return 0, ""
    count = int(proc.stdout.strip() or 0)
    if not count:
        return 0, ""
    head = subprocess.run(["git", "--no-optional-locks", "-C", str(top), "rev-parse", "HEAD"], capture_output=True,
                          timeout=20).stdout.strip().decode("ascii", "replace")
    return count, head


def reason_text(bank_label: str, changed: int, inbox: tuple[int, float] | None, commits: int = 0) -> str:
    """The instruction the agent reads when the hook blocks: short, exact, actionable."""
    files = "1 changed file" if changed == 1 else f"{changed} changed files"
    made = "" if not commits else ("1 commit" if commits == 1 else f"{commits} commits")
    work = (f"the working tree has {files}" if changed else "") + (" and " if changed and made else "") + (
        f"this session made {made}" if made else "")
    text = (f"memorybank stop check ({work}). Did this session produce a durable "
            "fact the next session would need - a decision, constraint, gotcha or changed contract - that "
            f"{bank_label} does not hold yet? If not, stop without comment. If so, file one note per fact with "
            "bank_create, inbox: true (path: short-kebab-name.md; doc_kind; title; purpose: one line on when to "
            "read it; body: the fact, why, and where in the code), then stop. Do not edit other bank files or "
            "promote notes for this.")
    if inbox:
        count, age = inbox
        notes = "1 note waits" if count == 1 else f"{count} notes wait"
        text += (f" Also tell the user: {notes} in {bank_label}_inbox/ (oldest {int(age)} days) for review; "
                 "they decide whether to promote, merge or discard each. Do not do that yourself.")
    return text


def decide(event: dict, explicit_root: str | None, now: float) -> str | None:
    """The block reason for this Stop event, or None to stay silent. Records the ask in the state file."""
    if event.get("stop_hook_active") in (True, "true"):
        return None
    if os.environ.get("MEMORYBANK_HOOK", "").strip().lower() in ("off", "0", "false", "no"):
        return None
    raw_cwd = event.get("cwd")
    # resolved, because git reports its top-level with symlinks resolved and the walk up compares the two
    cwd = Path(os.path.realpath(raw_cwd if isinstance(raw_cwd, str) and raw_cwd else os.getcwd()))
    explicit = explicit_root or os.environ.get("MEMORYBANK_ROOT") or None
    top = git_toplevel(cwd) if cwd.is_dir() else None
    bank = find_bank(explicit, cwd, top)
    if bank is None and explicit_root:
        raise no_bank_at(explicit_root)
    if bank is None or (bank.parent / OFF_MARKER).exists():
        return None
    escape = linked_out(bank)
    if escape is not None:
        raise ValueError(escape.message)
    top = top or git_toplevel(bank)
    if top is None:
        return None
    rel = bank_relpath(bank, top)
    inbox_prefix = None if rel.startswith("..") else ("" if rel == "." else rel + "/") + "_inbox/"
    entries = dirty_entries(_git_status(top), inbox_prefix)
    session = event.get("session_id")
    state_path = state_file(session if isinstance(session, str) else "", bank)
    state = _load_state(state_path)
    commits, head = session_commits(top, session_start(event, state, now))
    if not entries and not commits:
        if "first_seen" not in state:
            _save_state(state_path, {**state, "first_seen": now})
        return None
    mark = fingerprint(top, entries) + (f":{head}" if commits else "")
    if state.get("fingerprint") == mark:
        return None
    asked_at = state.get("asked_at")
    cooldown = _env_number("MEMORYBANK_CAPTURE_COOLDOWN_MIN", COOLDOWN_MIN) * 60
    if isinstance(asked_at, (int, float)) and now - asked_at < cooldown:
        return None
    count, age = inbox_queue(bank, now)
    remind = count > 0 and (count >= _env_number("MEMORYBANK_INBOX_MAX", INBOX_MAX)
                            or age > _env_number("MEMORYBANK_INBOX_MAX_AGE_DAYS", INBOX_MAX_AGE_DAYS))
    label = (str(bank) if rel.startswith("..") else rel) + "/"
    reason = reason_text(label, len(entries), (count, age) if remind else None, commits)
    _save_state(state_path, {"fingerprint": mark, "asked_at": now, "first_seen": state.get("first_seen", now)})
    return reason


def main(argv: list[str] | None = None) -> None:
    """Entry point: print a block decision or nothing; always exit 0. `prime` / `session-start` dispatch."""
    args = sys.argv[1:] if argv is None else argv
    if argv is None:
        from .stdio import plug_streams

        plug_streams()
    if args and args[0] in ("prime", "session-start"):
        try:
            from .hook_prime import main as prime_main
        except Exception as exc:  # never fail the prompt
            print(f"{PROG} {args[0]}: {exc.__class__.__name__}", file=sys.stderr)
            sys.exit(0)
        prime_main(args[0], args[1:])
    def block() -> str | None:
        explicit = parse_args(args)  # before stdin is read: a usage error must not wait for input
        reason = decide(read_payload(sys.stdin), explicit, time.time())
        return json.dumps({"decision": "block", "reason": reason}) if reason else None

    answer(PROG, block)
    sys.exit(0)


def answer(prog: str, produce: Callable[[], str | None]) -> None:
    """Run one hook: print the line `produce` returns (nothing for None or `Quiet`), and never fail the agent.

    Any error becomes one line on stderr, prefixed by `prog`; the caller exits 0.
    """
    try:
        text = produce()
        if text:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
    except Quiet:
        pass
    except Exception as exc:  # noqa: BLE001 - never fail the agent
        message = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        print(f"{prog}: {message}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    main()
