"""A busy web thread keeps its pooled PostgreSQL connection from one request to the next and hands
it back before it waits for work (config/kept_connections.py, config/pooled_postgresql).

What must hold: a request never gets a connection in a state another request left (a transaction
open, autocommit off), a thread never sleeps holding a connection, and outside the web server's
threads Django's own behaviour (hand it back at the end of every request) is unchanged."""

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import connection, connections
from django.http import HttpResponse, StreamingHttpResponse

from booking.selectors import hot_query
from config import kept_connections
from config.threaded_wsgi import DjangoInThreads, ThreadPool
from tests.booking.test_web_stack import serve_once

postgresql_only = pytest.mark.skipif("connection.vendor != 'postgresql'", reason="SQLite keeps one connection per thread anyway (CONN_MAX_AGE)")


def in_a_new_thread(function, *, keeps: bool):
    """function() in a thread of its own, as a web server thread (keeps) or any other; its
    connections are closed before the thread ends."""

    def run():
        if keeps:
            kept_connections.keep_between_requests()
        try:
            return function()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as executor:
        return executor.submit(run).result(timeout=30)


def one_request(before_end=None):
    """What a request does to the connection: Django's request signals around one query. Returns
    the psycopg connection it ran on and whether it was still checked out after the request."""
    request_started.send(sender=None)
    hot_query("SELECT 1", [])
    used = connection.connection
    if before_end is not None:
        before_end()
    request_finished.send(sender=None)
    return used, connection.connection is not None


@postgresql_only
def test_a_web_thread_keeps_its_connection_between_requests_and_hands_it_back_before_waiting(transactional_db):
    def three_requests_then_wait():
        requests = [one_request() for _ in range(3)]
        kept_connections.release_kept()  # what the thread does when no job is waiting
        return requests, connection.connection

    requests, after_release = in_a_new_thread(three_requests_then_wait, keeps=True)

    assert [kept for _, kept in requests] == [True, True, True]
    assert requests[0][0] is requests[1][0] is requests[2][0]  # one checkout for three requests
    assert after_release is None  # back in psycopg's pool


@postgresql_only
def test_any_other_thread_hands_its_connection_back_after_every_request(transactional_db):
    requests = in_a_new_thread(lambda: [one_request() for _ in range(2)], keeps=False)

    assert [kept for _, kept in requests] == [False, False]


@postgresql_only
@pytest.mark.parametrize(
    "leave_behind",
    [
        pytest.param(lambda: connection.cursor().execute("BEGIN"), id="a transaction open"),
        pytest.param(lambda: connection.set_autocommit(False), id="autocommit off"),
    ],
)
def test_a_connection_left_in_a_transaction_is_never_kept(transactional_db, leave_behind):
    def request_that_leaves_a_transaction_then_another():
        left = one_request(before_end=leave_behind)
        after = one_request()
        return left, after

    (_, kept_after_leaving), (_, kept_after_clean) = in_a_new_thread(request_that_leaves_a_transaction_then_another, keeps=True)

    assert kept_after_leaving is False  # handed back: psycopg's pool rolls it back
    assert kept_after_clean is True


@postgresql_only
def test_a_connection_is_kept_at_most_keep_at_most_seconds(transactional_db, monkeypatch):
    monkeypatch.setattr(kept_connections, "KEEP_AT_MOST", 0.05)

    def two_requests_apart():
        _, kept = one_request()
        time.sleep(0.1)
        request_started.send(sender=None)  # the next request, too late for that connection
        return kept, connection.connection

    kept_at_first, held_when_the_next_started = in_a_new_thread(two_requests_apart, keeps=True)

    assert kept_at_first is True
    assert held_when_the_next_started is None  # handed back; the next query checks one out afresh


