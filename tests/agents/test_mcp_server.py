"""The MCP tool server at POST /mcp, checked with the official `mcp` client over Streamable HTTP
against a live server.

The tools are the REST operations: arguments named as the REST fields, structured results in the
REST bodies' shapes (the client itself validates each result against the tool's output schema),
and bad input or a refusal is a tool error carrying the message REST gives.
"""

import json
import re

import pytest
import requests
from mcp import Client

from tests.agents.conftest import TIMEOUT, TOOL_NAMES, UCP_TOOL_NAMES, first_free_stay, rest, rest_message, run, stay, tool_error

pytestmark = pytest.mark.live

READ_ONLY = {"get_property", "check_availability", "get_calendar", "find_stays", "get_quote", "get_reservation", "get_booking"}


def mcp_url(live_url: str) -> str:
    return live_url + "/mcp"


class TestConnecting:
    @pytest.mark.parametrize("mode", ["legacy", "auto"])
    def test_a_client_initializes_and_finds_every_tool(self, live_url, mode):
        # legacy: the initialize handshake of today's clients; auto: the SDK's discovery first.
        async def connect():
            async with Client(mcp_url(live_url), mode=mode) as client:
                return client.server_info, client.instructions, (await client.list_tools()).tools

        server_info, instructions, tools = run(connect)
        assert server_info.name == "direct-booking" and server_info.version == "1.0.0"
        assert "create_checkout_link" in instructions and "guest details" in instructions
        assert [tool.name for tool in tools] == TOOL_NAMES

    def test_tool_schemas_use_the_rest_field_names(self, live_url):
        async def list_tools():
            async with Client(mcp_url(live_url)) as client:
                return {tool.name: tool for tool in (await client.list_tools()).tools}

        tools = run(list_tools)
        availability = tools["check_availability"].input_schema
        assert availability["required"] == ["check_in", "check_out"]
        assert availability["properties"]["check_in"] == {"type": "string", "format": "date", "description": "Arrival day, YYYY-MM-DD."}
        assert availability["properties"]["check_out"]["format"] == "date"
        guests = availability["properties"]["guests"]
        assert (guests["type"], guests["minimum"], guests["maximum"], guests["default"]) == ("integer", 1, 7, 2)

        arguments = {name: set(tool.input_schema["properties"]) for name, tool in tools.items()}
        assert arguments == {
            "get_property": set(),
            "check_availability": {"check_in", "check_out", "guests", "children_ages", "promo_code"},
            "get_calendar": {"start", "months"},
            "find_stays": {"nights", "guests", "start", "end", "children_ages", "promo_code"},
            "get_quote": {"check_in", "check_out", "guests", "currency", "children_ages", "promo_code", "extras"},
            "create_reservation": {
                "check_in",
                "check_out",
                "guests",
                "children_ages",
                "promo_code",
                "extras",
                "guest",
                "special_requests",
                "agent_name",
                "idempotency_key",
            },
            "create_checkout_link": {
                "check_in",
                "check_out",
                "guests",
                "children_ages",
                "promo_code",
                "extras",
                "success_url",
                "cancel_url",
                "special_requests",
                "agent_name",
                "idempotency_key",
            },
            "create_checkout_session": {"reservation_id", "success_url", "cancel_url", "idempotency_key"},
            "get_reservation": {"reservation_id"},
            "release_hold": {"reservation_id"},
            "get_booking": {"manage_token"},
            "cancel_booking": {"manage_token", "confirm"},
            "change_booking_dates": {"manage_token", "check_in", "check_out", "confirm", "expected_total"},
            "create_booking_session": {"meta", "booking"},
            "get_booking_session": {"meta", "id"},
            "update_booking_session": {"meta", "id", "booking"},
            "complete_booking_session": {"meta", "id", "booking"},
            "cancel_booking_session": {"meta", "id"},
        }
        assert set(tools["create_reservation"].input_schema["properties"]["guest"]["anyOf"][0]["properties"]) == {"first_name", "last_name", "email", "phone"}
        assert tools["get_calendar"].input_schema["properties"]["months"]["maximum"] == 18

        for name in UCP_TOOL_NAMES:  # the UCP binding (tests/agents/test_ucp_mcp.py)
            assert tools.pop(name).annotations.destructive_hint is (name == "cancel_booking_session")
        for name, tool in tools.items():
            assert len(tool.description) > 80, name
            # A result shape is outlined once; another tool answering it says so (discovery/mcp_server.described_once).
            output = tool.output_schema
            assert output["type"] == "object" and (output.get("required") or output["description"].startswith("As ")), name
            hints = tool.annotations
            assert hints.read_only_hint is (name in READ_ONLY), name
            assert hints.destructive_hint is (name in ("release_hold", "cancel_booking")), name
            assert hints.idempotent_hint is (name in READ_ONLY | {"cancel_booking"}), name  # a second cancel changes nothing
            money_or_provider = ("create_checkout_link", "create_checkout_session", "release_hold", "cancel_booking", "change_booking_dates")
            assert hints.open_world_hint is (name in money_or_provider), name
        assert {"reservation_id", "checkout_url", "session_id", "expires_at", "amount", "currency"} <= set(
            tools["create_checkout_link"].output_schema["required"]
        )


