"""bank_graph, bank_drift and bank_changed over stdio with the official `mcp` client."""

from __future__ import annotations

import shutil

from conftest import FIXTURE, doc
from gitrepo import Repo
from mcpkit import payload


def test_graph_drift_and_changed_tools_over_stdio(scratch_server):
    """The worker's scratch server, its project made a git repository holding fixture-bank/ (the server
    asks git for the repository on each call, so it sees the repository this test makes)."""
    bank = scratch_server.load()
    shutil.copytree(FIXTURE, bank, dirs_exist_ok=True)
    repo = Repo(scratch_server.top)
    repo.write("src/billing/ledger.py", "L = 1\n")
    repo.commit("one", "2026-01-10T12:00:00Z")
    repo.write("memory_bank/domain/refunds.md", doc("Refunds", anchors=["src/billing/"]))

    async def go(client):
        out = payload(await client.call_tool("bank_graph", {
            "path": "engineering/cycle-a.md", "direction": "both", "depth": 6}))
        assert [n["path"] for n in out["nodes"]] == ["engineering/cycle-a.md", "engineering/cycle-b.md"]
        out = payload(await client.call_tool("bank_changed", {"since": "HEAD"}))
        assert [(c["path"], c["change_kind"]) for c in out["changes"]] == [("domain/refunds.md", "added")]
        out = payload(await client.call_tool("bank_drift", {}))
        assert out["mode"] == "git" and out["anchored"] == 3  # billing.md and no-print.md in the fixture
        out = payload(await client.call_tool("bank_drift", {"files": ["src/billing/ledger.py"]}))
        covering = [d["path"] for d in out["documents"]]
        assert covering == ["domain/billing.md", "domain/refunds.md", "rules/no-print.md"]
        bad = await client.call_tool("bank_changed", {"since": "no-such-ref"})
        assert bad.is_error and "Unknown git ref: no-such-ref" in bad.content[0].text

    scratch_server.run(go, scratch_server.client)
