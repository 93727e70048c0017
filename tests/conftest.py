"""Shared test helpers: small banks in tmp_path, the fixture bank, and the real installed CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from gitrepo import Repo, git_env

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "fixture-bank"
CORPORA = REPO.parent / "shared" / "corpora"


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the heavy reliability variants (tests marked `slow`)")
    pluginmanager.register(_MemoryTemp(), "memorybank-memory-temp")


class _MemoryTemp:
    """The tests' folders (`tmp_path`) in memory (/dev/shm) when the machine has it and no --basetemp was given.

    The writers fsync every temp, journal and folder they write (`writers/files.py`), as they must; on a
    disk each fsync waits for the device, and the suite's writing tests spent more time waiting than
    computing. In tmpfs an fsync returns at once; every call is still made, and the files, modes,
    links, inodes and renames the tests check behave as on disk. Each run gets a folder of its own
    (engineers share the machine), removed when the run passes. MEMORYBANK_TEST_TMP=disk keeps pytest's own.
    """

    def __init__(self) -> None:
        self.made: str | None = None

    @pytest.hookimpl(tryfirst=True)  # before pytest's own tmp_path factory reads the option
    def pytest_configure(self, config: pytest.Config) -> None:
        shm = "/dev/shm"
        if (config.option.basetemp or hasattr(config, "workerinput") or os.environ.get("MEMORYBANK_TEST_TMP") == "disk"
                or not (os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK))):
            return  # an xdist worker is given a folder inside the controller's
        self.made = config.option.basetemp = tempfile.mkdtemp(prefix="mb-pytest-", dir=shm)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.made is not None and getattr(config, "_memorybank_passed", False):
            shutil.rmtree(self.made, ignore_errors=True)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        session.config._memorybank_passed = exitstatus == 0  # type: ignore[attr-defined]


_HEAVY = {"on": False}


def _keep_bytecode(config: pytest.Config) -> None:
    """Let compiled modules be reused when the environment forbids writing them (PYTHONDONTWRITEBYTECODE).

    The suite spawns hundreds of `mcp-memorybank` processes; without bytecode each one compiles the whole
    package again (about half its start-up), and each pytest worker re-rewrites every test module. The
    bytecode goes to a folder in pytest's cache, never beside the sources, so the tree stays as clean
    as that setting asked. A prefix the user chose is left alone.
    """
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    cache = getattr(config, "cache", None)
    folder = str(cache.mkdir("pycache")) if cache is not None else tempfile.mkdtemp(prefix="mb-pycache-")
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    _HEAVY["on"] = bool(config.getoption("--slow", default=False))
    _keep_bytecode(config)
    # Module-scoped servers start before the per-test folder below exists: they get this one, so no
    # test ever reads or writes the user's own parse cache.
    os.environ["MEMORYBANK_CACHE_DIR"] = tempfile.mkdtemp(prefix="mbcache-session-")
    os.environ.pop("MEMORYBANK_CACHE", None)


def heavy() -> bool:
    """Whether this run asked for the heavy variants; readable at import time (hypothesis settings)."""
    return _HEAVY["on"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="heavy variant; run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def slow_run(config: pytest.Config) -> bool:
    """Whether the heavy variants were asked for (`pytest --slow`)."""
    return bool(config.getoption("--slow"))


def cli_path() -> str:
    """The installed `mcp-memorybank` script beside this interpreter (not a module import)."""
    candidate = Path(sys.executable).parent / "mcp-memorybank"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("mcp-memorybank")
    if not found:
        pytest.fail("mcp-memorybank is not installed; run `pip install -e '.[test]'` first")
    return found


def run_cli(*args: str, cwd: str | os.PathLike[str] | None = None,
            env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Spawn the real command; returns the completed process (text mode)."""
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run([cli_path(), *args], capture_output=True, text=True, cwd=cwd, env=full_env,
                          input=stdin, timeout=60)