class TestReadTools:
    def test_each_read_tool_answers_the_rest_body(self, live_url):
        free = first_free_stay(live_url, guests=3)
        calls = [
            ("get_property", {}, "GET", "/api/v1/property", None),
            ("check_availability", free, "GET", "/api/v1/availability", free),
            ("get_calendar", {"start": free["check_in"], "months": 2}, "GET", "/api/v1/calendar", {"start": free["check_in"], "months": 2}),
            ("get_quote", {**free, "currency": "USD"}, "POST", "/api/v1/quote", {**free, "currency": "USD"}),
        ]

        async def call_all():
            async with Client(mcp_url(live_url)) as client:
                return [await client.call_tool(name, arguments) for name, arguments, *_ in calls]

        results = run(call_all)
        for result, (name, _, method, path, payload) in zip(results, calls, strict=True):
            assert not result.is_error, (name, result.content)
            expected = rest(live_url, method, path, payload).json()
            if name == "get_quote":  # agents get the breakdown once, under price_breakdown
                expected = {key: value for key, value in expected.items() if key not in expected["price_breakdown"] or key == "price_breakdown"}
            assert result.structured_content == expected, name
            # The text is a short summary for the model, not the same JSON again.
            assert result.content[0].text and not result.content[0].text.startswith("{"), name
        availability = results[1].structured_content
        assert availability["available"] is True and availability["guests"] == 3 and availability["nights"] == 3


