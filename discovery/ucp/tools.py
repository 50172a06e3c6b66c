"""The UCP MCP binding: the five booking-session tools on the existing /mcp server.

Arguments as UCP's MCP binding has them: `meta` (`ucp-agent`, `idempotency-key`), the session `id`
for operations on an existing session, and the `booking` payload. Results: the UCP body as the
structured content (business outcomes included, e.g. inventory_exhausted), and the same JSON as
text. Malformed arguments, unknown sessions and reused keys are tool errors whose content is UCP's
error envelope, as the REST binding answers them.
"""

import json
from typing import Any

import mcp_types as types
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.db import DatabaseError, close_old_connections, connections

from booking.callers import Caller
from booking.errors import BookingError, InvalidInput, ServiceUnavailable
from discovery.ucp import sessions

STATUSES = ["incomplete", "requires_escalation", "ready_for_complete", "complete_in_progress", "completed", "canceled"]
_REF = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
_STAY = {
    "type": "object",
    "properties": {
        "accommodation_type": _REF,
        "rate_plan": _REF,
        "occupancy": {
            "type": "object",
            "properties": {n: {"type": "integer"} for n in ("adults", "children", "total")} | {"child_ages": {"type": "array", "items": {"type": "integer"}}},
            "required": ["total"],
        },
        "stay_dates": {"type": "object", "properties": {"start_date": {"type": "string", "format": "date"}, "end_date": {"type": "string", "format": "date"}}},
    },
    "required": ["occupancy", "stay_dates"],
}
BOOKING = {
    "type": "object",
    "description": "UCP booking: property.id, one stay with accommodation_type.id and rate_plan.id (see get_property), occupancy and stay_dates; optional promo_code and extras as in get_quote.",
    "properties": {
        "property": _REF,
        "stays": {"type": "array", "items": _STAY, "minItems": 1, "maxItems": 1},
        "promo_code": {"type": "string"},
        "extras": {"type": "array"},
    },
    "required": ["property", "stays"],
}
META = {"type": "object", "properties": {"ucp-agent": {"type": "object"}, "idempotency-key": {"type": "string", "maxLength": 255}}}
ID = {"type": "string"}
OUTPUT = {
    "type": "object",
    "properties": {"ucp": {"type": "object"}, "id": {"type": "string"}, "status": {"type": "string", "enum": STATUSES}, "continue_url": {"type": "string"}},
    "required": ["ucp"],
}
HAND_OFF = " The guest pays on our page: give them continue_url."
KEY_LOCATION = ("body", "meta", "idempotency-key")


def _tool(name: str, title: str, description: str, properties: dict, required: list[str], *, read_only=False, destructive=False) -> types.Tool:
    return types.Tool(
        name=name,
        title=title,
        description=description,
        # meta is spelled out once (create); the others take the same object.
        input_schema={
            "type": "object",
            "properties": {"meta": META if name == "create_booking_session" else {"type": "object"}, **properties},
            "required": required,
            "additionalProperties": False,
        },
        output_schema=OUTPUT,
        annotations=types.ToolAnnotations(  # the title is the tool's own, not repeated here
            read_only_hint=read_only, destructive_hint=destructive, idempotent_hint=read_only, open_world_hint=False
        ),
    )


TOOLS = [
    _tool(
        "create_booking_session",
        "UCP: create a booking session",
        "UCP lodging booking: hold a stay; the session carries totals, policies and continue_url. Taken dates: "
        'inventory_exhausted, nothing held. meta: {"ucp-agent": {"profile": url}, "idempotency-key": uuid}; reuse the key on retry.' + HAND_OFF,
        {"booking": BOOKING},
        ["booking"],
    ),
    _tool("get_booking_session", "UCP: get a booking session", "A booking session's current state (completed once paid).", {"id": ID}, ["id"], read_only=True),
    _tool(
        "update_booking_session",
        "UCP: update a booking session",
        "Full replacement: new dates or party re-hold at once, or the session keeps its hold and says why (incomplete).",
        {"id": ID, "booking": {"type": "object", "description": "The whole booking, as on create."}},
        ["id", "booking"],
    ),
    _tool(
        "complete_booking_session",
        "UCP: complete a booking session",
        "No payment handler: requires_escalation until the guest has paid on continue_url, then completed.",
        {"id": ID, "booking": {"type": "object", "description": "payment ({} for now); signals."}},
        ["id", "booking"],
    ),
    _tool(
        "cancel_booking_session", "UCP: cancel a booking session", "Release the session's hold; the dates are free again.", {"id": ID}, ["id"], destructive=True
    ),
]
NAMES = {tool.name for tool in TOOLS}
ARGUMENTS = {tool.name: set(tool.input_schema["properties"]) for tool in TOOLS}


