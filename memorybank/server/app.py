"""The MCP server over stdio (§11), on the SDK's low-level `Server` for exact control of schemas.

Every tool call validates its arguments against the declared JSON Schema, calls the capability,
and returns compact JSON text. A refusal (`BankError`), a schema violation, or any unexpected
exception becomes an `isError` result with a clear message: the server never answers a tool call
with a JSON-RPC error and never dies on a bad request.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import anyio
import mcp_types as t
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ResourcesListChanged,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from .. import __version__, faces, overview
from ..bank import Bank, answered, bank_for
from ..errors import BankError, clip
from ..jsonout import dumps
from ..limits import MAX_QUESTION
from ..mode import decide_mode
from ..remote import remote_caller
from . import prompts as prompt_texts
from .prefetch import READY, begin
from .surface import instructions
from .tools import BY_NAME, TOOLS, parse_groups
from .wire import INVALID, claimed_stdin

ECHO_MAX = 200  # characters of a caller's unknown name or URI repeated in an error


def _cut(text: str) -> str:
    return text if len(text) <= ECHO_MAX else text[:ECHO_MAX] + "…"


RESOURCE_NOT_FOUND = -32002  # the handshake-era spec's code for an unknown resource
INVALID_PARAMS = -32602
# bank_init changes all three lists (seed: 1 tool, no prompts or resources → the full surface)
CHANGES = NotificationOptions(tools_changed=True, prompts_changed=True, resources_changed=True)

RESOURCES = (
    ("memorybank://index", "index", "Every document with purpose, kind, layer, status.", "application/json"),
    ("memorybank://schema/frontmatter", "schema", "The bank's frontmatter rules.", "text/markdown"),
    ("memorybank://health", "health", "Fresh validation.", "application/json"),
    ("memorybank://inbox", "inbox", "_inbox notes, oldest first.", "application/json"),
)


class MemoryBankServer:
    """State of one served bank: its mode, allowed groups, and the SDK server."""

    def __init__(self, root: str | Path, off_paths: Sequence[str] = (), tools: str | None = None) -> None:
        self.root = Path(root).absolute()
        self.off_paths = tuple(off_paths)
        self.groups = parse_groups(tools)
        self.mode = decide_mode(self.root, self.off_paths)
        self.validators: dict[str, Any] = {}  # compiled on first use: jsonschema costs start-up time
        self.bus = InMemorySubscriptionBus()
        self.sessions: list[Any] = []
        self.server = Server(
            "memorybank", version=__version__, instructions=instructions(self.mode, self.root),
            on_list_tools=self.list_tools, on_call_tool=self.call_tool,
            on_list_resources=self.list_resources, on_read_resource=self.read_resource,
            on_list_prompts=self.list_prompts, on_get_prompt=self.get_prompt,
            on_list_resource_templates=self.list_resource_templates,
            on_subscriptions_listen=ListenHandler(self.bus),
        )

    # -- surface -------------------------------------------------------------------------------

    def visible_tools(self) -> list[Any]:
        if self.mode == "off":
            return []
        if self.mode == "seed":
            return [BY_NAME["bank_init"]] if "init" in self.groups else []
        return [tool for tool in TOOLS if tool.group in self.groups and tool.name != "bank_init"]

    def _wire_tool(self, tool: Any) -> t.Tool:
        # Only hints that differ from the spec's defaults (readOnlyHint false, destructiveHint true for a
        # writer): a writer's `readOnlyHint: false` says nothing a client does not assume, at ~6 tokens a tool.
        annotations = None
        if tool.read_only:
            annotations = t.ToolAnnotations(read_only_hint=True, idempotent_hint=True)
        elif tool.destructive:
            annotations = t.ToolAnnotations(destructive_hint=True)
        return t.Tool(name=tool.name, description=tool.description, input_schema=tool.schema,
                      annotations=annotations)

    async def list_tools(self, ctx: Any, params: Any) -> t.ListToolsResult:
        return t.ListToolsResult(tools=[self._wire_tool(tool) for tool in self.visible_tools()])

    def _full_surface(self) -> bool:
        return self.mode == "full" and bool(self.groups)

    async def list_resources(self, ctx: Any, params: Any) -> t.ListResourcesResult:
        if not self._full_surface():
            return t.ListResourcesResult(resources=[])
        return t.ListResourcesResult(resources=[
            t.Resource(uri=uri, name=name, description=desc, mime_type=mime) for uri, name, desc, mime in RESOURCES])

    async def list_prompts(self, ctx: Any, params: Any) -> t.ListPromptsResult:
        if not self._full_surface():
            return t.ListPromptsResult(prompts=[])
        return t.ListPromptsResult(prompts=[
            t.Prompt(name=p.name, description=p.description,
                     arguments=[t.PromptArgument(name=a, description=d or None, required=r) for a, d, r in p.arguments])
            for p in prompt_texts.PROMPTS])

    # -- calls ---------------------------------------------------------------------------------

    @staticmethod
    def _text(text: str, error: bool = False) -> t.CallToolResult:
        return t.CallToolResult(content=[t.TextContent(type="text", text=clip(text) if error else text)],
                                is_error=error)

    async def call_tool(self, ctx: Any, params: t.CallToolRequestParams) -> t.CallToolResult:
        name = params.name
        args = dict(params.arguments or {})
        if INVALID in args:  # the wire rewrote a request the SDK could not read (see wire.py)
            return self._text(f"Refused: the request holds {args[INVALID]}, so it cannot be read. "
                              "Send valid JSON text within those limits.", True)
        tool = BY_NAME.get(name)
        if tool is None or tool not in self.visible_tools():
            offered = ", ".join(tool.name for tool in self.visible_tools()) or "none"
            return self._text(f"Tool {name} is not offered here (mode {self.mode}). Offered: {offered}.", True)
        required = set(tool.schema.get("required", ()))
        args = {key: value for key, value in args.items() if value is not None or key in required}  # null: not given
        validator = self.validators.get(name)
        if validator is None:
            from jsonschema import Draft202012Validator
            validator = self.validators[name] = Draft202012Validator(tool.schema)
        errors = sorted(validator.iter_errors(args), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            where = ".".join(str(p) for p in first.path)
            return self._text(f"Invalid arguments for {name}: {where + ': ' if where else ''}{first.message}. "
                              f"See the tool's input schema.", True)
        try:
            # bank_init gets a fresh Bank: the cached one may predate the folder
            READY.wait()  # the start-up prefetch owns the index until it is done
            if name == "bank_init":
                bank = Bank(self.root)
                with remote_caller(bank.root):  # body_file/content_file: only inside the project
                    result = tool.capability()(bank, **args)
            else:  # a malformed part of the cache file found mid-call: answered from the files
                bank = bank_for(self.root)
                with remote_caller(bank.root):
                    _, result = answered(self.root, lambda fresh: tool.capability()(fresh, **args), tool.read_only)
        except BankError as exc:
            return self._text(faces.refusal(exc, "mcp", name.removeprefix("bank_")), True)
        except Exception as exc:  # noqa: BLE001 - the server must answer, never die
            traceback.print_exc(file=sys.stderr)
            return self._text(f"Internal error in {name}: {type(exc).__name__}: {exc}. The bank was not changed "
                              "by this call unless the result says so; please report this.", True)
        if name == "bank_init" and not args.get("dry_run"):
            await self._after_init(ctx)
        return self._text(dumps(faces.result(result, "mcp")))

    async def _after_init(self, ctx: Any) -> None:
        mode = decide_mode(self.root, self.off_paths)
        if mode == self.mode:
            return
        self.mode = mode
        self.server.instructions = instructions(mode, self.root)
        for send in ("send_tool_list_changed", "send_prompt_list_changed", "send_resource_list_changed"):
            try:
                await getattr(ctx.session, send)()
            except Exception:  # noqa: BLE001 - a modern-era connection has no such channel
                pass
        for event in (ToolsListChanged(), PromptsListChanged(), ResourcesListChanged()):
            await self.bus.publish(event)

    # -- resources and prompts -----------------------------------------------------------------

    async def list_resource_templates(self, ctx: Any, params: Any) -> t.ListResourceTemplatesResult:
        return t.ListResourceTemplatesResult(resource_templates=[])  # none; clients that browse them expect a list

    async def read_resource(self, ctx: Any, params: t.ReadResourceRequestParams) -> t.ReadResourceResult:
        uri = str(params.uri)
        if not self._full_surface():
            raise MCPError(RESOURCE_NOT_FOUND, f"Resource {uri} is not offered in mode {self.mode}.", {"uri": uri})
        READY.wait()
        bank = bank_for(self.root)  # each resource refreshes it
        if uri == "memorybank://index":
            text, mime = dumps(overview.index(bank)), "application/json"
        elif uri == "memorybank://schema/frontmatter":
            text, mime = overview.schema(bank)["text"], "text/markdown"
        elif uri == "memorybank://health":
            from ..validate import validate_for_agents
            text, mime = dumps(faces.result(validate_for_agents(bank), "mcp")), "application/json"
        elif uri == "memorybank://inbox":
            from ..writers import list_inbox
            text, mime = dumps(list_inbox(bank)), "application/json"
        else:
            shown = _cut(uri)  # a caller's string is echoed bounded: a 1 MB URI must not come back twice
            raise MCPError(RESOURCE_NOT_FOUND, f"Unknown resource {shown}. Resources: "
                           f"{', '.join(r[0] for r in RESOURCES)}.", {"uri": shown})
        return t.ReadResourceResult(contents=[t.TextResourceContents(uri=uri, text=text, mime_type=mime)])

    async def get_prompt(self, ctx: Any, params: t.GetPromptRequestParams) -> t.GetPromptResult:
        prompt = prompt_texts.BY_NAME.get(params.name)
        if prompt is None or not self._full_surface():
            offered = ", ".join(p.name for p in prompt_texts.PROMPTS) if self._full_surface() else "none"
            raise MCPError(INVALID_PARAMS, f"Unknown prompt {_cut(params.name)}. Prompts: {offered}.")
        args = dict(params.arguments or {})
        for name, value in args.items():  # a prompt argument is a phrase, as a route question is
            if isinstance(value, str) and len(value) > MAX_QUESTION:
                raise MCPError(INVALID_PARAMS, f"Prompt {prompt.name}: argument {_cut(name)} is {len(value):,} "
                               f"characters, over the {MAX_QUESTION:,}-character limit. Shorten it to a phrase; "
                               "nothing was run.")
        missing = [name for name, _, required in prompt.arguments if required and not str(args.get(name, "")).strip()]
        if missing:
            raise MCPError(INVALID_PARAMS, f"Prompt {prompt.name} needs the argument {', '.join(missing)}. "
                           "Pass it in arguments.")
        text = prompt.render(args)
        return t.GetPromptResult(description=prompt.description, messages=[
            t.PromptMessage(role="user", content=t.TextContent(type="text", text=text))])

    # -- running -------------------------------------------------------------------------------

    async def run_stdio(self) -> None:
        with claimed_stdin() as lines:
            async with stdio_server(stdin=lines) as (read, write):  # type: ignore[arg-type]
                async def reply(error: t.JSONRPCError) -> None:
                    with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                        await write.send(SessionMessage(error))
                lines.reply = reply
                await self.server.run(read, write, self.server.create_initialization_options(CHANGES))


def serve(root: str | Path, off_paths: Sequence[str] = (), tool_groups: str | None = None) -> None:
    """Serve one bank over stdio until the client closes the connection.

    Before serving, a bank that is not switched off is repaired (§16): a commit a killed writer left
    half done is finished and its stale temp files are removed, so readers never see the middle state.
    """
    server = MemoryBankServer(root, off_paths, tool_groups)
    begin(server.root, off_paths)  # the CLI began it before the SDK import; a second call does nothing
    anyio.run(server.run_stdio)
    READY.wait()
    from ..cache import save
    with suppress(Exception):  # the cache is disposable: a failed save costs the next start, nothing else
        save(bank_for(server.root))
