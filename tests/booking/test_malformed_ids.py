"""An id that is not of its shape (a reservation id, which is also a UCP session's and a payment
link's, a manage token, a sandbox checkout id) is answered before any query runs: 404 as an unknown
id is, or the 422 the JSON API documents for an absurd id. A NUL, a lone surrogate or 500
characters never reach the database (on PostgreSQL a NUL was a DataError: 500s and 503s). Free text
with a NUL or a lone surrogate is a 422 on every interface, never a 5xx. Run on SQLite and on
PostgreSQL (DATABASE_URL=postgres://…)."""

import asyncio
import json
from contextlib import contextmanager

import mcp_types as types
import pytest
from a2a.helpers import new_data_part, new_message
from a2a.types.a2a_pb2 import TaskState
from django.db import connection, connections
from google.protobuf.json_format import MessageToDict

from booking import ids
from booking.errors import InvalidInput
from booking.reservations.models import Reservation, Review, new_manage_token, new_reservation_id
from booking.reservations.services import reviews
from discovery import mcp_server
from discovery.a2a_agent import BookingAgentExecutor
from discovery.ucp.sessions import json_path
from tests.agents.ucp import error_body, session_request
from tests.dates import future

pytestmark = pytest.mark.django_db

# (as written in a path, as an argument holds it)
NUL = ("%00", "\x00")
NUL_INSIDE = ("res_%00abc", "res_\x00abc")
SURROGATE = ("%ED%A0%80", "\ud800")  # in a path: bytes that are not UTF-8; in JSON: "\ud800"
OVERLONG = ("x" * 500, "x" * 500)
ODD = ("res_o'neil", "res_o'neil")  # short and printable, but not an id we could have issued
TOKEN_WITH_NUL = ("a" * 20 + "%00" + "b" * 22, "a" * 20 + "\x00" + "b" * 22)  # a manage token's length
MALFORMED = [NUL, NUL_INSIDE, SURROGATE, OVERLONG, ODD]
NAMES = ["nul", "nul-inside", "surrogate", "overlong", "odd"]


@contextmanager
def recorded_queries():
    """Every SQL statement run meanwhile, from any thread: MCP and A2A run the ORM in a thread of
    their own per call, with a connection of its own, which django_assert_num_queries (watching
    this thread's connection) would not see; each new connection gets the same wrapper."""
    ran: list[tuple[str, object]] = []

    def record(execute, sql, params, many, context):
        ran.append((sql, params))
        return execute(sql, params, many, context)

    create = connections.create_connection

    def create_recording(alias):
        created = create(alias)
        created.execute_wrappers.append(record)
        return created

    connections.create_connection = create_recording
    try:
        with connection.execute_wrapper(record):
            yield ran
    finally:
        del connections.create_connection  # the handler's own method again


# What the malformed ids above become on their way in (a path's bytes that are not UTF-8 stay
# percent-encoded; in a query they become U+FFFD).
SUSPECT = ("\x00", "\ud800", "%ED%A0%80", "\ufffd", "x" * 500, "o'neil")


def lookups(ran: list[tuple[str, object]]) -> list[str]:
    """The statements given a malformed id (a page's own queries, e.g. the calendar of /book, aside)."""
    return [sql for sql, params in ran if any(part in str(param) for param in params or () for part in SUSPECT)]


class TestTheShapes:
    def test_issued_ids_have_their_shape(self):
        assert ids.is_reservation_id(new_reservation_id()) and ids.is_manage_token(new_manage_token())
        assert ids.is_sandbox_checkout_id("cs_sandbox_" + "A-b_9" * 6)

    @pytest.mark.parametrize("text", ["", "res_", "res_a b", "res_\x00abc", "res_\ud800", "res_" + "a" * 37, "RES_abc", "res_abc\n", "res_ａｂｃ", None, 7])
    def test_anything_else_is_not_a_reservation_id(self, text):
        assert not ids.is_reservation_id(text)

    @pytest.mark.parametrize("text", ["a" * 19, "a" * 65, "a" * 20 + "\x00" + "b" * 22, "a" * 42 + "=", "\ud800" * 43])
    def test_anything_else_is_not_a_manage_token(self, text):
        assert not ids.is_manage_token(text)


