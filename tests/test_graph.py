"""Graph walks (§8.1) and their Mermaid/DOT renderings, on banks built in tmp_path."""

from __future__ import annotations

import re

import pytest
from gitrepo import doc

from memorybank.bank import Bank
from memorybank.errors import BankError
from memorybank.graph import graph, render_dot, render_mermaid, render_text


def write(root, rel, text):
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


@pytest.fixture
def bank(tmp_path) -> Bank:
    """principles <- domain/billing <- (adr/one, features/ft1) ; ft1 <- tasks/t1 ; a cycle c1 <-> c2."""
    root = tmp_path / "bank"
    write(root, "dna/principles.md", doc("Principles", kind="principle"))
    write(root, "domain/billing.md", "---\ntitle: Billing\ndoc_kind: domain\nderived_from:\n"
                                     "  - path: ../dna/principles.md\n    fit: partial\n"
                                     "  - ../../sibling/shared.md\n  - ../../../../../far/away.md\n"
                                     "  - ../gone.md\n---\n")
    write(root, "adr/one.md", doc("One", kind="adr", derived=["../domain/billing.md"]))
    write(root, "features/ft1.md", doc("FT1", kind="feature", derived=["../domain/billing.md"]))
    write(root, "tasks/t1.md", doc("T1", kind="task", derived=["../features/ft1.md"]))
    write(root, "engineering/c1.md", doc("C1", kind="guide", derived=["c2.md"]))
    write(root, "engineering/c2.md", doc("C2", kind="guide", derived=["c1.md", "../domain/billing.md"]))
    write(tmp_path / "sibling", "shared.md", "---\ntitle: Shared \"contracts\"\ndoc_kind: domain\nstatus: active\n"
                                             "purpose: Contracts shared by banks.\ncanonical_for: [money]\n"
                                             "derived_from: [nowhere.md]\n---\n# Body is not read\n")
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
    write(root, "hub.md", doc("Hub", derived=[f"../out/n{i:02d}.md" for i in range(30)]))
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
    write(tmp_path / "bank", "adr/odd.md", "---\ntitle: 'Odd \"title\" <b> #1 | `x`'\n"
                                            "derived_from: [../domain/billing.md]\n---\n")
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
    write(tmp_path / "bank", "adr/odd.md", doc('Odd "q" \\ back', kind="adr", derived=["../domain/billing.md"]))
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
