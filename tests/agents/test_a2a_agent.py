"""The A2A agent: its card, fetched and parsed with a2a-sdk's card resolver, and the interface the
card advertises, called with a2a-sdk's client. Skills take the REST fields in a data part plus
"skill", and answer the REST body in a data part."""

import json
import re

import httpx
import pytest
from a2a.client import A2ACardResolver, ClientConfig, create_client
from a2a.helpers import get_data_parts, get_text_parts, new_data_part, new_message, new_text_part
from a2a.types.a2a_pb2 import Role, SendMessageRequest, TaskState
from a2a.utils.proto_utils import validate_proto_required_fields

from tests.agents.conftest import SKILL_NAMES, TIMEOUT, first_free_stay, rest, rest_message, run, stay

pytestmark = pytest.mark.live


async def fetch_card(live_url: str):
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        return await A2ACardResolver(http, live_url).get_agent_card()


async def reply_to(live_url: str, *parts, task_id: str | None = None, context_id: str | None = None):
    """Send one user message through the interface the card advertises; return the one reply (a
    Message for an answer, a Task for what is not one)."""
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        card = await A2ACardResolver(http, live_url).get_agent_card()
        client = await create_client(card, ClientConfig(httpx_client=http, streaming=False))
        request = SendMessageRequest(message=new_message(list(parts), role=Role.ROLE_USER, task_id=task_id, context_id=context_id))
        replies = [reply async for reply in client.send_message(request)]
    assert len(replies) == 1, replies
    return replies[0]


async def send(live_url: str, *parts):
    """The parts of the reply: the answer's, or those of the Task's status message."""
    reply = await reply_to(live_url, *parts)
    return reply.message.parts if reply.HasField("message") else reply.task.status.message.parts


def ask(live_url: str, skill: str, **fields):
    return run(send, live_url, new_data_part({"skill": skill, **fields}))


class TestTheCard:
    def test_the_sdk_resolver_parses_the_card_with_every_required_field(self, live_url):
        card = run(fetch_card, live_url)
        validate_proto_required_fields(card)  # the SDK's own check of A2A 1.0's required fields
        assert card.name.endswith("direct booking") and "checkout_url" in card.description
        assert card.version == "1.0.0"
        interfaces = [(i.url, i.protocol_binding, i.protocol_version) for i in card.supported_interfaces]
        assert interfaces == [(live_url + "/a2a", "JSONRPC", "1.0"), (live_url + "/a2a", "JSONRPC", "0.3")]
        assert card.capabilities.streaming is False and card.capabilities.push_notifications is False
        assert list(card.default_input_modes) == ["application/json"]
        assert "application/json" in card.default_output_modes
        assert card.provider.url == live_url and card.provider.organization
        assert card.documentation_url == live_url + "/agents"
        assert httpx.get(card.documentation_url, timeout=TIMEOUT).status_code == 200
        assert httpx.get(card.icon_url, timeout=TIMEOUT).status_code == 200

        assert [skill.id for skill in card.skills] == SKILL_NAMES
        for skill in card.skills:
            assert skill.name and skill.description and "booking" in skill.tags
            [example] = skill.examples
            assert json.loads(example)["skill"] == skill.id
            # The skills that make a hold show their retry key (issue 31).
            assert ("idempotency_key" in json.loads(example)) is (skill.id in ("create_reservation", "create_checkout_link", "create_checkout_session")), (
                skill.id
            )

    def test_an_a2a_0_3_client_can_read_the_card(self, live_url):
        from a2a.compat.v0_3.types import AgentCard as AgentCardV03

        card = AgentCardV03.model_validate(httpx.get(live_url + "/.well-known/agent-card.json", timeout=TIMEOUT).json())
        assert card.url == live_url + "/a2a" and card.protocol_version == "0.3" and card.preferred_transport == "JSONRPC"

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
            if "read-only" not in skill.tags or skill.id in ("get_reservation", "get_booking"):  # need a real id or token
                continue
            parts = run(send, live_url, new_data_part(json.loads(skill.examples[0])))
            [body] = get_data_parts(parts)
            assert "error" not in body, skill.id
            # Words for the model beside the data: the MCP tool's summary, never empty.
            [words] = get_text_parts(parts)
            assert words and not words.startswith("Done;") and ".0 " not in words, (skill.id, words)  # not the fallback pointer

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
        assert text.startswith('body.skill: Name the skill in "skill"') and all(name in text for name in SKILL_NAMES)

    def test_a_refusal_is_a_rejected_task_carrying_the_rest_error(self, live_url):
        unavailable = first_free_stay(live_url)
        rest(live_url, "POST", "/api/v1/payments/checkout-link", unavailable)
        reply = run(reply_to, live_url, new_data_part({"skill": "create_checkout_link", **unavailable}))
        assert reply.HasField("task") and reply.task.status.state == TaskState.TASK_STATE_REJECTED
        [error] = get_data_parts(reply.task.status.message.parts)
        assert (error["error"]["status"], error["error"]["code"]) == (409, "dates_unavailable")

    def test_free_text_is_a_task_asking_for_the_data_part_and_the_same_task_can_answer(self, live_url):
        reply = run(reply_to, live_url, new_text_part("Hi! Is the flat free next month for four people?"))
        assert reply.HasField("task") and reply.task.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
        [guide] = get_data_parts(reply.task.status.message.parts)
        assert guide["skills"] == SKILL_NAMES and guide["example"]["skill"] == "check_availability"
        example = {key: value for key, value in guide["example"].items()}
        answered = run(lambda: reply_to(live_url, new_data_part(example), task_id=reply.task.id, context_id=reply.task.context_id))
        assert answered.HasField("task") and answered.task.status.state == TaskState.TASK_STATE_COMPLETED
        [body] = get_data_parts(answered.task.artifacts[0].parts)
        assert body["check_in"] == example["check_in"] and "available" in body

    def test_a_text_part_holding_a_json_object_is_read_like_a_data_part(self, live_url):
        parts = run(send, live_url, new_text_part(json.dumps({"skill": "get_calendar", "months": 1})))
        [calendar] = get_data_parts(parts)
        assert calendar["months"] == 1 and calendar["days"]


