"""No two stays ever overlap, however many requests race — on SQLite and on PostgreSQL.

Each race fires simultaneous holds for pairwise-overlapping stays. The control case runs the same
race through an unguarded check-then-insert, proving the race window is real: without the lock
SQLite double-books, and on PostgreSQL only the exclusion constraint stops it.
"""

import json
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import requests
from django.db import IntegrityError, connections
from django.utils import timezone

from booking.api.presenters import breakdown_json
from booking.catalog.selectors import get_property
from booking.errors import DatesUnavailable
from booking.reservations.models import Reservation
from booking.reservations.services import stays
from booking.reservations.services.holds import hold_stay
from tests.conftest import is_postgresql
from tests.dates import future

ATTEMPTS = 12


def overlapping_stay(i: int):
    """Stays [30, 33), [31, 34), [32, 35) days ahead: every pair shares a night."""
    start = future(30 + i % 3)
    return start, start + timedelta(days=3)


def hold_overlapping_stay(i: int) -> str:
    """The i-th racer's hold through the service (whatever hold path the test left in place)."""
    check_in, check_out = overlapping_stay(i)
    hold_stay(check_in=check_in, check_out=check_out, guests=2)
    return "held"


def race(attempt) -> Counter:
    barrier = threading.Barrier(ATTEMPTS)
    outcomes: Counter = Counter()
    lock = threading.Lock()

    def run(i):
        try:
            barrier.wait(timeout=10)
            outcome = attempt(i)
        except DatesUnavailable:
            outcome = "dates_unavailable"
        except IntegrityError:
            outcome = "integrity_error"
        except Exception as error:  # noqa: BLE001 — any other outcome is a failure to report
            outcome = f"error: {error!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(ATTEMPTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def active_overlaps() -> int:
    active = list(Reservation.objects.filter(status__in=["held", "confirmed"]).values_list("check_in", "check_out"))
    return sum(1 for i, a in enumerate(active) for b in active[i + 1 :] if a[0] < b[1] and b[0] < a[1])


@pytest.fixture
def without_the_backstop(transactional_db):
    """On PostgreSQL, drop the exclusion constraint for the test, so only the lock can protect."""
    from importlib import import_module

    backstop = import_module("booking.migrations.0002_no_overlapping_stays_on_postgresql")
    if is_postgresql():
        with connections["default"].cursor() as cursor:
            cursor.execute(backstop.DROP)
    yield
    if is_postgresql():
        # A test that let overlaps in (a regressed lock) must fail on its own assertion, not here:
        # the constraint cannot be re-created over overlapping rows, which would poison later tests.
        Reservation.objects.filter(status__in=["held", "confirmed"]).update(status="cancelled")
        # As the latest migration defines it (0033: overbooked channel stays are exempt).
        current = import_module("booking.migrations.0035_channel_reservations")
        with connections["default"].cursor() as cursor:
            cursor.execute(current.CREATE_WITH_OVERBOOKED)


@pytest.fixture
def wide_race_window(settings):
    """Every racer pauses between its check and its insert, so without the lock they would all
    pass the check: a missing lock is caught on every run."""
    settings.TEST_RACE_WINDOW_SECONDS = 0.05


@pytest.mark.django_db(transaction=True)
def test_racing_threads_exactly_one_hold_wins(demo_property, without_the_backstop, wide_race_window):
    outcomes = race(hold_overlapping_stay)
    print(f"\n[{connections['default'].vendor}] guarded thread race: {dict(outcomes)}")
    assert outcomes == Counter({"held": 1, "dates_unavailable": ATTEMPTS - 1})
    assert Reservation.objects.filter(status="held").count() == 1
    assert active_overlaps() == 0


@pytest.mark.django_db(transaction=True)
def test_the_race_test_catches_a_hold_path_without_the_lock(demo_property, without_the_backstop, wide_race_window, monkeypatch):
    """The guarded race, with the property lock taken out of the hold path, must double-book, or
    the guarded race proves nothing.

    PostgreSQL only: on SQLite a transaction that read the calendar cannot write after another
    writer committed (its snapshot is stale: SQLITE_BUSY_SNAPSHOT), so SQLite refuses the second
    writer whatever we do; there the lock and the writer queue keep that refusal from surfacing
    as an error, which the guarded race checks (1 held, 11 dates_unavailable, no errors)."""
    if not is_postgresql():
        pytest.skip("SQLite serialises writers by itself; see the docstring")
    from contextlib import contextmanager

    from django.db import transaction

    from booking.reservations.services import holds

    @contextmanager
    def unlocked_transaction(property_id):
        with transaction.atomic():
            yield get_property().rules_version

    monkeypatch.setattr(holds, "calendar_lock", unlocked_transaction)
    outcomes = race(hold_overlapping_stay)
    print(f"\n[{connections['default'].vendor}] hold path without the lock: {dict(outcomes)}")
    assert outcomes["held"] > 1 and active_overlaps() > 0


