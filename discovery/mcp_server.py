"""The MCP tool server: the official `mcp` SDK's low-level Server over Streamable HTTP at /mcp.

Stateless and answering in JSON (no sessions, no SSE streams), so any web process can serve any
request. The tools are the operations of discovery/operations.py; their input schemas come from
booking.api.validation and their output schemas from booking.api.schemas. The low-level Server is used
rather than MCPServer because MCPServer validates arguments with pydantic models of its own before a
tool runs: its messages would differ from the REST messages, which must be the same.

create_checkout_link hands the payment page to a client that can open it (URL-mode elicitation):
see "Handing the checkout to the client" below.
"""

import json
import logging
from datetime import UTC, datetime
from functools import cache
from urllib.parse import urlsplit

import anyio
import mcp_types as types
from django.conf import settings
from django.core.cache import cache as shared_cache
from django.utils.crypto import salted_hmac
from mcp.server import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from mcp_types.version import MODERN_PROTOCOL_VERSIONS, is_version_at_least
from starlette.applications import Starlette

from booking.callers import Caller
from booking.errors import BookingError
from discovery import mcp_extras
from discovery.json_schema import input_schema, output_schema
from discovery.operations import ARGUMENT_NOTES, IDEMPOTENCY_KEY_NOTE, OPERATIONS, Operation, error_payload, run_operation_async
from discovery.summaries import money, summary
from discovery.ucp import tools as ucp_tools

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
    "Dates are YYYY-MM-DD; check_out is the departure day. An argument means the same in every "
    "tool; it is explained in the first tool listed that takes it."
)


SHORTER_NOTES = {
    "guests": "The whole party, children included, 1-7: 2 adults + 2 children is guests=4.",
    "children_ages": "Ages 0-17 of the children counted in guests, e.g. [5, 14]; young ones pay no city tax.",
}


def tool_for(operation: Operation) -> types.Tool:
    arguments = input_schema(operation.arguments) if operation.arguments else {"type": "object", "properties": {}, "additionalProperties": False}
    for name, spec in arguments["properties"].items():
        if name in ARGUMENT_NOTES:
            spec.setdefault("description", ARGUMENT_NOTES[name])
        if name in SHORTER_NOTES:  # read on every connection: the tool list stays under 25 kB
            spec["description"] = SHORTER_NOTES[name]
    if operation.name == "get_calendar":
        arguments["properties"]["months"] = {**arguments["properties"]["months"], "default": MCP_CALENDAR_MONTHS}
    if operation.idempotency_scope:
        arguments["properties"]["idempotency_key"] = {"type": "string", "minLength": 1, "maxLength": 255, "description": IDEMPOTENCY_KEY_NOTE}
    result = outline(output_schema(operation.result))
    description = f"{operation.description} (REST: {operation.rest})"
    if operation.name == "create_checkout_link":
        result["properties"]["handed_to_client"] = {"type": "boolean", "description": HANDED_TO_CLIENT_NOTE}
        result["required"].append("handed_to_client")
        description += CHECKOUT_HAND_OFF_NOTE
    return types.Tool(
        name=operation.name,
        title=operation.title,
        description=description,
        input_schema=arguments,
        output_schema=result,
        annotations=types.ToolAnnotations(  # the title is the tool's own, not repeated here
            read_only_hint=operation.read_only,
            # Holds only add; release_hold is the one tool that takes something away (a hold).
            destructive_hint=operation.destructive,
            idempotent_hint=operation.idempotent,
            open_world_hint=operation.open_world,
        ),
    )


def outline(schema: dict) -> dict:
    """The result's top level only (each field's type; nested objects as "object"; the meaning of
    each field is in the REST API's OpenAPI document):
    the full nesting made the tool list 43 kB, most of it get_property's output schema, which an
    agent reads on every connection. The structured result is still the complete REST body."""
    return {"type": "object", "properties": {name: _field_outline(spec) for name, spec in schema["properties"].items()}, "required": schema["required"]}


def _field_outline(spec: dict) -> dict:
    kinds = spec.get("type") or [part.get("type") for part in spec.get("anyOf", [])]
    outline_ = {"type": kinds} if kinds else {}
    for keyword in ("enum",):  # not "format": the field's name says it is a date, and the budget is tight
        if keyword in spec:
            outline_[keyword] = spec[keyword]
    return outline_


@cache
def tools() -> list[types.Tool]:
    return described_once(OPERATIONS.values()) + ucp_tools.TOOLS


# What agents get wrong when it is not said at the argument itself (guests=2 with two children).
EXPLAINED_EVERYWHERE = {"guests"}