class TestTheEndpoint:
    def test_foreign_hosts_are_refused_like_at_the_mcp_endpoint(self, live_url):
        message = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {}}
        refused = httpx.post(live_url + "/a2a", json=message, headers={"Host": "evil.example"}, timeout=TIMEOUT)
        assert refused.status_code == 421

    def test_integers_read_as_integers_on_the_wire(self, live_url):
        # Protobuf keeps data-part numbers as doubles; a JSON reader sees what REST writes.
        free = first_free_stay(live_url, guests=4)
        answer = TestInputAgentsGetWrong.raw_send(live_url, json.dumps({"data": {"skill": "check_availability", **free}}))
        assert answer.status_code == 200 and answer.headers["content-length"] == str(answer.num_bytes_downloaded)  # gzip on the wire
        assert '"guests": 4' in answer.text and '"guests": 4.0' not in answer.text
        assert not re.search(r"\d\.0[,}\]]", answer.text), answer.text


class TestInputAgentsGetWrong:
    """Issue 12, item 8: `"guests": 1e309` (infinity once parsed) was an internal error with a
    ValueError in the log, where REST and MCP answer 422. Every input error is the client's: a
    skill's bad field is the 422 answer REST gives, and a body JSON-RPC cannot take is a JSON-RPC
    client error (-32602 invalid params, -32700 parse error), never -32603 or internal_error."""

    @staticmethod
    def raw_post(live_url: str, body: str | bytes) -> httpx.Response:
        return httpx.post(live_url + "/a2a", content=body, headers={"Content-Type": "application/json", "A2A-Version": "1.0"}, timeout=TIMEOUT)

    @classmethod
    def raw_send(cls, live_url: str, part_json: str) -> httpx.Response:
        body = (
            '{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "m-1", "role": "ROLE_USER", '
            f'"parts": [{part_json}]}}}}}}'
        )
        return cls.raw_post(live_url, body)

    @staticmethod
    def error_of(response: httpx.Response) -> dict:
        assert response.status_code == 200, response.text
        assert "result" in response.json(), response.json()
        task = response.json()["result"]["task"]
        assert task["status"]["state"] == "TASK_STATE_REJECTED", task
        data = next(part["data"] for part in task["status"]["message"]["parts"] if "data" in part)
        return data["error"]

    NOT_AN_INTEGER = [{"loc": ["body", "guests"], "msg": "A valid integer is required.", "type": "value_error"}]

    # Numbers as they arrive from JSON: 1e309 and 1e400 overflow to infinity; NaN and Infinity are
    # literals Python's json (and so the a2a-sdk) accepts.
    @pytest.mark.parametrize("number", ["1e309", "-1e309", "1e400", "NaN", "Infinity", "-Infinity", "2.5", "true"])
    def test_a_number_that_is_not_a_whole_number_is_the_422_rest_gives(self, live_url, number):
        fields = json.dumps(stay(60))[1:-1] + f', "guests": {number}'
        error = self.error_of(self.raw_send(live_url, f'{{"data": {{"skill": "get_quote", {fields}}}}}'))
        assert (error["status"], error["code"], error["detail"]) == (422, "validation_error", self.NOT_AN_INTEGER)
        if number not in ("NaN", "Infinity", "-Infinity"):  # REST's parser refuses these literals before validating
            rest_answer = httpx.post(live_url + "/api/v1/quote", content="{" + fields + "}", headers={"Content-Type": "application/json"}, timeout=TIMEOUT)
            assert rest_answer.json()["detail"] == self.NOT_AN_INTEGER

    def test_the_error_names_the_field_where_rest_reads_it(self, live_url):
        # get_calendar's REST twin takes a query string: the field is ["query", "months"], as over MCP.
        error = self.error_of(self.raw_send(live_url, '{"data": {"skill": "get_calendar", "months": 1e309}}'))
        assert [item["loc"] for item in error["detail"]] == [["query", "months"]]

    def test_an_integer_too_large_for_a_data_part_is_invalid_params(self, live_url):
        # A data part is a protobuf Struct, whose numbers are doubles: 10**400 has none, and the SDK
        # refuses the message itself.
        response = self.raw_send(live_url, '{"data": {"skill": "get_quote", "guests": 1' + "0" * 400 + "}}")
        assert response.status_code == 200 and response.json()["error"]["code"] == -32602

    def test_a_text_part_nested_deeper_than_python_can_parse_is_the_invalid_input_answer(self, live_url):
        error = self.error_of(self.raw_send(live_url, json.dumps({"text": "[" * 100_000 + "]" * 100_000})))
        assert error["status"] == 422 and error["detail"][0]["type"] == "model_attributes_type"

    @pytest.mark.parametrize(
        "body",
        [
            b'{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"x": "\xff"}}',  # not UTF-8
            b'{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            b'{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"x": 1' + b"0" * 5000 + b"}}",  # over 4300 digits
        ],
        ids=["not-utf8", "nested-too-deep", "integer-too-long"],
    )
    def test_a_body_python_cannot_read_as_json_is_a_parse_error(self, live_url, body):
        response = self.raw_post(live_url, body)
        assert response.status_code == 200
        assert response.json()["error"]["code"] == -32700 and response.json()["id"] is None


def test_the_task_store_keeps_only_the_most_recent_tasks():
    from a2a.server.context import ServerCallContext
    from a2a.types.a2a_pb2 import Task, TaskStatus

    from discovery.a2a_agent import RecentTaskStore

    async def fill():
        store = RecentTaskStore()
        context = ServerCallContext()
        for number in range(RecentTaskStore.LIMIT + 50):
            await store.save(Task(id=f"t{number}", context_id="c", status=TaskStatus(state=TaskState.TASK_STATE_REJECTED)), context)
        return len(store), await store.get("t0", context), await store.get(f"t{RecentTaskStore.LIMIT + 49}", context)

    size, oldest, newest = run(fill)
    assert size == RecentTaskStore.LIMIT and oldest is None and newest is not None
