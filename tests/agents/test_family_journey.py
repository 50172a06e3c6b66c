"""A family of four (two children, 5 and 14) booked end to end by an agent over MCP and over A2A,
from find_stays to a paid stay, with no REST call: hold with create_reservation, pay the hold with
create_checkout_session (or its pay_url), follow with get_reservation. Each journey prints its
calls and the bytes an agent downloads (on the wire, gzip, and as JSON), the figures of
docs/agents.md, "A family's journey"."""

import json
from datetime import timedelta

import httpx

from booking.catalog.selectors import today
from tests.agents.conftest import TIMEOUT
from tests.agents.test_mcp_server import pay_on_sandbox_page

FAMILY = {"guests": 4, "children_ages": [5, 14]}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25", "Accept-Encoding": "gzip"}


class Journey:
    """Counts an agent's calls and what it downloads."""

    def __init__(self, live_url: str):
        self.live_url, self.calls, self.wire, self.json = live_url, 0, 0, 0
        self.http = httpx.Client(timeout=TIMEOUT)

    def post(self, path: str, message: dict, headers: dict) -> dict:
        answer = self.http.post(self.live_url + path, json=message, headers=headers)
        assert answer.status_code == 200, answer.text
        self.calls, self.wire, self.json = self.calls + 1, self.wire + answer.num_bytes_downloaded, self.json + len(answer.content)
        return answer.json()

    def report(self, name: str) -> str:
        return f"{name}: {self.calls} calls, {self.wire / 1000:.1f} kB on the wire (gzip), {self.json / 1000:.1f} kB of JSON"


def window() -> dict:
    start = today() + timedelta(days=75)
    return {"start": start.isoformat(), "end": (start + timedelta(days=60)).isoformat()}


def test_over_mcp(live_url):
    journey = Journey(live_url)

    def tool(name: str, arguments: dict) -> dict:
        answer = journey.post(
            "/mcp", {"jsonrpc": "2.0", "id": journey.calls + 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}, MCP_HEADERS
        )
        result = answer["result"]
        assert not result.get("isError"), result
        return result["structuredContent"]

    journey.post("/mcp", {"jsonrpc": "2.0", "id": 0, "method": "tools/list", "params": {}}, MCP_HEADERS)
    stays = tool("find_stays", {"nights": 3, **FAMILY, **window()})["stays"]
    stay = {"check_in": stays[0]["check_in"], "check_out": stays[0]["check_out"]}
    held = tool("create_reservation", {**stay, **FAMILY, "idempotency_key": "family-journey-mcp"})
    assert held["payment"]["pay_url"].endswith("/pay/" + held["reservation_id"])
    checkout = tool("create_checkout_session", {"reservation_id": held["reservation_id"]})
    assert checkout["amount"] == held["payment"]["amount_due"] == stays[0]["payment_schedule"][0]["amount"]
    pay_on_sandbox_page(checkout["checkout_url"])  # the guest, not the agent
    confirmed = tool("get_reservation", {"reservation_id": held["reservation_id"]})
    assert (confirmed["status"], confirmed["guests"]) == ("confirmed", 4)
    print("\n" + journey.report("MCP"))
    assert journey.calls == 5 and journey.wire < journey.json


def test_over_a2a(live_url):
    journey = Journey(live_url)
    headers = {"A2A-Version": "1.0", "Accept-Encoding": "gzip"}

    def skill(name: str, fields: dict) -> dict:
        message = {
            "messageId": f"family-{name}-{journey.calls}",
            "role": "ROLE_USER",
            "parts": [{"data": {"skill": name, **fields}, "mediaType": "application/json"}],
        }
        answer = journey.post("/a2a", {"jsonrpc": "2.0", "id": journey.calls + 1, "method": "SendMessage", "params": {"message": message}}, headers)
        parts = answer["result"]["message"]["parts"]
        assert parts[0]["text"], "words beside the data"
        return next(part["data"] for part in parts if "data" in part)

    stays = skill("find_stays", {"nights": 3, **FAMILY, **window()})["stays"]
    stay = {"check_in": stays[-1]["check_in"], "check_out": stays[-1]["check_out"]}
    held = skill("create_reservation", {**stay, **FAMILY})
    checkout = skill("create_checkout_session", {"reservation_id": held["reservation_id"]})
    pay_on_sandbox_page(checkout["checkout_url"])
    confirmed = skill("get_reservation", {"reservation_id": held["reservation_id"]})
    assert confirmed["status"] == "confirmed" and json.dumps(confirmed["guests"]) == "4"
    print("\n" + journey.report("A2A"))
    assert journey.calls == 4