def cli_in_process(*args: str, cwd: str | os.PathLike[str] | None = None,
                   env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`run_cli` through the installed script's own entry point (`memorybank.cli:main`), in this process.

    For the many variants of one behaviour once its real process is driven by `run_cli` in the same
    file: a process start costs ~0.2 s of CPU, this call next to nothing. What the command can see of
    its process is set up as `run_cli` gives it: argv, the environment (with NO_COLOR), the working
    folder, stdin (empty unless given), stdout and stderr that are no terminal, the exit code
    (`SystemExit` read as the interpreter reads it), and no bank loaded yet (a new process has none).
    Never for `serve` (it would serve on this process's stdio): that face is driven over stdio.
    """
    from memorybank import cli

    assert "serve" not in args[:1], "serve runs as a real process (mcpkit.Session)"
    code, out, err = _in_process(cli.main, cli_path(), args, cwd, {**os.environ, "NO_COLOR": "1", **(env or {})},
                                 (stdin or "").encode("utf-8"))
    return subprocess.CompletedProcess([cli_path(), *args], code, _text(out), _text(err))


def prompt_payload(cwd: Path, prompt: str) -> bytes:
    """A Claude Code UserPromptSubmit hook payload, as the prime hook reads it on stdin."""
    return json.dumps({"session_id": "s-1", "transcript_path": str(cwd / "t.jsonl"), "cwd": str(cwd),
                       "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
                       "prompt": prompt}).encode()


def hook_env() -> dict[str, str]:
    """This process's environment without memorybank's switches (the test parse-cache folder kept)."""
    return {k: v for k, v in os.environ.items()
            if k == "MEMORYBANK_CACHE_DIR" or not (k.startswith("MEMORYBANK_") or k == "CLAUDE_PROJECT_DIR")}


def hook_path() -> str:
    """The installed `mcp-memorybank-hook` script beside this interpreter."""
    return str(Path(sys.executable).parent / "mcp-memorybank-hook")


def hook_in_process(*args: str, stdin: str | bytes = b"", cwd: str | os.PathLike[str] | None = None,
                    env: dict[str, str] | None = None, text: bool = False) -> subprocess.CompletedProcess:
    """`subprocess.run([hook_path(), *args], env=env, ...)` through the hook's entry point
    (`memorybank.hook:main`) in this process, for the variants of a hook behaviour whose real process
    runs in the same file. `env` is the whole environment, as for `subprocess.run` (this process's
    when None). The prompt hooks end with `os._exit(0)` after flushing; here that exit returns the
    code instead of ending the test process. Output is bytes, or text with `text`.
    """
    from memorybank import hook

    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    real_exit = os._exit

    def exit_here(code: int) -> None:
        raise SystemExit(code)

    os._exit = exit_here
    try:
        code, out, err = _in_process(hook.main, hook_path(), args, cwd, dict(os.environ if env is None else env), data)
    finally:
        os._exit = real_exit
    if text:
        return subprocess.CompletedProcess([hook_path(), *args], code, _text(out), _text(err))
    return subprocess.CompletedProcess([hook_path(), *args], code, out, err)


def _text(data: bytes) -> str:
    """Bytes as `subprocess.run(text=True)` reads them: UTF-8, universal newlines."""
    import io

    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()


def _in_process(entry, argv0: str, args: tuple[str, ...], cwd: str | os.PathLike[str] | None,
                environ: dict[str, str], stdin: bytes) -> tuple[int, bytes, bytes]:
    """Call `entry(list(args))` as a new process would run it: `environ` as the whole environment, `cwd`,
    `stdin` and captured stdout/stderr (no terminal), `sys.argv`, and no bank loaded yet. Everything
    is put back afterwards. Returns the exit code (`SystemExit` read as the interpreter reads it)."""
    import io

    from memorybank import bank as bank_module

    out, err = io.BytesIO(), io.BytesIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr, sys.argv
    streams = (io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
               io.TextIOWrapper(out, encoding="utf-8", write_through=True),
               io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True))
    bank_module._BANKS.clear()
    try:
        os.environ.clear()
        os.environ.update(environ)
        sys.stdin, sys.stdout, sys.stderr = streams  # kept referenced: a dropped wrapper closes its buffer
        sys.argv = [argv0, *args]
        if cwd is not None:
            os.chdir(cwd)
        try:
            entry(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if exc.code is not None and not isinstance(exc.code, int):
                print(exc.code, file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        bank_module._BANKS.clear()
    return code, out.getvalue(), err.getvalue()


def write_bank(root: Path, files: dict[str, str | bytes], crlf: bool = False) -> Path:
    """Create a bank (or any tree) from `{relative path: text or bytes}`; returns the root.

    The one bank helper: text is written as UTF-8 bytes, with CRLF line endings when `crlf`.
    """
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = (content.replace("\n", "\r\n") if crlf else content).encode("utf-8")
        target.write_bytes(content)
    return root


def doc(title: str = "T", purpose: str = "P", status: str = "active", derived: list[str] | None = None,
        body: str = "", **extra: object) -> str:
    """A small markdown document with a frontmatter header."""
    lines = ["---", f"title: {title}", f"purpose: {purpose}", f"status: {status}"]
    if derived:
        lines.append("derived_from:")
        lines += [f"  - {d}" for d in derived]
    for key, value in extra.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines += [f"  - {v}" for v in value]
        else:
            lines.append(f"{key}: {value}")
    lines += ["---", "", f"# {title}", "", body]
    return "\n".join(lines) + "\n"


@pytest.fixture
def fixture_copy(tmp_path: Path) -> Path:
    """A writable copy of fixture-bank/."""
    target = tmp_path / "fixture-bank"
    shutil.copytree(FIXTURE, target)
    return target


GIT_DATE = "2024-01-02T03:04:05Z"
# What the one git helper (gitrepo.py) sets, for tests that spawn git through another process (the hook)
GIT_ENV = {k: v for k, v in git_env(GIT_DATE).items() if os.environ.get(k) != v}


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` through the one git helper (fixed identity and dates, no global or system config)."""
    return Repo(repo, init=False).git(*args, date=GIT_DATE)


def git_repo(path: Path, files: dict[str, str] | None = None) -> Path:
    """A fresh repository at `path` with `files` committed once."""
    repo = Repo(path)
    write_bank(path, files or {"README.md": "project\n"})
    repo.commit("initial", GIT_DATE)
    return path


def fail_write_temp(monkeypatch, name: str, error: OSError) -> None:
    """Make `memorybank.atomic.write_temp` raise `error` for targets named `name` (chmod cannot stop root)."""
    import memorybank.atomic as atomic

    real = atomic.write_temp

    def failing(target: Path, data: bytes, like: os.stat_result | None) -> Path:
        if target.name == name:
            raise error
        return real(target, data, like)

    monkeypatch.setattr(atomic, "write_temp", failing)


@pytest.fixture(autouse=True)
def installed_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The installed commands on PATH, as for a user who installed the package (install-hook checks it)."""
    scripts = str(Path(sys.executable).parent)
    if scripts not in os.environ.get("PATH", "").split(os.pathsep):
        monkeypatch.setenv("PATH", scripts + os.pathsep + os.environ.get("PATH", ""))


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own parse-cache folder, so no test reads or writes the user's cache.

    A unique name from `mkdtemp` under pytest's base folder: `mktemp` numbers its folders by listing
    that base, which holds one entry per test, so each call cost more than the one before."""
    folder = Path(tempfile.mkdtemp(prefix="mbcache-", dir=tmp_path_factory.getbasetemp()))
    monkeypatch.setenv("MEMORYBANK_CACHE_DIR", str(folder))
    monkeypatch.delenv("MEMORYBANK_CACHE", raising=False)
    return folder


@pytest.fixture(scope="session")
def shared_servers(tmp_path_factory: pytest.TempPathFactory):
    """Read-only servers over copies of fixture-bank/, one per protocol era, started on first use and
    shared by every test module of this worker (test_server, test_route_search_cli, test_rules_attack).

    A server start costs ~2 s of CPU (importing the SDK); a test that writes starts its own server or
    restores the bank with `mcpkit.Snapshot`. `session.root` is the served bank.
    """
    from mcpkit import Session

    opened: dict[str, Session] = {}

    def get(mode: str) -> Session:
        if mode not in opened:
            root = Path(tempfile.mkdtemp(prefix=f"served-{mode}-", dir=tmp_path_factory.getbasetemp())) / "memory_bank"
            shutil.copytree(FIXTURE, root)
            opened[mode] = Session(root, mode=mode)
            opened[mode].root = root
        return opened[mode]

    yield get
    for session in opened.values():
        session.close()


@pytest.fixture(scope="session")
def raw_wire(tmp_path_factory):
    """The worker's real server over raw stdio (`mcpkit.Wire`) on a copy of fixture-bank/, read only: for
    the tests that send lines the SDK client cannot (stray bytes, oversized or unreadable requests)."""
    from mcpkit import Wire

    root = Path(tempfile.mkdtemp(prefix="served-wire-", dir=tmp_path_factory.getbasetemp())) / "memory_bank"
    shutil.copytree(FIXTURE, root)
    wire = Wire(root)
    wire.root = root
    yield wire
    wire.close()


@pytest.fixture(scope="session")
def _writable_server(tmp_path_factory):
    """One server per worker over `writekit.make_bank` in a home folder that is no git repository (the
    project is that folder, with `.ssh/id_rsa`, `.env` and `notes.md` beside the bank), for the modules
    whose tests write and whose server start is not what they test: use `writable_server`.
    """
    from mcpkit import Session, Snapshot
    from writekit import make_bank, tree_hash

    home = Path(tempfile.mkdtemp(prefix="served-writable-", dir=tmp_path_factory.getbasetemp())) / "home"
    root = make_bank(home / "memory_bank").root
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY\n")
    (home / ".env").write_text("TOKEN=secret\n")
    (home / "notes.md").write_text("A plain note.\n")
    session = Session(root)
    session.home, session.root = home, root
    session.snapshot, session.built = Snapshot(root), tree_hash(root)
    yield session
    session.close()


@pytest.fixture
def writable_server(_writable_server):
    """The worker's server over a `make_bank` bank, the bank put back as built before each test
    (`mcpkit.Snapshot`: the server re-checks file stamps on every call, so it reads what was put back)."""
    from writekit import tree_hash

    _writable_server.snapshot.restore()
    assert tree_hash(_writable_server.root) == _writable_server.built
    return _writable_server


@pytest.fixture(scope="session")
def _scratch_server(tmp_path_factory):
    from mcpkit import Session

    from memorybank.bank import Bank
    from memorybank.writers import init

    outside = Path(tempfile.mkdtemp(prefix="served-scratch-", dir=tmp_path_factory.getbasetemp()))
    root = outside / "project" / "memory_bank"
    init(Bank(root), name="Scratch")  # a bank with documents: the server starts in mode full
    session = Session(root)
    session.outside, session.top, session.root = outside, root.parent, root
    yield session
    session.close()


@pytest.fixture
def scratch_server(_scratch_server):
    """The worker's server over a bank folder each test fills itself (a start costs ~2 s of CPU), for
    tests of what a server answers about a bank, not of its start: `load(files)` (or `load()` and write
    into `session.root`) empties the folder and writes the test's bank. The server re-checks every file's
    stamp (mtime, size, inode, ctime) on each call, so it serves the new bank as it would after edits.

    The bank sits in `session.top` (its project folder), inside `session.outside`; `load` empties both
    too (a `.git` a test made in `session.top` included), so a test may make the project a git
    repository: the server asks git for the repository on each call while no `.git` is there.
    """
    session = _scratch_server

    def empty(folder: Path, keep: Path | None = None) -> None:
        from memorybank.writers.files import LOCK_NAME

        for entry in folder.iterdir():
            if entry == keep or entry.name == LOCK_NAME:
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()

    def load(files: dict[str, str | bytes] | None = None) -> Path:
        empty(session.outside, keep=session.top)
        empty(session.top, keep=session.root)
        empty(session.root)
        write_bank(session.root, files or {})
        return session.root

    session.load = load
    return session


@pytest.fixture
def cache_off(monkeypatch):
    """The parse cache off for one test (`pytestmark = pytest.mark.usefixtures("cache_off")` for a module)."""
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