class TestJsonApi:
    """GET and DELETE /api/v1/reservations/{id}: the documented 422 for an absurd id (over 200
    characters, a NUL), 404 for any other that is not an id."""

    @pytest.mark.parametrize("method", ["get", "delete"])
    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_malformed_reservation_id(self, client, demo_property, method, raw):
        path, _ = raw
        with recorded_queries() as ran:
            response = getattr(client, method)(f"/api/v1/reservations/{path}")
        assert ran == []
        if raw in (NUL, NUL_INSIDE, OVERLONG):
            assert response.status_code == 422
            [item] = response.json()["detail"]
            assert item["loc"] == ["path", "reservation_id"] and item["type"] in ("value_error", "string_too_long")
        else:
            assert response.status_code == 404
            assert response.json() == {**response.json(), "detail": "No reservation with this id.", "code": "not_found"}

    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_malformed_reservation_id_to_pay(self, api, demo_property, raw):
        _, value = raw
        with recorded_queries() as ran:
            response = api.post("/api/v1/payments/checkout-session", {"reservation_id": value})
        assert lookups(ran) == []
        if raw is ODD:
            assert response.status_code == 404 and response.json()["code"] == "not_found"
        else:
            assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "reservation_id"]


UCP_ROUTES = [("get", ""), ("put", ""), ("post", "/complete"), ("post", "/cancel")]


class TestUcpRest:
    @pytest.mark.parametrize(("method", "suffix"), UCP_ROUTES, ids=["get", "put", "complete", "cancel"])
    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_malformed_session_id_is_not_found(self, client, demo_property, method, suffix, raw):
        body = session_request(45) if method == "put" else {"payment": {}}
        with recorded_queries() as ran:
            response = getattr(client, method)(f"/ucp/v1/booking-sessions/{raw[0]}{suffix}", body, content_type="application/json")
        assert ran == []
        assert response.status_code == 404
        [message] = error_body(response.json())["messages"]
        assert message["code"] == "not_found" and message["severity"] == "unrecoverable"


def call_tool(name: str, arguments: dict) -> types.CallToolResult:
    """The MCP server's own tools/call handler, in this process (its ORM work in a thread, as served)."""
    return asyncio.run(mcp_server.call_tool(object(), types.CallToolRequestParams(name=name, arguments=arguments)))


UCP_TOOLS = [
    ("get_booking_session", {}),
    ("update_booking_session", {"booking": session_request(45)}),
    ("complete_booking_session", {"booking": {"payment": {}}}),
    ("cancel_booking_session", {}),
]


class TestMcpTools:
    def test_the_recorder_sees_the_queries_of_the_tool_s_own_thread(self, db):
        """The control: a well-formed unknown id is looked up, in the thread the tool runs in."""
        with recorded_queries() as ran:
            result = call_tool("get_booking_session", {"id": "res_unknown"})
        assert result.is_error and [sql for sql, params in ran if "res_unknown" in params]

    @pytest.mark.parametrize(("tool", "extra"), UCP_TOOLS, ids=[name for name, _ in UCP_TOOLS])
    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_ucp_tool_answers_not_found_as_for_an_unknown_session(self, db, tool, extra, raw):
        with recorded_queries() as ran:
            result = call_tool(tool, {"id": raw[1], **extra})
        assert ran == []
        unknown = call_tool(tool, {"id": "res_unknown", **extra})
        assert result.is_error and unknown.is_error  # in UCP's error envelope, as over REST
        [message], [unknown_message] = error_body(result.structured_content)["messages"], error_body(unknown.structured_content)["messages"]
        assert message["code"] == unknown_message["code"] == "not_found" and message["severity"] == "unrecoverable"

    @pytest.mark.parametrize("tool", ["get_reservation", "release_hold"])
    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_reservation_tool_answers_as_the_json_api(self, db, tool, raw):
        with recorded_queries() as ran:
            result = call_tool(tool, {"reservation_id": raw[1]})
        assert ran == []
        payload = json.loads(result.content[1].text)
        assert result.is_error
        if raw is ODD:
            assert payload["status"] == 404 and payload["code"] == "not_found"
        else:
            assert payload["status"] == 422 and payload["detail"][0]["loc"] == ["path", "reservation_id"]


class Events:
    def __init__(self):
        self.events = []

    async def enqueue_event(self, event):
        self.events.append(event)


class Context:
    def __init__(self, data: dict):
        self.message = new_message([new_data_part(data)])
        self.call_context, self.current_task, self.context_id, self.task_id = None, None, "context-1", "task-1"


