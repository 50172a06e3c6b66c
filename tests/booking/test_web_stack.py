"""The web stack under the API: a lean middleware path for the stateless JSON API, and database
connections that outlive their request (Django's own: per thread on SQLite, its pool on PostgreSQL)."""

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from django.db import connection

from tests.conftest import is_postgresql
from tests.live import local_ports

pytestmark = pytest.mark.django_db


def test_the_api_runs_without_sessions_csrf_user_or_messages(client):
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    request = response.wsgi_request
    for attribute in ("session", "_messages", "csrf_processing_done"):
        assert not hasattr(request, attribute), attribute
    assert getattr(request, "user", None) is None  # DRF's "nobody" (UNAUTHENTICATED_USER), no lazy user
    assert "Set-Cookie" not in response and not response.cookies


def test_the_api_keeps_its_security_headers_and_request_id(client):
    response = client.get("/api/v1/health", headers={"X-Request-ID": "lean-1"})
    assert response["X-Request-ID"] == "lean-1"
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in response["Content-Security-Policy"]


def test_the_site_still_gets_the_full_stack(client, demo_property):
    response = client.get("/")
    request = response.wsgi_request
    assert hasattr(request, "session") and hasattr(request, "user") and hasattr(request, "_messages")


def test_the_sandbox_checkout_page_under_api_keeps_the_full_stack(client):
    response = client.get("/api/v1/payments/sandbox/nonexistent")
    assert hasattr(response.wsgi_request, "session")


def test_an_api_post_needs_no_csrf_token(demo_property):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/api/v1/quote", {"check_in": "2030-01-10", "check_out": "2030-01-13"}, content_type="application/json")
    assert response.status_code == 200, response.content


def open_database_handles(pids: list[int]) -> int:
    """Connections the server's processes hold: SQLite database files open, or PostgreSQL backends
    whose client is one of the processes' own sockets (the test process has connections too)."""
    if is_postgresql():
        ports = [port for pid in pids for port in local_ports(pid)]
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND client_port = ANY(%s)", [ports])
            return cursor.fetchone()[0]
    name = str(connection.settings_dict["NAME"])
    return sum(1 for pid in pids for fd in Path(f"/proc/{pid}/fd").iterdir() if os.path.realpath(fd) == name)


def open_files(pids: list[int]) -> int:
    return sum(len(os.listdir(f"/proc/{pid}/fd")) for pid in pids)


@pytest.mark.live
@pytest.mark.slow
def test_connections_are_reused_across_requests_and_not_leaked(live_url_factory):
    """Many requests from several clients at once: the server holds at most one connection per
    thread, and the count does not grow with the number of requests."""
    from tests.live import server_processes

    threads = 4
    with live_url_factory(env={"WEB_THREADS": str(threads), "DATABASE_POOL_MAX": str(threads)}) as url:
        pids = server_processes(url)

        def burst(count):
            def get(i):
                path = "/api/v1/property" if i % 2 else "/api/v1/availability?check_in=2030-01-10&check_out=2030-01-13"
                with requests.Session() as session:
                    for _ in range(count):
                        assert session.get(url + path, timeout=10).status_code == 200

            with ThreadPoolExecutor(8) as pool:
                list(pool.map(get, range(8)))

        burst(25)  # 200 requests
        after_some = open_database_handles(pids)
        files_after_some = open_files(pids)
        burst(50)  # 400 more
        after_many = open_database_handles(pids)
        files_after_many = open_files(pids)

    assert 1 <= after_some <= threads + 1  # + the startup check's on SQLite
    assert after_many <= after_some
    assert files_after_many <= files_after_some + 2  # sockets of clients just leaving


def calendar_days(api, **params) -> tuple[bytes, dict]:
    response = api.get("/api/v1/calendar", **params)
    assert response.status_code == 200, response.content
    return response.content, {d["date"]: d for d in response.json()["days"]}


