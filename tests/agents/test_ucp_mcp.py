"""UCP lodging booking over the MCP binding (tools on /mcp), with the official `mcp` client against
a live server; every structured result validated against the pinned UCP schemas. Also: a 40-way
race of UCP REST, REST and MCP creates for the same nights (one winner), and the byte budgets of
what agents read (the tool list, the UCP results)."""

import asyncio
import json
import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urljoin, urlsplit

import mcp_types as types
import pytest
import requests
from mcp import Client

from booking.reservations.models import Reservation
from tests.agents.conftest import TIMEOUT, run
from tests.agents.ucp import any_body, booking_body, error_body, session_request
from tests.dates import future

pytestmark = pytest.mark.live
PAYER = {"email": "lucia@example.com", "name": "Lucia Verdi", "phone": "+39 347 1112233"}
META = {"ucp-agent": {"profile": "https://platform.example/profile"}}
TOOL_LIST_BUDGET = 25_000  # bytes of the tools/list result (43 kB before issue 31)
SESSION_BUDGET = 6_000  # bytes of one booking session's structured result


def call(live_url: str, *calls: tuple[str, dict]):
    """The tools' results; every UCP result validated against the pinned schemas as it arrives."""

    async def go():
        async with Client(live_url + "/mcp") as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    results = run(go)
    for (name, _), result in zip(calls, results, strict=True):
        if name.endswith("_booking_session"):
            any_body(result.structured_content)
    return results


def test_the_whole_flow_through_the_mcp_tools(live_url):
    request = session_request(45)
    [created] = call(live_url, ("create_booking_session", {"meta": {**META, "idempotency-key": "mcp-flow"}, "booking": request}))
    session = booking_body(created.structured_content)
    assert not created.is_error and json.loads(created.content[0].text) == session
    assert session["status"] == "requires_escalation" and Reservation.objects.get(pk=session["id"]).source == "mcp"
    sid = session["id"]

    got, updated, completed = call(
        live_url,
        ("get_booking_session", {"meta": META, "id": sid}),
        ("update_booking_session", {"meta": META, "id": sid, "booking": session_request(47, 4)}),
        ("complete_booking_session", {"meta": {**META, "idempotency-key": "c1"}, "id": sid, "booking": {"payment": {}}}),
    )
    assert booking_body(got.structured_content)["id"] == sid
    assert booking_body(updated.structured_content)["stays"][0]["stay_dates"]["start_date"] == str(future(47))
    escalated = booking_body(completed.structured_content)
    assert escalated["status"] == "requires_escalation" and escalated["continue_url"].startswith(live_url + "/pay/")

    browser = requests.Session()  # the guest's browser
    opened = browser.get(escalated["continue_url"], allow_redirects=False, timeout=TIMEOUT)
    assert opened.status_code == 303 and urlsplit(opened.headers["Location"]).path.startswith("/api/v1/payments/sandbox/")
    checkout_url = urljoin(live_url, opened.headers["Location"])
    page = browser.get(checkout_url, timeout=TIMEOUT)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
    paid = browser.post(
        checkout_url, data={"csrfmiddlewaretoken": token, **PAYER, "action": "pay"}, headers={"Referer": checkout_url}, allow_redirects=False, timeout=TIMEOUT
    )
    assert paid.status_code == 303 and urlsplit(paid.headers["Location"]).path == "/thank-you"

    [done] = call(live_url, ("get_booking_session", {"meta": META, "id": sid}))
    body = booking_body(done.structured_content)
    assert body["status"] == "completed" and body["confirmation"]["id"] == sid
    assert len(done.content[0].text.encode()) < SESSION_BUDGET


def test_cancel_taken_dates_and_a_retried_create(live_url):
    request = session_request(80)
    key = {"meta": {**META, "idempotency-key": "same-key"}, "booking": request}
    first, again, taken = call(
        live_url, ("create_booking_session", key), ("create_booking_session", key), ("create_booking_session", {"meta": META, "booking": session_request(81)})
    )
    assert booking_body(first.structured_content)["id"] == booking_body(again.structured_content)["id"]
    exhausted = error_body(taken.structured_content)
    assert [m["code"] for m in exhausted["messages"]] == ["inventory_exhausted"] and Reservation.objects.count() == 1

    [cancelled] = call(live_url, ("cancel_booking_session", {"meta": {**META, "idempotency-key": "x"}, "id": first.structured_content["id"]}))
    assert booking_body(cancelled.structured_content)["status"] == "canceled"
    assert Reservation.objects.get().status == "cancelled"


def test_refusals_are_tool_errors_in_the_ucp_error_envelope(live_url):
    bad, unknown, unpaid, bad_key = call(
        live_url,
        ("get_booking_session", {"id": 5, "session": "x"}),
        ("get_booking_session", {"id": "res_nope"}),
        ("complete_booking_session", {"meta": META, "id": "res_nope", "booking": {}}),
        ("cancel_booking_session", {"meta": {**META, "idempotency-key": ""}, "id": "res_nope"}),
    )
    assert [m["path"] for m in error_body(bad_key.structured_content)["messages"]] == ["$.meta['idempotency-key']"]
    assert bad.is_error and json.loads(bad.content[0].text) == bad.structured_content
    messages = error_body(bad.structured_content)["messages"]
    assert sorted((m["path"], m["severity"]) for m in messages) == [("$.id", "recoverable"), ("$.session", "recoverable")]
    assert unknown.is_error and [m["code"] for m in error_body(unknown.structured_content)["messages"]] == ["not_found"]
    assert [m["path"] for m in error_body(unpaid.structured_content)["messages"]] == ["$.payment"]


