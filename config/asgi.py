"""The agent protocols' ASGI side: the MCP tool server and the A2A agent, on the site's origin.

config/web.py (what `make run` serves) sends the requests `for_agents` picks to AgentRouter (through
a2wsgi) and everything else to Django:

- POST and DELETE /mcp → the MCP Streamable HTTP app (stateless, JSON answers);
- GET /mcp asking for text/event-stream → 405: this server offers no SSE stream;
- POST /a2a → the A2A JSON-RPC app;
- anything else → Django (so GET /mcp from a browser is the page about the tool server).

Both agent apps answer through Starlette's GZipMiddleware (a tools/list is ~24 kB as JSON, ~4 kB
compressed) and through `RefusalsAsJsonRpc`, which gives the SDKs' plain-text refusals (413 for a
body over 1 MiB) the JSON-RPC error shape every other answer on those paths has.

The router answers the ASGI lifespan: the MCP session manager has to run for as long as the process
serves agents. The MCP and A2A SDKs are loaded on the first agent request, not at start (about 45 MB
a process that serves only the site never needs); a runner task started with the lifespan loads
them on demand and, owning the session manager's task group from start to end (anyio requires one
task to enter and leave it), stops it at shutdown.
"""

import asyncio
import json
import logging

from config.observability import SANE_REQUEST_ID, new_request_id, request_id_var
from discovery.endpoints import A2A_PATH, MCP_PATH

logger = logging.getLogger("config.asgi")


def for_agents(path: str, method: str, accept: str) -> bool:
    """Whether a request goes to the agents' apps rather than to Django."""
    if path == MCP_PATH:
        return method in ("POST", "DELETE") or (method == "GET" and "text/event-stream" in accept.lower())
    return path == A2A_PATH and method == "POST"


async def not_for_agents(scope, receive, send):
    """The router's fallback where Django is served beside it (config/web.py routes nothing else here)."""
    await json_error(send, 404, "Not an agent endpoint.")


class AgentRouter:
    def __init__(self, site):
        self.site = site
        self.serving_agents = False
        self.agents: dict | None = None  # {"mcp": app, "a2a": app} while loaded and running
        self._wanted = asyncio.Event()  # made afresh by each lifespan start
        self._ready = asyncio.Event()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
            return
        if scope["type"] == "http":
            path, method = scope["path"], scope["method"]
            accept = b",".join(value for name, value in scope["headers"] if name == b"accept").decode("latin-1")
            if for_agents(path, method, accept):
                if method == "GET":
                    await self.with_request_id(scope, send, self.no_event_stream)
                else:
                    await self.agent_app("mcp" if path == MCP_PATH else "a2a", scope, receive, send)
                return
        await self.site(scope, receive, send)

    async def agent_app(self, name, scope, receive, send):
        await self.with_request_id(scope, send, lambda send_with_id: self._agent_app(name, scope, receive, send_with_id))

    @staticmethod
    async def with_request_id(scope, send, answer):
        """Every answer of the router gets what Django's middleware gives the site: a request id on
        the answer (X-Request-ID) and on every log line written while serving it."""
        incoming = next((value.decode("latin-1") for key, value in scope.get("headers", []) if key == b"x-request-id"), "")
        request_id = incoming if SANE_REQUEST_ID.match(incoming) else new_request_id()
        token = request_id_var.set(request_id)

        async def send_with_id(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await answer(send_with_id)
        finally:
            request_id_var.reset(token)

    @staticmethod
    async def no_event_stream(send):
        await json_error(send, 405, "This MCP server is stateless and offers no SSE stream: POST JSON-RPC messages to /mcp.", {"allow": "POST"})

    async def _agent_app(self, name, scope, receive, send):
        if not self.serving_agents:
            # Without the lifespan (an ASGI server run with it off) the MCP session manager never ran.
            await json_error(send, 503, "The agent endpoints need the ASGI lifespan; start the server with it enabled.")
            return
        if self.agents is None:
            self._wanted.set()
            await self._ready.wait()
        if self.agents is None:
            await json_error(send, 503, "The agent endpoints could not start; see the server log.")
            return
        await self.agents[name](scope, receive, send)

    async def run_agents(self, stopping: asyncio.Event):
        """Load the agent servers when first wanted and run them until the server stops."""
        wanted, stop = asyncio.ensure_future(self._wanted.wait()), asyncio.ensure_future(stopping.wait())
        await asyncio.wait({wanted, stop}, return_when=asyncio.FIRST_COMPLETED)
        if not wanted.done():
            wanted.cancel()
            return
        try:
            from mcp.server.transport_security import TransportSecurityMiddleware
            from starlette.middleware.gzip import GZipMiddleware

            from discovery import a2a_agent, mcp_server

            mcp_app = mcp_server.streamable_http_app()
            a2a = a2a_agent.A2AEndpoint(TransportSecurityMiddleware(mcp_server.transport_security()))
            async with mcp_server.session_manager().run():  # this app's own session manager
                self.agents = {name: GZipMiddleware(RefusalsAsJsonRpc(app)) for name, app in (("mcp", mcp_app), ("a2a", a2a))}
                self._ready.set()
                await stopping.wait()
                self.agents = None
                await a2a.aclose()
        except Exception:
            logger.exception("the agent endpoints could not start")
        finally:
            self.agents = None
            self._ready.set()
            stop.cancel()

    async def lifespan(self, receive, send):
        stopping = asyncio.Event()
        runner = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._wanted, self._ready = asyncio.Event(), asyncio.Event()
                runner = asyncio.ensure_future(self.run_agents(stopping))
                self.serving_agents = True
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.serving_agents = False
                stopping.set()
                if runner is not None:
                    await runner
                await send({"type": "lifespan.shutdown.complete"})
                return


class RefusalsAsJsonRpc:
    """An error answer the SDKs send as plain text (the body limit's 413) becomes a JSON-RPC error
    with the same status, so an agent parses every answer of /mcp and /a2a the same way."""

    MESSAGES = {413: "The request body is larger than 1 MiB."}

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        replaced = False

        async def send_json_rpc(message):
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] in self.MESSAGES:
                content_type = next((value for name, value in message.get("headers", []) if name.lower() == b"content-type"), b"")
                if not content_type.startswith(b"application/json"):
                    replaced = True
                    status = message["status"]
                    await json_error(send, status, self.MESSAGES[status])
                    return
            if replaced:
                return  # the plain-text body (and any further part) of the replaced answer
            await send(message)

        await self.app(scope, receive, send_json_rpc)


async def json_error(send, status: int, message: str, headers: dict | None = None) -> None:
    """A JSON-RPC error (no request id), as the MCP SDK answers refusals."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": message}}).encode()
    extra = [(name.encode(), value.encode()) for name, value in (headers or {}).items()]
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra],
        }
    )
    await send({"type": "http.response.body", "body": body})