class TestA2aSkills:
    """(A lone surrogate never reaches a skill: the A2A endpoint refuses it as invalid params, see
    tests/agents/test_retry_keys_and_odd_text.py; a protobuf message cannot even hold one.)"""

    @pytest.mark.parametrize("skill", ["get_reservation", "release_hold"])
    @pytest.mark.parametrize("raw", [NUL, NUL_INSIDE, OVERLONG, ODD], ids=["nul", "nul-inside", "overlong", "odd"])
    def test_a_malformed_reservation_id_is_rejected(self, db, skill, raw):
        events = Events()
        with recorded_queries() as ran:
            asyncio.run(BookingAgentExecutor().execute(Context({"skill": skill, "reservation_id": raw[1]}), events))
        assert ran == []
        [task] = events.events
        assert task.status.state == TaskState.TASK_STATE_REJECTED
        error = MessageToDict(task.status.message.parts[1].data)["error"]
        assert error["status"] == (404 if raw is ODD else 422) and error["code"] == ("not_found" if raw is ODD else "validation_error")


PAGES = [
    "/manage/{}",
    "/manage/{}/stay.ics",
    "/manage/{}/receipts/2026/1.pdf",
    "/manage/{}/check-in",
    "/manage/{}/change-dates",
    "/manage/{}/authorise-deposit",
    "/manage/{}/review",
]


class TestPages:
    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_malformed_payment_link_is_not_found(self, client, demo_property, raw):
        with recorded_queries() as ran:
            response = client.get(f"/pay/{raw[0]}")
        assert response.status_code == 404 and lookups(ran) == []

    @pytest.mark.parametrize("page", PAGES)
    @pytest.mark.parametrize("raw", [*MALFORMED, TOKEN_WITH_NUL], ids=[*NAMES, "token-with-nul"])
    def test_a_malformed_manage_token_is_not_found(self, client, demo_property, page, raw):
        with recorded_queries() as ran:
            response = client.get(page.format(raw[0]))
        assert response.status_code == 404 and lookups(ran) == []

    @pytest.mark.parametrize("raw", [*MALFORMED, TOKEN_WITH_NUL], ids=[*NAMES, "token-with-nul"])
    def test_cancelling_with_a_malformed_manage_token_is_not_found(self, client, demo_property, raw):
        with recorded_queries() as ran:
            response = client.post(f"/manage/{raw[0]}/cancel", {"confirm": "yes"})
        assert response.status_code == 404 and lookups(ran) == []

    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_malformed_sandbox_checkout_is_not_found(self, client, demo_property, raw):
        with recorded_queries() as ran:
            response = client.get(f"/api/v1/payments/sandbox/{raw[0]}")
        assert response.status_code == 404 and lookups(ran) == []

    @pytest.mark.parametrize("page", ["/thank-you", "/book"])
    @pytest.mark.parametrize("raw", MALFORMED, ids=NAMES)
    def test_a_malformed_id_in_a_query_is_not_looked_up(self, client, demo_property, page, raw):
        with recorded_queries() as ran:
            response = client.get(f"{page}?reservation_id={raw[0]}")
        assert response.status_code == 200 and lookups(ran) == []


STAY = {"check_in": str(future(30)), "check_out": str(future(33))}
ODD_TEXT = {"nul": "Ann\x00a", "surrogate": "Ann\ud800a"}


def raw_json(body: dict) -> str:
    return json.dumps(body)  # ensure_ascii: a lone surrogate travels as the escape "\ud800"


REST_TEXT = [
    ("/api/v1/reservations", ["guest", "first_name"]),
    ("/api/v1/reservations", ["guest", "last_name"]),
    ("/api/v1/reservations", ["guest", "email"]),
    ("/api/v1/reservations", ["guest", "phone"]),
    ("/api/v1/reservations", ["special_requests"]),
    ("/api/v1/reservations", ["agent_name"]),
    ("/api/v1/payments/checkout-link", ["special_requests"]),
    ("/api/v1/payments/checkout-link", ["agent_name"]),
]
# Free text of a UCP request: kept, passed on or only accepted, a string there is text all the same.
UCP_TEXT = [["travel_purpose"], ["guests", 0, "first_name"], ["booker", "last_name"], ["context", "note"], ["stays", 0, "id"]]


