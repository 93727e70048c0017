"""The generated acceptance test (§17): a bank built only through the writers validates clean after every step.

Init the shipped starter, materialise the templates, create documents of many kinds (derived_from
chains, canonical keys, sections created on demand), change statuses, fields, lists and sections,
work the inbox — validating after every single call. Then three refused calls leave every byte.
"""

from __future__ import annotations

from writekit import findings, tree_hash

from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.writers import (
    create,
    discard,
    edit,
    init,
    list_inbox,
    materialize_flows,
    promote,
    set_field,
    set_list,
    set_status,
    update_section,
)


def test_a_bank_built_only_through_the_writers_never_has_a_finding(tmp_path):
    bank = Bank(tmp_path / "memory_bank")
    log: list[str] = []

    def step(label, writer, **params):
        out = writer(bank, **params)
        bank.refresh()
        found = findings(bank)
        assert found == [], f"after {label}: " + "; ".join(f"{f['rule']} {f['path']} {f['message']}" for f in found)
        log.append(label)
        return out

    step("init", init, name="Acme Shop")
    assert "Acme Shop" in (bank.root / "README.md").read_text() and "<project name>" not in \
        (bank.root / "README.md").read_text()
    step("materialize", materialize_flows)

    def make(path, kind, title, purpose, derived, **more):
        return step(f"create {path}", create, path=path, doc_kind=kind, title=title, purpose=purpose,
                    derived_from=derived, status=more.pop("status", "active"), **more)

    make("product/vision.md", "product", "Vision", "Read when you need who the shop serves and why.",
         ["product/context.md"], canonical_for=["audience"])
    make("domain/orders.md", "domain", "Orders", "Read when you need the states an order moves through.",
         ["product/vision.md"], canonical_for=["order_states"])
    make("engineering/architecture.md", "engineering", "Architecture", "Read when you need the service layout.",
         ["domain/orders.md"], canonical_for=["service_layout"], anchors=["src/"])
    adr = make("adr/ADR-001-postgres.md", "adr", "ADR-001: Postgres for orders",
               "Read when you need why orders live in Postgres.", ["engineering/architecture.md"],
               canonical_for=["order_store"])
    assert adr["template"] == "flows/templates/adr.md" and adr["registered_in"] == "adr/README.md"
    make("features/FT-001-checkout/brief.md", "feature", "FT-001 Checkout",
         "Read when you need the scope of the checkout feature.", ["adr/ADR-001-postgres.md"],
         canonical_for=["checkout_scope"])
    make("features/FT-001-checkout/design.md", "design", "FT-001 Checkout design",
         "Read when you need how checkout is built.", ["features/FT-001-checkout/brief.md"])
    make("features/FT-001-checkout/implementation-plan.md", "implementation-plan", "FT-001 Checkout plan",
         "Read when you need the order of checkout work.", ["features/FT-001-checkout/design.md"])
    make("rules/no-float-money.md", "rule", "No floats for money", "Read when code handles amounts of money.",
         ["domain/orders.md"], extra={"do": "Store money as integer cents.", "dont": "Use float for money.",
                                      "why": "Floats round.", "scope": "python", "applies_to": ["src/**/*.py"]})
    make("rules/add-endpoint.md", "recipe", "Add an endpoint", "Read when you add an HTTP endpoint.",
         ["engineering/architecture.md"], extra={"when": "Adding an HTTP endpoint.",
                                                 "do": "Start from the orders endpoint and its test."})
    epic = make("epics/EP-001-payments/charter.md", "epic", "EP-001 Payments",
                "Read when you need the goal of the payments epic.", ["product/vision.md"])
    assert epic["created_index"] == "epics/README.md"
    make("epics/EP-001-payments/decision-log.md", "decision-log", "EP-001 decision log",
         "Read when you need the small decisions of the payments epic.", ["epics/EP-001-payments/charter.md"])
    prd = make("prd/PRD-001-checkout.md", "prd", "PRD-001 Checkout", "Read when you need checkout requirements.",
               ["product/vision.md"])
    assert prd["created_index"] == "prd/README.md"
    make("use-cases/UC-001-pay.md", "use-case", "UC-001 Pay for an order", "Read when you need how a buyer pays.",
         ["domain/orders.md"])
    make("processes/release.md", "process", "Release", "Read when you cut a release.", ["engineering/architecture.md"])
    make("prompts/review.md", "prompt", "Review prompt", "Read when you ask an agent to review a change.",
         ["engineering/architecture.md"])
    make("ops/runbook.md", "ops", "Runbook", "Read when the shop is down.", ["engineering/architecture.md"])
    created = [p for p in log if p.startswith("create ")]
    assert len(created) >= 12

    step("activate context", set_status, path="product/context.md", status="active")
    step("draft runbook", set_status, path="ops/runbook.md", status="draft")
    step("accept ADR", set_field, path="adr/ADR-001-postgres.md", field="decision_status", value="accepted")
    step("start feature", set_field, path="features/FT-001-checkout/brief.md", field="delivery_status",
         value="in_progress")
    step("new purpose", set_field, path="domain/orders.md", field="purpose",
         value="Read when you need order states: placed, paid, shipped.")
    step("new title", set_field, path="ops/runbook.md", field="title", value="Runbook: outages")
    step("add key", set_list, path="domain/orders.md", field="canonical_for", add=["order_ids"])
    step("add edge", set_list, path="rules/add-endpoint.md", field="derived_from", add=["adr/ADR-001-postgres.md"])
    step("add anchors", set_list, path="rules/no-float-money.md", field="anchors", add=["src/money.py"])
    step("forbid key", set_list, path="engineering/architecture.md", field="must_not_define", add=["order_states"])
    step("drop edge", set_list, path="rules/add-endpoint.md", field="derived_from",
         remove=["engineering/architecture.md"])
    step("edit ADR", edit, path="adr/ADR-001-postgres.md", find="## Context",
         replace="## Context\n\nOrders need transactions.")
    step("write decision", update_section, path="adr/ADR-001-postgres.md", section="Decision",
         content="We keep orders in Postgres.")
    step("append consequences", update_section, path="adr/ADR-001-postgres.md", section="Consequences",
         content="Backups matter now.", mode="append")
    step("archive vision twin", create, path="product/old-vision.md", doc_kind="product", title="Old vision",
         purpose="Read for the vision we had last year.", derived_from=["product/context.md"],
         canonical_for=["old_audience"], status="active")
    step("archive it", set_status, path="product/old-vision.md", status="archived", release_canonical=True)

    step("note one", create, path="cache.md", doc_kind="note", title="Cache idea",
         purpose="Cache product pages for an hour.", inbox=True, derived_from=["engineering/architecture.md"])
    step("note two", create, path="typo.md", doc_kind="note", title="Typo", purpose="A typo on the home page.",
         inbox=True)
    assert [n["path"] for n in list_inbox(bank)["notes"]] == ["_inbox/cache.md", "_inbox/typo.md"]
    step("promote", promote, path="_inbox/cache.md", to="engineering/caching.md", doc_kind="engineering",
         canonical_for=["page_cache"])
    step("discard", discard, path="_inbox/typo.md", reason="Fixed directly in the code.")
    assert list_inbox(bank)["count"] == 0

    before = tree_hash(bank.root)
    refusals = [
        lambda: create(bank, path="domain/dup.md", doc_kind="domain", title="Dup", purpose="Another home.",
                       derived_from=["product/vision.md"], canonical_for=["order_states"]),
        lambda: create(bank, path="domain/lost.md", doc_kind="domain", title="Lost", purpose="Bad edge.",
                       derived_from=["domain/missing.md"]),
        lambda: create(bank, path="../escape.md", doc_kind="domain", title="Out", purpose="Outside."),
    ]
    messages = []
    for call in refusals:
        try:
            call()
        except BankError as exc:
            messages.append(str(exc))
        else:
            raise AssertionError("a call that must be refused went through")
    assert "already owned by domain/orders.md" in messages[0]
    assert "domain/missing.md does not resolve" in messages[1]
    assert messages[2] == "Path must stay inside the bank: ../escape.md"
    assert tree_hash(bank.root) == before
    bank.refresh()
    assert findings(bank) == []
