"""End-to-end: the real `mcp-memorybank` over stdio with the official `mcp` client, in both eras."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import time
from pathlib import Path

import anyio
import pytest
from conftest import FIXTURE, cli_in_process, cli_path
from mcpkit import Session, params, payload  # noqa: F401 (params: test_server_history imports it from here)

from memorybank.server.budget import BUDGETS, measure

MODES = ["legacy", "auto"]


def run(coro):
    return anyio.run(coro)


@pytest.fixture
def bank(tmp_path) -> Path:
    target = tmp_path / "memory_bank"
    shutil.copytree(FIXTURE, target)
    return target


@pytest.fixture
def sessions(shared_servers):
    """The worker's shared read-only servers over copies of fixture-bank/ (conftest `shared_servers`)."""
    return shared_servers


@pytest.fixture(params=MODES)
def served(request, sessions) -> Session:
    return sessions(request.param)


@pytest.fixture
def legacy(sessions) -> Session:
    return sessions("legacy")


def test_find_and_check_tools_answer(served):
    names = {tool.name for tool in served.run(served.client.list_tools).tools}
    assert {"bank_read", "bank_validate", "bank_route", "bank_create", "bank_guard"} <= names
    assert "bank_init" not in names
    out = served.ok("bank_read", {
        "path": ["domain/billing.md", {"path": "adr/ADR-001-integer-cents.md", "section": "Decision"}]})
    assert [d["path"] for d in out["documents"]] == ["domain/billing.md", "adr/ADR-001-integer-cents.md"]
    assert out["documents"][1]["content"].startswith("## Decision")
    out = served.ok("bank_validate", {})
    assert out["summary"]["total"] == 11 and out["summary"]["errors"] == 7
    assert served.ok("bank_route", {"question": "filter thresholds"})["results"][0]["path"] == "domain/billing.md"


def test_refusals_and_bad_arguments_are_tool_errors_and_the_server_keeps_answering(served):
    for name, args, needle in [
        ("bank_read", {"path": "../outside.md"}, "Path must stay inside the bank"),
        ("bank_read", {"path": 42}, "Invalid arguments for bank_read"),
        ("bank_read", {}, "'path' is a required property"),
        ("bank_read", {"path": "a.md", "bogus": 1}, "Additional properties are not allowed"),
        ("bank_validate", {"severity": "fatal"}, "is not one of"),
        ("bank_route", {"question": "x", "limit": "5"}, "is not of type 'integer'"),
        ("bank_nope", {}, "not offered"),
        ("bank_edit", {"path": "domain/billing.md", "find": "no such text", "replace": "x"}, "no such text"),
    ]:
        result = served.call(name, args)
        assert result.is_error, (name, args)
        assert needle in result.content[0].text
    assert served.ok("bank_validate", {"rule": "ssot-conflict"})["summary"]["total"] == 1


def test_resources_and_prompts(served):
    client = served.client
    uris = [str(r.uri) for r in served.run(client.list_resources).resources]
    assert uris == ["memorybank://index", "memorybank://schema/frontmatter", "memorybank://health",
                    "memorybank://inbox"]
    index = json.loads(served.run(client.read_resource, "memorybank://index").contents[0].text)
    paths = [d["path"] for d in index["documents"]]
    assert "domain/billing.md" in paths and "flows/templates/adr.md" not in paths
    schema = served.run(client.read_resource, "memorybank://schema/frontmatter").contents[0].text
    assert "# Frontmatter" in schema
    health = json.loads(served.run(client.read_resource, "memorybank://health").contents[0].text)
    assert health["summary"]["total"] == 11
    inbox = json.loads(served.run(client.read_resource, "memorybank://inbox").contents[0].text)
    assert inbox == {"notes": [], "count": 0}
    names = [p.name for p in served.run(client.list_prompts).prompts]
    assert names == ["session-start", "route-then-read", "check-before-commit", "record-adr", "review-inbox"]
    for name in names:
        args = {"question": "why cents?"} if name == "route-then-read" else (
            {"topic": "use a queue"} if name == "record-adr" else {})
        text = served.run(client.get_prompt, name, args).messages[0].content.text
        assert "bank_" in text or "memorybank://" in text


def _measure_in_process(root: Path, off: tuple[str, ...] = (), tools: str | None = None) -> dict:
    """Measure the same server object in process (the SDK's client in handshake mode; no spawn)."""
    from memorybank.server.app import MemoryBankServer
    from memorybank.server.budget import measure_server

    return run(lambda: measure_server(MemoryBankServer(root, off, tools)))


