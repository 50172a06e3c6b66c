"""Django served as WSGI from a fixed pool of long-lived threads, inside the ASGI server.

Why not Django's own ASGI handler: it runs every request's sync code in a thread of its own and
hops between the event loop and that thread for each async/sync boundary of the middleware chain,
so a database connection cannot outlive its request (each request opened a new SQLite connection
and ran its PRAGMAs) and about nine tenths of a small request's CPU went to the hand-offs, the
thread start and the connection (README "Performance", the profile).

Why not a2wsgi (tried, docs/proposals): it hands every message of the answer back to the event loop
and waits for it (start, each body chunk, the end), three or four cross-thread round trips a
request. Here an ordinary answer crosses once each way:

1. the event loop reads the whole request body (as Django's ASGI handler does: in memory, spooled
   to a temporary file past FILE_UPLOAD_MAX_MEMORY_SIZE), so a chunked upload gets its length too;
2. one pool thread runs Django's WSGIHandler, the full middleware chain synchronously, and returns
   status, headers and body bytes;
3. the event loop sends them.

A streaming answer (a static file, a backup download) is the exception: its chunks are handed to
the event loop one by one from the thread, with back-pressure.

The pool starts a thread only when every started one is busy and keeps it, so a steady load uses a
handful; each keeps its SQLite connection between requests (CONN_MAX_AGE), or on PostgreSQL one
from psycopg's pool while it goes from one request straight to the next
(config/kept_connections.py).
"""

import asyncio
import contextvars
import io
import logging
import queue
import sys
import tempfile
import threading

from django.conf import settings
from django.http import HttpResponse

from config import kept_connections

logger = logging.getLogger("config.threaded_wsgi")

SERVER_ERROR = (500, [(b"content-type", b"text/plain; charset=utf-8")], b"Internal Server Error")


