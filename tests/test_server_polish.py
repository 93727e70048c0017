"""MCP protocol polish (issue 17 §5): error codes, list-changed notifications, capabilities, templates;
and the seed-mode life of a new bank (bank_init, then the full surface and its writers).

The real `mcp-memorybank` over stdio with the official client, in both protocol eras; the server's
stderr is captured to show that a bad request leaves no traceback.
"""

from __future__ import annotations

import datetime as dt

import anyio
import mcp_types as t
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcpkit import params, payload
from test_server import writers_on_a_fresh_bank

from memorybank.server.budget import BUDGETS, measure

MODES = ["legacy", "auto"]


async def _protocol_errors_have_codes(client) -> None:
    with pytest.raises(MCPError) as resource:
        await client.read_resource("memorybank://nope")
    assert resource.value.code == -32002 and "memorybank://index" in resource.value.message
    with pytest.raises(MCPError) as prompt:
        await client.get_prompt("no-such-prompt", {})
    assert prompt.value.code == -32602 and "route-then-read" in prompt.value.message
    with pytest.raises(MCPError) as missing:
        await client.get_prompt("route-then-read", {})
    assert missing.value.code == -32602 and "question" in missing.value.message
    ok = await client.get_prompt("route-then-read", {"question": "why cents?"})
    assert "why cents?" in ok.messages[0].content.text
    templates = await client.list_resource_templates()
    assert templates.resource_templates == []


async def _review_stamps_the_date(client, root) -> None:
    # bank_review over MCP in both eras (moved here from test_drift_now, which checks review's drift
    # semantics through the CLI): it stamps today's date on the document bank_create just wrote
    names = {tool.name for tool in (await client.list_tools()).tools}
    assert "bank_review" in names
    out = payload(await client.call_tool("bank_review", {"path": "domain/pricing.md"}))
    assert out["changed"] is True and out["files"] == [{"path": "domain/pricing.md", "action": "update"}]
    text = (root / "domain/pricing.md").read_text(encoding="utf-8")
    assert f"reviewed: {dt.datetime.now(dt.timezone.utc).date().isoformat()}\n" in text.split("\n---", 1)[0] + "\n"
    bad = await client.call_tool("bank_review", {"path": "rules/nope.md"})
    assert bad.is_error


@pytest.mark.parametrize("mode", MODES)
def test_seed_mode_init_announces_everything_then_full_surface_writers_and_protocol_errors(tmp_path, mode):
    # One server per era (a start costs a second of CPU) walks the whole life of a new bank: the seed
    # surface, bank_init and its three list-changed notifications, the full surface, the writers
    # (test_server's scenario), then bad requests answered as protocol errors; the server's stderr
    # shows that none of them left a traceback.
    root = tmp_path / "proj" / "memory_bank"
    log = tmp_path / "stderr.txt"
    seen: list[str] = []

    async def on_message(message):
        if isinstance(message, t.ServerNotification):
            seen.append(message.method)

    wanted = {"notifications/tools/list_changed", "notifications/prompts/list_changed",
              "notifications/resources/list_changed"}

    async def go():
        with log.open("w") as errlog:
            async with Client(stdio_client(params(root), errlog=errlog), mode=mode,
                              message_handler=on_message) as client:
                caps = client.server_capabilities
                assert caps.tools.list_changed and caps.prompts.list_changed and caps.resources.list_changed
                seed = await measure(client)
                assert list(seed["tools"]) == ["bank_init"] and seed["total"] <= BUDGETS["seed"]
                assert "bank_init" in (client.instructions or "")
                assert (await client.list_prompts()).prompts == [] and (await client.list_resources()).resources == []
                bad = await client.call_tool("bank_route", {"question": "x"})
                assert bad.is_error and "not offered" in bad.content[0].text
                if mode == "auto":
                    got: set[str] = set()
                    async with client.listen(tools_list_changed=True, prompts_list_changed=True,
                                             resources_list_changed=True) as events:
                        out = payload(await client.call_tool("bank_init", {"name": "Acme"}))
                        with anyio.fail_after(10):
                            async for event in events:
                                got.add(type(event).__name__)
                                if len(got) == 3:
                                    break
                    assert got == {"ToolsListChanged", "PromptsListChanged", "ResourcesListChanged"}
                else:
                    out = payload(await client.call_tool("bank_init", {"name": "Acme"}))
                    with anyio.fail_after(10):
                        while not wanted <= set(seen):
                            await anyio.sleep(0.02)
                assert out["files"]
                assert len((await client.list_prompts()).prompts) == 5
                assert len((await client.list_resources()).resources) == 4
                names = {tool.name for tool in (await client.list_tools(cache_mode="refresh")).tools}
                assert len(names) == 19 and "bank_init" not in names
                assert payload(await client.call_tool("bank_validate", {}))["summary"]["total"] == 0
                await writers_on_a_fresh_bank(client)
                await _review_stamps_the_date(client, root)
                await _protocol_errors_have_codes(client)
    anyio.run(go)
    assert "Traceback" not in log.read_text()