@postgresql_only
def test_a_kept_connection_goes_to_a_thread_waiting_for_one(transactional_db):
    """With the pool at its size and a request waiting for a connection, a busy thread hands its
    kept connection over when its next request starts (or its current one ends), rather than
    keeping it for itself."""
    pool = connection.pool
    web_thread = ThreadPoolExecutor(1)

    def request_in_web_thread():
        kept_connections.keep_between_requests()
        return one_request()[1]

    def next_request_starts():
        request_started.send(sender=None)
        return connection.connection

    taken = []
    try:
        assert web_thread.submit(request_in_web_thread).result(timeout=10) is True
        while pool.get_stats()["pool_size"] < pool.max_size or pool.get_stats()["pool_available"]:
            taken.append(pool.getconn(timeout=5))  # every other connection the pool may open
        with ThreadPoolExecutor(1) as waiter:
            waiting = waiter.submit(pool.getconn, timeout=10)
            for _ in range(100):
                if pool.get_stats()["requests_waiting"]:
                    break
                time.sleep(0.02)
            assert pool.get_stats()["requests_waiting"] == 1
            held_by_the_web_thread = web_thread.submit(next_request_starts).result(timeout=10)
            taken.append(waiting.result(timeout=10))  # the waiting thread got it
        assert held_by_the_web_thread is None
    finally:
        web_thread.submit(request_finished.send, sender=None).result(timeout=10)
        web_thread.submit(connections.close_all).result(timeout=10)
        web_thread.shutdown()
        for conn in taken:
            pool.putconn(conn)


def test_the_pool_runs_its_before_waiting_hook_only_when_no_job_is_waiting():
    started, waited = [], []

    def before_waiting():
        waited.append(1)
        raise RuntimeError("a failing hook")  # logged; the thread goes on serving

    pool = ThreadPool(1, name="test-hooks", on_start=lambda: started.append(threading.current_thread().name), before_waiting=before_waiting)
    go = threading.Event()

    async def scenario():
        first = pool.run(go.wait, 10)  # holds the only thread until the other two are queued
        rest = [pool.run(lambda: None) for _ in range(2)]
        go.set()
        await asyncio.gather(first, *rest)
        for _ in range(50):  # the thread hands back its answer before it looks for the next job
            if waited:
                break
            await asyncio.sleep(0.02)

    try:
        asyncio.run(scenario())
        assert waited == [1]  # three jobs back to back, then once before waiting
        assert asyncio.run(asyncio.wait_for(run_in(pool, lambda: "served"), 5)) == "served"  # by the same thread
    finally:
        pool.shutdown()
    assert started == ["test-hooks_1"]


@postgresql_only
def test_a_web_thread_holds_no_connection_once_it_waits_for_work(transactional_db, demo_property):
    app = DjangoInThreads(WSGIHandler(), threads=1)
    scope = {"method": "GET", "path": "/api/v1/property", "headers": [(b"host", b"127.0.0.1")]}

    def thread_connection():
        return connections["default"].connection

    try:
        for _ in range(3):
            assert serve_once(app, scope, [{"type": "http.request", "body": b""}])[0]["status"] == 200
        for _ in range(50):  # the answer is handed back just before the thread hands back its connection
            held = asyncio.run(run_in(app.threads, thread_connection))
            if held is None:
                break
            time.sleep(0.02)
        assert held is None
    finally:
        asyncio.run(run_in(app.threads, connections.close_all))
        app.threads.shutdown()


async def run_in(pool: ThreadPool, function):
    return await pool.run(function)


@postgresql_only
def test_a_web_thread_holds_no_pooled_connection_while_it_streams_an_answer(transactional_db):
    """A streamed answer lasts as long as its client reads (a download: minutes)."""
    held_while_streaming = []

    def app(environ, start_response):
        request_started.send(sender=None)
        hot_query("SELECT 1", [])
        start_response("200 OK", [("Content-Type", "text/plain")])
        if environ["PATH_INFO"] != "/stream":
            return HttpResponse(b"buffered")  # its close() sends request_finished

        def chunks():
            yield b"first "
            held_while_streaming.append(connections["default"].connection)
            yield b"second"

        return StreamingHttpResponse(chunks())

    server = DjangoInThreads(app, threads=1)
    try:
        buffered = serve_once(server, {"method": "GET", "path": "/buffered", "headers": []}, [{"type": "http.request", "body": b""}])
        streamed = serve_once(server, {"method": "GET", "path": "/stream", "headers": []}, [{"type": "http.request", "body": b""}])
    finally:
        asyncio.run(run_in(server.threads, connections.close_all))
        server.threads.shutdown()
    assert buffered[1]["body"] == b"buffered"
    assert b"".join(message.get("body", b"") for message in streamed[1:]) == b"first second"
    assert held_while_streaming == [None]
