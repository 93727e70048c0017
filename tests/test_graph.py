"""Graph walks (§8.1) on fixture-bank/ and on banks built in tmp_path; Mermaid/DOT renderings."""

from __future__ import annotations

import re

import pytest
from conftest import FIXTURE, doc, write_bank

from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.graph import graph
from memorybank.render import graph_dot as render_dot
from memorybank.render import graph_mermaid as render_mermaid
from memorybank.render import graph_text as render_text


@pytest.fixture
def bank(tmp_path) -> Bank:
    """principles <- domain/billing <- (adr/one, features/ft1) ; ft1 <- tasks/t1 ; a cycle c1 <-> c2."""
    root = write_bank(tmp_path / "bank", {
        "dna/principles.md": doc("Principles", doc_kind="principle"),
        "domain/billing.md": "---\ntitle: Billing\ndoc_kind: domain\nderived_from:\n"
                             "  - path: ../dna/principles.md\n    fit: partial\n"
                             "  - ../../sibling/shared.md\n  - ../../../../../far/away.md\n"
                             "  - ../gone.md\n---\n",
        "adr/one.md": doc("One", doc_kind="adr", derived=["../domain/billing.md"]),
        "features/ft1.md": doc("FT1", doc_kind="feature", derived=["../domain/billing.md"]),
        "tasks/t1.md": doc("T1", doc_kind="task", derived=["../features/ft1.md"]),
        "engineering/c1.md": doc("C1", doc_kind="guide", derived=["c2.md"]),
        "engineering/c2.md": doc("C2", doc_kind="guide", derived=["c1.md", "../domain/billing.md"]),
    })
    write_bank(tmp_path / "sibling", {
        "shared.md": "---\ntitle: Shared \"contracts\"\ndoc_kind: domain\nstatus: active\n"
                     "purpose: Contracts shared by banks.\ncanonical_for: [money]\n"
                     "derived_from: [nowhere.md]\n---\n# Body is not read\n"})
    return Bank(root)


def paths(result: dict) -> list[str]:
    return [n["path"] for n in result["nodes"]]


def test_down_lists_the_blast_radius_by_depth(bank):
    result = graph(bank, "domain/billing.md", direction="down", depth=2)
    assert paths(result) == ["domain/billing.md", "adr/one.md", "engineering/c2.md", "features/ft1.md",
                             "engineering/c1.md", "tasks/t1.md"]
    t1 = result["nodes"][-1]
    assert t1 == {"path": "tasks/t1.md", "title": "T1", "doc_kind": "task", "layer": "delivery", "status": "active",
                  "depth": 2, "via": "features/ft1.md"}
    assert {"from": "tasks/t1.md", "to": "features/ft1.md"} in result["edges"]
    assert result["external"] == [] and result["broken"] == [] and result["truncated"] is False
    assert result["by_layer"] == {"decision": 1, "delivery": 2, "knowledge": 3}
    assert graph(bank, "domain/billing.md", depth=1)["nodes"][-1]["depth"] == 1


def test_up_keeps_fit_and_lists_external_and_broken(bank):
    result = graph(bank, "tasks/t1.md", direction="up", depth=6)
    assert paths(result) == ["tasks/t1.md", "features/ft1.md", "domain/billing.md", "dna/principles.md"]
    assert {"from": "domain/billing.md", "to": "dna/principles.md", "fit": "partial"} in result["edges"]
    assert result["external"] == [{"from": "domain/billing.md", "to": "../../../../far/away.md"},
                                  {"from": "domain/billing.md", "to": "../sibling/shared.md"}]
    assert result["broken"] == [{"from": "domain/billing.md", "to": "gone.md"}]


def test_neighbours_read_headers_one_hop_out_only(bank):
    result = graph(bank, "domain/billing.md", direction="up", depth=1)
    near, far = result["neighbours"][1], result["neighbours"][0]
    assert near == {"path": "../sibling/shared.md", "title": 'Shared "contracts"', "doc_kind": "domain",
                    "status": "active", "purpose": "Contracts shared by banks.", "canonical_for": ["money"]}
    assert far["path"] == "../../../../far/away.md" and "more than 3 folders" in far["note"]
    assert "nowhere.md" not in str(result)  # the neighbour's own edges are never walked
    assert graph(bank, "domain/billing.md", direction="up", neighbours=False)["neighbours"] == []


def test_missing_neighbour_file_reads_no_such_file(bank, tmp_path):
    (tmp_path / "sibling" / "shared.md").unlink()
    result = graph(bank, "domain/billing.md", direction="up", depth=1)
    assert {"path": "../sibling/shared.md", "note": "no such file"} in result["neighbours"]
    assert result["broken"] == [{"from": "domain/billing.md", "to": "gone.md"}]  # external stays external


def test_neighbours_are_capped_at_25(tmp_path):
    root = tmp_path / "bank"
    write_bank(root, {"hub.md": doc("Hub", derived=[f"../out/n{i:02d}.md" for i in range(30)])})
    result = graph(Bank(root), "hub.md", direction="up")
    assert len(result["external"]) == 30 and len(result["neighbours"]) == 25


