"""The service as `make run` serves it (config/web.py under granian): the site, the API, MCP and A2A
answer on one port, and a database connection the server dropped is replaced before a request
fails."""

import time

import pytest
import requests
from django.db import connection

from tests.conftest import is_postgresql
from tests.live import local_ports, server_processes

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "one-port-test", "version": "1"}},
}


def test_the_site_the_api_mcp_and_a2a_answer_on_one_port(live_url):
    site = requests.get(live_url + "/", timeout=10)
    assert site.status_code == 200 and "text/html" in site.headers["Content-Type"]

    api = requests.get(live_url + "/api/v1/property", timeout=10)
    assert api.status_code == 200 and api.headers["Content-Type"] == "application/json"

    mcp = requests.post(live_url + "/mcp", json=INITIALIZE, headers=MCP_HEADERS, timeout=60)
    assert mcp.status_code == 200, mcp.text
    assert mcp.json()["result"]["serverInfo"]["name"]
    assert mcp.headers["X-Request-ID"]

    # An A2A JSON-RPC call for a task that does not exist: the A2A SDK's own error, not Django's 404.
    a2a = requests.post(live_url + "/a2a", json={"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": {"id": "no-such-task"}}, timeout=60)
    assert a2a.status_code == 200, a2a.text
    assert a2a.json()["jsonrpc"] == "2.0" and a2a.json()["id"] == 7 and "error" in a2a.json()

    page = requests.get(live_url + "/mcp", headers={"Accept": "text/html"}, timeout=10)
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]  # Django's page about MCP
    stream = requests.get(live_url + "/mcp", headers={"Accept": "text/event-stream"}, timeout=10)
    assert stream.status_code == 405 and stream.headers["Allow"] == "POST"


def test_connections_the_database_dropped_are_replaced_before_a_request_fails(live_url):
    """pg_terminate_backend on every connection the server holds (a restart, a failover): Django's
    health checks (CONN_HEALTH_CHECKS, the pool's check) replace them; no request sees a 503."""
    if not is_postgresql():
        pytest.skip("PostgreSQL only: a SQLite connection cannot be dropped by the database")
    with requests.Session() as session:
        for _ in range(10):  # the pool's connections opened and used
            assert session.get(live_url + "/api/v1/availability?check_in=2030-01-10&check_out=2030-01-13", timeout=10).status_code == 200
        server_ports = [port for pid in server_processes(live_url) for port in local_ports(pid)]
        with connection.cursor() as cursor:  # the server's backends only: the test process keeps its own
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND client_port = ANY(%s)", [server_ports]
            )
            assert cursor.fetchall(), "the server held no connection to terminate"
        time.sleep(0.2)
        statuses = [session.get(live_url + "/api/v1/health", timeout=10).status_code for _ in range(10)]
        statuses += [session.get(live_url + "/api/v1/property", timeout=10).status_code for _ in range(10)]
    assert statuses == [200] * 20


def test_the_process_environment_never_reaches_django_s_request_meta(monkeypatch):
    """Granian copies the process environment into every WSGI environ; config/web.py drops it, so
    DATABASE_URL and the like never end up in request.META (or an error report)."""
    from config import web

    seen = {}

    def django(environ, start_response):
        seen.update(environ)
        start_response("200 OK", [])
        return [b""]

    monkeypatch.setattr(web, "django_application", django)
    process_name = next(iter(web.PROCESS_ENVIRONMENT))
    environ = {process_name: "from the process", "PATH_INFO": "/api/v1/health", "REQUEST_METHOD": "GET", "HTTP_HOST": "127.0.0.1"}
    web.route(environ, lambda status, headers: None)
    assert process_name not in seen
    assert seen["PATH_INFO"] == "/api/v1/health" and seen["HTTP_HOST"] == "127.0.0.1"


def test_the_web_process_imports_its_urlconf_when_it_starts_not_on_a_request():
    import subprocess
    import sys
    from pathlib import Path

    probe = "import config.web; from django.urls import get_resolver; print('urlconf_module' in get_resolver().__dict__)"
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[1])
    assert found.stdout.strip() == "True", found.stderr