def described_once(operations) -> list[types.Tool]:
    """Each argument is explained in the first tool that takes it (an argument means the same in
    every tool, as the server's instructions say), and a result shape is outlined once, in the first
    tool that answers it (a reservation comes back from several tools): another tool answering it
    names that tool and outlines only the fields it adds. The tool list is read on every connection
    and stays under 25 kB."""
    outlined: list[tuple[str, dict]] = []  # (tool, its result's outline)
    explained: set[str] = set()
    described = []
    for operation in operations:
        tool = tool_for(operation)
        for name, spec in tool.input_schema["properties"].items():
            if name in explained and name not in EXPLAINED_EVERYWHERE:
                spec.pop("description", None)  # said in the first tool that takes it
            elif "description" in spec:
                explained.add(name)
        properties = tool.output_schema["properties"]
        same = next((name for name, shape in outlined if len(shape) >= 5 and set(shape) - {"id", "handed_to_client"} <= set(properties)), None)
        if same is None:
            outlined.append((tool.name, properties))
        else:
            added = {name: spec for name, spec in properties.items() if name not in dict(outlined)[same] and name != "handed_to_client"}
            shape = {"type": "object", "description": f"As {same} answers" + (", with: " + ", ".join(added) if added else "") + "."}
            if added:
                shape |= {"properties": added, "required": list(added)}
            tool = tool.model_copy(update={"output_schema": shape})
        described.append(tool)
    return described


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=tools())


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    """Every outcome is a tool result: bad input and refusals are tool errors (is_error) carrying
    the REST message, and the REST error body as JSON; nothing is raised to the transport."""
    if params.name in ucp_tools.NAMES:
        return await call_ucp_tool(ctx, params)
    if params.name not in OPERATIONS:
        names = ", ".join([*OPERATIONS, *ucp_tools.NAMES])
        return tool_error(f"Unknown tool {params.name!r}; the tools are: {names}.", {"status": 404, "code": "unknown_tool"})
    if params.name == CHECKOUT_TOOL and params.request_state is not None:
        # The second leg of a hand-off (2026-07-28): the checkout was made on the first.
        return resume_hand_off(params)
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
    if params.name == CHECKOUT_TOOL:
        return await hand_off_checkout(ctx, body)
    return tool_result(params.name, body)


async def call_ucp_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    """The UCP binding (discovery/ucp/tools.py): business outcomes are results, refusals tool errors
    in UCP's error envelope."""
    try:
        return ucp_tools.result(await ucp_tools.run_async(params.name, params.arguments, caller_of(ctx)))
    except BookingError as error:
        return ucp_tools.error_result(error)
    except Exception:
        logger.exception("MCP tool %s failed", params.name)
        return ucp_tools.error_result(ucp_tools.UnexpectedError())


def tool_result(name: str, body: dict) -> types.CallToolResult:
    # The full body is the structured content; the text is a short summary of it, not the same
    # JSON again (a year's calendar was 50–75 kB, twice).
    return types.CallToolResult(content=[types.TextContent(type="text", text=summary(name, body))], structured_content=body)


# --- Handing the checkout to the client (URL-mode elicitation) -----------------------------------
#
# A client that declared URL-mode elicitation (capabilities.elicitation.url, MCP 2025-11-25) is
# asked to open the checkout page for the guest itself: the payment then never passes through the
# model's context. Whatever the client answers, or if it cannot be asked, the result is the same
# checkout (checkout_url included) with handed_to_client saying whether the client accepted.
#
# - 2026-07-28 clients (the SDK's default): the tool answers input_required with the elicitation
#   and the checkout, sealed in request_state (AES-GCM under a key derived from SECRET_KEY, bound
#   to this tool and these arguments, so any web process can take the retry); the client's retry
#   carries the answer and gets the checkout without a second hold. Nothing waits on the server.
# - Handshake-era clients: an elicitation/create request on the call's own stream, for at most
#   HAND_OFF_SECONDS. This server is stateless with JSON answers, so there is no stream to send it
#   on and no initialize it could have read capabilities from: those clients get checkout_url
#   (handed_to_client false), as before. The code path serves a stateful or in-process server.

CHECKOUT_TOOL = "create_checkout_link"
CHECKOUT_INPUT = "open_checkout"
HAND_OFF_SECONDS = 10
REQUEST_STATE_TTL = 30 * 60  # a guest deciding whether to open the page; the hold lasts as long
HANDED_TO_CLIENT_NOTE = "True if your MCP client accepted to open checkout_url for the guest; otherwise give it to them yourself."
# Honest about who is asked: this server is stateless, so only clients of the 2026-07-28 protocol
# (which carry the question in an input_required result) are ever asked; handshake-era clients
# (2025-11-25 included) have no stream to be asked on.
CHECKOUT_HAND_OFF_NOTE = (
    " MCP 2026-07-28 clients declaring URL-mode elicitation are asked once to open the payment page "
    "(handed_to_client); other clients are not asked. checkout_url is in the result either way."
)
HAND_OFF_ASKED_PREFIX = "discovery.mcp.hand_off_asked:"


