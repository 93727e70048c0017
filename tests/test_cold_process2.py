"""The fixed cost of a cold process, second round (issues 14/15): record classes without `dataclasses`,
the everyday-word set from saved data, and no `git` spawn where git has nothing to say.

No timing here: each check is about work a process must not do (an import, a spawn, a rebuild), or about
the replaced classes behaving as the dataclasses did where the code relies on it.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import os
import pickle
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from conftest import doc, git, git_repo, run_cli, write_bank

from memorybank import gitutil
from memorybank.bank import Refresh
from memorybank.catalog import ACTIONS, Param
from memorybank.contract import LayerTable
from memorybank.doctime import DocTime
from memorybank.lang import english, everyday, lexicon
from memorybank.lang.lexicon import Concept, Lexicon
from memorybank.parse import parse_document
from memorybank.records import Finding
from memorybank.timewords import Window

BANK = {
    "README.md": "# Bank\n\nStart here.\n",
    "domain/cache.md": doc("Cache", "How the parse cache is invalidated.", canonical_for=["parse_cache"],
                           body="## Invalidation\n\nA file whose stamp changed is parsed again.\n"),
}


def test_value_records_compare_hash_and_show_their_fields_as_the_dataclasses_did():
    a = Finding("error", "rule", "a.md", "bad", line=3, see=("validate",))
    b = Finding("error", "rule", "a.md", "bad", 3, ("validate",))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Finding("error", "rule", "a.md", "bad") and a != ("error", "rule", "a.md", "bad", 3, ("validate",))
    assert repr(a) == "Finding(severity='error', rule='rule', path='a.md', message='bad', line=3, see=('validate',))"
    concept = Concept("Cache", "cach", True, ("кэш",))
    assert concept.weight == 1.0 and concept == Concept("Cache", "cach", True, ("кэш",), 1.0)
    assert {DocTime(dt.date(2026, 1, 2), "git"): 1}[DocTime(dt.date(2026, 1, 2), "git")] == 1
    assert Param("path", "string", "h") == Param("path", "string", "h") != Param("path", "string", "other")
    action = ACTIONS[0]
    assert action.replace() == action and hash(action.replace()) == hash(action)
    assert action.replace(name="other") != action


def test_records_refuse_assignment_and_replace_makes_a_changed_copy():
    window = Window(dt.date(2026, 1, 1), dt.date(2026, 2, 1), "in january")
    with pytest.raises(AttributeError):
        window.words = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del window.start
    again = window.replace(words="january")
    assert (again.start, again.end, again.words, again.tag) == (window.start, window.end, "january", None)
    assert window.words == "in january"
    refresh = Refresh(("a.md",), (), (), 1.0).replace(ms=2.5)
    assert refresh.as_dict() == {"added": 1, "changed": 0, "removed": 0, "ms": 2.5} and refresh.any
    with pytest.raises(TypeError):
        window.replace(nonsense=1)
    assert copy.deepcopy(window) == window and pickle.loads(pickle.dumps(window)) == window


def test_a_parsed_document_compares_by_identity_and_replace_keeps_every_other_field():
    doc_a = parse_document("domain/cache.md", BANK["domain/cache.md"].encode())
    doc_b = parse_document("domain/cache.md", BANK["domain/cache.md"].encode())
    assert doc_a != doc_b and doc_a == doc_a and len({doc_a, doc_b}) == 2
    moved = doc_a.replace(layer="knowledge")
    assert moved.layer == "knowledge" and moved is not doc_a
    assert [getattr(moved, n) for n in type(doc_a).__slots__ if n != "layer"] == \
        [getattr(doc_a, n) for n in type(doc_a).__slots__ if n != "layer"]
    assert repr(doc_a).startswith("Doc(path='domain/cache.md', title='Cache', ")


def test_a_layer_table_gets_fresh_default_maps():
    one, two = LayerTable(), LayerTable()
    assert one == two and one.layer_map is not two.layer_map and one.weights is not two.weights
    assert one.layer_map and one.weights


# -- the everyday-word sets come from the saved data ------------------------------------------------

def _everyday_from_scratch(lex: Lexicon) -> tuple[frozenset[str], frozenset[str]]:
    return (frozenset({english.stem(w) for w in everyday.EN} | set(everyday.ZH)),
            frozenset(lex.term(w)[0] for w in everyday.RU))


@pytest.mark.parametrize("vocabulary", [(), (("ru", "работаю", ("work",)), ("ru", "вопросик", ("question",)))])
def test_everyday_words_are_the_ones_stemming_the_lists_gives(vocabulary):
    lex = Lexicon(vocabulary)
    english_set, russian_set = _everyday_from_scratch(lex)
    if vocabulary:  # the vocabulary's stems change what some Russian everyday words stem to
        assert russian_set != lexicon.builtin_everyday()[1]
    probes = english_set | russian_set | lexicon.builtin_everyday()[1] | {"cach", "кэш", "缓存"}
    assert {t for t in probes if lex.everyday(t)} == english_set | russian_set


# -- git is asked only where it has something to say ------------------------------------------------

@pytest.fixture
def git_log(tmp_path, monkeypatch):
    """A `git` first on PATH that logs each call's arguments and runs the real git: the calls the real
    processes made (and this one: `monkeypatch` sets PATH here too)."""
    real = shutil.which("git")
    assert real
    folder = tmp_path / "logging-git"
    folder.mkdir()
    log = tmp_path / "git.log"
    script = folder / "git"
    script.write_text(f'#!/bin/sh\necho "$*" >> {shlex.quote(str(log))}\nexec {shlex.quote(real)} "$@"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    for name in ("GIT_DIR", "GIT_WORK_TREE"):
        monkeypatch.delenv(name, raising=False)

    def calls() -> list[str]:
        lines = log.read_text().splitlines() if log.exists() else []
        log.unlink(missing_ok=True)
        return lines

    return calls


ROUTED = {
    "README.md": "# Bank\n\nStart here.\n",
    "domain/cache.md": BANK["domain/cache.md"],
    "build/cache-copy.md": doc("Cache copy", "How the parse cache is invalidated, copied by the build.",
                               body="## Invalidation\n\nA file whose stamp changed is parsed again.\n"),
}


def _routed(bank) -> list[str]:
    proc = run_cli("--root", str(bank), "--route", "how is the parse cache invalidated", "--json",
                   env={"MEMORYBANK_CACHE": "off"})
    assert proc.returncode == 0, proc.stderr
    return [r["path"] for r in json.loads(proc.stdout)["results"]]


def test_outside_git_a_route_spawns_no_git_and_inside_git_the_ignored_folder_still_drops(tmp_path, git_log):
    outside = write_bank(tmp_path / "plain" / "memory_bank", ROUTED)
    if gitutil.may_be_in_git(outside):
        pytest.skip("the temp folder is inside a git repository")
    assert "build/cache-copy.md" in _routed(outside) and git_log() == []  # no repository: every folder counts
    for command in (["--root", str(outside), "--prime", "how is the parse cache invalidated"],
                    ["create", "domain/tax.md", "--root", str(outside), "--kind", "domain", "--title", "Tax",
                     "--purpose", "Read for VAT rules.", "--dry-run"]):
        run_cli(*command, env={"MEMORYBANK_CACHE": "off"})
        assert git_log() == [], command

    repo = git_repo(tmp_path / "repo", {".gitignore": "memory_bank/build/\n"})
    inside = write_bank(repo / "memory_bank", ROUTED)
    git_log()
    paths = _routed(inside)
    assert "domain/cache.md" in paths and "build/cache-copy.md" not in paths  # git's answer, as before
    assert [c for c in git_log() if "check-ignore" in c] == ["-c core.quotepath=off check-ignore -z --stdin"]


def test_with_git_dir_or_a_git_file_above_git_is_asked(tmp_path, git_log, monkeypatch):
    repo = git_repo(tmp_path / "repo")
    outside = write_bank(tmp_path / "elsewhere" / "memory_bank", ROUTED)
    (tmp_path / ".gitignore").write_text("elsewhere/memory_bank/build/\n")  # at the work tree's top below
    if gitutil.may_be_in_git(outside):
        pytest.skip("the temp folder is inside a git repository")
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(tmp_path))
    assert gitutil.may_be_in_git(outside) and gitutil.repo_top(outside) == Path(os.path.realpath(tmp_path))
    assert "build/cache-copy.md" not in _routed(outside)  # GIT_WORK_TREE's .gitignore drops it: git was asked
    assert any("check-ignore" in c for c in git_log())
    monkeypatch.delenv("GIT_DIR")
    monkeypatch.delenv("GIT_WORK_TREE")
    assert gitutil.repo_top(outside) is None and git_log() == []
    # a linked work tree's `.git` is a file naming the repository
    git(repo, "worktree", "add", "-q", str(tmp_path / "linked"))
    assert (tmp_path / "linked" / ".git").is_file()
    sub = tmp_path / "linked" / "sub"
    sub.mkdir()
    assert gitutil.may_be_in_git(sub) and gitutil.repo_top(sub) == Path(os.path.realpath(tmp_path / "linked"))
    # inside a bare repository: git finds it by its HEAD and answers "no work tree"
    git(repo, "clone", "-q", "--bare", str(repo), str(tmp_path / "bare.git"))
    inside_bare = tmp_path / "bare.git" / "refs"
    assert gitutil.may_be_in_git(inside_bare) and gitutil.repo_top(inside_bare) is None
    assert gitutil.ignored(inside_bare, ["heads/"]) == set() and any("show-toplevel" in c for c in git_log())


def test_one_call_asks_for_the_top_level_once_and_the_next_call_sees_a_git_init(tmp_path, git_log):
    project = tmp_path / "project"
    bank = write_bank(project / "memory_bank", ROUTED)
    with gitutil.same_call():
        assert gitutil.repo_top(bank) is None  # no repository above: not even asked
    git_repo(project)
    git_log()
    with gitutil.same_call():
        assert gitutil.repo_top(bank) == gitutil.repo_top(bank, strict=False) == Path(os.path.realpath(project))
    assert [c for c in git_log() if "show-toplevel" in c] == ["-c core.quotepath=off rev-parse --show-toplevel"]
    proc = run_cli("deliver", "--root", str(bank), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert len([c for c in git_log() if "show-toplevel" in c]) == 1  # project, repository and drift: one answer


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-n", "0"]))