def run(name: str, arguments: Any, caller: Caller) -> dict:
    """Validate the envelope, run the operation; raises BookingError for the server to report."""
    arguments = {} if arguments is None else arguments
    if not isinstance(arguments, dict):
        raise InvalidInput.single(["body"], "Arguments should be a JSON object.", "model_attributes_type")
    extra = [name_ for name_ in arguments if name_ not in ARGUMENTS[name]]
    accepted = ", ".join(sorted(ARGUMENTS[name]))
    errors = [{"loc": ["body", field], "msg": f"Unknown field {field!r}; the accepted fields are: {accepted}.", "type": "extra_forbidden"} for field in extra]
    session_id = arguments.get("id")
    # Any non-empty string goes on: one that is not a session id is not_found, as over REST, with no
    # query (booking/ids.py).
    if "id" in ARGUMENTS[name] and not (isinstance(session_id, str) and session_id):
        errors.append({"loc": ["body", "id"], "msg": "The booking session id, a string (res_…).", "type": "string_type"})
    meta = arguments.get("meta") or {}
    key = meta.get("idempotency-key") if isinstance(meta, dict) else None
    if key is not None and not (isinstance(key, str) and 0 < len(key) <= 255):
        errors.append({"loc": ["body", "meta", "idempotency-key"], "msg": "Must be a string of 1 to 255 characters.", "type": "string_type"})
    if errors:
        raise InvalidInput.located(errors)
    booking, sid = arguments.get("booking"), str(session_id or "")
    if name == "create_booking_session":
        agent = meta.get("ucp-agent", {}).get("profile") if isinstance(meta.get("ucp-agent"), dict) else None
        return sessions.create(booking, caller, idempotency_key=key, key_location=KEY_LOCATION, agent_name=str(agent)[:100] if agent else None)[1]
    if name == "get_booking_session":
        return sessions.get(sid)[1]
    if name == "update_booking_session":
        return sessions.update(sid, booking, caller, idempotency_key=key, key_location=KEY_LOCATION)[1]
    if name == "complete_booking_session":
        return sessions.complete(sid, booking, idempotency_key=key, key_location=KEY_LOCATION)[1]
    return sessions.cancel(sid, caller, idempotency_key=key, key_location=KEY_LOCATION)[1]


async def run_async(name: str, arguments: Any, caller: Caller) -> dict:
    """run() in a thread of its own for this call, its connections closed after (as operations.py does)."""
    async with ThreadSensitiveContext():
        return await sync_to_async(_run_with_connections, thread_sensitive=True)(name, arguments, caller)


def _run_with_connections(name: str, arguments: Any, caller: Caller) -> dict:
    close_old_connections()
    try:
        return run(name, arguments, caller)
    except DatabaseError as error:
        raise ServiceUnavailable("The database is unavailable; try again shortly.") from error
    finally:
        connections.close_all()


def result(body: dict, *, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(body, ensure_ascii=False))], structured_content=body, is_error=is_error)


class UnexpectedError(BookingError):
    status = 500
    code = "internal_error"
    default_detail = "An unexpected error occurred; it has been logged."


def error_result(error: BookingError) -> types.CallToolResult:
    """A refusal (bad arguments, unknown session, reused key) in UCP's error envelope, as the REST
    binding answers it; a tool error, so a client that reads only is_error still sees it."""
    return result(sessions.error_answer(error)[1], is_error=True)
