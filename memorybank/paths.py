"""Path rules (§2.3): one normaliser for every caller-supplied path, one resolver for edges and links."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Mapping
from pathlib import Path

from .errors import BankError
from .limits import NAME_MAX, PATH_MAX

DEFAULT_LAYERS: dict[str, str] = {
    "dna": "dna",
    **{name: "knowledge" for name in (
        "product", "domain", "engineering", "ops", "rules", "system", "services", "research", "strategies")},
    **{name: "decision" for name in ("adr", "use-cases", "use_cases", "prd")},
    **{name: "delivery" for name in ("features", "epics", "tasks")},
    **{name: "flow" for name in ("flows", "processes", "prompts")},
    "_inbox": "inbox",
}
DEFAULT_LAYER_WEIGHTS: dict[str, float] = {
    "dna": 1.0, "knowledge": 1.5, "decision": 1.2, "delivery": 0.6, "flow": 1.0, "inbox": 0.2, "other": 1.0,
}
LAYERS = tuple(DEFAULT_LAYER_WEIGHTS)


def layer_for(path: str, layer_map: Mapping[str, str] = DEFAULT_LAYERS) -> str:
    """Layer of a document from its first path segment; a file at the root is `other`."""
    head, sep, _ = path.partition("/")
    if not sep:
        return "other"
    return layer_map.get(head, "other")


def resolve_from(from_path: str, target: str) -> tuple[str, bool]:
    """Resolve `target` relative to the folder of `from_path` (both root-relative POSIX).

    Returns `(path, external)`. `#anchor` suffixes are dropped. A leading `/` means root-relative.
    A result that climbs above the root is external and keeps its `../` prefix.
    """
    target = target.strip().replace("\\", "/").split("#", 1)[0]
    if target.startswith("/"):
        joined = target.lstrip("/")
    else:
        joined = posixpath.join(posixpath.dirname(from_path), target)
    norm = posixpath.normpath(joined) if joined else "."
    external = norm == ".." or norm.startswith("../")
    return norm, external


def _escape(raw: str) -> BankError:
    return BankError(f"Path must stay inside the bank: {raw}")


def normalize_path(root: Path, raw: str, exists: Callable[[str], bool] | None = None) -> str:
    """Turn a caller-supplied path into a root-relative POSIX path, or refuse.

    Trims, turns backslashes into `/`, strips leading `./`, makes an absolute path inside the root
    relative, and drops a leading `<root folder name>/` (usually `memory_bank/`) when nothing exists
    at the path as given. Anything that still escapes the root — `..`, an absolute path elsewhere,
    or a symlink leading outside — is refused with `Path must stay inside the bank: <path>`.
    """
    if not isinstance(raw, str) or not raw.strip():
        raise BankError("Path is empty: give a path relative to the bank root, e.g. `adr/ADR-001.md`.")
    text = raw.strip().replace("\\", "/")
    if "\x00" in text:
        raise _escape(raw)
    root_abs = os.path.abspath(root)
    if text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        absolute = os.path.normpath(text)
        rel = os.path.relpath(absolute, root_abs) if absolute.startswith(root_abs.rstrip("/") + "/") else None
        if absolute == root_abs:
            rel = "."
        if rel is None:
            raise _escape(raw)
        text = rel.replace(os.sep, "/")
    while text.startswith("./"):
        text = text[2:]
    if len(text.encode("utf-8", "surrogatepass")) > PATH_MAX or any(
            len(part.encode("utf-8", "surrogatepass")) > NAME_MAX for part in text.split("/")):
        raise BankError(f"Path is too long: {text[:80]}… (a name may have {NAME_MAX} bytes, a path {PATH_MAX}). "
                        f"Use a shorter file name.")
    norm = posixpath.normpath(text) if text else "."
    if norm == ".." or norm.startswith("../") or norm.startswith("/"):
        raise _escape(raw)
    prefix = os.path.basename(root_abs) + "/"
    if norm.startswith(prefix):
        exists = exists or (lambda p: os.path.lexists(os.path.join(root_abs, p)))
        if not exists(norm):
            norm = posixpath.normpath(norm[len(prefix):]) if norm != prefix else "."
    _refuse_symlink_escape(root_abs, norm, raw)
    return norm


def _refuse_symlink_escape(root_abs: str, rel: str, raw: str) -> None:
    """Refuse a path whose existing part resolves (through symlinks) outside the real root."""
    real_root = os.path.realpath(root_abs)
    real = os.path.realpath(os.path.join(root_abs, rel))
    if real != real_root and not real.startswith(real_root.rstrip("/") + "/"):
        raise _escape(raw)


def nearest_index(doc_path: str, exists: Callable[[str], bool]) -> str | None:
    """The README.md of the document's folder, else of the closest ancestor for which `exists` holds
    (never the document itself); None when not even the root has one. The one rule for "which index
    lists this document", used by the writers (register) and validate (the fix it names)."""
    folder = posixpath.dirname(doc_path)
    if posixpath.basename(doc_path) == "README.md":
        if not folder:
            return None
        folder = posixpath.dirname(folder)
    while True:
        candidate = f"{folder}/README.md" if folder else "README.md"
        if exists(candidate):
            return candidate
        if not folder:
            return None
        folder = posixpath.dirname(folder)