class TestBooking:
    def test_a_family_holds_then_pays_the_hold_without_rest(self, live_url):
        """create_reservation, then create_checkout_session for that very hold (the hold is the
        caller's own: no 409), the guest pays, and the agent sees the stay confirmed."""
        free = first_free_stay(live_url, start=75, nights=3, guests=4)
        family = {**free, "guests": 4, "children_ages": [5, 14]}

        async def hold_and_pay():
            async with Client(mcp_url(live_url)) as client:
                held = await client.call_tool("create_reservation", {**family, "idempotency_key": "a1b2c3d4-family"})
                reservation_id = held.structured_content["reservation_id"]
                session = await client.call_tool("create_checkout_session", {"reservation_id": reservation_id})
                again = await client.call_tool("create_checkout_session", {"reservation_id": reservation_id})
                return held, session, again

        held, session, again = run(hold_and_pay)
        assert not held.is_error and not session.is_error, (held.content, session.content)
        payment = held.structured_content["payment"]
        assert payment["pay_url"] == f"{live_url}/pay/{held.structured_content['reservation_id']}"
        assert "create_checkout_session" in payment["how_to_pay"]
        checkout = session.structured_content
        assert checkout["reservation_id"] == held.structured_content["reservation_id"]
        assert checkout["amount"] == payment["amount_due"] and again.structured_content["session_id"] == checkout["session_id"]
        if checkout["provider"] != "sandbox":
            pytest.skip("a Stripe key is configured: the payment page is Stripe's")
        pay_on_sandbox_page(checkout["checkout_url"])

        async def follow_up():
            async with Client(mcp_url(live_url)) as client:
                return await client.call_tool("get_reservation", {"reservation_id": checkout["reservation_id"]})

        confirmed = run(follow_up).structured_content
        assert confirmed["status"] == "confirmed" and confirmed["payment"]["pay_url"] is None

    def test_a_full_booking_through_create_checkout_link(self, live_url):
        """An agent finds dates and makes a checkout link; the guest pays on the payment page
        (the sandbox provider: the demo's, with no Stripe key); the agent sees the stay confirmed."""
        free = first_free_stay(live_url, start=60, nights=4)

        async def book():
            async with Client(mcp_url(live_url)) as client:
                prop = await client.call_tool("get_property", {})
                availability = await client.call_tool("check_availability", free)
                link = await client.call_tool("create_checkout_link", {**free, "agent_name": "mcp-test-agent"})
                held = await client.call_tool("get_reservation", {"reservation_id": link.structured_content["reservation_id"]})
                return prop, availability, link, held

        prop, availability, link, held = run(book)
        assert prop.structured_content["capacity"]["max_guests"] == 7
        assert prop.structured_content["payment_terms"]["deposit_percent"] == 30  # the owner's terms, as data
        assert "deposit of 30%" in prop.structured_content["policies"]["payment_policy"]
        assert availability.structured_content["available"] is True
        assert not link.is_error, link.content
        checkout = link.structured_content
        assert checkout["checkout_url"].startswith(live_url) or checkout["provider"] == "stripe"
        # What this checkout charges now: the deposit (or the total), as the schedule said.
        assert checkout["amount"] == availability.structured_content["payment_schedule"][0]["amount"] and checkout["currency"] == "EUR"
        assert (checkout["check_in"], checkout["check_out"]) == (free["check_in"], free["check_out"])
        status = held.structured_content
        assert status["status"] == "held" and status["source"] == "mcp" and status["agent_name"] == "mcp-test-agent"
        assert status["guest"] is None  # nothing asked of the guest before payment
        if checkout["provider"] != "sandbox":
            pytest.skip("a Stripe key is configured: the payment page is Stripe's")

        pay_on_sandbox_page(checkout["checkout_url"])

        async def follow_up():
            async with Client(mcp_url(live_url)) as client:
                confirmed = await client.call_tool("get_reservation", {"reservation_id": checkout["reservation_id"]})
                taken = await client.call_tool("check_availability", free)
                return confirmed, taken

        confirmed, taken = run(follow_up)
        assert confirmed.structured_content["status"] == "confirmed"
        payment = confirmed.structured_content["payment"]
        assert payment["status"] == ("deposit_paid" if len(payment["payment_schedule"]) == 2 else "paid")
        assert payment["amount_paid"] == payment["payment_schedule"][0]["amount"]
        # Backfilled from the payment page, and masked: the id is the only credential.
        assert confirmed.structured_content["guest"]["email"] == "a***@example.com"
        assert taken.structured_content["available"] is False and taken.structured_content["unavailable_reason"] == "booked"

    def test_create_reservation_holds_the_dates_and_a_second_hold_is_refused_as_rest_refuses_it(self, live_url):
        free = first_free_stay(live_url, start=90)
        hold = {**free, "guest": {"first_name": "Ada", "email": "ada@example.com"}, "special_requests": "Late arrival", "agent_name": "mcp-test-agent"}

        async def hold_twice():
            async with Client(mcp_url(live_url)) as client:
                return await client.call_tool("create_reservation", hold), await client.call_tool("create_reservation", hold)

        first, second = run(hold_twice)
        reservation = first.structured_content
        assert not first.is_error and reservation["status"] == "held" and reservation["source"] == "mcp"
        assert reservation["guest"]["email"] == "ada@example.com"  # the creator sees what it sent
        assert reservation["payment"]["amount_due"] == reservation["payment"]["payment_schedule"][0]["amount"]  # due now

        refused = rest(live_url, "POST", "/api/v1/reservations", hold)
        assert refused.status_code == 409
        message, payload = tool_error(second)
        assert message == refused.json()["detail"]
        rest_body = {key: value for key, value in refused.json().items() if key != "request_id"}  # per HTTP request
        assert payload == {"status": 409, "code": "dates_unavailable", "message": message, **rest_body}


# Bad input: (tool, arguments, the REST request that carries the same input).
BAD_INPUT = [
    ("check_availability", {**stay(30), "guests": 9}, "GET", "/api/v1/availability"),
    ("check_availability", {"check_in": "2020-01-10", "check_out": "2020-01-12"}, "GET", "/api/v1/availability"),
    ("check_availability", {"check_in": stay(30)["check_out"], "check_out": stay(30)["check_in"]}, "GET", "/api/v1/availability"),
    ("check_availability", {"check_in": stay(30)["check_in"]}, "GET", "/api/v1/availability"),
    ("check_availability", {"check_in": "2027-02-30", "check_out": "2027-03-02"}, "GET", "/api/v1/availability"),
    ("check_availability", {**stay(30), "check_out": "9999-12-31"}, "GET", "/api/v1/availability"),
    ("get_calendar", {"months": 0}, "GET", "/api/v1/calendar"),
    ("get_calendar", {"start": "not a date"}, "GET", "/api/v1/calendar"),
    ("get_quote", {**stay(30), "currency": "XYZ"}, "POST", "/api/v1/quote"),
    ("get_quote", {**stay(30), "guests": 2.5}, "POST", "/api/v1/quote"),
    ("create_reservation", {**stay(30), "guest": {"email": "not-an-email"}}, "POST", "/api/v1/reservations"),
    ("create_reservation", {**stay(30), "special_requests": "x" * 2001}, "POST", "/api/v1/reservations"),
    ("create_checkout_link", {**stay(30), "success_url": "http://evil.example/thanks"}, "POST", "/api/v1/payments/checkout-link"),
    ("create_checkout_link", {**stay(30), "guests": True}, "POST", "/api/v1/payments/checkout-link"),
    ("get_reservation", {"reservation_id": "res_does_not_exist"}, "GET", "/api/v1/reservations/res_does_not_exist"),
    ("get_reservation", {"reservation_id": "r" * 201}, "GET", "/api/v1/reservations/" + "r" * 201),
]


