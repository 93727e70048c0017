"""The adoption report (§13.3): from Claude Code transcripts, how often agents used the bank through the
server and how often around it.

A transcript is JSONL; the calls we count are `tool_use` items in `message.content[]` of assistant
records (`{"type": "tool_use", "id", "name", "input"}`). Per tool call, four counters:
- server reads: the find tools (`bank_route`, `bank_search`, `bank_read`, `bank_graph`,
  `bank_changed`) and `ReadMcpResourceTool` on a `memorybank://` URI;
- shell reads: `Read`/`NotebookRead`/`Grep`/`Glob`/`LS` on a bank path, and Bash running a reader
  (cat grep egrep fgrep rg sed head tail ls find tree less more awk wc bat) on a bank path or `< path`;
- server writes: the change, create and init tools (`bank_edit` … `bank_init`);
- shell writes: `Write`/`Edit`/`MultiEdit`/`NotebookEdit` on a bank path, and Bash with `>`, `>>`,
  `tee`, `sed -i`, `cp`/`mv` into the bank, or `rm`/`touch`/`mkdir` on bank paths.
A Bash call counts at most once per counter (a call that reads and writes counts as both). The
check tools (`bank_validate`, `bank_drift`, `bank_guard`) are counted as `server_checks`.

Being liberal: a tool name may carry the MCP prefix (`mcp__memorybank__bank_route`, any server
name); records without a session id belong to the file's last seen session, else the file name; a
tool call repeated across files (a resumed session copies its history) counts once, by its id. A
path belongs to the bank when it resolves (against the record's `cwd` and any `cd` earlier in the
command) inside the bank folder, or when it contains the bank's project-relative path as whole
segments (`…/memory_bank/…`), so transcripts from another checkout still count. Lines that are not
JSON objects, and tool calls without a name or an input object, are skipped and counted.

Primed prompts (issue 14): the prime hook's injection — a line starting `memorybank: likely relevant`
followed by `- <path> § <section> — <title> (<why>)` lines — is found wherever Claude Code records a
UserPromptSubmit hook's output: an `attachment` record (`attachment.type` `hook_additional_context`
with `content` as a list of strings, or `hook_success` with `stdout`/`content`), or, in older
versions, the text of a user or system record. One injection counts once: a second record with the
same text before the agent answers is the same prompt (success + additional-context pair), and a
record whose `uuid` was seen is a resumed copy. A primed prompt counts as read when, before the next
real user prompt (or the next injection) in its session, a tool call reads one of its pointed paths:
`bank_read` naming it (`path`, `paths`, or `items[].path`) through the server, or `Read`/`Grep`/
`Glob`/`LS` on it, or a Bash reader whose words name it, around the server.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shlex
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .errors import BankError
from .project import bank_relpath, project_folder
from .usage import GROUPS

COUNTERS = ("server_reads", "shell_reads", "server_writes", "shell_writes", "server_checks")
SERVER_READS = frozenset(GROUPS["find"])
SERVER_WRITES = frozenset(GROUPS["change"] + GROUPS["create"] + GROUPS["init"])
SERVER_CHECKS = frozenset(GROUPS["check"])
RESOURCE_TOOLS = frozenset({"ReadMcpResourceTool", "read_resource", "ReadMcpResource"})
READ_TOOLS = {"Read": ("file_path", "path"), "NotebookRead": ("notebook_path",), "Grep": ("path",),
              "Glob": ("path", "pattern"), "LS": ("path",)}
WRITE_TOOLS = {"Write": ("file_path",), "Edit": ("file_path",), "MultiEdit": ("file_path",),
               "NotebookEdit": ("notebook_path",)}
SHELL_READERS = frozenset({"cat", "grep", "egrep", "fgrep", "rg", "sed", "head", "tail", "ls", "find", "tree",
                           "less", "more", "awk", "wc", "bat"})
PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "sed", "awk"})  # first operand is a pattern/script
LIST_CWD = frozenset({"ls", "find", "tree", "rg"})  # no operand means the current folder
WRAPPERS = frozenset({"sudo", "command", "env", "time", "nohup", "nice", "xargs", "exec"})
SEPARATORS = frozenset({";", "&&", "||", "|", "&", "|&", "(", ")", ";;"})
REDIRECT_OUT = frozenset({">", ">>", ">|", "&>", "&>>"})
REDIRECT_SKIP = frozenset({">&", "<&", "<<", "<<<", "<<-"})
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
PRIME_HEADER = "memorybank: likely relevant"  # line 1 of memorybank.prime's injection text
PRIME_LINE = re.compile(r"^- (.+?)(?: § .*?)?(?: — .*)?$")


class BankPaths:
    """Decides whether a path seen in a transcript points into the bank."""

    def __init__(self, root: Path, project: Path) -> None:
        self.root = os.path.realpath(root)
        rel = bank_relpath(root, project)
        self.segments = tuple(s for s in rel.split("/") if s not in ("", ".")) if not rel.startswith("..") \
            else (Path(self.root).name,)

    def match(self, raw: Any, cwd: str | None) -> bool:
        if not isinstance(raw, str):
            return False
        path = raw.strip().replace("\\", "/")
        if not path or "://" in path:
            return False
        full = posixpath.normpath(posixpath.join(cwd, path) if cwd else path)
        if full == self.root or full.startswith(self.root.rstrip("/") + "/"):
            return True
        # Another checkout's path: matched by the bank's folder names, for the folder itself or a
        # markdown file under it (`site-packages/memory_bank/x.py` is no bank document).
        parts = [s for s in full.split("/") if s not in ("", ".")]
        n = len(self.segments)
        return n > 0 and any(tuple(parts[i:i + n]) == self.segments and (i + n == len(parts) or full.endswith(".md"))
                             for i in range(len(parts) - n + 1))


def _strip_heredocs(command: str) -> list[str]:
    """Command lines with heredoc bodies removed (their text is data, not commands)."""
    lines = command.replace("\\\n", " ").split("\n")
    out: list[str] = []
    end: tuple[str, bool] | None = None
    for line in lines:
        if end is not None:
            if (line.strip() if end[1] else line) == end[0]:
                end = None
            continue
        out.append(line)
        found = HEREDOC.search(line)
        if found:
            end = (found.group(2), found.group(0).startswith("<<-"))
    return out


def _tokens(line: str) -> list[str]:
    try:
        lex = shlex.shlex(line, posix=True, punctuation_chars=";&|<>()")
        lex.whitespace_split = True
        lex.commenters = ""
        return list(lex)
    except ValueError:  # unbalanced quotes: fall back to whitespace
        return line.split()


def _simple_commands(tokens: list[str]) -> Iterator[list[str]]:
    current: list[str] = []
    for token in tokens:
        if token in SEPARATORS:
            if current:
                yield current
            current = []
        else:
            current.append(token)
    if current:
        yield current


COMMAND_LIMIT = 20_000


def bash_effects(command: str, cwd: str | None, bank: BankPaths) -> tuple[bool, bool]:
    """`(reads the bank, writes the bank)` for one Bash command string."""
    reads = writes = False
    # shlex is quadratic on one long word: a pasted blob must not stall the report. Bank paths
    # are named near the start of a command; past COMMAND_LIMIT characters nothing is read.
    for line in _strip_heredocs(command[:COMMAND_LIMIT]):
        for words in _simple_commands(_tokens(line)):
            args: list[str] = []
            i = 0
            while i < len(words):  # pull out redirections
                word = words[i]
                if (word in REDIRECT_SKIP or word in REDIRECT_OUT or word == "<") and args and args[-1].isdigit():
                    args.pop()  # the `2` of `2>file`
                if word in REDIRECT_SKIP:  # `2>&1`, heredoc and here-string markers: the next word is not a file
                    i += 2
                    continue
                if word in REDIRECT_OUT or word == "<":
                    target = words[i + 1] if i + 1 < len(words) else ""
                    if bank.match(target, cwd):
                        if word == "<":
                            reads = True
                        else:
                            writes = True
                    i += 2
                    continue
                args.append(word)
                i += 1
            while args and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", args[0]) or args[0] in WRAPPERS):
                args.pop(0)
            if not args:
                continue
            prog, rest = os.path.basename(args[0]), args[1:]
            if prog == "cd":
                target = next((a for a in rest if not a.startswith("-")), None)
                if target:
                    cwd = posixpath.normpath(posixpath.join(cwd, target) if cwd else target)
                continue
            flags = [a for a in rest if a.startswith("-") and a != "-"]
            operands = [a for a in rest if not (a.startswith("-") and a != "-")]
            if prog == "sed" and any(f == "--in-place" or re.match(r"^-[a-zA-Z]*i", f) for f in flags):
                writes = writes or any(bank.match(a, cwd) for a in operands)
                continue
            if prog == "tee":
                writes = writes or any(bank.match(a, cwd) for a in operands)
                continue
            if prog in ("cp", "mv") and operands:
                writes = writes or bank.match(operands[-1], cwd)
                reads = reads or any(bank.match(a, cwd) for a in operands[:-1])
                continue
            if prog in ("rm", "touch", "mkdir", "rmdir"):
                writes = writes or any(bank.match(a, cwd) for a in operands)
                continue
            if prog not in SHELL_READERS:
                continue
            explicit_pattern = any(f in ("-e", "-f", "--regexp", "--file") or f.startswith(("--regexp=", "--file="))
                                   for f in flags)
            if prog in PATTERN_FIRST and not explicit_pattern and operands:
                operands = operands[1:]
            if any(bank.match(a, cwd) for a in operands):
                reads = True
            elif not operands and cwd and bank.match(cwd, None) and (
                    prog in LIST_CWD or (prog == "grep" and any("r" in f.lower() for f in flags))):
                reads = True
    return reads, writes


def _tool_name(name: str) -> str:
    """`mcp__<server>__bank_route` → `bank_route`; other names unchanged."""
    return name.rsplit("__", 1)[-1] if name.startswith("mcp__") else name


def classify(name: str, params: dict[str, Any], cwd: str | None, bank: BankPaths) -> list[str]:
    """The counters one tool call adds to (possibly none, possibly two for a Bash call)."""
    tool = _tool_name(name)
    if tool in SERVER_READS:
        return ["server_reads"]
    if tool in SERVER_WRITES:
        return ["server_writes"]
    if tool in SERVER_CHECKS:
        return ["server_checks"]
    if tool in RESOURCE_TOOLS:
        uri = params.get("uri")
        return ["server_reads"] if isinstance(uri, str) and uri.startswith("memorybank://") else []
    if tool in READ_TOOLS:
        return ["shell_reads"] if any(bank.match(params.get(k), cwd) for k in READ_TOOLS[tool]) else []
    if tool in WRITE_TOOLS:
        return ["shell_writes"] if any(bank.match(params.get(k), cwd) for k in WRITE_TOOLS[tool]) else []
    if tool == "Bash" and isinstance(params.get("command"), str):
        reads, writes = bash_effects(params["command"], cwd, bank)
        return (["shell_reads"] if reads else []) + (["shell_writes"] if writes else [])
    return []


def _tool_uses(record: dict[str, Any]) -> Iterator[Any] | None:
    """The candidate tool_use items of a record; None when the record has a shape we do not know."""
    if record.get("type") == "tool_use":
        return iter([record])
    message = record.get("message", None)
    if message is None:
        content = record.get("content")
    elif isinstance(message, dict):
        content = message.get("content")
    else:
        return None
    if content is None or isinstance(content, str):
        return iter(())
    if not isinstance(content, list):
        return None
    return (item for item in content if isinstance(item, dict) and item.get("type") == "tool_use")


def _empty() -> dict[str, int]:
    return dict.fromkeys(COUNTERS, 0)


def _texts(value: Any) -> Iterator[str]:
    """Strings inside a record field: a string, a list of strings, or a list of text items."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                yield item
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                yield item["text"]


