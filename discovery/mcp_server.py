"""The MCP tool server: the official `mcp` SDK's low-level Server over Streamable HTTP at /mcp.

Stateless and answering in JSON (no sessions, no SSE streams), so any web process can serve any
request. The tools are the operations of discovery/operations.py; their input schemas come from
booking.validation and their output schemas from booking.api.schemas. The low-level Server is used
rather than MCPServer because MCPServer validates arguments with pydantic models of its own before a
tool runs: its messages would differ from the REST messages, which must be the same.
"""

import json
import logging
from functools import cache
from urllib.parse import urlsplit

import mcp_types as types
from django.conf import settings
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from starlette.applications import Starlette

from booking.callers import Caller
from booking.errors import BookingError
from discovery import mcp_extras
from discovery.json_schema import input_schema, output_schema
from discovery.operations import ARGUMENT_NOTES, IDEMPOTENCY_KEY_NOTE, OPERATIONS, Operation, error_payload, run_operation_async
from discovery.summaries import summary

logger = logging.getLogger("discovery.mcp")

from discovery.endpoints import MCP_PATH  # noqa: E402,F401 (part of this module's interface)

SERVER_NAME = "direct-booking"
MCP_CALENDAR_MONTHS = 3
INSTRUCTIONS = (
    "Direct booking of one short-stay rental (up to 7 guests), priced in EUR. "
    "Order: get_property, then check_availability (get_calendar helps to find free dates), then "
    "create_checkout_link and give its checkout_url to the guest; follow the booking with "
    "get_reservation. Do not collect guest details before payment: the payment page collects them. "
    "Pass idempotency_key to the create tools and reuse it when retrying; release_hold lets go of a "
    "hold you will not pay. find_stays finds the cheapest stays of N nights in a window. "
    "Resources: property://overview, property://policies, property://location, property://faq and "
    "reservation://{reservation_id}; prompts: plan_a_stay, book_these_dates. "
    "Dates are YYYY-MM-DD; check_out is the departure day."
)


def tool_for(operation: Operation) -> types.Tool:
    arguments = input_schema(operation.arguments) if operation.arguments else {"type": "object", "properties": {}, "additionalProperties": False}
    for name, spec in arguments["properties"].items():
        if name in ARGUMENT_NOTES:
            spec.setdefault("description", ARGUMENT_NOTES[name])
    if operation.name == "get_calendar":
        arguments["properties"]["months"] = {**arguments["properties"]["months"], "default": MCP_CALENDAR_MONTHS}
    if operation.idempotency_scope:
        arguments["properties"]["idempotency_key"] = {"type": "string", "minLength": 1, "maxLength": 255, "description": IDEMPOTENCY_KEY_NOTE}
    return types.Tool(
        name=operation.name,
        title=operation.title,
        description=f"{operation.description} (REST: {operation.rest})",
        input_schema=arguments,
        output_schema=output_schema(operation.result),
        annotations=types.ToolAnnotations(
            title=operation.title,
            read_only_hint=operation.read_only,
            # Holds only add; release_hold is the one tool that takes something away (a hold).
            destructive_hint=operation.destructive,
            idempotent_hint=operation.idempotent,
            open_world_hint=operation.open_world,
        ),
    )


@cache
def tools() -> list[types.Tool]:
    return [tool_for(operation) for operation in OPERATIONS.values()]


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=tools())


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    """Every outcome is a tool result: bad input and refusals are tool errors (is_error) carrying
    the REST message, and the REST error body as JSON; nothing is raised to the transport."""
    if params.name not in OPERATIONS:
        return tool_error(f"Unknown tool {params.name!r}; the tools are: {', '.join(OPERATIONS)}.", {"status": 404, "code": "unknown_tool"})
    arguments = params.arguments
    if params.name == "get_calendar" and isinstance(arguments, dict) and "months" not in arguments:
        # An LLM's context is not a date picker: three months unless more are asked for.
        arguments = {**arguments, "months": MCP_CALENDAR_MONTHS}
    try:
        body = await run_operation_async(params.name, arguments, caller_of(ctx))
    except BookingError as error:
        return tool_error(error.detail, error_payload(error))
    except Exception:
        logger.exception("MCP tool %s failed", params.name)
        return tool_error("An unexpected error occurred; it has been logged.", {"status": 500, "code": "internal_error"})
    # The full body is the structured content; the text is a short summary of it, not the same
    # JSON again (a year's calendar was 50–75 kB, twice).
    return types.CallToolResult(content=[types.TextContent(type="text", text=summary(params.name, body))], structured_content=body)


