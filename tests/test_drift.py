"""Drift (§8.2) against real git repositories with fixed commit dates."""

from __future__ import annotations

import contextlib
import random
import shutil
import subprocess

import pytest
from conftest import doc
from gitrepo import Repo, git_env

import memorybank.drift as drift_module
from memorybank.bank import Bank
from memorybank.drift import _last_commits, drift
from memorybank.errors import BankError
from memorybank.render import drift as render_text

JAN = "2026-01-10T12:00:00Z"
MAR = "2026-03-01T12:00:00Z"
JUL = "2026-07-10T12:00:00Z"


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Repo:
    """Documents and their code committed on 2026-01-10; billing code changed again on 2026-07-10."""
    r = Repo(tmp_path_factory.mktemp("drift") / "repo")
    r.commit("initial", JAN, {
        "memory_bank/README.md": "# Bank\n",
        "memory_bank/domain/billing.md": doc("Billing", anchors=["src/billing/"]),
        "memory_bank/domain/tax.md": doc("Tax", anchors=["src/billing/tax.py"]),
        "memory_bank/domain/users.md": doc("Users", anchors=["src/users.py"]),
        "memory_bank/engineering/api.md": doc("API", anchors=["src/api/"]),
        "memory_bank/engineering/notes.md": doc("Notes"),
        "src/billing/tax.py": "RATE = 1\n", "src/billing/ledger/post.py": "def post(): ...\n",
        "src/users.py": "USERS = []\n", "src/api/routes.py": "ROUTES = []\n"})
    r.commit("api touch, within threshold", MAR, {"src/api/routes.py": "ROUTES = [1]\n"})
    r.commit("ledger change", JUL, {"src/billing/ledger/post.py": "def post(): return 1\n"})
    return r


@pytest.fixture
def repo(template, tmp_path) -> Repo:
    return template.copy(tmp_path / "repo")  # a private copy per test


def test_code_committed_long_after_the_document_is_drift(repo):
    result = drift(repo.bank())
    assert result["mode"] == "git"
    assert result["anchored"] == 4 and result["unanchored"] == 2
    (entry,) = result["drifted"]
    assert entry["path"] == "domain/billing.md"
    assert entry["ahead_days"] > 170
    assert entry == {"path": "domain/billing.md", "title": "Billing", "status": "active", "anchor": "src/billing/",
                     "doc_touched": "2026-01-10", "code_touched": "2026-07-10", "ahead_days": 181}
    assert result["missing"] == []
    assert "note" not in result


def test_unchanged_code_and_gaps_under_the_threshold_are_not_drift(repo):
    result = drift(repo.bank())
    flagged = {d["path"] for d in result["drifted"]}
    assert "domain/tax.md" not in flagged  # tax.py itself never changed
    assert "domain/users.md" not in flagged
    assert "engineering/api.md" not in flagged  # 50 days ahead, threshold 90
    low = drift(repo.bank(), threshold_days=30)
    assert [(d["path"], d["ahead_days"]) for d in low["drifted"]] == [("domain/billing.md", 181),
                                                                      ("engineering/api.md", 50)]


def test_folder_anchor_takes_the_newest_file_under_it(repo):
    repo.write("src/billing/nested/deep/rates.py", "X = 2\n")
    repo.commit("deep file", "2026-09-01T00:00:00Z")
    (entry,) = drift(repo.bank())["drifted"]
    assert entry["anchor"] == "src/billing/" and entry["code_touched"] == "2026-09-01"
    # a sibling folder whose name merely starts the same is not under the anchor
    repo.write("src/billing2/x.py", "Y = 1\n")
    repo.commit("sibling", "2026-10-01T00:00:00Z")
    (entry,) = drift(repo.bank())["drifted"]
    assert entry["code_touched"] == "2026-09-01"


def test_deleted_anchor_is_missing_whatever_the_threshold(repo):
    repo.git("rm", "-q", "src/users.py")
    repo.commit("drop users", JUL)
    result = drift(repo.bank(), threshold_days=3650)
    assert result["drifted"] == []
    assert result["missing"] == [{"path": "domain/users.md", "title": "Users", "anchor": "src/users.py"}]


def test_drift_sorted_widest_gap_first_one_entry_per_document(repo):
    repo.write("memory_bank/domain/late.md", doc("Late", anchors=["src/users.py", "src/billing/tax.py"]))
    repo.commit("late doc", "2026-02-01T12:00:00Z")
    repo.write("src/users.py", "USERS = [1]\n")
    repo.commit("users", "2026-06-01T12:00:00Z")
    repo.write("src/billing/tax.py", "RATE = 2\n")
    repo.commit("tax", "2026-12-01T12:00:00Z")
    result = drift(repo.bank())
    assert [(d["path"], d["anchor"], d["ahead_days"]) for d in result["drifted"]] == [
        ("domain/billing.md", "src/billing/", 325),  # ties break by path
        ("domain/tax.md", "src/billing/tax.py", 325),
        ("domain/late.md", "src/billing/tax.py", 303),  # the newer of its two anchors
        ("domain/users.md", "src/users.py", 142),
    ]