def test_a_remembered_calendar_never_shows_a_taken_night_free(api, demo_property):
    from booking.reservations.models import DateBlock
    from booking.reservations.services import stays
    from tests.conftest import future

    start = future(40).replace(day=1)
    first_body, first = calendar_days(api, start=start, months=3)
    again_body, _ = calendar_days(api, start=start, months=3)
    assert again_body == first_body  # the same answer, byte for byte, from the process's cache
    night = start + (future(75) - future(40))
    assert first[night.isoformat()]["available"]

    DateBlock.objects.create(property=demo_property, start=night, end=night + (future(1) - future(0)), reason="painting")
    _, after_block = calendar_days(api, start=start, months=3)
    assert not after_block[night.isoformat()]["available"]

    DateBlock.objects.filter(start=night).delete()
    body_after_delete, after_delete = calendar_days(api, start=start, months=3)
    assert after_delete[night.isoformat()]["available"] and body_after_delete == first_body
    assert len(stays._calendars.entries) <= stays.CALENDAR_CACHE_SIZE


def test_a_remembered_calendar_follows_the_rules(api, demo_property):
    from tests.conftest import future

    start = future(40).replace(day=1)
    _, before = calendar_days(api, start=start, months=2)
    from booking.catalog.models import Season

    for season in Season.objects.filter(property=demo_property):
        season.nightly_rate += 100
        season.weekend_nightly_rate = season.weekend_nightly_rate and season.weekend_nightly_rate + 100
        season.save()  # bumps rules_version (booking/catalog/signals.py)
    demo_property.base_nightly_rate += 100
    demo_property.weekend_nightly_rate = demo_property.weekend_nightly_rate and demo_property.weekend_nightly_rate + 100
    demo_property.save()
    _, after = calendar_days(api, start=start, months=2)
    assert all(after[day]["nightly_rate"] == before[day]["nightly_rate"] + 100 for day in before)


def test_the_calendar_reads_as_far_as_the_longest_stay_when_it_grows(demo_property, django_assert_num_queries, monkeypatch):
    """The calendar reads the taken nights with the version in one query, as far as the longest
    stay of the rules this process has built; when the property's rules allow longer stays than
    those (another process changed them), it reads the rest, and its answer is the one the pricing
    engine gives over every taken night up to the new longest stay. Once the new rules are built it
    reads that far at once: no global of its own remembers the last length."""
    from booking.catalog import pricing
    from booking.catalog.rules import rules_for
    from booking.catalog.selectors import today
    from booking.reservations.models import DateBlock
    from booking.reservations.selectors import taken_ranges
    from booking.reservations.services import stays
    from tests.conftest import future

    start = future(40).replace(day=1)
    demo_property.min_nights, demo_property.max_nights = 2, 30
    demo_property.save()
    stays.calendar_months(start=start, months=1)
    with django_assert_num_queries(1):
        first = stays.calendar_months(start=start, months=1)
    demo_property.min_nights, demo_property.max_nights = 2, 90
    demo_property.save()
    DateBlock.objects.create(
        property=demo_property, start=first.last_day + (future(60) - future(0)), end=first.last_day + (future(61) - future(0)), reason="works"
    )
    rules = rules_for(demo_property)  # the new rules, built once (their queries are not the calendar's)
    with monkeypatch.context() as old_rules_only:
        old_rules_only.setattr(stays, "longest_stay_known", lambda: 30)  # what a process that built only the old rules knows
        with django_assert_num_queries(2):  # the version and the nights as far as 30 allowed, then the rest
            grown = stays.calendar_months(start=start, months=1)
    before, lookahead = start - (future(1) - future(0)), grown.last_day + (future(92) - future(0))
    taken = pricing.taken_nights_from_ranges(taken_ranges(demo_property, before, lookahead), before, lookahead)
    assert grown.days == pricing.calendar(start, grown.last_day, rules, taken, today())
    with django_assert_num_queries(1):
        assert stays.calendar_months(start=start, months=1).days == grown.days


def test_saving_the_same_property_twice_gives_each_edit_its_own_rules_version(demo_property):
    """A stale instance must not write its old version back: the bump after it would give an
    earlier number to different rules, and every process would keep the rules it had cached."""
    from booking.catalog.models import Property
    from booking.catalog.rules import rules_for_version
    from booking.catalog.selectors import get_property_version

    stale = Property.objects.get(pk=demo_property.pk)
    versions = []
    for instance, max_nights in ((demo_property, 30), (demo_property, 90), (stale, 45)):
        instance.max_nights = max_nights
        instance.save()
        versions.append(get_property_version()[1])
        assert rules_for_version(*get_property_version()).max_nights == max_nights
    # Another process that cached the rules of an earlier version must see a new number.
    assert versions == sorted(set(versions)), versions
    assert demo_property.rules_version == versions[1] and stale.rules_version == versions[2]
