"""create_checkout_link hands the payment page to an MCP client that can open it (URL-mode
elicitation, MCP 2025-11-25), checked with the official `mcp` client against a live server.

A client declaring capabilities.elicitation.url is asked to open the checkout URL for the guest;
every client gets the same result, checkout_url included, with handed_to_client saying whether the
client accepted. The server is stateless: a 2026-07-28 client (the SDK's default) gets the
elicitation in an input_required result and retries with its answer; a handshake-era client has no
stream to be asked on, and gets checkout_url as before.
"""

import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from booking.reservations.models import Reservation
from discovery import mcp_server
from tests.agents.conftest import first_free_stay, rest, run

pytestmark = pytest.mark.live


def mcp_url(live_url: str) -> str:
    return live_url + "/mcp"


class Recorder:
    """An elicitation callback: records each request and answers with `action`."""

    def __init__(self, action: str = "accept", delay: float = 0):
        self.action, self.delay, self.requests = action, delay, []

    async def __call__(self, context, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.requests.append(params)
        if self.delay:
            import anyio

            await anyio.sleep(self.delay)
        return types.ElicitResult(action=self.action)


def call_checkout(server, arguments: dict, **client_options):
    async def call():
        async with Client(server, **client_options) as client:
            return await client.call_tool("create_checkout_link", arguments)

    return run(call)


def assert_one_hold(checkout: dict) -> Reservation:
    """One hold for the stay (a retry of the call made no second one), and it is this checkout's."""
    holds = Reservation.objects.filter(check_in=checkout["check_in"], check_out=checkout["check_out"], status="held")
    assert [hold.pk for hold in holds] == [checkout["reservation_id"]]
    return holds[0]


class TestAClientThatOpensUrls:
    def test_it_is_asked_to_open_the_checkout_of_the_reservations_session_and_the_result_says_so(self, live_url):
        free = first_free_stay(live_url, start=50)
        recorder = Recorder("accept")
        result = call_checkout(mcp_url(live_url), {**free, "agent_name": "elicit-test"}, elicitation_callback=recorder)

        assert not result.is_error, result.content
        checkout = result.structured_content  # validated by the client against the output schema
        assert checkout["handed_to_client"] is True
        [request] = recorder.requests
        assert isinstance(request, types.ElicitRequestURLParams) and request.mode == "url"
        assert request.url == checkout["checkout_url"]
        reservation = assert_one_hold(checkout)
        assert reservation.checkout_url == request.url and reservation.checkout_session_id == checkout["session_id"]
        if checkout["provider"] == "sandbox":
            assert request.url.endswith(reservation.checkout_session_id)  # the sandbox page of this session
        # What the guest pays, for what: the message says it.
        assert f"{checkout['amount']:.2f}" in request.message.replace(",", "")
        assert free["check_in"] in request.message and free["check_out"] in request.message
        # The REST lookup of the reservation points at the very same page.
        held = rest(live_url, "GET", f"/api/v1/reservations/{checkout['reservation_id']}").json()
        assert held["payment"]["checkout_url"] == request.url
        assert "accepted to open" in result.content[0].text

    def test_a_client_that_declines_gets_the_checkout_url_to_hand_over_itself(self, live_url):
        free = first_free_stay(live_url, start=80)
        recorder = Recorder("decline")
        result = call_checkout(mcp_url(live_url), free, elicitation_callback=recorder)

        checkout = result.structured_content
        assert len(recorder.requests) == 1 and checkout["handed_to_client"] is False
        assert checkout["checkout_url"] == recorder.requests[0].url
        assert_one_hold(checkout)

    def test_an_idempotent_retry_returns_the_same_checkout_without_asking_the_human_again(self, live_url):
        free = first_free_stay(live_url, start=110)
        recorder = Recorder("accept")
        arguments = {**free, "idempotency_key": "elicit-retry-1"}

        async def call_twice():
            async with Client(mcp_url(live_url), elicitation_callback=recorder) as client:
                return await client.call_tool("create_checkout_link", arguments), await client.call_tool("create_checkout_link", arguments)

        first, second = run(call_twice)
        assert first.structured_content["checkout_url"] == second.structured_content["checkout_url"]
        assert (first.structured_content["handed_to_client"], second.structured_content["handed_to_client"]) == (True, False)
        assert [request.url for request in recorder.requests] == [first.structured_content["checkout_url"]]  # asked once (issue 31)
        assert_one_hold(first.structured_content)

    def test_a_request_state_the_server_did_not_make_is_refused(self, live_url):
        free = first_free_stay(live_url, start=140)

        async def forge():
            async with Client(mcp_url(live_url), elicitation_callback=Recorder()) as client:
                await client.list_tools()
                try:
                    await client.session.call_tool(
                        "create_checkout_link",
                        free,
                        request_state='{"checkout_url": "https://evil.example/pay"}',
                        input_responses={mcp_server.CHECKOUT_INPUT: types.ElicitResult(action="accept")},
                    )
                except MCPError as error:
                    return error
            raise AssertionError("a forged request_state was taken")

        refused = run(forge)
        assert (refused.error.code, refused.error.message) == (types.INVALID_PARAMS, "Invalid or expired requestState")
        assert not Reservation.objects.filter(check_in=free["check_in"]).exists()


class TestAClientWithoutTheCapability:
    def test_it_gets_the_checkout_url_as_before(self, live_url):
        free = first_free_stay(live_url, start=170)
        result = call_checkout(mcp_url(live_url), free)

        assert not result.is_error, result.content
        checkout = result.structured_content
        assert checkout["handed_to_client"] is False
        assert checkout["checkout_url"] == Reservation.objects.get(pk=checkout["reservation_id"]).checkout_url
        assert checkout["checkout_url"] in result.content[0].text  # the summary hands it over
        assert_one_hold(checkout)

    def test_a_handshake_era_client_of_this_stateless_server_gets_the_checkout_url_and_no_request(self, live_url):
        # Stateless JSON answers: the tools/call POST has neither a stream for a server request nor
        # the capabilities of an initialize made on another POST.
        free = first_free_stay(live_url, start=200)
        recorder = Recorder("accept")
        result = call_checkout(mcp_url(live_url), free, elicitation_callback=recorder, mode="legacy")

        assert recorder.requests == []
        assert result.structured_content["handed_to_client"] is False and result.structured_content["checkout_url"]


class TestAConnectionWithABackChannel:
    """The handshake-era path, on a connection that has a stream for server requests (the SDK's
    in-process transport): an elicitation/create request during the call, bounded in time."""

    def test_the_client_is_asked_during_the_call(self, live_url):
        free = first_free_stay(live_url, start=230)
        recorder = Recorder("accept")
        result = call_checkout(mcp_server.server(), free, elicitation_callback=recorder, mode="legacy")

        [request] = recorder.requests
        checkout = result.structured_content
        assert checkout["handed_to_client"] is True and request.url == checkout["checkout_url"]
        assert request.elicitation_id == f"checkout-{checkout['reservation_id']}"
        assert_one_hold(checkout)

    def test_a_client_that_does_not_answer_in_time_costs_the_hand_off_not_the_checkout(self, live_url, monkeypatch):
        monkeypatch.setattr(mcp_server, "HAND_OFF_SECONDS", 0.5)
        free = first_free_stay(live_url, start=260)
        recorder = Recorder("accept", delay=5)
        result = call_checkout(mcp_server.server(), free, elicitation_callback=recorder, mode="legacy")

        assert len(recorder.requests) == 1
        assert result.structured_content["handed_to_client"] is False and result.structured_content["checkout_url"]
        assert_one_hold(result.structured_content)
