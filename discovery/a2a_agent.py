"""The A2A agent: its card (/.well-known/agent-card.json) and its JSON-RPC endpoint (POST /a2a),
built with the official a2a-sdk.

A skill is called with a message whose data part holds the REST body's fields plus "skill", the
operation's name, e.g. {"skill": "check_availability", "check_in": "2027-05-10", ...}. The agent
answers at once with one message (no task is kept, so any web process can answer any request):
a text part saying the answer in a few words (the MCP tools' summary) and a data part with the
REST answer's body, or, when the call fails, a text part with the REST message and a data part
{"error": {status, code, message, detail}}.
"""

import json
import logging
from datetime import date

from a2a.helpers import get_text_parts, new_data_artifact, new_data_part, new_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events.event_queue_v2 import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import DefaultServerCallContextBuilder, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types.a2a_pb2 import AgentCapabilities, AgentCard, AgentInterface, AgentProvider, AgentSkill, Task, TaskState, TaskStatus
from a2a.utils.constants import PROTOCOL_VERSION_CURRENT, TransportProtocol
from a2a.utils.errors import UnsupportedOperationError
from django.conf import settings
from google.protobuf.json_format import MessageToDict
from mcp.server.transport_security import RequestBodyLimitMiddleware, TransportSecurityMiddleware
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse

from booking.callers import Caller
from booking.catalog.selectors import today as property_today
from booking.errors import BookingError, InvalidInput
from config.version import VERSION
from discovery.endpoints import A2A_PATH, brand  # noqa: F401 (A2A_PATH: part of this module's interface)
from discovery.operations import OPERATIONS, Operation, error_payload, example_arguments, run_operation_async
from discovery.summaries import summary

logger = logging.getLogger("discovery.a2a")

JSON = "application/json"
TEXT = "text/plain"


def agent_card(prop=None, *, today: date | None = None) -> AgentCard:
    """The card, from the live configuration: BASE_URL, and the property when there is one."""
    base = settings.BASE_URL
    name = f"{brand(prop)} — direct booking" if prop else "Direct booking"
    summary = (prop.summary.strip() + " ") if prop and prop.summary.strip() else ""
    return AgentCard(
        name=name,
        description=(
            f"{summary}Books stays directly with the host: property details, availability and prices, "
            'quotes, holds and payment links. Send a message with a data part holding "skill" (one of '
            f"the skill ids) and that skill's fields, named as in the REST API ({base}/api/openapi.json). "
            "Recommended order: get_property, check_availability, create_checkout_link; give the guest "
            "the checkout_url and do not collect guest details before payment."
        ),
        version=VERSION,
        supported_interfaces=[
            AgentInterface(url=base + A2A_PATH, protocol_binding=TransportProtocol.JSONRPC.value, protocol_version=PROTOCOL_VERSION_CURRENT),
            # The same endpoint speaks 0.3 too (enable_v0_3_compat); declaring it puts the 0.3 card
            # fields (url, protocolVersion, preferredTransport) in the card, so 0.3 clients can read it.
            AgentInterface(url=base + A2A_PATH, protocol_binding=TransportProtocol.JSONRPC.value, protocol_version="0.3"),
        ],
        provider=AgentProvider(organization=(prop.name if prop else "Direct booking"), url=base),
        documentation_url=base + "/agents",
        icon_url=base + settings.STATIC_URL + "img/favicon.svg",
        capabilities=AgentCapabilities(streaming=False, push_notifications=False, extended_agent_card=False),
        default_input_modes=[JSON],
        default_output_modes=[JSON, TEXT],
        skills=[skill_for(operation, today or property_today()) for operation in OPERATIONS.values()],
    )


def skill_for(operation: Operation, today: date) -> AgentSkill:
    tags = ["booking", "read-only" if operation.read_only else "creates-hold"]
    if operation.name == "create_checkout_link":
        tags.append("recommended")
    return AgentSkill(
        id=operation.name,
        name=operation.title,
        description=f"{operation.description} Same fields and answer as {operation.rest}.",
        tags=tags,
        examples=[json.dumps({"skill": operation.name, **example_arguments(operation, today)})],
        input_modes=[JSON],
        output_modes=[JSON, TEXT],
    )


