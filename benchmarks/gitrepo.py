"""A deterministic git repository for the drift benchmark, built with `git fast-import`.

Shape (defaults): 2,000 code files in 100 folders, 20,000 commits each touching 1–3 code files, and
one in ten commits also touching one or two of the 200 bank documents. Each document anchors one
code path (150 files, 48 folders, and 2 paths that never existed), so a drift run has 200 anchors
to date. Same parameters, same commit ids: dates, identity and the random seed are fixed. The
result is cached under `benchmarks/.cache/` and rebuilt only when the parameters change.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

EPOCH = 1_600_000_000  # 2020-09-13; one commit every two hours after it (20,000 commits ≈ 4.5 years)
STEP = 7200
IDENT = "Bench <bench@example.invalid>"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"})
    return env


def _doc(i: int, anchor: str, revision: int) -> bytes:
    return (f"---\ntitle: Component {i:03d}\ndoc_kind: engineering\nstatus: active\n"
            f"purpose: Describes the code under {anchor}.\nanchors:\n  - {anchor}\n---\n"
            f"# Component {i:03d}\n\n## Behaviour\n\nRevision {revision}.\n").encode()


def _data(payload: bytes) -> bytes:
    return b"data %d\n" % len(payload) + payload + b"\n"


def _stream(commits: int, files: int, folders: int, docs: int, seed: int):
    """Yield the fast-import stream in pieces."""
    rng = random.Random(seed)
    code = [f"src/pkg{i % folders:03d}/mod{i:05d}.py" for i in range(files)]
    file_anchors = rng.sample(code, k=min(len(code), docs * 3 // 4))
    picked = rng.sample(range(folders), k=min(folders, docs - len(file_anchors) - 2))
    folder_anchors = [f"src/pkg{i:03d}/" for i in picked]
    anchors = (file_anchors + folder_anchors + ["src/removed/gone.py", "lib/never.py"])[:docs]
    revisions = [0] * len(anchors)
    for number in range(commits):
        when = EPOCH + number * STEP
        lines = [b"commit refs/heads/main\n", b"committer %s %d +0000\n" % (IDENT.encode(), when),
                 _data(b"change %d" % number)]
        if number == 0:
            for path in code:
                lines.append(b"M 100644 inline %s\n" % path.encode() + _data(b"# %s v0\n" % path.encode()))
            for i, anchor in enumerate(anchors):
                lines.append(b"M 100644 inline memory_bank/engineering/c%03d.md\n" % i + _data(_doc(i, anchor, 0)))
            lines.append(b"M 100644 inline memory_bank/README.md\n" + _data(b"# Bank\n"))
        else:
            for path in rng.sample(code, k=rng.randint(1, 3)):
                lines.append(b"M 100644 inline %s\n" % path.encode() + _data(b"# %s v%d\n" % (path.encode(), number)))
            if rng.random() < 0.1:
                for i in rng.sample(range(len(anchors)), k=rng.randint(1, 2)):
                    revisions[i] += 1
                    lines.append(b"M 100644 inline memory_bank/engineering/c%03d.md\n" % i
                                 + _data(_doc(i, anchors[i], revisions[i])))
        yield b"".join(lines)


def build(path: Path, commits: int = 20_000, files: int = 2_000, folders: int = 100, docs: int = 200,
          seed: int = 7) -> Path:
    """Create (or reuse) the repository at `path`; returns the bank folder inside it."""
    params = {"commits": commits, "files": files, "folders": folders, "docs": docs, "seed": seed, "v": 2}
    stamp = hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()
    marker = path / ".git" / "memorybank-bench"
    if marker.exists() and marker.read_text() == stamp:
        return path / "memory_bank"
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    env = _env()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=path, env=env, check=True)
    proc = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=path, env=env, stdin=subprocess.PIPE)
    assert proc.stdin is not None
    for piece in _stream(commits, files, folders, docs, seed):
        proc.stdin.write(piece)
    proc.stdin.close()
    if proc.wait() != 0:
        raise RuntimeError("git fast-import failed")
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=path, env=env, check=True)
    subprocess.run(["git", "gc", "-q"], cwd=path, env=env, check=False)  # packed as a real repository would be
    marker.write_text(stamp)
    return path / "memory_bank"