def test_cap_counts_the_root_and_sets_truncated(bank):
    result = graph(bank, "domain/billing.md", direction="down", depth=6, limit=3)
    assert len(result["nodes"]) == 3 and result["truncated"] is True
    kept = set(paths(result))
    assert all(e["from"] in kept and e["to"] in kept for e in result["edges"])
    assert graph(bank, "domain/billing.md", limit=1)["nodes"][0]["path"] == "domain/billing.md"


def test_both_on_a_cycle_terminates_and_closes_the_loop(bank):
    result = graph(bank, "engineering/c1.md", direction="both", depth=6)
    assert paths(result)[:2] == ["engineering/c1.md", "engineering/c2.md"]
    assert {"from": "engineering/c1.md", "to": "engineering/c2.md"} in result["edges"]
    assert {"from": "engineering/c2.md", "to": "engineering/c1.md"} in result["edges"]
    assert len(paths(result)) == len(set(paths(result)))
    # both = ancestors and descendants; siblings such as adr/one.md are not pulled in via billing
    assert "domain/billing.md" in paths(result) and "adr/one.md" not in paths(result)


def test_bad_arguments_are_refused(bank):
    with pytest.raises(BankError, match="direction"):
        graph(bank, "domain/billing.md", direction="sideways")
    for depth in (0, 7, "2", True):
        with pytest.raises(BankError, match="depth"):
            graph(bank, "domain/billing.md", depth=depth)
    with pytest.raises(BankError, match="limit"):
        graph(bank, "domain/billing.md", limit=0)
    with pytest.raises(BankError, match="No document at"):
        graph(bank, "domain/nothing.md")
    with pytest.raises(BankError, match="stay inside the bank"):
        graph(bank, "../sibling/shared.md")


# -- fixture-bank/ --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fixture() -> Bank:
    return Bank(FIXTURE)


def test_fixture_down_from_architecture(fixture):
    result = graph(fixture, "engineering/architecture.md", direction="down", depth=2)
    assert [(n["path"], n["depth"]) for n in result["nodes"]] == [
        ("engineering/architecture.md", 0), ("adr/ADR-002-queue-for-exports.md", 1), ("adr/ADR-003-webhooks.md", 1),
        ("engineering/orphan.md", 1), ("engineering/shared-contracts.md", 1), ("rules/add-endpoint.md", 1),
        ("rules/no-print.md", 1), ("features/FT-042-invoice-export.md", 2)]
    assert result["nodes"][-1]["via"] == "adr/ADR-002-queue-for-exports.md"
    assert result["by_layer"] == {"decision": 2, "delivery": 1, "knowledge": 5}
    assert result["external"] == [] and result["broken"] == [] and result["truncated"] is False


def test_fixture_up_carries_fit_and_lists_the_external_edge_not_as_broken(fixture):
    result = graph(fixture, "engineering/shared-contracts.md", direction="up", depth=6)
    assert paths(result) == ["engineering/shared-contracts.md", "engineering/architecture.md", "dna/principles.md",
                             "domain/billing.md", "product/context.md"]
    assert {"from": "engineering/architecture.md", "to": "domain/billing.md", "fit": "the billing run only"} \
        in result["edges"]
    assert result["external"] == [{"from": "engineering/shared-contracts.md", "to": "../payments-bank/contracts.md"}]
    assert result["broken"] == []
    # the sibling bank is not part of the repository: its header cannot be read
    assert result["neighbours"] == [{"path": "../payments-bank/contracts.md", "note": "no such file"}]


def test_fixture_both_reaches_upstream_and_downstream(fixture):
    result = graph(fixture, "engineering/architecture.md", direction="both", depth=1)
    assert paths(result) == ["engineering/architecture.md", "adr/ADR-002-queue-for-exports.md",
                             "adr/ADR-003-webhooks.md", "dna/principles.md", "domain/billing.md",
                             "engineering/orphan.md", "engineering/shared-contracts.md", "rules/add-endpoint.md",
                             "rules/no-print.md"]


def test_fixture_cap_of_three(fixture):
    result = graph(fixture, "dna/principles.md", direction="down", depth=6, limit=3)
    assert len(result["nodes"]) == 3 and result["truncated"] is True
    assert graph(fixture, "dna/principles.md", direction="down", depth=6)["truncated"] is False


def test_fixture_deep_both_walk_on_the_cycle_terminates(fixture):
    result = graph(fixture, "engineering/cycle-a.md", direction="both", depth=6)
    assert paths(result) == ["engineering/cycle-a.md", "engineering/cycle-b.md"]
    assert result["edges"] == [{"from": "engineering/cycle-a.md", "to": "engineering/cycle-b.md"},
                               {"from": "engineering/cycle-b.md", "to": "engineering/cycle-a.md"}]


def test_fixture_edge_to_a_missing_file_is_broken(fixture):
    result = graph(fixture, "features/FT-007-ledger-sync.md", direction="up")
    assert result["broken"] == [{"from": "features/FT-007-ledger-sync.md", "to": "domain/ledger.md"}]
    assert paths(result) == ["features/FT-007-ledger-sync.md"] and result["external"] == []