def data_part_value(value) -> object:
    """A data part (a protobuf Value) as the JSON an agent meant.

    Values travel as protobuf, which keeps every number as a double: the guests: 2 an agent sent
    arrives as 2.0, so whole numbers get their integer type back (a JSON body would have had it)
    and the REST validation judges what the agent meant. Read here rather than by protobuf's own
    converter, which raises ValueError on the infinity JSON's 1e309 becomes (issue 12, item 8: an
    internal error); infinity and NaN stay floats, which the REST validation refuses with the
    message, type and `loc` REST and MCP give.
    """
    kind = value.WhichOneof("kind")
    if kind == "number_value":
        number = value.number_value
        return int(number) if number.is_integer() else number
    if kind == "struct_value":
        return {key: data_part_value(item) for key, item in value.struct_value.fields.items()}
    if kind == "list_value":
        return [data_part_value(item) for item in value.list_value.values]
    if kind == "string_value":
        return value.string_value
    if kind == "bool_value":
        return value.bool_value
    return None


def skill_request(message) -> tuple[str, dict]:
    """The skill and its arguments from a message: its data parts (merged), or else a text part
    holding a JSON object; the skill from the "skill" field, or else the message's metadata."""
    arguments: dict = {}
    for part in message.parts:
        if not part.HasField("data"):
            continue
        data = data_part_value(part.data)
        if not isinstance(data, dict):
            raise InvalidInput.single(["body"], "A data part must be a JSON object.", "model_attributes_type")
        arguments |= data
    if not arguments:
        text = "\n".join(get_text_parts(message.parts)).strip()
        try:
            arguments = json.loads(text) if text else {}
        except (ValueError, RecursionError):  # RecursionError: nesting deep enough to exhaust the stack
            arguments = None
        if arguments is None and text and text[0] not in "{[":
            raise FreeText  # words, not a request: the answer shows what to send
        if not isinstance(arguments, dict):
            raise InvalidInput.single(["body"], 'Send a data part (a JSON object) with "skill" and the skill\'s fields.', "model_attributes_type")
    metadata = MessageToDict(message.metadata) if message.HasField("metadata") else {}
    skill = arguments.pop("skill", None) or metadata.get("skill")
    if not isinstance(skill, str) or skill not in OPERATIONS:
        skills = ", ".join(OPERATIONS)
        raise InvalidInput.single(["body", "skill"], f'Name the skill in "skill": one of {skills}.', "enum" if skill else "missing")
    return skill, arguments


class FreeText(Exception):
    """A message with words but no skill request: answered with a Task asking for the data part."""


def how_to_ask(today: date) -> dict:
    """The data part to send, with a working example: what an input-required Task shows."""
    example = {"skill": "check_availability", **example_arguments(OPERATIONS["check_availability"], today)}
    return {
        "expected": 'a data part (a JSON object) with "skill" and the skill\'s fields, as on the agent card',
        "skills": list(OPERATIONS),
        "example": example,
    }


class RecentTaskStore(InMemoryTaskStore):
    """The SDK's in-memory task store, keeping this process's most recent LIMIT tasks.

    Tasks here are refusals and requests for input, read back within moments if ever; unbounded,
    every refusal would stay in memory for the life of the process. A task sent to another web
    process (or after a restart) is not found: the client sends a new message instead, which works
    the same (the input-required Task says what to send)."""

    LIMIT = 500

    async def save(self, task, context) -> None:
        await super().save(task, context)
        tasks = self._impl.tasks  # owner → {task id → task}, in the order first saved
        with self._impl.lock:
            excess = sum(len(owned) for owned in tasks.values()) - self.LIMIT
            for owner in list(tasks):
                while excess > 0 and tasks[owner]:
                    del tasks[owner][next(iter(tasks[owner]))]
                    excess -= 1
                if not tasks[owner]:
                    del tasks[owner]

    def __len__(self) -> int:
        return sum(len(owned) for owned in self._impl.tasks.values())