async def list_resources(ctx, params) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=mcp_extras.resources())


async def list_resource_templates(ctx, params) -> types.ListResourceTemplatesResult:
    return types.ListResourceTemplatesResult(resource_templates=mcp_extras.resource_templates())


async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    """A resource's markdown; an unknown URI or reservation is a JSON-RPC error (-32602) carrying
    the REST error body, as a resource read has no is_error result to carry it."""
    contents = await as_protocol_errors(mcp_extras.read(str(params.uri), caller_of(ctx)))
    return types.ReadResourceResult(contents=contents)


async def list_prompts(ctx, params) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=mcp_extras.PROMPTS)


async def get_prompt(ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    async def build():
        return mcp_extras.prompt_messages(params.name, params.arguments or {})

    return await as_protocol_errors(build())


async def complete(ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
    completion = await as_protocol_errors(mcp_extras.complete(params.ref, params.argument.name, params.argument.value or "", caller_of(ctx)))
    return types.CompleteResult(completion=completion)


async def as_protocol_errors(awaitable):
    try:
        return await awaitable
    except BookingError as error:
        raise MCPError(INVALID_PARAMS, error.detail, error_payload(error)) from error
    except Exception as error:
        logger.exception("MCP request failed")
        raise MCPError(INTERNAL_ERROR, "An unexpected error occurred; it has been logged.") from error


def tool_error(message: str, payload: dict) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message), types.TextContent(type="text", text=as_json(payload))],
        is_error=True,
    )


def as_json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def caller_of(ctx) -> Caller:
    request = getattr(ctx, "request", None)  # the Starlette request on HTTP transports
    if request is None:
        return Caller("mcp")
    return Caller.from_http("mcp", peer=request.client.host if request.client else None, forwarded_for=request.headers.get("x-forwarded-for"))


@cache
def server() -> Server:
    return Server(
        SERVER_NAME,
        version=mcp_extras.SERVER_VERSION,
        title="Direct booking",
        description="Availability, prices, holds and payment links for a direct-booking rental.",
        instructions=INSTRUCTIONS,
        website_url=settings.BASE_URL + MCP_PATH,
        icons=mcp_extras.icons(),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_resource_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_completion=complete,
    )


LOOPBACK = {"127.0.0.1", "localhost", "[::1]"}


def transport_security() -> TransportSecuritySettings:
    """DNS-rebinding protection from the site's own configuration: the Host must be one of
    ALLOWED_HOSTS or the host of BASE_URL (any port), and an Origin, when a browser sends one, must
    be on such a host. The SDK matches hosts literally, so Django's wildcards narrow here: ".example.com"
    allows example.com itself, and "*" allows only BASE_URL's host and loopback.
    """
    base = urlsplit(settings.BASE_URL).hostname or ""
    names = {f"[{base}]" if ":" in base else base}
    for pattern in settings.ALLOWED_HOSTS:
        names |= LOOPBACK if pattern == "*" else {pattern.lstrip(".")}
    names.discard("")
    hosts = sorted(names | {f"{name}:*" for name in names})
    origins = sorted(f"{scheme}://{host}" for scheme in ("https", "http") for host in hosts)
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


def streamable_http_app() -> Starlette:
    """The Starlette app serving POST /mcp. Its session manager must run for the app's lifetime:
    config/asgi.py enters `session_manager().run()` on the ASGI lifespan."""
    # The SDK logs each stateless request's end at INFO ("Terminating session: None"): noise.
    logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    return server().streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        max_request_body_size=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,  # 1 MiB, as for the JSON API
        transport_security=transport_security(),
    )


def session_manager():
    return server().session_manager