def test_a_reused_key_is_an_idempotency_conflict(live_url):
    create = {"meta": {**META, "idempotency-key": "mcp-reuse"}, "booking": session_request(90)}
    first, other = call(live_url, ("create_booking_session", create), ("create_booking_session", {**create, "booking": session_request(95)}))
    sid = booking_body(first.structured_content)["id"]
    assert other.is_error and error_body(other.structured_content)["messages"][0]["code"] == "idempotency_conflict"
    stop = {"meta": {**META, "idempotency-key": "mcp-stop"}, "id": sid}
    cancelled, again = call(live_url, ("cancel_booking_session", stop), ("cancel_booking_session", stop))
    assert booking_body(again.structured_content) == booking_body(cancelled.structured_content)


def test_the_tool_list_fits_its_byte_budget(live_url):
    listed = requests.post(
        live_url + "/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"},
        timeout=TIMEOUT,
    )
    result = listed.json()["result"]
    size = len(json.dumps(result, separators=(",", ":"), ensure_ascii=False).encode())
    print(f"\ntools/list: {size} bytes for {len(result['tools'])} tools")
    assert size <= TOOL_LIST_BUDGET
    assert {"create_booking_session", "get_booking_session", "update_booking_session", "complete_booking_session", "cancel_booking_session"} <= {
        tool["name"] for tool in result["tools"]
    }


RACERS = 40


def test_forty_creates_over_ucp_rest_and_mcp_for_the_same_nights_make_one_hold(live_url):
    nights = session_request(120, 3)
    stay = {"check_in": str(future(120)), "check_out": str(future(123)), "guests": 2}
    barrier = threading.Barrier(RACERS)

    def racer(i: int) -> str:
        kind = ("ucp", "rest", "mcp")[i % 3]
        if kind == "mcp":

            async def create():
                async with Client(live_url + "/mcp") as client:
                    await client.list_tools()  # connected before the start
                    barrier.wait(timeout=60)
                    return await client.call_tool("create_booking_session", {"meta": META, "booking": nights})

            body = any_body(run(create).structured_content)
            return "mcp:won" if body.get("id") else "mcp:" + body["messages"][0]["code"]
        session = requests.Session()
        session.get(live_url + "/api/v1/health", timeout=TIMEOUT)
        barrier.wait(timeout=60)
        if kind == "ucp":
            response = session.post(live_url + "/ucp/v1/booking-sessions", json=nights, timeout=TIMEOUT)
            body = any_body(response.json())
            return "ucp:won" if response.status_code == 201 else "ucp:" + body["messages"][0]["code"]
        response = session.post(live_url + "/api/v1/reservations", json=stay, timeout=TIMEOUT)
        return "rest:won" if response.status_code == 201 else f"rest:{response.json().get('code')}"

    with ThreadPoolExecutor(RACERS) as pool:
        outcomes = Counter(pool.map(racer, range(RACERS)))
    print("\nmixed race:", dict(outcomes))
    winners = sum(count for outcome, count in outcomes.items() if outcome.endswith(":won"))
    assert winners == 1, outcomes
    assert set(outcomes) - {"ucp:won", "rest:won", "mcp:won"} <= {"ucp:inventory_exhausted", "mcp:inventory_exhausted", "rest:dates_unavailable"}, outcomes
    assert Reservation.objects.filter(status="held").count() == 1


def test_agents_read_each_thing_once(live_url):
    """A quote's breakdown once (under price_breakdown), a reservation's id once (reservation_id);
    the REST bodies keep their documented shapes."""
    stay = {"check_in": str(future(150)), "check_out": str(future(153)), "guests": 2}
    quote, held = call(live_url, ("get_quote", stay), ("create_reservation", {**stay, "idempotency_key": "once-1"}))
    assert "total" not in quote.structured_content and quote.structured_content["price_breakdown"]["total"] > 0
    assert "id" not in held.structured_content and held.structured_content["reservation_id"].startswith("res_")
    rest_quote = requests.post(live_url + "/api/v1/quote", json=stay, timeout=TIMEOUT).json()
    assert rest_quote["total"] == rest_quote["price_breakdown"]["total"]
    replayed = requests.post(live_url + "/api/v1/reservations", json=stay, headers={"Idempotency-Key": "once-1"}, timeout=TIMEOUT).json()
    assert replayed["id"] == replayed["reservation_id"] == held.structured_content["reservation_id"]  # the stored answer is the REST one


def test_an_unexpected_failure_is_the_ucp_error_envelope_too(monkeypatch):
    from discovery import mcp_server

    async def broken(*arguments):
        raise RuntimeError("a bug")

    monkeypatch.setattr(mcp_server.ucp_tools, "run_async", broken)
    params = types.CallToolRequestParams(name="get_booking_session", arguments={"id": "res_x"})
    result = asyncio.run(mcp_server.call_ucp_tool(None, params))
    assert result.is_error and [m["code"] for m in error_body(result.structured_content)["messages"]] == ["internal_error"]
