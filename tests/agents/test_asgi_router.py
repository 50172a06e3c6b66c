"""config/asgi.py: one process and one origin for the site, MCP and A2A. The router sends the agent
protocols' requests to their SDKs' apps, everything else to Django, and runs the ASGI lifespan
that the MCP session manager needs (Django's handler has none)."""

import anyio
import httpx
import pytest

from config.asgi import AgentRouter
from tests.agents.conftest import run

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "router-test", "version": "1"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Host": "127.0.0.1:8000"}


async def site(scope, receive, send):
    """Stands in for Django: says who answered."""
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"the site"})


def client(router) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=router), base_url="http://127.0.0.1:8000")


async def with_lifespan(router, work):
    """Run `work` between the lifespan's startup and shutdown, as an ASGI server does; return both."""
    to_app, from_server = anyio.create_memory_object_stream(10)
    to_server, from_app = anyio.create_memory_object_stream(10)
    async with anyio.create_task_group() as group:
        group.start_soon(router, {"type": "lifespan", "asgi": {"version": "3.0"}}, from_server.receive, to_server.send)
        await to_app.send({"type": "lifespan.startup"})
        started = (await from_app.receive())["type"]
        result = await work()
        await to_app.send({"type": "lifespan.shutdown"})
        stopped = (await from_app.receive())["type"]
    return started, result, stopped


class TestRouting:
    def test_without_the_lifespan_the_agent_endpoints_say_so_and_the_site_still_answers(self):
        router = AgentRouter(site)

        async def requests():
            async with client(router) as http:
                return (
                    await http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS),
                    await http.post("/a2a", json={}),
                    await http.get("/mcp", headers={"Accept": "text/html"}),
                    await http.get("/a2a"),
                )

        mcp, a2a, page, a2a_page = run(requests)
        assert (mcp.status_code, a2a.status_code) == (503, 503)
        assert "lifespan" in mcp.json()["error"]["message"]
        assert page.text == a2a_page.text == "the site"

    def test_an_event_stream_request_on_mcp_is_405_and_anything_else_goes_to_the_site(self):
        router = AgentRouter(site)

        async def requests():
            async with client(router) as http:
                return (
                    await http.get("/mcp", headers={"Accept": "text/event-stream"}),
                    await http.head("/mcp"),
                    await http.options("/mcp"),
                    await http.post("/mcp/", json={}),
                    await http.get("/llms.txt"),
                )

        stream, head, options, trailing_slash, other = run(requests)
        assert stream.status_code == 405 and stream.headers["allow"] == "POST"
        assert len(stream.headers["x-request-id"]) == 32, "the router's own refusals carry a request id too"
        assert [answer.text for answer in (options, trailing_slash, other)] == ["the site"] * 3
        assert head.status_code == 200

    def test_the_lifespan_runs_the_mcp_session_manager_for_as_long_as_the_server_serves(self):
        router = AgentRouter(site)

        async def initialize():
            async with client(router) as http:
                return await http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)

        started, answer, stopped = run(with_lifespan, router, initialize)
        assert (started, stopped) == ("lifespan.startup.complete", "lifespan.shutdown.complete")
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/json")
        assert answer.json()["result"]["serverInfo"]["name"] == "direct-booking"
        assert not router.serving_agents

    def test_bodies_over_1_mib_are_refused_with_413_as_by_the_json_api(self):
        router = AgentRouter(site)
        too_large = b'{"padding": "' + b"x" * (1024 * 1024) + b'"}'

        async def post_both():
            async with client(router) as http:
                headers = {**MCP_HEADERS, "Content-Type": "application/json"}
                return await http.post("/mcp", content=too_large, headers=headers), await http.post("/a2a", content=too_large, headers=headers)

        _, (mcp, a2a), _ = run(with_lifespan, router, post_both)
        assert (mcp.status_code, a2a.status_code) == (413, 413)
        for answer in (mcp, a2a):  # the JSON-RPC error shape of every other answer there, not plain text
            assert answer.headers["content-type"] == "application/json"
            assert answer.json() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": "The request body is larger than 1 MiB."}}

    def test_agent_answers_are_compressed_for_a_client_that_accepts_gzip(self):
        router = AgentRouter(site)
        list_tools = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}

        async def list_twice():
            async with client(router) as http:
                await http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
                compressed = await http.post("/mcp", json=list_tools, headers={**MCP_HEADERS, "Accept-Encoding": "gzip"})
                plain = await http.post("/mcp", json=list_tools, headers={**MCP_HEADERS, "Accept-Encoding": "identity"})
                return compressed, plain

        _, (compressed, plain), _ = run(with_lifespan, router, list_twice)
        assert compressed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
        assert compressed.json() == plain.json() and plain.json()["result"]["tools"]
        assert int(compressed.headers["content-length"]) * 3 < len(plain.content), "tools/list compresses to well under a third"


@pytest.mark.parametrize(
    "allowed_hosts, host, allowed",
    [
        (["booking.example.com"], "booking.example.com", True),
        (["booking.example.com"], "booking.example.com:8443", True),
        (["booking.example.com"], "evil.example", False),
        ([".example.com"], "example.com", True),
        (["*"], "127.0.0.1:9000", True),
    ],
)
def test_the_dns_rebinding_guard_follows_allowed_hosts(settings, allowed_hosts, host, allowed):
    from mcp.server.transport_security import TransportSecurityMiddleware

    from discovery.mcp_server import transport_security

    settings.BASE_URL, settings.ALLOWED_HOSTS = "https://booking.example.com", allowed_hosts
    guard = transport_security()
    assert guard.enable_dns_rebinding_protection
    sdk_check = TransportSecurityMiddleware(guard)  # the SDK's own matching decides
    assert sdk_check._validate_host(host) is allowed
    assert sdk_check._validate_origin("https://booking.example.com") and not sdk_check._validate_origin("http://evil.example")


def test_the_agent_sdks_load_on_the_first_agent_request_not_at_start():
    router = AgentRouter(site)
    seen = {}

    async def site_then_mcp():
        async with client(router) as http:
            await http.get("/llms.txt")
            seen["after the site"] = router.agents
            answer = await http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
            seen["after mcp"] = router.agents
            return answer

    started, answer, stopped = run(with_lifespan, router, site_then_mcp)
    assert seen["after the site"] is None
    assert set(seen["after mcp"]) == {"mcp", "a2a"} and answer.status_code == 200
    assert router.agents is None and (started, stopped) == ("lifespan.startup.complete", "lifespan.shutdown.complete")
