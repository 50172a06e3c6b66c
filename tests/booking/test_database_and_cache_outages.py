"""Outages of the database and of Redis, injected into a live server: the service answers with the
error shape, never a traceback, and keeps booking where it can."""

import pytest
import requests

from tests.dates import future
from tests.live import live_server

STAY = {"check_in": str(future(30)), "check_out": str(future(33))}


@pytest.mark.live
@pytest.mark.parametrize(
    "database_url", ["sqlite:////nonexistent-folder/db.sqlite3", "postgres://postgres@127.0.0.1:1/unreachable"], ids=["sqlite", "postgresql"]
)
def test_an_unreachable_database_is_503_with_the_error_shape(db, database_url):
    # A refused connection fails at once, but psycopg's pool keeps retrying in the background and a
    # request waits DATABASE_POOL_TIMEOUT (3 s) for a connection before its 503: a shorter wait here,
    # the same answer.
    env = {"DATABASE_URL": database_url, "DATABASE_POOL_TIMEOUT": "0.5"}
    with live_server(env=env, ready_path="/robots.txt") as base:
        health = requests.get(base + "/api/v1/health", timeout=10)
        assert health.status_code == 503 and health.json()["status"] == "error"
        for response in [
            requests.get(base + "/api/v1/availability", params=STAY, timeout=10),
            requests.post(base + "/api/v1/reservations", json=STAY, timeout=10),
            requests.get(base + "/api/v1/property", timeout=10),
        ]:
            assert response.status_code == 503, response.text
            body = response.json()
            assert body["code"] == "service_unavailable" and "Traceback" not in response.text
            assert body["request_id"] == response.headers["X-Request-ID"]


@pytest.mark.live
def test_with_redis_down_the_site_and_api_keep_booking(live_url_factory):
    with live_url_factory(env={"CACHE_URL": "redis://127.0.0.1:1/0", "BOOKING_RATE_LIMIT": "20/h"}) as base:
        assert requests.get(base + "/api/v1/property", timeout=10).status_code == 200
        hold = requests.post(base + "/api/v1/reservations", json=STAY, timeout=10)
        assert hold.status_code == 201, hold.text  # the rate limit degrades open; the unpaid-hold cap still counts
        assert requests.get(base + f"/api/v1/reservations/{hold.json()['id']}", timeout=10).json()["status"] == "held"
        assert requests.post(base + "/api/v1/reservations", json=STAY, timeout=10).status_code == 409