def supports_url_elicitation(ctx) -> bool:
    capabilities = ctx.session.client_capabilities
    return bool(capabilities and capabilities.elicitation and capabilities.elicitation.url is not None)


def is_modern(ctx) -> bool:
    return is_version_at_least(ctx.protocol_version, MODERN_PROTOCOL_VERSIONS[0])


def hand_off_request(body: dict) -> types.ElicitRequest:
    """What the client shows the guest: what they pay, for which stay, until when the dates are
    held, and the page. The id names the reservation (2025-11-25 requires one; 2026-07-28 drops it)."""
    test = " This is a TEST payment: no money moves." if body.get("test_mode") else ""
    message = (
        f"Pay {money(body['amount'], body['currency'])} for {body['nights']} nights, "
        f"{body['check_in']} to {body['check_out']}, {body['guests']} guests, on the secure payment page; "
        f"the dates are held for you until {utc_minute(body.get('hold_expires_at') or body['expires_at'])}.{test}"
    )
    return types.ElicitRequest(
        params=types.ElicitRequestURLParams(message=message, url=body["checkout_url"], elicitation_id=f"checkout-{body['reservation_id']}")
    )


def utc_minute(timestamp: str | None) -> str:
    try:
        return datetime.fromisoformat(timestamp or "").astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return timestamp or "the checkout closes"


async def hand_off_checkout(ctx, body: dict) -> types.CallToolResult | types.InputRequiredResult:
    if not supports_url_elicitation(ctx):
        return checkout_result(body, handed=False)
    request = hand_off_request(body)
    # Remembered only when the client is really asked, so a client that could not be asked once
    # (no stream) does not stop a later one from being asked.
    if is_modern(ctx):
        if not await first_hand_off(body["reservation_id"]):
            return checkout_result(body, handed=False)
        return types.InputRequiredResult(input_requests={CHECKOUT_INPUT: request}, request_state=as_json(body))
    handed = False
    if ctx.session.can_send_request and await first_hand_off(body["reservation_id"]):
        params = request.params
        assert isinstance(params, types.ElicitRequestURLParams)
        try:
            with anyio.fail_after(HAND_OFF_SECONDS):
                answer = await ctx.session.elicit_url(params.message, params.url, params.elicitation_id or "", related_request_id=ctx.request_id)
            handed = answer.action == "accept"
        except Exception as error:  # a client that errs or is slow costs the hand-off, never the checkout
            logger.info("checkout hand-off to the MCP client failed: %s", error.__class__.__name__)
    return checkout_result(body, handed=handed)


async def first_hand_off(reservation_id: str) -> bool:
    """Whether the guest has not been asked about this hold yet: a retry with the same
    idempotency_key replays the same checkout, and must not ask the human a second time. The
    shared cache (every web process sees it) remembers who was asked, for as long as a hold lasts."""
    try:
        return await shared_cache.aadd(HAND_OFF_ASKED_PREFIX + reservation_id, 1, timeout=REQUEST_STATE_TTL)
    except Exception:  # no cache: asking twice is better than never asking
        logger.warning("hand-off memory unavailable; asking the client anyway", exc_info=True)
        return True


def resume_hand_off(params: types.CallToolRequestParams) -> types.CallToolResult:
    """The checkout from request_state (verified by the RequestStateBoundary before this runs),
    with the client's answer to the elicitation."""
    try:
        body = json.loads(params.request_state or "")
    except ValueError:
        return tool_error("The request_state of this call is not one this server made.", {"status": 422, "code": "invalid_request_state"})
    answer = (params.input_responses or {}).get(CHECKOUT_INPUT)
    return checkout_result(body, handed=isinstance(answer, types.ElicitResult) and answer.action == "accept")


def checkout_result(body: dict, *, handed: bool) -> types.CallToolResult:
    body = {**body, "handed_to_client": handed}
    text = summary(CHECKOUT_TOOL, body)
    if handed:
        text += " (Your MCP client accepted to open this page for the guest.)"
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=body)


def request_state_security() -> RequestStateSecurity:
    """One key for every web process, from SECRET_KEY (the fallbacks still open older tokens)."""
    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    keys = [salted_hmac("discovery.mcp.request_state", "aes-key", secret=secret, algorithm="sha256").digest() for secret in secrets]
    return RequestStateSecurity(keys=keys, ttl=REQUEST_STATE_TTL)


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
    mcp = Server(
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
    mcp.middleware.append(RequestStateBoundary(request_state_security(), default_audience=SERVER_NAME))
    return mcp


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
