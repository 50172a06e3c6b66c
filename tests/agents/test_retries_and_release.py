"""Agents that retry and let go (DESIGN.md "Party, strict input, releasing holds"), through the
official clients against a live server:

- MCP's create tools take `idempotency_key`: a retry after a lost answer gets the first answer, not
  "these nights are booked" about the agent's own hold; A2A's key is the message id.
- `release_hold` (MCP) / `DELETE /api/v1/reservations/{id}` (REST) lets go of an unpaid hold.
"""

import uuid

import httpx
import pytest
from a2a.client import A2ACardResolver, ClientConfig, create_client
from a2a.helpers import get_data_parts, new_data_part, new_message
from a2a.types.a2a_pb2 import Role, SendMessageRequest, TaskState
from mcp import Client

from tests.agents.conftest import TIMEOUT, first_free_stay, rest, run, tool_error

pytestmark = pytest.mark.live


def call_tool_twice(live_url: str, name: str, first: dict, second: dict):
    async def calls():
        async with Client(live_url + "/mcp") as client:
            return await client.call_tool(name, first), await client.call_tool(name, second)

    return run(calls)


class TestMcpRetries:
    @pytest.mark.parametrize("tool", ["create_checkout_link", "create_reservation"])
    def test_the_same_key_answers_the_first_hold_again(self, live_url, tool):
        arguments = {**first_free_stay(live_url, start=60), "idempotency_key": str(uuid.uuid4())}
        first, retry = call_tool_twice(live_url, tool, arguments, arguments)
        assert not first.is_error and not retry.is_error, (first, retry)
        assert retry.structured_content == first.structured_content
        reservation_id = first.structured_content.get("reservation_id") or first.structured_content["id"]
        assert rest(live_url, "GET", f"/api/v1/reservations/{reservation_id}").json()["status"] == "held"

    def test_without_a_key_a_retry_finds_its_own_hold(self, live_url):
        arguments = first_free_stay(live_url, start=90)
        first, retry = call_tool_twice(live_url, "create_reservation", arguments, arguments)
        assert not first.is_error and tool_error(retry)[1]["code"] == "dates_unavailable"

    def test_the_same_key_with_other_arguments_is_refused(self, live_url):
        key = str(uuid.uuid4())
        stay = first_free_stay(live_url, start=120)
        first, other = call_tool_twice(live_url, "create_reservation", {**stay, "idempotency_key": key}, {**stay, "guests": 3, "idempotency_key": key})
        assert not first.is_error and tool_error(other)[1]["code"] == "idempotency_key_reused"

    def test_the_key_is_offered_in_the_schema_of_the_create_tools_only(self, live_url):
        async def tools():
            async with Client(live_url + "/mcp") as client:
                return {tool.name: tool for tool in (await client.list_tools()).tools}

        listed = run(tools)
        for name in ("create_reservation", "create_checkout_link"):
            assert listed[name].input_schema["properties"]["idempotency_key"]["type"] == "string"
            assert "idempotency_key" in listed[name].description
        assert "idempotency_key" not in listed["get_quote"].input_schema["properties"]


class TestReleasingAHold:
    def test_release_hold_frees_the_dates_and_a_second_release_is_not_releasable(self, live_url):
        stay = first_free_stay(live_url, start=150)

        async def hold_then_release_twice():
            async with Client(live_url + "/mcp") as client:
                held = await client.call_tool("create_checkout_link", stay)
                reservation_id = held.structured_content["reservation_id"]
                return await client.call_tool("release_hold", {"reservation_id": reservation_id}), await client.call_tool(
                    "release_hold", {"reservation_id": reservation_id}
                )

        released, again = run(hold_then_release_twice)
        assert not released.is_error and released.structured_content["status"] == "cancelled"
        assert rest(live_url, "GET", "/api/v1/availability", stay).json()["available"] is True
        assert tool_error(again)[1] == {**tool_error(again)[1], "status": 409, "code": "not_releasable"}

    def test_release_hold_is_marked_destructive_and_the_rest_stay_safe(self, live_url):
        async def tools():
            async with Client(live_url + "/mcp") as client:
                return {tool.name: tool.annotations for tool in (await client.list_tools()).tools}

        annotations = run(tools)
        destructive = {"release_hold", "cancel_booking_session", "cancel_booking"}  # each lets go of a hold or a stay
        assert all(annotations[name].destructive_hint is True for name in destructive)
        assert not any(a.destructive_hint for name, a in annotations.items() if name not in destructive)


def test_an_a2a_message_sent_twice_makes_one_hold(live_url):
    stay = first_free_stay(live_url, start=180)

    async def send_twice():
        async with httpx.AsyncClient(timeout=TIMEOUT) as http:
            card = await A2ACardResolver(http, live_url).get_agent_card()
            client = await create_client(card, ClientConfig(httpx_client=http, streaming=False))
            message = new_message([new_data_part({"skill": "create_reservation", **stay})], role=Role.ROLE_USER)
            answers = []
            for _ in range(2):  # the same message, id included: a client retrying after a lost answer
                replies = [reply async for reply in client.send_message(SendMessageRequest(message=message))]
                answers.append(get_data_parts(replies[0].message.parts)[0])
            return answers

    first, retry = run(send_twice)
    assert "error" not in first and retry == first