def injection(record: dict[str, Any]) -> str | None:
    """The prime injection text a record carries (from its header line on), else None."""
    if record.get("type") == "attachment" and isinstance(record.get("attachment"), dict):
        att = record["attachment"]
        fields = [att.get("content"), att.get("stdout")]
    elif record.get("type") in ("user", "system"):
        message = record.get("message")
        fields = [message.get("content") if isinstance(message, dict) else None, record.get("content")]
    else:
        return None
    for field in fields:
        text = "\n".join(_texts(field))
        at = text.find(PRIME_HEADER)
        if at >= 0:
            return text[at:].strip()
    return None


def pointed_paths(text: str) -> set[str]:
    """The bank paths an injection points at (its `- <path> § … — …` lines)."""
    paths = set()
    for line in text.splitlines()[1:]:
        found = PRIME_LINE.match(line.strip())
        if found:
            paths.add(found.group(1).strip().removeprefix("./"))
    return paths


def _real_prompt(record: dict[str, Any]) -> bool:
    """A prompt the user typed: a user record, not meta, with text and no tool result."""
    if record.get("type") != "user" or record.get("isMeta") or record.get("isCompactSummary"):
        return False
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else record.get("content")
    if isinstance(content, str):
        return bool(content.strip())
    return isinstance(content, list) and not any(
        isinstance(i, dict) and i.get("type") == "tool_result" for i in content) and any(_texts(content))


