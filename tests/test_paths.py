import os

import pytest

from memorybank.errors import BankError
from memorybank.paths import layer_for, normalize_path, resolve_from


def test_normalize_trims_backslashes_and_dot_slash(tmp_path):
    assert normalize_path(tmp_path, "  .\\adr\\x.md ") == "adr/x.md"
    assert normalize_path(tmp_path, "./././a.md") == "a.md"


def test_normalize_makes_absolute_inside_root_relative(tmp_path):
    assert normalize_path(tmp_path, str(tmp_path / "dna" / "p.md")) == "dna/p.md"


@pytest.mark.parametrize("raw", ["../outside.md", "a/../../x.md", "/etc/passwd", "..", "a/../../../b"])
def test_normalize_refuses_escapes(tmp_path, raw):
    with pytest.raises(BankError, match="Path must stay inside the bank"):
        normalize_path(tmp_path, raw)


def test_normalize_refuses_symlink_leading_outside(tmp_path):
    root = tmp_path / "bank"
    root.mkdir()
    (tmp_path / "secret.md").write_text("x")
    os.symlink(tmp_path / "secret.md", root / "link.md")
    os.symlink(tmp_path, root / "up")
    with pytest.raises(BankError, match="Path must stay inside the bank: link.md"):
        normalize_path(root, "link.md")
    with pytest.raises(BankError, match="Path must stay inside the bank"):
        normalize_path(root, "up/secret.md")


def test_normalize_folds_root_folder_name_only_when_nothing_is_there(tmp_path):
    root = tmp_path / "memory_bank"
    (root / "adr").mkdir(parents=True)
    assert normalize_path(root, "memory_bank/adr/x.md") == "adr/x.md"
    (root / "memory_bank").mkdir()
    (root / "memory_bank" / "y.md").write_text("x")
    assert normalize_path(root, "memory_bank/y.md") == "memory_bank/y.md"


def test_normalize_refuses_empty(tmp_path):
    with pytest.raises(BankError, match="empty"):
        normalize_path(tmp_path, "  ")


def test_resolve_from_is_relative_to_declaring_folder():
    assert resolve_from("adr/x.md", "../dna/p.md") == ("dna/p.md", False)
    assert resolve_from("adr/x.md", "y.md#section") == ("adr/y.md", False)
    assert resolve_from("adr/x.md", "/dna/p.md") == ("dna/p.md", False)
    assert resolve_from("a.md", "../other-bank/c.md") == ("../other-bank/c.md", True)


def test_layer_for_uses_first_segment():
    assert layer_for("dna/x.md") == "dna"
    assert layer_for("product/x.md") == "knowledge"
    assert layer_for("adr/x.md") == "decision"
    assert layer_for("features/a/b.md") == "delivery"
    assert layer_for("flows/x.md") == "flow"
    assert layer_for("_inbox/n.md") == "inbox"
    assert layer_for("README.md") == "other"
    assert layer_for("misc/x.md") == "other"
