"""The hold limits under a burst, against a live server with two web processes: one client firing
many holds at once gets exactly its allowance; many clients behind a trusted proxy each get theirs."""

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import requests

from tests.dates import future

pytestmark = pytest.mark.live


def burst(base, clients: list[str | None], offset_of) -> list[tuple[str | None, int]]:
    barrier = threading.Barrier(len(clients))

    def attempt(i):
        session = requests.Session()
        session.get(base + "/api/v1/health", timeout=10)
        check_in = future(offset_of(i))
        headers = {"X-Forwarded-For": clients[i]} if clients[i] else {}
        barrier.wait(timeout=20)
        response = session.post(
            base + "/api/v1/reservations", json={"check_in": str(check_in), "check_out": str(check_in + timedelta(days=3))}, headers=headers, timeout=30
        )
        return clients[i], response.status_code

    with ThreadPoolExecutor(len(clients)) as pool:
        return list(pool.map(attempt, range(len(clients))))


def test_one_client_bursting_gets_exactly_its_rate_limit(live_url_factory):
    with live_url_factory(workers=2, env={"BOOKING_RATE_LIMIT": "5/h", "MAX_UNPAID_HOLDS_PER_CLIENT": "100"}) as base:
        results = Counter(status for _, status in burst(base, [None] * 16, lambda i: 30 + 4 * i))
    assert results == Counter({201: 5, 429: 11})


def test_one_client_bursting_gets_exactly_its_unpaid_hold_cap(live_url_factory):
    with live_url_factory(workers=2, env={"BOOKING_RATE_LIMIT": "100/h", "MAX_UNPAID_HOLDS_PER_CLIENT": "3"}) as base:
        results = Counter(status for _, status in burst(base, [None] * 12, lambda i: 30 + 4 * i))
    assert results == Counter({201: 3, 429: 9})


def test_many_clients_behind_a_trusted_proxy_each_get_their_own_allowance(live_url_factory):
    clients = [f"203.0.113.{n}" for n in range(4) for _ in range(4)]  # 4 clients × 4 holds each
    with live_url_factory(workers=2, env={"BOOKING_RATE_LIMIT": "2/h", "MAX_UNPAID_HOLDS_PER_CLIENT": "100", "TRUSTED_PROXIES": "127.0.0.1"}) as base:
        results = burst(base, clients, lambda i: 30 + 4 * i)
    per_client = Counter(client for client, status in results if status == 201)
    assert per_client == Counter({client: 2 for client in set(clients)})
    assert Counter(status for _, status in results) == Counter({201: 8, 429: 8})