class ThreadPool:
    """Long-lived threads started only when every started one is busy (at most `size`), and the
    one hand-off each way a request needs: a job on a C-implemented queue, and the result set on
    an asyncio future from the thread. Measured against loop.run_in_executor with a
    ThreadPoolExecutor, which builds a concurrent Future (a lock and a condition) and chains it to
    an asyncio one, a trivial app behind each cost 0.134 ms of CPU a request against 0.152 on the
    bench machine (three alternating runs, noisy; README "Performance").

    Jobs run in a copy of the caller's context (the request id and the like stay per request)."""

    def __init__(self, size: int, *, name: str, on_start=None, before_waiting=None):
        self.size = size
        self.name = name
        self.on_start = on_start  # run once in each thread as it starts
        self.before_waiting = before_waiting  # run in a thread each time it finds no job waiting
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.started = 0
        self.idle = 0

    def run(self, function, *args) -> asyncio.Future:
        """Run function(*args) in a pool thread; the returned future (of the running loop) gets its
        result or its exception."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self.lock:
            if self.idle:
                self.idle -= 1
                start = False
            else:
                start = self.started < self.size
                self.started += start
        self.jobs.put((loop, future, contextvars.copy_context(), function, args))
        if start:
            threading.Thread(target=self.work, name=f"{self.name}_{self.started}", daemon=True).start()
        return future

    def work(self) -> None:
        if self.on_start is not None:
            self.on_start()
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                if self.before_waiting is not None:
                    try:
                        self.before_waiting()
                    except Exception:  # the thread must go on serving whatever the hook met
                        logger.exception("the pool thread's before_waiting hook failed")
                job = self.jobs.get()
            if job is None:
                return
            loop, future, context, function, args = job
            try:
                result = context.run(function, *args)
            except BaseException as error:  # noqa: BLE001 (handed to the awaiting request)
                settle = (future.set_exception, error)
            else:
                settle = (future.set_result, result)
            with self.lock:  # idle before the answer is handed back, or the next job would start a thread
                self.idle += 1
            try:
                loop.call_soon_threadsafe(_settle, future, *settle)
            except RuntimeError:  # the loop has closed: nobody is waiting any more
                pass
            del job, future, context, args, settle

    def shutdown(self) -> None:
        """Let every started thread finish its job and stop (tests; a server process just exits)."""
        for _ in range(self.started):
            self.jobs.put(None)


def _settle(future: asyncio.Future, settle, value) -> None:
    if not future.cancelled():
        settle(value)


class DjangoInThreads:
    """`shortcut(environ)`, when given, runs first in the pool thread: it may answer a request
    itself (status, headers, body) or return None to leave it to Django (booking/api/hot_reads.py)."""

    def __init__(self, wsgi_application, *, threads: int, shortcut=None):
        self.wsgi_application = wsgi_application
        self.shortcut = shortcut
        # Each thread keeps its pooled PostgreSQL connection while it goes from one request
        # straight to the next, and hands it back before it waits for work.
        self.threads = ThreadPool(threads, name="django", on_start=kept_connections.keep_between_requests, before_waiting=kept_connections.release_kept)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":  # no websockets here; the router answers the lifespan
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1000})
            return
        body = await read_body(receive)
        if body is None:  # the client left before sending its whole request
            return
        try:
            environ = build_environ(scope, body)
            answer = await self.threads.run(self.respond, environ, asyncio.get_running_loop(), send)
        finally:
            body.close()
        if answer is not None:
            status, headers, content = answer
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})

    def respond(self, environ, loop, send):
        """In a pool thread: the whole Django request. Returns (status, headers, body) for an
        ordinary answer; streams a streaming one itself and returns None."""
        if self.shortcut is not None:
            try:
                answer = self.shortcut(environ)
            except Exception:  # the shortcut declines what it cannot answer; this is its last resort
                logger.exception("the shortcut failed; Django answers")
                answer = None
            if answer is not None:
                return answer
        started: list = []

        def start_response(status, response_headers, exc_info=None):
            started[:] = [int(status[:3]), [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in response_headers]]

        try:
            result = self.wsgi_application(environ, start_response)
        except Exception:  # Django turns its own errors into answers; this is the server's last resort
            logger.exception("the WSGI application failed")
            return SERVER_ERROR
        try:
            if isinstance(result, HttpResponse):  # buffered: one hand-off back
                return started[0], started[1], result.content

            def to_loop(message):
                asyncio.run_coroutine_threadsafe(send(message), loop).result()

            # A stream lasts as long as its client reads, a download for minutes: no pooled
            # connection is held through it (Django reconnects if the stream queries).
            kept_connections.release_kept(even_in_use=True)
            chunks = iter(result)
            first = next(chunks, b"")  # a WSGI app may call start_response on its first chunk
            to_loop({"type": "http.response.start", "status": started[0], "headers": started[1]})
            if first:
                to_loop({"type": "http.response.body", "body": first, "more_body": True})
            for chunk in chunks:
                if chunk:
                    to_loop({"type": "http.response.body", "body": chunk, "more_body": True})
            to_loop({"type": "http.response.body", "body": b""})
            return None
        finally:
            # Fires request_finished: Django closes or keeps the thread's database connection.
            close = getattr(result, "close", None)
            if close is not None:
                close()


async def read_body(receive):
    """The whole request body, in memory up to FILE_UPLOAD_MAX_MEMORY_SIZE and on disk past it;
    None when the client disconnects first."""
    message = await receive()
    if message["type"] == "http.request" and not message.get("more_body", False):
        return io.BytesIO(message.get("body", b""))  # the usual case: all of it in one message
    body = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b")
    while True:
        if message["type"] == "http.disconnect":
            body.close()
            return None
        if chunk := message.get("body"):
            body.write(chunk)
        if not message.get("more_body", False):
            break
        message = await receive()
    body.seek(0)
    return body


def build_environ(scope, body) -> dict:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333: paths as UTF-8 bytes read as latin-1)."""
    root_path = scope.get("root_path", "")
    path = scope["path"]
    if root_path and path.startswith(root_path):
        path = path[len(root_path) :]
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root_path.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": server_name,
        "SERVER_PORT": str(server_port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "CONTENT_LENGTH": str(body.seek(0, 2)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    body.seek(0)
    if client := scope.get("client"):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for raw_name, raw_value in scope["headers"]:
        if b"_" in raw_name:
            # X_Forwarded_For would pass for X-Forwarded-For once both are HTTP_X_FORWARDED_FOR:
            # dropped, as Django's runserver and gunicorn drop them.
            continue
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        if name == "CONTENT_LENGTH":
            continue  # the length of the body as read, above
        key = name if name == "CONTENT_TYPE" else f"HTTP_{name}"
        value = raw_value.decode("latin-1")
        if key in environ:  # a repeated header: one value, as a WSGI server joins them
            value = environ[key] + ("; " if key == "HTTP_COOKIE" else ",") + value
        environ[key] = value
    return environ
