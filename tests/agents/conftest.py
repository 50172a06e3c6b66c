"""Helpers for the agent-interface tests: the official clients (mcp, a2a-sdk) run against a live
server, one per module (live_url below), and their answers are compared with the REST API's."""

import json

import anyio
import pytest
import requests

from tests.dates import future

TIMEOUT = 30
SKILL_NAMES = [
    "get_property",
    "check_availability",
    "get_calendar",
    "find_stays",
    "get_quote",
    "create_reservation",
    "create_checkout_link",
    "create_checkout_session",
    "get_reservation",
    "release_hold",
    "get_booking",
    "cancel_booking",
    "change_booking_dates",
]
# The UCP binding's tools (discovery/ucp/tools.py): MCP tools, not A2A skills.
UCP_TOOL_NAMES = ["create_booking_session", "get_booking_session", "update_booking_session", "complete_booking_session", "cancel_booking_session"]
TOOL_NAMES = SKILL_NAMES + UCP_TOOL_NAMES


@pytest.fixture(scope="module")
def agents_server(django_db_setup, django_db_blocker):
    """One live server per test module: starting the server and loading the agent SDKs takes seconds,
    and these tests only talk to it over HTTP. It serves the test database, which each test still
    gets fresh (live_url below); the server's caches follow the property's rules_version."""
    from tests.live import live_server

    with live_server() as url:
        yield url


@pytest.fixture
def live_url(agents_server, transactional_db, demo_property):
    """Base URL of the module's live server, on a fresh test database with the demo property."""
    return agents_server


def run(async_function, *args):
    """Run a coroutine function to completion from a synchronous test, with a time limit."""

    async def bounded():
        with anyio.fail_after(120):
            return await async_function(*args)

    return anyio.run(bounded)


def days_ahead(days: int) -> str:
    return future(days).isoformat()


def stay(offset: int, nights: int = 3, **extra) -> dict:
    return {"check_in": days_ahead(offset), "check_out": days_ahead(offset + nights), **extra}


def rest_message(body: dict) -> str:
    """The one-line message of a REST error body, as booking.errors builds it for every interface."""
    detail = body["detail"]
    if isinstance(detail, list):
        return "; ".join(f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}" for item in detail)
    return detail


def rest(base_url: str, method: str, path: str, payload: dict | None = None) -> requests.Response:
    if method == "GET":
        return requests.get(base_url + path, params=payload, timeout=TIMEOUT)
    return requests.post(base_url + path, json=payload, timeout=TIMEOUT)


def tool_error(result) -> tuple[str, dict]:
    """(message, REST error body with status) of an MCP tool error."""
    assert result.is_error, result
    message, payload = result.content[0].text, json.loads(result.content[1].text)
    return message, payload


def first_free_stay(base_url: str, *, start: int = 45, nights: int = 3, guests: int = 2) -> dict:
    """A stay the demo property can be booked for, found through the REST API."""
    for offset in range(start, start + 200, 7):
        candidate = stay(offset, nights, guests=guests)
        if rest(base_url, "GET", "/api/v1/availability", candidate).json().get("available"):
            return candidate
    raise AssertionError("no free stay found for the demo property")
