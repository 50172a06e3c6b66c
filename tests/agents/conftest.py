"""Helpers for the agent-interface tests: the official clients (mcp, a2a-sdk) run against a live
server (tests/conftest.py: live_url), and their answers are compared with the REST API's."""

import json

import anyio
import requests

from tests.dates import future

TIMEOUT = 30
TOOL_NAMES = [
    "get_property",
    "check_availability",
    "get_calendar",
    "find_stays",
    "get_quote",
    "create_reservation",
    "create_checkout_link",
    "get_reservation",
    "release_hold",
]


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