class TestBadInput:
    def test_bad_input_is_a_tool_error_with_the_message_rest_gives(self, live_url):
        async def call_all():
            async with Client(mcp_url(live_url)) as client:
                return [await client.call_tool(name, arguments) for name, arguments, *_ in BAD_INPUT]

        results = run(call_all)
        for result, (name, arguments, method, path) in zip(results, BAD_INPUT, strict=True):
            answer = rest(live_url, method, path, None if path.startswith("/api/v1/reservations/") else arguments)
            assert answer.status_code in (404, 422), (name, arguments, answer.text)
            message, payload = tool_error(result)
            assert message == rest_message(answer.json()), (name, arguments)
            assert payload["status"] == answer.status_code and payload["detail"] == answer.json()["detail"], (name, arguments)

    def test_unknown_tools_and_arguments_that_are_not_an_object_are_tool_errors(self, live_url):
        async def call():
            async with Client(mcp_url(live_url)) as client:
                return await client.call_tool("cancel_everything", {}), await client.call_tool("get_reservation", {})

        unknown, missing = run(call)
        assert tool_error(unknown)[0].startswith("Unknown tool 'cancel_everything'")
        assert tool_error(missing)[0] == "path.reservation_id: Field required."

    def test_a_number_json_reads_as_infinity_is_the_tool_error_rest_gives(self, live_url):
        # Issue 12, item 8, over MCP: `1e309` parses to infinity, which no client library sends, so
        # the call is raw JSON-RPC (the server is stateless: no session to initialize first).
        arguments = json.dumps(stay(30))[:-1] + ', "guests": 1e309}'
        call = '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_quote", "arguments": ' + arguments + "}}"
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
        response = requests.post(mcp_url(live_url), data=call, headers=headers, timeout=TIMEOUT)
        assert response.status_code == 200, response.text
        result = response.json()["result"]
        assert result["isError"] is True
        assert json.loads(result["content"][1]["text"])["detail"] == [{"loc": ["body", "guests"], "msg": "A valid integer is required.", "type": "value_error"}]


class TestTheEndpoint:
    """/mcp is shared with the page about it; the SDK's DNS-rebinding guard is on, from BASE_URL."""

    def test_a_browser_gets_the_page_and_an_event_stream_request_gets_405(self, live_url):
        page = requests.get(mcp_url(live_url), headers={"Accept": "text/html"}, timeout=TIMEOUT)
        assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
        stream = requests.get(mcp_url(live_url), headers={"Accept": "text/event-stream"}, timeout=TIMEOUT)
        assert stream.status_code == 405 and stream.headers["Allow"] == "POST"
        assert stream.json()["error"]["message"].startswith("This MCP server is stateless")

    def test_foreign_hosts_and_origins_are_refused(self, live_url):
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
        foreign_host = requests.post(mcp_url(live_url), json=ping, headers={**headers, "Host": "evil.example"}, timeout=TIMEOUT)
        foreign_origin = requests.post(mcp_url(live_url), json=ping, headers={**headers, "Origin": "http://evil.example"}, timeout=TIMEOUT)
        own_origin = requests.post(mcp_url(live_url), json=ping, headers={**headers, "Origin": live_url}, timeout=TIMEOUT)
        assert (foreign_host.status_code, foreign_origin.status_code, own_origin.status_code) == (421, 403, 200)

    def test_the_page_lists_every_tool_and_argument_the_server_lists(self, live_url):
        async def list_tools():
            async with Client(mcp_url(live_url)) as client:
                return (await client.list_tools()).tools

        page = requests.get(mcp_url(live_url), timeout=TIMEOUT).text
        for tool in run(list_tools):
            assert f'id="tool-{tool.name}"' in page
            for argument in tool.input_schema["properties"]:
                assert re.search(rf"<td><code>{argument}</code></td>", page), (tool.name, argument)


def pay_on_sandbox_page(checkout_url: str) -> None:
    """Pay as the guest would: the sandbox checkout page, its form and its CSRF token."""
    browser = requests.Session()
    page = browser.get(checkout_url, timeout=TIMEOUT)
    assert page.status_code == 200, page.text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
    paid = browser.post(
        checkout_url,
        data={"csrfmiddlewaretoken": token, "email": "ada@example.com", "name": "Ada Lovelace", "phone": "+44 20 7946 0958", "action": "pay"},
        headers={"Referer": checkout_url},
        allow_redirects=False,
        timeout=TIMEOUT,
    )
    assert paid.status_code == 303, paid.text