# -- renderers ----------------------------------------------------------------------------------

_M_NODE = re.compile(r'^  ([A-Za-z][A-Za-z0-9]*)\["([^"]*)"\]$')
_M_EDGE = re.compile(r'^  ([A-Za-z][A-Za-z0-9]*) (-->|-\.->)(?:\|"([^"]*)"\|)? ([A-Za-z][A-Za-z0-9]*)$')
_M_STYLE = re.compile(r"^  (classDef [a-z]+ [a-z:#0-9 ,-]+|class [A-Za-z0-9,]+ [a-z]+)$")


def parse_mermaid(text: str) -> tuple[dict[str, str], list[tuple[str, str, str | None, str]]]:
    """A strict reader for the subset of Mermaid flowchart syntax the renderer may emit."""
    lines = text.rstrip("\n").split("\n")
    assert lines[0] == "graph TD"
    nodes: dict[str, str] = {}
    edges = []
    for line in lines[1:]:
        if m := _M_NODE.match(line):
            assert m.group(1) not in nodes
            nodes[m.group(1)] = m.group(2)
        elif m := _M_EDGE.match(line):
            assert m.group(1) in nodes and m.group(4) in nodes
            edges.append((m.group(1), m.group(4), m.group(3), m.group(2)))
        else:
            assert _M_STYLE.match(line), line
    for label in nodes.values():
        assert not re.search(r"[<>#`|]", re.sub(r"#(?:\d+|quot|lt|gt);|<br/>", "", label)), label
    return nodes, edges


def test_mermaid_is_graph_td_with_quoted_labels(bank, tmp_path):
    write_bank(tmp_path / "bank", {"adr/odd.md": "---\ntitle: 'Odd \"title\" <b> #1 | `x`'\n"
                                            "derived_from: [../domain/billing.md]\n---\n"})
    result = graph(bank, "domain/billing.md", direction="both", depth=2)
    nodes, edges = parse_mermaid(render_mermaid(result))
    assert len(nodes) == len(result["nodes"]) + len(result["external"]) + len(result["broken"])
    labels = {label.split("<br/>")[1]: node_id for node_id, label in nodes.items()}
    assert "Odd #quot;title#quot; #lt;b#gt; #35;1 #124; #96;x#96;<br/>adr/odd.md" in nodes.values()
    assert (labels["domain/billing.md"], labels["dna/principles.md"], "partial", "-->") in edges
    dashed = [e for e in edges if e[3] == "-.->"]
    assert len(dashed) == len(result["external"]) + len(result["broken"])


def _dot_strings(text: str) -> list[str]:
    return [s.replace('\\"', '"') for s in re.findall(r'"((?:[^"\\]|\\.)*)"', text)]


def test_dot_is_a_digraph_with_every_node_and_edge(bank, tmp_path):
    odd = doc('Odd "q" \\ back', doc_kind="adr", derived=["../domain/billing.md"])
    write_bank(tmp_path / "bank", {"adr/odd.md": odd})
    result = graph(bank, "domain/billing.md", direction="both", depth=2)
    text = render_dot(result)
    lines = text.rstrip("\n").split("\n")
    assert lines[0] == "digraph bank_graph {" and lines[-1] == "}"
    assert text.count("{") == text.count("}") == 1
    body = lines[3:-1]
    edge_lines = [line for line in body if " -> " in line]
    node_lines = [line for line in body if " -> " not in line]
    assert len(edge_lines) == len(result["edges"]) + len(result["external"]) + len(result["broken"])
    assert len(node_lines) == len(result["nodes"]) + len(result["external"]) + len(result["broken"])
    for line in body:
        assert line.endswith(";") and len(re.findall(r'(?<!\\)"', line)) % 2 == 0, line
    declared = {_dot_strings(line)[0] for line in node_lines}
    for line in edge_lines:
        source, target = _dot_strings(line)[:2]
        assert source in declared and target in declared
    assert 'label="Odd \\"q\\" \\\\ back\\nadr/odd.md"' in text
    assert '"domain/billing.md" -> "dna/principles.md" [label="partial"];' in text


def test_text_rendering_names_every_node(bank):
    result = graph(bank, "domain/billing.md", direction="both", depth=2)
    text = render_text(result)
    for node in result["nodes"]:
        assert node["path"] in text
    assert "gone.md" in text and "../sibling/shared.md" in text and text.startswith("domain/billing.md")


def test_text_rendering_marks_upstream_and_downstream_in_both_mode(bank):
    result = graph(bank, "domain/billing.md", direction="both", depth=1)
    lines = render_text(result).splitlines()
    for node in result["nodes"][1:]:
        line = next(x for x in lines if f" {node['path']}  — " in x)
        upstream = {"from": node["via"], "to": node["path"]} in [{k: e[k] for k in ("from", "to")}
                                                                 for e in result["edges"]]
        assert line.lstrip().startswith("↑ " if upstream else "↓ "), line