def test_scope_keeps_documents_under_one_folder(repo):
    result = drift(repo.bank(), scope="engineering", threshold_days=30)
    assert result["anchored"] == 1 and result["unanchored"] == 2 - 1
    assert [d["path"] for d in result["drifted"]] == ["engineering/api.md"]
    assert drift(repo.bank(), scope="domain/tax.md")["anchored"] == 1
    with pytest.raises(BankError, match="neither a folder nor a document"):
        drift(repo.bank(), scope="nowhere")
    with pytest.raises(BankError, match="stay inside the bank"):
        drift(repo.bank(), scope="../src")


def test_document_edited_after_its_code_clears_drift(repo):
    repo.write("memory_bank/domain/billing.md", doc("Billing", anchors=["src/billing/"], body="## Ledger\n"))
    repo.commit("doc catches up", "2026-07-20T00:00:00Z")
    assert drift(repo.bank())["drifted"] == []


def test_uncommitted_document_is_not_judged_and_the_note_says_so(repo):
    repo.write("memory_bank/domain/draft.md", doc("Draft", anchors=["src/billing/"]))
    result = drift(repo.bank())
    assert [d["path"] for d in result["drifted"]] == ["domain/billing.md"]
    assert result["anchored"] == 5
    assert "1 anchored document(s) have no commit yet" in result["note"]


def test_unannotated_bank_is_mode_none_with_a_note_about_anchors(tmp_path):
    r = Repo(tmp_path / "repo")
    r.write("bank/domain/a.md", doc("A"))
    r.write("src/a.py", "A = 1\n")
    r.commit("one", JAN)
    result = drift(Bank(r.path / "bank"))
    assert result["mode"] == "none"
    assert result["anchored"] == 0 and result["unanchored"] == 1
    assert result["drifted"] == [] and result["missing"] == []
    assert "anchors:" in result["note"] and "e.g." in result["note"]


def test_bank_outside_git_is_mode_none(tmp_path):
    bank_dir = tmp_path / "plain"
    (bank_dir / "domain").mkdir(parents=True)
    (bank_dir / "domain" / "a.md").write_text(doc("A", anchors=["src/a.py"]))
    result = drift(Bank(bank_dir))
    assert result["mode"] == "none"
    assert "not inside a git repository" in result["note"]
    assert "anchors:" not in result["note"]  # it has anchors: only git is missing
    (bank_dir / "domain" / "a.md").write_text(doc("A"))
    assert "anchors:" in drift(Bank(bank_dir))["note"]


def test_repository_without_commits_judges_nothing(tmp_path):
    r = Repo(tmp_path / "repo")
    r.write("bank/a.md", doc("A", anchors=["src/a.py"]))
    r.write("src/a.py", "A = 1\n")
    result = drift(Bank(r.path / "bank"))
    assert result["mode"] == "git" and result["drifted"] == [] and result["missing"] == []
    assert "no commit yet" in result["note"]


def test_anchor_leaving_the_repository_is_missing(repo):
    repo.write("memory_bank/ops/run.md", doc("Run", anchors=["../outside.py", "./src/users.py"]))
    repo.commit("ops", JUL)
    result = drift(repo.bank())
    assert {"path": "ops/run.md", "title": "Run", "anchor": "../outside.py"} in result["missing"]
    assert all(m["anchor"] != "./src/users.py" for m in result["missing"])


def test_threshold_must_be_a_non_negative_whole_number(repo):
    for bad in (-1, 1.5, "90", True):
        with pytest.raises(BankError, match="threshold_days"):
            drift(repo.bank(), threshold_days=bad)


def test_bank_at_the_repository_top(tmp_path):
    r = Repo(tmp_path / "repo")
    r.write("a.md", doc("A", anchors=["code/x.py"]))
    r.write("code/x.py", "X = 1\n")
    r.commit("one", JAN)
    r.write("code/x.py", "X = 2\n")
    r.commit("two", JUL)
    (entry,) = drift(Bank(r.path))["drifted"]
    assert entry["path"] == "a.md" and entry["ahead_days"] == 181


def test_one_log_pass_agrees_with_git_log_per_path(tmp_path):
    """The early-stopping walk must give each path the same date as `git log -1 -- path`."""
    r = Repo(tmp_path / "repo")
    rng = random.Random(3)
    names = [f"pkg{i % 4}/sub{i % 3}/mod{i}.py" for i in range(40)]
    history = [(1_760_000_000, {name: "v0" for name in names})]
    for step in range(1, 300):
        history.append((1_760_000_000 + step * 3600, {name: f"v{step}" for name in rng.sample(names, 2)}))
    history.append((1_760_000_000 + 400 * 3600, {names[3]: None}))
    r.import_history(history)
    files = set(names) | {"never/there.py"}
    dirs = {"pkg1", "pkg2/sub0", "pkg3"}
    found = _last_commits(r.path, files, dirs)
    assert names[3] not in found and "never/there.py" not in found  # not in HEAD: not waited for
    for path in sorted((files | dirs) - {names[3], "never/there.py"}):
        out = subprocess.run(["git", "log", "-1", "--format=%ct", "--", path], cwd=r.path, env=git_env(),
                             capture_output=True, text=True, check=True).stdout.strip()
        assert found[path] == int(out), path


