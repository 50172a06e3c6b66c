"""Two workers draining the Channex feed at once apply each revision once and acknowledge it once,
on SQLite and on PostgreSQL; an overbooking is stored on PostgreSQL despite the no-overlap backstop."""

import threading
import time
from collections import Counter

import pytest
from django.db import connections

from booking.reservations.models import Reservation, ReservationEvent
from partner_sync.channex import bookings
from partner_sync.models import ChannexRevision
from tests.conftest import is_postgresql
from tests.dates import future
from tests.partner_sync.conftest import stay_booked_before_the_platform_booked

WORKERS = 2
REVISIONS = 12


def drain_at_once() -> Counter:
    barrier = threading.Barrier(WORKERS)
    outcomes: Counter = Counter()
    lock = threading.Lock()

    def run():
        try:
            barrier.wait(timeout=10)
            reports = bookings.drain_feed()
            with lock:
                outcomes.update(f"applied_now={r.applied_now}" for r in reports)
        except Exception as error:  # noqa: BLE001 — any error is a failure to report
            with lock:
                outcomes[f"error: {error!r}"] += 1
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return outcomes


@pytest.fixture
def wide_race_window(monkeypatch):
    """Each worker pauses between its check (is the revision applied yet?) and its write, so that
    without the row's lock both would apply it: a missing lock is caught on every run."""
    original = bookings.to_stay

    def slow_to_stay(*args, **kwargs):
        time.sleep(0.05)
        return original(*args, **kwargs)

    monkeypatch.setattr(bookings, "to_stay", slow_to_stay)


@pytest.mark.django_db(transaction=True)
def test_two_workers_draining_the_feed_at_once_apply_and_acknowledge_each_revision_once(channex, wide_race_window):
    channex.delay_seconds = 0.01  # both workers get the same pages before either acknowledges
    revisions = [channex.book(arrival=future(30 + 4 * i), departure=future(33 + 4 * i)) for i in range(REVISIONS)]
    outcomes = drain_at_once()
    print(f"\n[{connections['default'].vendor}] two workers draining: {dict(outcomes)}")
    assert not [key for key in outcomes if key.startswith("error")]
    assert outcomes["applied_now=True"] == REVISIONS
    assert Reservation.objects.filter(channel_booking_id__isnull=False).count() == REVISIONS
    assert ReservationEvent.objects.filter(message="channel_booked").count() == REVISIONS
    assert ChannexRevision.objects.filter(acked_at__isnull=False).count() == REVISIONS
    assert Counter(channex.acks) == Counter({revision["id"]: 1 for revision in revisions})
    assert channex.unacked() == []


@pytest.mark.django_db(transaction=True)
def test_the_race_test_catches_a_drain_without_the_row_lock(channex, wide_race_window, monkeypatch):
    """The same race with the revision row's lock taken out must apply revisions twice, or the
    test above proves nothing. PostgreSQL only: on SQLite the writer queue serialises whole
    transactions, so the check and the write of two workers never interleave there."""
    if not is_postgresql():
        pytest.skip("SQLite serialises writers by itself; see the docstring")
    manager = ChannexRevision.objects
    monkeypatch.setattr(manager, "select_for_update", lambda: manager.all())
    channex.delay_seconds = 0.01
    for i in range(REVISIONS):
        channex.book(arrival=future(30 + 4 * i), departure=future(33 + 4 * i))
    outcomes = drain_at_once()
    print(f"\n[{connections['default'].vendor}] two workers draining without the row lock: {dict(outcomes)}")
    assert outcomes["applied_now=True"] > REVISIONS


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("current_backstop")
def test_an_overbooking_is_stored_whatever_the_no_overlap_constraint(channex):
    direct = stay_booked_before_the_platform_booked(future(40), future(43))
    revision = channex.book(arrival=future(41), departure=future(44), ota="BDC")
    [report] = bookings.drain_feed()
    assert (report.outcome, report.acked) == ("overbooking", True)
    stay = Reservation.objects.get(channel_booking_id=revision["attributes"]["booking_id"])
    assert stay.status == "confirmed" and stay.overbooked
    assert Reservation.objects.get(pk=direct.pk).status == "confirmed"