class BookingAgentExecutor(AgentExecutor):
    """A skill's answer is a Message with the REST body in a data part. What is not an answer is a
    Task a client can act on: words without a skill request → input-required, showing the data part
    to send (send it in the same task, or as a new message); a refusal (4xx) → rejected; our or
    the payment provider's failure (5xx) → failed. Their status message carries the REST message
    and the REST error body, as a data part {"error": …}."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        state = context.call_context.state if context.call_context else {}
        caller = state.get("caller") or Caller("a2a")
        try:
            skill, arguments = skill_request(context.message)
            if OPERATIONS[skill].idempotency_scope and "idempotency_key" not in arguments and context.message.message_id:
                # A2A's retry key is the message's id: a client re-sending a message after a lost
                # answer gets the first answer again, not a second hold.
                arguments["idempotency_key"] = context.message.message_id
            body = await run_operation_async(skill, arguments, caller)
        except FreeText:
            text = 'I book stays through skills: send a data part with "skill" and its fields (see the example).'
            parts = [new_text_part(text, media_type=TEXT), new_data_part(how_to_ask(property_today()), media_type=JSON)]
            await self.finish(context, event_queue, TaskState.TASK_STATE_INPUT_REQUIRED, parts)
            return
        except BookingError as error:
            parts = [new_text_part(error.detail, media_type=TEXT), new_data_part({"error": error_payload(error)}, media_type=JSON)]
            await self.finish(context, event_queue, TaskState.TASK_STATE_REJECTED if error.status < 500 else TaskState.TASK_STATE_FAILED, parts)
            return
        except Exception:
            logger.exception("A2A skill failed")
            failure = {"status": 500, "code": "internal_error", "message": "An unexpected error occurred; it has been logged."}
            parts = [new_text_part(failure["message"], media_type=TEXT), new_data_part({"error": failure}, media_type=JSON)]
            await self.finish(context, event_queue, TaskState.TASK_STATE_FAILED, parts)
            return
        # The words an LLM reads (the MCP tools' summaries), beside the REST body as data.
        parts = [new_text_part(summary(skill, body), media_type=TEXT), new_data_part(body, media_type=JSON)]
        if context.current_task is not None:
            # The answer to a task that asked for input completes that task.
            await self.finish(context, event_queue, TaskState.TASK_STATE_COMPLETED, parts, artifacts=[new_data_artifact("result", body)])
            return
        await event_queue.enqueue_event(new_message(parts, context_id=context.context_id))

    @staticmethod
    async def finish(context: RequestContext, event_queue: EventQueue, state, parts, artifacts=()) -> None:
        # No history: the client has what it sent, and a message with a number JSON cannot write
        # (1e309 arrives as infinity) must not make the answer unwritable too.
        task = Task(
            id=context.task_id,
            context_id=context.context_id,
            artifacts=list(artifacts),
            status=TaskStatus(state=state, message=new_message(parts, context_id=context.context_id, task_id=context.task_id)),
        )
        await event_queue.enqueue_event(task)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise UnsupportedOperationError(message="Skills answer at once; there is no task to cancel.")


class CallerContextBuilder(DefaultServerCallContextBuilder):
    """Adds who is calling (for the per-client hold limits) to the SDK's call context."""

    def build(self, request):
        context = super().build(request)
        context.state["caller"] = Caller.from_http(
            "a2a", peer=request.client.host if request.client else None, forwarded_for=request.headers.get("x-forwarded-for")
        )
        return context