def test_log_walk_stops_once_every_path_is_seen(tmp_path, monkeypatch):
    """Paths all touched recently: git is stopped long before the end of a 1,500-commit history."""
    r = Repo(tmp_path / "repo")
    history = [(1_760_000_000 + step * 60, {f"old/d{step % 40}/f{step % 7}.py": str(step)}) for step in range(1500)]
    history.append((1_760_000_000 + 1500 * 60, {"src/a.py": "a", "src/b/c.py": "c"}))
    r.import_history(history)
    exhausted = []
    real = drift_module.stream_git

    @contextlib.contextmanager
    def watched(*args):
        with real(*args) as chunks:
            def reader():
                yield from chunks
                exhausted.append(True)  # only reached when git's output was read to its end
            yield reader()

    monkeypatch.setattr(drift_module, "stream_git", watched)
    found = _last_commits(r.path, {"src/a.py"}, {"src/b"})
    assert found == {"src/a.py": 1_760_090_000, "src/b": 1_760_090_000}
    assert exhausted == []  # stopped (and git killed) without reading the rest of the history


def test_bank_outside_git_is_picked_up_after_git_init(tmp_path):
    bank_dir = tmp_path / "repo" / "bank"
    bank_dir.mkdir(parents=True)
    (bank_dir / "a.md").write_text(doc("A", anchors=["src/a.py"]))
    bank = Bank(bank_dir)
    assert drift(bank)["mode"] == "none"
    r = Repo(tmp_path / "repo")
    r.write("src/a.py", "A = 1\n")
    r.commit("one", JAN)
    assert drift(bank)["mode"] == "git"
    shutil.rmtree(r.path / ".git")
    assert drift(bank)["mode"] == "none"


def test_reverse_mode_lists_documents_covering_a_changed_file(repo):
    repo.write("memory_bank/domain/other.md", doc("Other", anchors=["src/billing2/"]))
    result = drift(repo.bank(), files=["src/billing/tax.py"])
    assert result["mode"] == "reverse"
    assert [(d["path"], d["anchors"]) for d in result["documents"]] == [
        ("domain/billing.md", ["src/billing/"]),
        ("domain/tax.md", ["src/billing/tax.py"]),
    ]
    assert result["files"] == ["src/billing/tax.py"]


def test_reverse_mode_takes_files_changed_since_a_ref(repo):
    repo.write("src/billing/tax.py", "RATE = 3\n")  # uncommitted edit
    repo.write("src/api/new_route.py", "NEW = 1\n")  # untracked
    result = drift(repo.bank(), changed_since="HEAD")
    assert result["files"] == ["src/api/new_route.py", "src/billing/tax.py"]
    assert [d["path"] for d in result["documents"]] == ["domain/billing.md", "domain/tax.md", "engineering/api.md"]
    since_march = drift(repo.bank(), changed_since="HEAD~1")
    assert "src/billing/ledger/post.py" in since_march["files"]
    with pytest.raises(BankError, match="Unknown git ref: no-such-ref"):
        drift(repo.bank(), changed_since="no-such-ref")


def test_reverse_mode_works_outside_git_with_given_files(tmp_path):
    bank_dir = tmp_path / "plain"
    (bank_dir / "domain").mkdir(parents=True)
    (bank_dir / "domain" / "a.md").write_text(doc("A", anchors=["src/a/"]))
    result = drift(Bank(bank_dir), files=["src/a/b.py", "src/c.py"])
    assert [d["path"] for d in result["documents"]] == ["domain/a.md"]
    with pytest.raises(BankError, match="not inside a git repository"):
        drift(Bank(bank_dir), changed_since="HEAD")


def test_text_rendering_of_each_mode(repo, tmp_path):
    text = render_text(drift(repo.bank(), threshold_days=30))
    assert text.splitlines()[0] == "drift (git): 4 anchored, 2 unanchored, threshold 30 days"
    assert text.splitlines()[2].split() == ["domain/billing.md", "src/billing/", "doc", "2026-01-10", "code",
                                            "2026-07-10", "181", "days", "ahead"]
    reverse = render_text(drift(repo.bank(), files=["src/billing/tax.py"]))
    assert reverse.startswith("2 document(s) to review for 1 changed file(s)")
    assert "src/billing/tax.py ← src/billing/tax.py" in reverse
    plain = tmp_path / "plain"
    plain.mkdir()
    assert "note: The bank is not inside a git repository" in render_text(drift(Bank(plain)))


def test_broken_repository_is_a_clear_refusal(repo):
    tree = repo.git("rev-parse", "HEAD^{tree}").strip()
    (repo.path / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    with pytest.raises(BankError, match="git failed: .*git fsck"):
        drift(repo.bank())