@pytest.mark.django_db
def test_nights_already_taken_are_refused_without_queueing_for_the_lock(demo_property, monkeypatch, django_assert_num_queries):
    """In a burst on the same nights, every request that comes after the winner's commit is refused
    by one read, as the availability endpoint would answer, instead of waiting its turn for the
    calendar lock behind the others (the bench's hold burst: 40 holds, one winner)."""
    from booking.reservations.services import holds

    check_in, check_out = overlapping_stay(0)
    hold_stay(check_in=check_in, check_out=check_out, guests=2)

    def no_lock(property_id):
        raise AssertionError("a hold on taken nights queued for the calendar lock")

    monkeypatch.setattr(holds, "calendar_lock", no_lock)
    with django_assert_num_queries(2), pytest.raises(DatesUnavailable) as refused:  # the feeds due a refresh; the version and the taken nights
        hold_stay(check_in=check_in + timedelta(days=1), check_out=check_out + timedelta(days=1), guests=2)
    assert refused.value.reason == "on_hold" and refused.value.held_until is not None
    with pytest.raises(DatesUnavailable) as refused:  # the rules refuse before the lock as well
        hold_stay(check_in=future(90), check_out=future(91), guests=2)
    assert refused.value.reason == "min_stay"


@pytest.mark.django_db
def test_a_hold_reads_one_column_under_the_lock_and_writes_two_rows(demo_property, django_assert_num_queries):
    """The hold's queries, pinned: the feeds due a refresh and the calendar read before the lock;
    then the lock (the rules version alone: the rules are kept per version), lapsed holds, the
    nights again, the property's booking-number prefix with the year's last number (one query), and
    the reservation (inside a savepoint and its release, so a number taken meanwhile is retried)
    with its audit entry (and, in the test's own transaction, a savepoint and its release around
    them)."""
    hold_stay(check_in=future(120), check_out=future(123), guests=2)  # the rules built and kept
    check_in, check_out = overlapping_stay(0)
    with django_assert_num_queries(12) as queries:
        hold_stay(check_in=check_in, check_out=check_out, guests=2)
    lock = next(q["sql"] for q in queries.captured_queries if "rules_version" in q["sql"] and "WHERE id" in q["sql"])
    assert lock.split(" FROM ")[0] == "SELECT rules_version"
    assert ("FOR UPDATE" in lock) == is_postgresql()


@pytest.mark.django_db(transaction=True)
def test_control_without_the_lock_the_race_is_real(demo_property):
    """The same race through an unguarded check-then-insert (what the lock exists to prevent)."""
    passed_check = Counter()
    checked = threading.Barrier(ATTEMPTS)

    def unguarded(i):
        check_in, check_out = overlapping_stay(i)
        check = stays.check_stay(check_in=check_in, check_out=check_out, guests=2)
        if not check.verdict.available:
            raise DatesUnavailable()
        passed_check["passed"] += 1
        checked.wait(timeout=10)  # everybody has looked; nobody has written yet
        Reservation.objects.create(
            property=get_property(),
            check_in=check_in,
            check_out=check_out,
            guests=2,
            status="held",
            hold_expires_at=timezone.now() + timedelta(minutes=30),
            price_breakdown=breakdown_json(check.quote),
            total=check.quote.total,
        )
        return "held"

    outcomes = race(unguarded)
    print(f"\n[{connections['default'].vendor}] unguarded control race: {dict(outcomes)}, passed the check: {passed_check['passed']}")
    assert passed_check["passed"] == ATTEMPTS  # the race window is real
    if is_postgresql():
        # The exclusion constraint is the backstop: one insert wins, the rest are refused.
        assert outcomes == Counter({"held": 1, "integrity_error": ATTEMPTS - 1})
        assert active_overlaps() == 0
    else:
        assert outcomes["held"] > 1 and active_overlaps() > 0  # double booking, as expected without the lock


CALENDAR = "/api/v1/calendar?months=18"


@pytest.mark.live
def test_racing_http_requests_against_a_live_multi_process_server(transactional_db, demo_property, tmp_path):
    from tests.live import live_server

    with live_server(workers=2) as base_url:
        barrier = threading.Barrier(ATTEMPTS)

        def post(i):
            check_in, check_out = overlapping_stay(i)
            session = requests.Session()
            # Connect first, so the POSTs start together; reading the calendar on the way makes
            # every web process remember it with these nights still free.
            assert session.get(base_url + CALENDAR, timeout=10).status_code == 200
            barrier.wait(timeout=20)
            started = time.monotonic()
            response = session.post(base_url + "/api/v1/reservations", json={"check_in": str(check_in), "check_out": str(check_out)}, timeout=30)
            return response.status_code, time.monotonic() - started

        with ThreadPoolExecutor(ATTEMPTS) as pool:
            results = list(pool.map(post, range(ATTEMPTS)))
        winner = Reservation.objects.get(status="held")
        won_nights = {str(winner.check_in + timedelta(days=n)) for n in range((winner.check_out - winner.check_in).days)}
        for _ in range(8):  # new connections, spread over both processes: none shows a won night free
            days = requests.get(base_url + CALENDAR, timeout=10).json()["days"]
            assert not [day["date"] for day in days if day["date"] in won_nights and day["available"]]
    statuses = Counter(status for status, _ in results)
    figures = {
        "database": connections["default"].vendor,
        "attempts": ATTEMPTS,
        "statuses": dict(statuses),
        "slowest_ms": round(max(t for _, t in results) * 1000),
    }
    print("\nHTTP race:", json.dumps(figures))
    assert statuses == Counter({201: 1, 409: ATTEMPTS - 1})
    assert Reservation.objects.filter(status="held").count() == 1
    assert active_overlaps() == 0
