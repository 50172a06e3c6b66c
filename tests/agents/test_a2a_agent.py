"""The A2A agent: its card, fetched and parsed with a2a-sdk's card resolver, and the interface the
card advertises, called with a2a-sdk's client. Skills take the REST fields in a data part plus
"skill", and answer the REST body in a data part."""

import json

import httpx
import pytest
from a2a.client import A2ACardResolver, ClientConfig, create_client
from a2a.helpers import get_data_parts, get_text_parts, new_data_part, new_message, new_text_part
from a2a.types.a2a_pb2 import Role, SendMessageRequest
from a2a.utils.proto_utils import validate_proto_required_fields

from tests.agents.conftest import TIMEOUT, TOOL_NAMES, first_free_stay, rest, rest_message, run

pytestmark = pytest.mark.live


async def fetch_card(live_url: str):
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        return await A2ACardResolver(http, live_url).get_agent_card()


async def send(live_url: str, *parts):
    """Send one user message through the interface the card advertises; return the reply's parts."""
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        card = await A2ACardResolver(http, live_url).get_agent_card()
        client = await create_client(card, ClientConfig(httpx_client=http, streaming=False))
        request = SendMessageRequest(message=new_message(list(parts), role=Role.ROLE_USER))
        replies = [reply async for reply in client.send_message(request)]
    assert len(replies) == 1 and replies[0].HasField("message"), replies
    return replies[0].message.parts


def ask(live_url: str, skill: str, **fields):
    return run(send, live_url, new_data_part({"skill": skill, **fields}))


class TestTheCard:
    def test_the_sdk_resolver_parses_the_card_with_every_required_field(self, live_url):
        card = run(fetch_card, live_url)
        validate_proto_required_fields(card)  # the SDK's own check of A2A 1.0's required fields
        assert card.name.endswith("direct booking") and "checkout_url" in card.description
        assert card.version == "1.0.0"
        [interface] = card.supported_interfaces
        assert (interface.url, interface.protocol_binding, interface.protocol_version) == (live_url + "/a2a", "JSONRPC", "1.0")
        assert card.capabilities.streaming is False and card.capabilities.push_notifications is False
        assert list(card.default_input_modes) == ["application/json"]
        assert "application/json" in card.default_output_modes
        assert card.provider.url == live_url and card.provider.organization
        assert card.documentation_url == live_url + "/agents"
        assert httpx.get(card.documentation_url, timeout=TIMEOUT).status_code == 200
        assert httpx.get(card.icon_url, timeout=TIMEOUT).status_code == 200

        assert [skill.id for skill in card.skills] == TOOL_NAMES
        for skill in card.skills:
            assert skill.name and skill.description and "booking" in skill.tags
            [example] = skill.examples
            assert json.loads(example)["skill"] == skill.id

    def test_the_card_is_cacheable_and_revalidates_with_304(self, live_url):
        url = live_url + "/.well-known/agent-card.json"
        first = httpx.get(url, timeout=TIMEOUT)
        assert first.status_code == 200 and first.headers["Content-Type"] == "application/json"
        assert "max-age=" in first.headers["Cache-Control"] and first.headers["ETag"]
        again = httpx.get(url, headers={"If-None-Match": first.headers["ETag"]}, timeout=TIMEOUT)
        assert again.status_code == 304 and again.headers["ETag"] == first.headers["ETag"] and not again.content


