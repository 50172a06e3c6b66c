"""The ASGI application: the Django site and API, the MCP tool server and the A2A agent, in one
process and on one origin.

A small router sends the agent protocols' requests to their SDKs' apps and everything else to
Django:

- POST and DELETE /mcp → the MCP Streamable HTTP app (stateless, JSON answers);
- GET /mcp asking for text/event-stream → 405: this server offers no SSE stream;
- POST /a2a → the A2A JSON-RPC app;
- anything else → Django (so GET /mcp from a browser is the page about the tool server).

The router also answers the ASGI lifespan, which Django's handler does not support: the MCP
session manager has to run for as long as the process serves requests.
"""

import json
import logging
import os
from contextlib import AsyncExitStack

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

# Imported once Django is set up: they read the booking models and settings.
from mcp.server.transport_security import TransportSecurityMiddleware  # noqa: E402

from discovery import a2a_agent, mcp_server  # noqa: E402

logger = logging.getLogger("config.asgi")


class AgentRouter:
    def __init__(self, site):
        self.site = site
        security = mcp_server.transport_security()
        self.mcp = mcp_server.streamable_http_app()
        self.mcp_sessions = mcp_server.session_manager()  # this app's own: it must run while we serve
        self.a2a = a2a_agent.A2AEndpoint(TransportSecurityMiddleware(security))
        self.serving_agents = False

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
            return
        if scope["type"] == "http":
            path, method = scope["path"], scope["method"]
            if path == mcp_server.MCP_PATH and method in ("POST", "DELETE"):
                await self.agent_app(self.mcp, scope, receive, send)
                return
            if path == mcp_server.MCP_PATH and method == "GET" and wants_event_stream(scope):
                await json_error(send, 405, "This MCP server is stateless and offers no SSE stream: POST JSON-RPC messages to /mcp.", {"allow": "POST"})
                return
            if path == a2a_agent.A2A_PATH and method == "POST":
                await self.agent_app(self.a2a, scope, receive, send)
                return
        await self.site(scope, receive, send)

    async def agent_app(self, app, scope, receive, send):
        if not self.serving_agents:
            # Without the lifespan (e.g. uvicorn --lifespan off) the MCP session manager never ran.
            await json_error(send, 503, "The agent endpoints need the ASGI lifespan; start the server with it enabled.")
            return
        await app(scope, receive, send)

    async def lifespan(self, receive, send):
        async with AsyncExitStack() as running:
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    try:
                        await running.enter_async_context(self.mcp_sessions.run())
                        running.push_async_callback(self.a2a.aclose)
                    except Exception as error:
                        logger.exception("the agent endpoints could not start")
                        await send({"type": "lifespan.startup.failed", "message": str(error)})
                        return
                    self.serving_agents = True
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    self.serving_agents = False
                    await running.aclose()
                    await send({"type": "lifespan.shutdown.complete"})
                    return


def wants_event_stream(scope) -> bool:
    accept = b",".join(value for name, value in scope["headers"] if name == b"accept")
    return b"text/event-stream" in accept.lower()


async def json_error(send, status: int, message: str, headers: dict | None = None) -> None:
    """A JSON-RPC error (no request id), as the MCP SDK answers refusals."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": message}}).encode()
    extra = [(name.encode(), value.encode()) for name, value in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]})
    await send({"type": "http.response.body", "body": body})


application = AgentRouter(django_application)