def with_text_at(body: dict, loc: list, text: str) -> dict:
    """`body` with `text` at `loc` (the containers on the way made as needed)."""
    body = json.loads(json.dumps(body))
    node = body
    for key, following in zip(loc, loc[1:], strict=False):
        if isinstance(node, list):
            node = node[key]
        else:
            node = node.setdefault(key, [{}] if isinstance(following, int) else {})
    node[loc[-1]] = text
    return body


class TestFreeText:
    """A NUL or a lone surrogate in a name, an email, special_requests or any other free text: a
    422 naming the field, nothing held, on every interface."""

    @pytest.mark.parametrize("text", ODD_TEXT.values(), ids=ODD_TEXT.keys())
    @pytest.mark.parametrize(("endpoint", "loc"), REST_TEXT, ids=[f"{endpoint.rpartition('/')[2]}-{'.'.join(loc)}" for endpoint, loc in REST_TEXT])
    def test_rest(self, client, demo_property, endpoint, loc, text):
        body = with_text_at({**STAY, "success_url": "https://agent.example/done", "cancel_url": "https://agent.example/back"}, loc, text)
        if endpoint.endswith("reservations"):
            body = {key: value for key, value in body.items() if not key.endswith("_url")}
        response = client.post(endpoint, raw_json(body), content_type="application/json")
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", *loc]
        assert not Reservation.objects.exists()

    @pytest.mark.parametrize("text", ODD_TEXT.values(), ids=ODD_TEXT.keys())
    @pytest.mark.parametrize("loc", [["special_requests"], ["agent_name"], ["guest", "first_name"], ["guest", "email"]], ids=lambda loc: ".".join(loc))
    def test_mcp(self, demo_property, loc, text):
        result = call_tool("create_reservation", with_text_at(STAY, loc, text))
        payload = json.loads(result.content[1].text)
        assert result.is_error and payload["status"] == 422 and payload["detail"][0]["loc"] == ["body", *loc]
        assert not Reservation.objects.exists()

    @pytest.mark.parametrize("text", ODD_TEXT.values(), ids=ODD_TEXT.keys())
    @pytest.mark.parametrize("loc", UCP_TEXT, ids=lambda loc: ".".join(str(part) for part in loc))
    def test_ucp_rest(self, client, demo_property, loc, text):
        response = client.post("/ucp/v1/booking-sessions", raw_json(with_text_at(session_request(45), loc, text)), content_type="application/json")
        assert response.status_code == 422 and error_body(response.json())["messages"][0]["path"] == json_path(["body", *loc])
        assert not Reservation.objects.exists()

    @pytest.mark.parametrize("text", ODD_TEXT.values(), ids=ODD_TEXT.keys())
    def test_ucp_mcp(self, demo_property, text):
        result = call_tool("create_booking_session", {"booking": with_text_at(session_request(45), ["guests", 0, "last_name"], text)})
        assert result.is_error and error_body(result.structured_content)["messages"][0]["path"] == "$.guests[0].last_name"
        assert not Reservation.objects.exists()

    @pytest.mark.parametrize("field", ["special_requests", "agent_name"])
    def test_a2a(self, transactional_db, demo_property, field):
        """(A lone surrogate never reaches a skill, as above: a NUL does, and is refused.) The skill
        claims its retry key (the message id) in a thread of its own first: a committed database."""
        events = Events()
        asyncio.run(BookingAgentExecutor().execute(Context({"skill": "create_reservation", **STAY, field: "Ann\x00a"}), events))
        [task] = events.events
        error = MessageToDict(task.status.message.parts[1].data)["error"]
        assert task.status.state == TaskState.TASK_STATE_REJECTED and error["status"] == 422 and error["detail"][0]["loc"] == ["body", field]
        assert not Reservation.objects.exists()

    @pytest.mark.parametrize("text", ODD_TEXT.values(), ids=ODD_TEXT.keys())
    def test_a_review(self, api, demo_property, text):
        """The guest's review form (pages/manage.py) hands its text to the service as posted."""
        hold = Reservation.objects.get(pk=api.post("/api/v1/reservations", STAY).json()["id"])
        with pytest.raises(InvalidInput) as refused:
            reviews.submit_review(reservation=hold, rating="5", text=text, language="en")
        # The service names the field; the form (pages/manage.py) shows the message beside it.
        assert refused.value.problems[0].field == ("text",) and refused.value.location is None
        assert not Review.objects.filter(reservation=hold).exists()
