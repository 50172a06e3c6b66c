"""Issue 28, items 6 and 7: a retry key with a NUL (or any control character, or a lone surrogate)
is a 422 on every interface, never a 503 "try again" with a DataError in the log; and a lone
surrogate in an A2A message is a client error (-32602), never -32603 with a traceback.

REST is asked in-process (HTTP servers refuse a NUL in a header before the app sees it); MCP and
A2A through a live server, as agents reach them."""

import json
import uuid

import httpx
import pytest
from mcp import Client

from tests.agents.conftest import TIMEOUT, first_free_stay, run, stay, tool_error

BAD_KEYS = {"nul": "a\x00b", "newline": "a\nb", "lone-surrogate": "a\ud800b", "too-long": "k" * 256}


@pytest.mark.django_db
class TestRestKeys:
    @pytest.mark.parametrize("path", ["/api/v1/reservations", "/api/v1/payments/checkout-link"])
    @pytest.mark.parametrize("key", BAD_KEYS.values(), ids=BAD_KEYS.keys())
    def test_a_bad_key_is_a_422_at_the_header(self, api, demo_property, path, key):
        response = api.post(path, stay(60), **{"Idempotency-Key": key})
        assert response.status_code == 422, response.content
        [item] = response.json()["detail"]
        assert item["loc"] == ["header", "Idempotency-Key"]

    def test_a_printable_key_of_255_characters_is_a_key(self, api, demo_property):
        first = api.post("/api/v1/reservations", stay(60), **{"Idempotency-Key": "k" * 255})
        again = api.post("/api/v1/reservations", stay(60), **{"Idempotency-Key": "k" * 255})
        assert first.status_code == again.status_code == 201 and first.json()["id"] == again.json()["id"]


@pytest.mark.live
class TestMcpKeys:
    @pytest.mark.parametrize("key", ["a\x00b", "a\tb", "k" * 256], ids=["nul", "tab", "too-long"])
    def test_a_bad_key_is_the_422_rest_gives(self, live_url, key):
        async def call():
            async with Client(live_url + "/mcp") as client:
                return await client.call_tool("create_reservation", {**first_free_stay(live_url, start=60), "idempotency_key": key})

        _, error = tool_error(run(call))
        assert (error["status"], error["code"], error["detail"][0]["loc"]) == (422, "validation_error", ["body", "idempotency_key"])

    def test_a_lone_surrogate_in_the_key_is_a_parse_error(self, live_url):
        """The official client cannot even encode one; sent raw, the SDK's parser refuses it."""
        arguments = {**first_free_stay(live_url, start=60), "idempotency_key": "KEY"}
        call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "create_reservation", "arguments": arguments}}
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}
        body = json.dumps(call).replace('"KEY"', '"a\\ud800b"')
        response = httpx.post(live_url + "/mcp", content=body, headers=headers, timeout=TIMEOUT)
        assert response.status_code == 400 and response.json()["error"]["code"] == -32700


@pytest.mark.live
class TestA2a:
    @staticmethod
    def send_v03(live_url: str, message: dict) -> httpx.Response:
        body = {"jsonrpc": "2.0", "id": 7, "method": "message/send", "params": {"message": {"role": "user", "kind": "message", **message}}}
        return httpx.post(live_url + "/a2a", content=json.dumps(body), headers={"Content-Type": "application/json"}, timeout=TIMEOUT)

    def test_a_message_id_with_a_nul_is_a_rejected_task_with_the_422(self, live_url):
        stay_fields = first_free_stay(live_url, start=60)
        response = self.send_v03(live_url, {"messageId": "a\x00b", "parts": [{"kind": "data", "data": {"skill": "create_reservation", **stay_fields}}]})
        assert response.status_code == 200, response.text
        result = response.json()["result"]
        assert result["status"]["state"] == "rejected", result
        error = next(part["data"]["error"] for part in result["status"]["message"]["parts"] if part["kind"] == "data")
        assert (error["status"], error["detail"][0]["loc"]) == (422, ["body", "idempotency_key"])

    @pytest.mark.parametrize(
        "part",
        [{"kind": "text", "text": "\ud800"}, {"kind": "data", "data": {"skill": "get_quote", "note": "x\udfffy"}}],
        ids=["text-part", "data-part"],
    )
    def test_a_lone_surrogate_is_invalid_params_not_an_internal_error(self, live_url, part):
        response = self.send_v03(live_url, {"messageId": str(uuid.uuid4()), "parts": [part]})
        assert response.status_code == 200
        assert response.json()["id"] == 7 and response.json()["error"]["code"] == -32602
        assert "lone surrogate" in response.json()["error"]["message"]
