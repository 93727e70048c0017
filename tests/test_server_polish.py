"""MCP protocol polish (issue 17 §5): error codes, list-changed notifications, capabilities, templates.

The real `mcp-memorybank` over stdio with the official client, in both protocol eras; the server's
stderr is captured to show that a bad request leaves no traceback.
"""

from __future__ import annotations

import anyio
import mcp_types as t
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcpkit import params, payload

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


@pytest.mark.parametrize("mode", MODES)
def test_bank_init_announces_tools_prompts_and_resources_then_bad_requests_are_protocol_errors(tmp_path, mode):
    # one server per era (a start costs a second of CPU): the init scenario, then the error answers on
    # the bank it made; the server's stderr shows that no bad request left a traceback
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
                assert (await client.list_prompts()).prompts == [] and (await client.list_resources()).resources == []
                if mode == "auto":
                    got: set[str] = set()
                    async with client.listen(tools_list_changed=True, prompts_list_changed=True,
                                             resources_list_changed=True) as events:
                        payload(await client.call_tool("bank_init", {"name": "Acme"}))
                        with anyio.fail_after(10):
                            async for event in events:
                                got.add(type(event).__name__)
                                if len(got) == 3:
                                    break
                    assert got == {"ToolsListChanged", "PromptsListChanged", "ResourcesListChanged"}
                else:
                    payload(await client.call_tool("bank_init", {"name": "Acme"}))
                    with anyio.fail_after(10):
                        while not wanted <= set(seen):
                            await anyio.sleep(0.02)
                assert len((await client.list_prompts()).prompts) == 5
                assert len((await client.list_resources()).resources) == 4
                await _protocol_errors_have_codes(client)
    anyio.run(go)
    assert "Traceback" not in log.read_text()