class UnreadableJsonRefused:
    """A JSON-RPC parse error (-32700) for a body Python's json module cannot read for a reason
    other than bad syntax: bytes that are not UTF-8, nesting deep enough to exhaust the stack,
    integers of more than 4300 digits; invalid params (-32602) for a string with a lone surrogate. The SDK answers only syntax errors as parse errors and these
    as -32603 "Internal error", though they are the client's (REST answers them 422 json_invalid).

    Inside RequestBodyLimitMiddleware, which has already gathered the whole (bounded) body into one
    message, so the price is a second parse in C of at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = await receive()
        body = message.get("body", b"")
        try:
            document = json.loads(body)
        except json.JSONDecodeError:
            pass  # bad syntax: the SDK's own parse error
        except (ValueError, RecursionError) as error:
            refusal = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": f"Parse error: {error}"}}
            await JSONResponse(refusal)(scope, receive, send)
            return
        else:
            if has_lone_surrogate(body, document):
                request_id = document.get("id") if isinstance(document, dict) else None
                refusal = {"jsonrpc": "2.0", "id": request_id if isinstance(request_id, str | int) else None, "error": LONE_SURROGATE}
                await JSONResponse(refusal)(scope, receive, send)
                return
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return message

        await self.app(scope, replay, send)


# JSON may escape half a UTF-16 pair ("\\ud800") that no Unicode text holds: the SDK's conversion
# of a 0.3 message then fails inside (-32603 and a traceback). It is the client's error.
LONE_SURROGATE = {"code": -32602, "message": "Invalid params: a string holds a lone surrogate (an unpaired \\ud800-\\udfff escape), which is not text."}


def has_lone_surrogate(body: bytes, document: object) -> bool:
    if b"\\ud" not in body.lower():
        return False  # no surrogate escape at all: the usual case, decided without a second pass
    try:
        json.dumps(document, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return True
    return False


def whole_numbers_as_integers(value):
    """2.0 → 2, everywhere in a JSON document; other numbers as they are."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers_as_integers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers_as_integers(item) for item in value]
    return value


class WholeNumbersAsIntegers:
    """Answers whose integers read as integers.

    A data part is a protobuf Struct, which keeps every number as a double, so the SDK writes the
    REST body's `"guests": 2` as `2.0` and a 429's `retry_after` as `946.0`. An agent reading the
    JSON (curl, any language without the SDK) should see what the REST API writes. Answers are
    single JSON documents (the card declares no streaming), so the body is rewritten whole."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        start: dict = {}
        chunks: list[bytes] = []

        async def rewrite(message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = b"".join(chunks)
            headers = [(name, value) for name, value in start.get("headers", []) if name.lower() != b"content-length"]
            if dict(headers).get(b"content-type", b"").startswith(b"application/json"):
                try:
                    body = json.dumps(whole_numbers_as_integers(json.loads(body)), ensure_ascii=False).encode()
                except ValueError:
                    pass  # not JSON after all: sent as it came
            await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, rewrite)


class A2AEndpoint:
    """POST /a2a: the SDK's JSON-RPC app behind the checks the SDK leaves to the host, the same as
    the MCP endpoint's: Host and Origin (DNS rebinding) and body size. The content type is left to
    the SDK, which reads any JSON body (A2A clients may say application/a2a+json)."""

    def __init__(self, security: TransportSecurityMiddleware):
        self.request_handler = DefaultRequestHandler(
            agent_executor=BookingAgentExecutor(),
            # Holds only the tasks that are not answers (input-required, rejected, failed), the
            # last few hundred of this process's.
            task_store=RecentTaskStore(),
            agent_card=agent_card(),
        )
        # Clients of A2A 0.3 (no A2A-Version header, "message/send") are answered too.
        routes = create_jsonrpc_routes(self.request_handler, A2A_PATH, context_builder=CallerContextBuilder(), enable_v0_3_compat=True)
        self.app = RequestBodyLimitMiddleware(UnreadableJsonRefused(WholeNumbersAsIntegers(Starlette(routes=routes))), settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        self.security = security

    async def __call__(self, scope, receive, send) -> None:
        refusal = await self.security.validate_request(Request(scope, receive), is_post=False)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def aclose(self) -> None:
        await self.request_handler.aclose()