class TestSkills:
    def test_check_availability_answers_the_rest_body(self, live_url):
        free = first_free_stay(live_url, guests=4)
        [data] = get_data_parts(ask(live_url, "check_availability", **free))
        # JSON numbers travel as doubles in A2A data parts: 4 arrives as 4.0, and compares equal.
        assert data == rest(live_url, "GET", "/api/v1/availability", free).json()
        assert data["available"] is True and data["guests"] == 4

    def test_every_example_on_the_card_works_for_the_read_only_skills(self, live_url):
        card = run(fetch_card, live_url)
        for skill in card.skills:
            if "read-only" not in skill.tags or skill.id == "get_reservation":
                continue
            parts = run(send, live_url, new_data_part(json.loads(skill.examples[0])))
            assert not get_text_parts(parts), (skill.id, get_text_parts(parts))
            assert "error" not in get_data_parts(parts)[0], skill.id

    def test_a_checkout_link_is_created_and_the_reservation_is_recorded_as_booked_by_a2a(self, live_url):
        free = first_free_stay(live_url, start=120)
        [link] = get_data_parts(ask(live_url, "create_checkout_link", **free, agent_name="a2a-test-agent"))
        assert link["checkout_url"] and link["reservation_id"].startswith("res_") and link["status"] == "held"
        [status] = get_data_parts(ask(live_url, "get_reservation", reservation_id=link["reservation_id"]))
        assert (status["status"], status["source"], status["agent_name"]) == ("held", "a2a", "a2a-test-agent")

    def test_bad_input_answers_the_rest_message_and_error_body(self, live_url):
        bad = {"check_in": "2027-02-30", "check_out": "2027-03-02"}
        parts = ask(live_url, "get_quote", **bad)
        answer = rest(live_url, "POST", "/api/v1/quote", bad)
        assert get_text_parts(parts) == [rest_message(answer.json())]
        [data] = get_data_parts(parts)
        assert data["error"]["status"] == 422 and data["error"]["detail"] == answer.json()["detail"]

    def test_a_message_without_a_skill_is_told_which_skills_exist(self, live_url):
        parts = run(send, live_url, new_data_part({"check_in": "2027-05-10"}))
        [text] = get_text_parts(parts)
        assert text.startswith('body.skill: Name the skill in "skill"') and all(name in text for name in TOOL_NAMES)

    def test_a_text_part_holding_a_json_object_is_read_like_a_data_part(self, live_url):
        parts = run(send, live_url, new_text_part(json.dumps({"skill": "get_calendar", "months": 1})))
        [calendar] = get_data_parts(parts)
        assert calendar["months"] == 1 and calendar["days"]


class TestTheEndpoint:
    def test_foreign_hosts_are_refused_like_at_the_mcp_endpoint(self, live_url):
        message = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {}}
        refused = httpx.post(live_url + "/a2a", json=message, headers={"Host": "evil.example"}, timeout=TIMEOUT)
        assert refused.status_code == 421


class TestNumbersAgentsGetWrong:
    """Issue 12, item 8: `"guests": 1e309` (infinity once parsed) was an internal error with a
    ValueError in the log; REST and MCP answer 422. Every input error is a client error."""

    @staticmethod
    def raw_send(live_url: str, data_json: str) -> httpx.Response:
        body = (
            '{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "m-1", "role": "ROLE_USER", '
            f'"parts": [{{"data": {{"skill": "get_quote", "check_in": "2027-05-10", "check_out": "2027-05-13", {data_json}}}}}]}}}}}}'
        )
        return httpx.post(live_url + "/a2a", content=body, headers={"Content-Type": "application/json", "A2A-Version": "1.0"}, timeout=TIMEOUT)

    @pytest.mark.parametrize("number", ["1e309", "-1e309", "1e400", "NaN", "Infinity", "-Infinity", "1" + "0" * 400, "2.5", "true"])
    def test_an_absurd_number_is_an_invalid_input_answer_not_an_internal_error(self, live_url, number):
        response = self.raw_send(live_url, f'"guests": {number}')
        assert response.status_code == 200, response.text
        body = response.json()
        assert "internal_error" not in response.text
        if "error" in body:  # refused by the JSON-RPC layer itself: invalid params or parse error
            assert body["error"]["code"] in (-32600, -32602, -32700), body
            return
        data = next(part["data"] for part in body["result"]["message"]["parts"] if "data" in part)
        assert data["error"]["status"] == 422 and data["error"]["code"] == "validation_error"
        assert data["error"]["detail"][0]["loc"] == ["body", "guests"]