def test_token_budgets_full_and_off(legacy, bank):
    full = legacy.run(measure, legacy.client)
    listed = legacy.run(legacy.client.list_tools).tools
    assert full["total"] <= BUDGETS["full"]
    assert max(full["tools"].values()) <= BUDGETS["tool"]
    assert len(full["tools"]) == 19
    off = _measure_in_process(bank, off=(str(bank.parent),))
    assert off["tools"] == {} and off["total"] <= BUDGETS["off"]
    tools = {tool.name: tool for tool in listed}
    assert tools["bank_route"].annotations.read_only_hint is True
    assert tools["bank_route"].annotations.idempotent_hint is True
    assert not (tools["bank_edit"].annotations and tools["bank_edit"].annotations.read_only_hint)  # spec default
    assert tools["bank_discard"].annotations.destructive_hint is True
    for tool in tools.values():
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        for name, prop in schema["properties"].items():
            assert name == name.lower() and prop.get("description"), (tool.name, name)


def test_off_marker_beside_the_bank_and_whole_segment_matching(bank, tmp_path):
    assert _measure_in_process(bank, off=(str(bank) + "x",))["tools"], "--off must match whole path segments"
    (bank.parent / ".memorybank-off").write_text("")
    assert _measure_in_process(bank)["tools"] == {}


def test_tools_allowlist(bank):
    assert _measure_in_process(bank, tools="")["tools"] == {}


def test_surface_command_prints_the_table_with_the_flags_applied(bank):
    import subprocess
    out = subprocess.run([cli_path(), "--root", str(bank), "--tools", "find,check", "--surface"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "bank_route" in out.stdout and "mode full" in out.stdout
    assert "bank_create" not in out.stdout  # --tools reached the real server
    out = cli_in_process("--root", str(bank), "--off", str(bank.parent), "--surface", "--json")
    data = json.loads(out.stdout)
    assert data["mode"] == "off" and data["tools"] == {} and data["total"] <= BUDGETS["off"]


# The seed-mode scenario (bank_init, then the full surface and these writers) runs in test_server_polish.py,
# in the one server per era that also checks the protocol errors.

async def writers_on_a_fresh_bank(client) -> None:
    """A create that registers in its index, an edit refusal, an ownership refusal, an inbox note."""
    created = payload(await client.call_tool("bank_create", {
        "path": "domain/pricing.md", "doc_kind": "domain", "title": "Pricing",
        "purpose": "How prices are computed and rounded.", "derived_from": ["product/context.md"],
        "canonical_for": ["price_rounding"], "status": "active"}))
    assert {"path": "domain/README.md", "action": "update"} in created["files"]
    index = payload(await client.call_tool("bank_read", {"path": "domain/README.md"}))["content"]
    assert "[Pricing](pricing.md)" in index
    refused = await client.call_tool("bank_edit", {"path": "domain/pricing.md", "find": "no such text",
                                                   "replace": "x"})
    assert refused.is_error and "no such text" in refused.content[0].text
    dup = await client.call_tool("bank_create", {
        "path": "domain/other.md", "doc_kind": "domain", "title": "Other", "purpose": "Other things.",
        "canonical_for": ["price_rounding"], "derived_from": ["product/context.md"]})
    assert dup.is_error and "already owned by domain/pricing.md" in dup.content[0].text
    note = payload(await client.call_tool("bank_create", {
        "path": "gotcha.md", "doc_kind": "note", "title": "Gotcha", "purpose": "A gotcha.", "inbox": True}))
    assert note["path"].startswith("_inbox/")
    inbox = json.loads((await client.read_resource("memorybank://inbox")).contents[0].text)
    assert inbox["count"] == 1
    assert payload(await client.call_tool("bank_validate", {}))["summary"]["total"] == 0


def _server_rss_kb(root: Path) -> int:
    """Resident memory of the spawned server serving `root` (found through /proc)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if str(root).encode() in cmdline and any(b"mcp-memorybank" in part for part in cmdline):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            continue
    raise AssertionError("server process not found")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_two_hundred_mixed_calls_keep_memory_and_latency_flat(legacy):
    session, bank = legacy, legacy.root
    calls = [
        ("bank_route", {"question": "filter thresholds"}), ("bank_search", {"query": "FT-042"}),
        ("bank_read", {"path": "domain/billing.md", "section": "Filter"}),
        ("bank_graph", {"path": "domain/billing.md"}),
        ("bank_validate", {}), ("bank_changed", {"since": "2000-01-01"}),
        ("bank_create", {"path": "domain/x.md", "doc_kind": "domain", "title": "X", "purpose": "X things.",
                         "derived_from": ["product/context.md"], "dry_run": True}),
        ("bank_edit", {"path": "domain/billing.md", "find": "absent", "replace": "y"}),
    ]
    latencies, rss = [], []
    for i in range(200):
        name, args = calls[i % len(calls)]
        start = time.perf_counter()
        session.call(name, args)
        latencies.append(time.perf_counter() - start)
        if i in (49, 199):
            rss.append(_server_rss_kb(bank))
    assert rss[1] - rss[0] < 8 * 1024, f"server RSS grew from {rss[0]} kB to {rss[1]} kB"
    early, late = statistics.median(latencies[50:100]), statistics.median(latencies[150:200])
    assert late < early * 3 + 0.01, (early, late)
