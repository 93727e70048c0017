"""The committed-symlink refusal holds in `bank_for` itself, for any face that asks for a bank."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git
from writekit import make_bank, tree_hash

from memorybank import bank as bank_module
from memorybank.bank import bank_for
from memorybank.errors import BankError


def project_linking(tmp_path: Path, outside: Path, commit: bool) -> Path:
    project = tmp_path / ("committed" if commit else "own")
    project.mkdir()
    git(project, "init", "-q")
    (project / "src.py").write_text("print('hi')\n")
    (project / "memory_bank").symlink_to(outside, target_is_directory=True)
    if commit:
        git(project, "add", "-A")
        git(project, "commit", "-qm", "clone me")
    return project


def test_bank_for_refuses_a_committed_symlink_out_and_follows_one_the_user_made(tmp_path):
    outside = make_bank(tmp_path / "outside-bank").root
    before = tree_hash(outside)
    committed = project_linking(tmp_path, outside, commit=True) / "memory_bank"
    with pytest.raises(BankError, match="symlink committed to the repository") as refused:
        bank_for(committed)
    assert "Replace the symlink with the folder itself" in str(refused.value)
    assert str(committed) not in bank_module._BANKS  # nothing cached: the next ask is refused again
    with pytest.raises(BankError):
        bank_for(committed)
    own = bank_for(project_linking(tmp_path, outside, commit=False) / "memory_bank")
    own.refresh()
    assert own.docs and tree_hash(outside) == before
