from memorybank.contract import build_contract, build_layers


def test_enums_from_first_cell_rows_skip_type_words_and_prose():
    text = ("| Field | Type | Values |\n|---|---|---|\n| `doc_kind` | `enum` | `adr`, `feature`, `Bad`, `doc_kind` |\n"
            "| `status` | string | `draft` / `active` |\nThe status `archived` in prose declares nothing.\n")
    contract = build_contract({"dna/f.md": text}, [])
    assert contract.allowed("doc_kind") == {"adr", "feature"}
    assert contract.allowed("status") == {"draft", "active"}
    assert contract.sources == ("dna/f.md",)


def test_enums_from_a_column_named_after_the_field():
    text = "| decision_status | meaning |\n|---|---|\n| `proposed` | open |\n| `accepted` | in force |\n"
    contract = build_contract({"dna/f.md": text}, [])
    assert contract.allowed("decision_status") == {"proposed", "accepted"}


def test_governance_phrases_and_roots():
    text = ("Every document must define derived_from. Cycles are forbidden.\n"
            "The root document is [`principles.md`](principles.md).\n")
    contract = build_contract({"dna/g.md": text}, [])
    assert contract.requires_derived_from and contract.forbids_cycles
    assert contract.roots == {"dna/principles.md"}
    other = build_contract({"dna/g.md": "Cyclic dependencies are forbidden. MUST DEFINE `derived_from`."}, [])
    assert other.forbids_cycles and other.requires_derived_from and other.roots == frozenset()


def test_default_root_is_principles_when_it_exists():
    assert build_contract({"dna/x.md": ""}, ["dna/principles.md"]).roots == {"dna/principles.md"}


def test_no_dna_means_degraded_mode():
    assert build_contract({}, []) is None


def test_layer_table_rows_weights_and_unknown_layers():
    text = ("| Directory | Layer | Weight |\n|---|---|---|\n| `notes`, `wiki/` | knowledge | 2 |\n"
            "| `adr` | decision | heavy |\n| `old` | attic | 1 |\n")
    layers = build_layers({"dna/l.md": text})
    assert layers.layer_map["notes"] == "knowledge" and layers.layer_map["wiki"] == "knowledge"
    assert layers.weights["knowledge"] == 2.0 and layers.weights["decision"] == 1.2
    contract = build_contract({"dna/l.md": text}, [])
    assert [(i.layer, i.line) for i in contract.layer_issues] == [("attic", 5)]