class TestStrictArguments:
    def test_mcp_refuses_an_unknown_argument_naming_it(self, live_url):
        stay = first_free_stay(live_url, start=200)

        async def calls():
            async with Client(live_url + "/mcp") as client:
                tools = {tool.name: tool for tool in (await client.list_tools()).tools}
                return tools, await client.call_tool("check_availability", {**stay, "adults": 3}), await client.call_tool("get_property", {"verbose": True})

        tools, refused, no_arguments = run(calls)
        message, payload = tool_error(refused)
        assert payload["status"] == 422 and payload["detail"][0]["loc"] == ["query", "adults"] and payload["detail"][0]["type"] == "extra_forbidden"
        assert "guests" in message
        assert tool_error(no_arguments)[1]["detail"][0]["type"] == "extra_forbidden"
        assert all(tool.input_schema.get("additionalProperties") is False for tool in tools.values())

    def test_a2a_refuses_an_unknown_field_too(self, live_url):
        stay = first_free_stay(live_url, start=210)

        async def send():
            async with httpx.AsyncClient(timeout=TIMEOUT) as http:
                card = await A2ACardResolver(http, live_url).get_agent_card()
                client = await create_client(card, ClientConfig(httpx_client=http, streaming=False))
                message = new_message([new_data_part({"skill": "get_quote", **stay, "adults": 6})], role=Role.ROLE_USER)
                replies = [reply async for reply in client.send_message(SendMessageRequest(message=message))]
                # A refusal is a rejected Task whose status message carries the REST error.
                assert replies[0].task.status.state == TaskState.TASK_STATE_REJECTED
                return get_data_parts(replies[0].task.status.message.parts)[0]

        error = run(send)["error"]
        assert error["status"] == 422 and error["detail"][0]["loc"] == ["body", "adults"]


class TestSmallThingsAgentsNeed:
    def test_mcp_and_a2a_answers_carry_a_request_id(self, live_url):
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        mcp = httpx.post(
            live_url + "/mcp", json=ping, headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}, timeout=TIMEOUT
        )
        assert mcp.status_code == 200 and len(mcp.headers["X-Request-ID"]) >= 16
        kept = httpx.post(
            live_url + "/a2a",
            json={"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {}},
            headers={"X-Request-ID": "agent-trace-42", "A2A-Version": "1.0"},
            timeout=TIMEOUT,
        )
        assert kept.headers["X-Request-ID"] == "agent-trace-42"


def test_a_rate_limited_answer_says_when_to_retry():
    from booking.errors import RateLimited
    from discovery.operations import error_payload

    payload = error_payload(RateLimited("Too many holds.", retry_after=120))
    assert (payload["status"], payload["code"], payload["retry_after"]) == (429, "rate_limited", 120)


def test_mcp_prices_a_family_with_children_ages(live_url):
    stay = first_free_stay(live_url, start=220, guests=3)

    async def quotes():
        async with Client(live_url + "/mcp") as client:
            return await client.call_tool("get_quote", {**stay, "children_ages": [4, 9]}), await client.call_tool("get_quote", stay)

    family, adults = run(quotes)
    family_price, adults_price = family.structured_content["price_breakdown"], adults.structured_content["price_breakdown"]
    assert family_price["city_tax"] < adults_price["city_tax"]
    assert "1 of 3 guests taxed" in family_price["city_tax_note"]


class TestLlmSizedAnswers:
    def test_the_calendar_defaults_to_three_months_with_a_short_summary(self, live_url):
        async def calendar():
            async with Client(live_url + "/mcp") as client:
                return await client.call_tool("get_calendar", {})

        result = run(calendar)
        assert result.structured_content["months"] == 3
        text = result.content[0].text
        assert text.startswith("Free nights") and "a night" in text and len(text) < 4000
        assert len(text) < len(str(result.structured_content)) / 5

    def test_every_summary_is_words_not_json(self, live_url):
        stay = first_free_stay(live_url, start=230)

        async def calls():
            async with Client(live_url + "/mcp") as client:
                return {
                    "availability": await client.call_tool("check_availability", stay),
                    "stays": await client.call_tool("find_stays", {"nights": 3}),
                    "link": await client.call_tool("create_checkout_link", stay),
                }

        results = run(calls)
        assert results["availability"].content[0].text.startswith("Available:")
        assert results["stays"].content[0].text.startswith("Cheapest 3-night stays")
        link = results["link"].structured_content
        assert link["checkout_url"] in results["link"].content[0].text and link["reservation_id"] in results["link"].content[0].text


def test_an_a2a_0_3_client_without_the_version_header_is_answered(live_url):
    """Every 0.3 client sends no A2A-Version header and calls message/send: answered, not -32009."""
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "message/send",
        "params": {
            "message": {"kind": "message", "messageId": "m-03", "role": "user", "parts": [{"kind": "data", "data": {"skill": "get_calendar", "months": 1}}]}
        },
    }
    answer = httpx.post(live_url + "/a2a", json=message, timeout=TIMEOUT)
    assert answer.status_code == 200 and "error" not in answer.json(), answer.text
    result = answer.json()["result"]
    data = next(part["data"] for part in result["parts"] if part.get("kind") == "data")
    assert data["months"] == 1 and data["days"]
