"""§16 property: random sequences of writer calls, valid and invalid, never add a finding and every
refused call leaves every byte (hypothesis stateful testing on a seeded starter bank)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from writekit import findings, tree_hash

from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.writers import (
    create,
    discard,
    edit,
    init,
    promote,
    set_field,
    set_list,
    set_status,
    update_section,
)

_SEED: dict[str, Path] = {}
FOLDERS = ["adr", "domain", "engineering", "features/FT-001", "epics", "prompts", "rules", "product"]
KINDS = ["adr", "domain", "engineering", "feature", "epic", "prompt", "rule", "recipe", "product"]
NAMES = ["alpha", "beta", "gamma", "delta"]
KEYS = ["k_money", "k_users", "k_cache", "product_context"]
WORDS = st.sampled_from(["Cache", "Orders: paid", "It's fine", "#tag", "yes", "2024-01-02", "x" * 3])


def seeded() -> Path:
    """One seeded bank per test session, copied for every example (init is the slow part)."""
    if "bank" not in _SEED:
        root = Path(tempfile.mkdtemp(prefix="mb-seed-")) / "bank"
        init(Bank(root), name="Prop")
        _SEED["bank"] = root
    return _SEED["bank"]


class Writers(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="mb-prop-"))
        shutil.copytree(seeded(), self.tmp / "bank")
        self.bank = Bank(self.tmp / "bank")
        self.bank.refresh()

    def teardown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def docs(self, inbox: bool = False) -> list[str]:
        self.bank.refresh()
        return [p for p, d in self.bank.docs.items()
                if d.in_inbox == inbox and not d.is_index and not d.is_template and p != "_inbox/DISCARDED.md"]

    def attempt(self, call) -> None:
        before = tree_hash(self.bank.root)
        try:
            call()
        except BankError:
            assert tree_hash(self.bank.root) == before, "a refused call changed bytes"

    @rule(folder=st.sampled_from(FOLDERS), name=st.sampled_from(NAMES), kind=st.sampled_from(KINDS),
          title=WORDS, up=st.integers(0, 30), bogus=st.booleans(), key=st.sampled_from(KEYS + [None]),
          active=st.booleans(), inbox=st.booleans())
    def make(self, folder, name, kind, title, up, bogus, key, active, inbox):
        docs = sorted(self.docs())
        derived = ["nowhere.md"] if bogus else [docs[up % len(docs)]]
        self.attempt(lambda: create(self.bank, path=f"{folder}/{name}.md", doc_kind=kind, title=f"{title} {name}",
                                    purpose=f"Read about {title} {name}.", derived_from=derived,
                                    canonical_for=[key] if key else None, status="active" if active else "draft",
                                    inbox=inbox))

    @rule(pick=st.integers(0, 50), status=st.sampled_from(["draft", "active", "archived", "bogus"]),
          release=st.booleans())
    def status(self, pick, status, release):
        docs = sorted(self.docs())
        self.attempt(lambda: set_status(self.bank, path=docs[pick % len(docs)], status=status,
                                        release_canonical=release))

    @rule(pick=st.integers(0, 50), field=st.sampled_from(["purpose", "title", "owner", "delivery_status", "status"]),
          value=WORDS)
    def field(self, pick, field, value):
        docs = sorted(self.docs())
        self.attempt(lambda: set_field(self.bank, path=docs[pick % len(docs)], field=field, value=value))

    @rule(pick=st.integers(0, 50), other=st.integers(0, 50),
          field=st.sampled_from(["derived_from", "canonical_for", "must_not_define", "anchors"]),
          key=st.sampled_from(KEYS), remove=st.booleans())
    def lists(self, pick, other, field, key, remove):
        docs = sorted(self.docs())
        item = docs[other % len(docs)] if field == "derived_from" else key
        args = {"remove": [item]} if remove else {"add": [item]}
        self.attempt(lambda: set_list(self.bank, path=docs[pick % len(docs)], field=field, **args))

    @rule(pick=st.integers(0, 50), find=st.sampled_from(["## ", "the", "zzz-not-there", "\n\n"]), new=WORDS)
    def change_body(self, pick, find, new):
        docs = sorted(self.docs())
        self.attempt(lambda: edit(self.bank, path=docs[pick % len(docs)], find=find, replace=find + new))

    @rule(pick=st.integers(0, 50), section=st.sampled_from(["Context", "Decision", "Nope", "Goal"]), new=WORDS,
          append=st.booleans())
    def section(self, pick, section, new, append):
        docs = sorted(self.docs())
        self.attempt(lambda: update_section(self.bank, path=docs[pick % len(docs)], section=section, content=new,
                                            mode="append" if append else "replace"))

    @rule(pick=st.integers(0, 50), to=st.sampled_from(FOLDERS), up=st.integers(0, 50), drop=st.booleans())
    def inbox(self, pick, to, up, drop):
        notes = sorted(self.docs(inbox=True))
        if not notes:
            return
        note = notes[pick % len(notes)]
        if drop:
            self.attempt(lambda: discard(self.bank, path=note, reason="Not needed."))
        else:
            docs = sorted(self.docs())
            self.attempt(lambda: promote(self.bank, path=note, to=f"{to}/", derived_from=[docs[up % len(docs)]]))

    @invariant()
    def no_findings(self):
        self.bank.refresh()
        found = findings(self.bank)
        assert found == [], "; ".join(f"{f['rule']} {f['path']}: {f['message']}" for f in found)


Writers.TestCase.settings = settings(max_examples=4, stateful_step_count=10, deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])
test_random_writer_sequences_keep_the_bank_clean = Writers.TestCase
