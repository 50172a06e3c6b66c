"""What `make run` serves on one port (`manage.py serve`, under granian's WSGI interface): the Django
site and API, the MCP tool server and the A2A agent.

- Django is config/wsgi.py's plain WSGI application, run in granian's threads, exactly as
  `make bench` serves it for reference (docs/performance.md says why granian and WSGI).
- The agent protocols' requests (config/asgi.py `for_agents`) go to their SDKs' ASGI apps through
  a2wsgi's ASGIMiddleware. Its event loop thread also runs the agents' ASGI lifespan: the MCP
  session manager has to run for as long as the process serves agents (config/asgi.py).

Behind a reverse proxy, X-Forwarded-For and X-Forwarded-Proto are believed only from
TRUSTED_PROXIES (granian's own proxy-headers wrapper).
"""

import asyncio
import atexit
import logging
import os

from a2wsgi import ASGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

django_application = get_wsgi_application()
# Every view imported now, at start, rather than by the first request Django routes while the
# others wait on the import lock (a burst of holds right after a start paid 0.3 s for it).
get_resolver().url_patterns  # noqa: B018

from config.asgi import AgentRouter, for_agents, not_for_agents  # noqa: E402 (after Django's setup)

logger = logging.getLogger("config.web")

LIFESPAN_SECONDS = 15.0


class Lifespan:
    """The ASGI lifespan of an app, run in an event loop of another thread (a2wsgi's)."""

    def __init__(self, app, loop: asyncio.AbstractEventLoop):
        self.app, self.loop = app, loop
        self.messages: asyncio.Queue[dict] = asyncio.Queue()  # made afresh in the loop by start()
        self.task: asyncio.Future | None = None

    def start(self) -> None:
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(LIFESPAN_SECONDS)

    async def _start(self) -> None:
        self.messages = asyncio.Queue()
        started = asyncio.get_running_loop().create_future()

        async def send(message):
            if not started.done():
                started.set_result(message["type"])

        self.messages.put_nowait({"type": "lifespan.startup"})
        self.task = asyncio.ensure_future(self.app({"type": "lifespan", "asgi": {"version": "3.0"}}, self.messages.get, send))
        if await started != "lifespan.startup.complete":
            raise RuntimeError("the agents' lifespan did not start")

    def stop(self) -> None:
        async def _stop():
            await self.messages.put({"type": "lifespan.shutdown"})
            if self.task is not None:
                await self.task

        try:
            asyncio.run_coroutine_threadsafe(_stop(), self.loop).result(LIFESPAN_SECONDS)
        except Exception:
            logger.exception("the agents' lifespan did not stop cleanly")


agents = ASGIMiddleware(AgentRouter(not_for_agents))
lifespan = Lifespan(agents.app, agents.loop)
lifespan.start()
atexit.register(lifespan.stop)


class Started:
    """An a2wsgi answer with its status already given: a2wsgi calls start_response on the first
    iteration, granian reads the status as soon as the application returns."""

    def __init__(self, chunks):
        self.chunks = chunks
        self.first = next(chunks, b"")

    def __iter__(self):
        yield self.first
        yield from self.chunks

    def close(self) -> None:
        self.chunks.close()


# Granian starts every WSGI environ from a copy of the process environment (CGI style); Django
# would put it in request.META, and from there in error reports: DATABASE_URL with its password,
# for one. Dropped, but for the names granian sets itself per request.
CGI_NAMES = {"REQUEST_METHOD", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "CONTENT_TYPE", "CONTENT_LENGTH", "SERVER_NAME", "SERVER_PORT"}
CGI_NAMES |= {"SERVER_PROTOCOL", "SERVER_SOFTWARE", "GATEWAY_INTERFACE", "REMOTE_ADDR", "REMOTE_PORT"}
PROCESS_ENVIRONMENT = frozenset(name for name in os.environ if not name.startswith(("HTTP_", "wsgi.")) and name not in CGI_NAMES)


def route(environ, start_response):
    """The agent protocols' requests to their apps, everything else to Django."""
    for name in PROCESS_ENVIRONMENT.intersection(environ):
        del environ[name]
    if for_agents(environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", ""), environ.get("HTTP_ACCEPT", "")):
        return Started(agents(environ, start_response))
    return django_application(environ, start_response)


if settings.TRUSTED_PROXIES:
    from granian.utils.proxies import wrap_wsgi_with_proxy_headers

    application = wrap_wsgi_with_proxy_headers(route, trusted_hosts=settings.TRUSTED_PROXIES)
else:
    application = route