class _Primed:
    """One primed prompt's window: what it pointed at and how it was read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.paths = pointed_paths(text)
        self.started = False  # the agent has answered since the injection
        self.via: set[str] = set()


def _names_doc(raw: Any, cwd: str | None, bank: BankPaths, paths: set[str]) -> bool:
    if not isinstance(raw, str) or not raw.strip() or "://" in raw:
        return False
    full = posixpath.normpath(posixpath.join(cwd, raw.strip()) if cwd else raw.strip())
    for path in paths:
        if full == posixpath.join(bank.root, path):
            return True
        if bank.segments and full.endswith("/" + "/".join((*bank.segments, path))):
            return True
    return False


def reads_pointed(name: str, params: dict[str, Any], cwd: str | None, bank: BankPaths,
                  paths: set[str]) -> str | None:
    """`"server"` or `"around"` when this tool call reads one of `paths` (bank-relative), else None."""
    tool = _tool_name(name)
    if tool == "bank_read":
        named = [params.get("path"), *(params.get("paths") if isinstance(params.get("paths"), list) else [])]
        items = params.get("items") if isinstance(params.get("items"), list) else []
        named += [i.get("path") if isinstance(i, dict) else i for i in items]
        return "server" if any(isinstance(n, str) and n.removeprefix("./") in paths for n in named) else None
    if tool in READ_TOOLS:
        return "around" if any(_names_doc(params.get(k), cwd, bank, paths) for k in READ_TOOLS[tool]) else None
    if tool == "Bash" and isinstance(params.get("command"), str):
        command = params["command"]
        if not bash_effects(command, cwd, bank)[0]:
            return None
        words = [w for line in _strip_heredocs(command[:COMMAND_LIMIT]) for w in _tokens(line)]
        return "around" if any(_names_doc(w, cwd, bank, paths) for w in words) else None
    return None


def adoption(root: str | os.PathLike[str], files: Iterable[str | os.PathLike[str]] | None = None,
             project: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Count reads and writes through and around the server in Claude Code transcripts.

    Result: `{bank, files, sessions: [{session, <counters>}], total: {sessions, <counters>}, by_tool,
    primed: {prompts, read, through_server, around_server}, skipped: {lines, invalid_json, not_object,
    unknown_shape, bad_tool_use}, duplicates}`; `primed.read` counts primed prompts after which a
    pointed document was read (`through_server` / `around_server` say how; one prompt may be both). Sessions are in
    order of first appearance; `by_tool` counts counted calls by tool name (prefix removed), sorted.
    Missing or unreadable files are refused before anything is counted; no files means this
    project's own transcripts (`default_transcripts`).
    """
    paths = [Path(f) for f in files] if files else default_transcripts(root, project)
    root = Path(os.path.realpath(root))
    for path in paths:
        if not path.is_file() or not os.access(path, os.R_OK):
            raise BankError(f"Cannot read transcript {path}: not a readable file. Pass Claude Code transcript "
                            "files (*.jsonl).")
    bank = BankPaths(root, project_folder(root, project))
    sessions: dict[str, dict[str, int]] = {}
    by_tool: dict[str, int] = {}
    skipped = {"lines": 0, "invalid_json": 0, "not_object": 0, "unknown_shape": 0, "bad_tool_use": 0}
    seen: set[str] = set()
    duplicates = 0
    windows: dict[str, _Primed | None] = {}
    primed = {"prompts": 0, "read": 0, "through_server": 0, "around_server": 0}
    seen_records: set[str] = set()

    def close(session: str) -> None:
        window = windows.pop(session, None)
        if window is not None:
            primed["read"] += bool(window.via)
            primed["through_server"] += "server" in window.via
            primed["around_server"] += "around" in window.via

    def skip(reason: str) -> None:
        skipped[reason] += 1
        skipped["lines"] += reason != "bad_tool_use"

    for path in paths:
        current = path.stem
        with open(path, encoding="utf-8", errors="replace", newline="\n") as fh:  # a CR inside a line is no break
            for line in fh:
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    skip("invalid_json")
                    continue
                if not isinstance(record, dict):
                    skip("not_object")
                    continue
                sid = record.get("sessionId") or record.get("session_id")
                if isinstance(sid, str) and sid:
                    current = sid
                    sessions.setdefault(current, _empty())
                uuid = record.get("uuid")
                resumed = isinstance(uuid, str) and uuid in seen_records
                if isinstance(uuid, str):
                    seen_records.add(uuid)
                text = None if resumed else injection(record)
                window = windows.get(current)
                if text is not None:
                    if window is None or window.started or window.text != text:
                        close(current)
                        windows[current] = _Primed(text)
                        primed["prompts"] += 1
                    continue
                if window is not None and not resumed:
                    if record.get("type") == "assistant":
                        window.started = True
                    elif window.started and _real_prompt(record):
                        close(current)
                        window = None
                items = _tool_uses(record)
                if items is None:
                    skip("unknown_shape")
                    continue
                cwd = record.get("cwd") if isinstance(record.get("cwd"), str) else None
                for item in items:
                    name, params = item.get("name"), item.get("input")
                    if not isinstance(name, str) or not isinstance(params, dict):
                        skip("bad_tool_use")
                        continue
                    call_id = item.get("id")
                    if isinstance(call_id, str) and call_id:
                        if call_id in seen:
                            duplicates += 1
                            continue
                        seen.add(call_id)
                    if window is not None and window.paths:
                        how = reads_pointed(name, params, cwd, bank, window.paths)
                        if how:
                            window.via.add(how)
                    hits = classify(name, params, cwd, bank)
                    if not hits:
                        continue
                    counts = sessions.setdefault(current, _empty())
                    for hit in hits:
                        counts[hit] += 1
                    tool = _tool_name(name)
                    by_tool[tool] = by_tool.get(tool, 0) + 1
    for session in list(windows):
        close(session)
    total: dict[str, int] = {"sessions": len(sessions), **_empty()}
    for counts in sessions.values():
        for key in COUNTERS:
            total[key] += counts[key]
    return {"bank": str(root), "files": len(paths),
            "sessions": [{"session": sid, **counts} for sid, counts in sessions.items()],
            "total": total, "by_tool": dict(sorted(by_tool.items())), "primed": primed, "skipped": skipped,
            "duplicates": duplicates}


def transcripts_dir(project: str | os.PathLike[str]) -> Path:
    """Where Claude Code keeps a project's transcripts: `<config>/projects/<path, non-alphanumerics as ->`."""
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return Path(config, "projects", re.sub(r"[^A-Za-z0-9]", "-", os.path.realpath(project)))


def default_transcripts(root: str | os.PathLike[str], project: str | os.PathLike[str] | None = None) -> list[Path]:
    """The project's own transcripts (sorted), for `--adoption` without files; refuses when there are none."""
    folder = transcripts_dir(project_folder(root, project))
    found = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    if not found:
        raise BankError(f"No transcripts given and none found in {folder}. Pass transcript files "
                        "(~/.claude/projects/<project>/*.jsonl).", see="adoption")
    return found
