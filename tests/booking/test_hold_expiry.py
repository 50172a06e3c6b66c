"""Holds expire on time: their nights free up at hold_expires_at, before and after the job runs."""

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from booking.reservations.models import Reservation, ReservationEvent
from booking.reservations.services.reservations import expire_lapsed_holds
from tests.dates import future

STAY = {"check_in": str(future(30)), "check_out": str(future(33))}


@pytest.mark.django_db
class TestExpiryWithTimeControl:
    def test_a_lapsed_hold_frees_its_nights_before_any_job_runs(self, api, demo_property, settings):
        reservation_id = api.post("/api/v1/reservations", STAY).json()["id"]
        with time_machine.travel(timezone.now() + timedelta(minutes=settings.HOLD_MINUTES - 1)):
            assert api.get("/api/v1/availability", **STAY).json()["available"] is False
            assert api.get(f"/api/v1/reservations/{reservation_id}").json()["status"] == "held"
        with time_machine.travel(timezone.now() + timedelta(minutes=settings.HOLD_MINUTES, seconds=1)):
            assert api.get("/api/v1/availability", **STAY).json()["available"] is True
            body = api.get(f"/api/v1/reservations/{reservation_id}").json()
            assert body["status"] == "expired" and body["hold_expires_at"] is None
            assert body["payment"]["amount_due"] == 0
            # Another guest takes the nights; the hold path records the old hold as expired.
            assert api.post("/api/v1/reservations", STAY).status_code == 201
        assert Reservation.objects.get(pk=reservation_id).status == "expired"
        assert ReservationEvent.objects.filter(reservation_id=reservation_id, action="expire").exists()

    def test_the_job_marks_lapsed_holds_expired_with_an_audit_entry(self, api, demo_property, settings):
        reservation_id = api.post("/api/v1/reservations", STAY).json()["id"]
        assert expire_lapsed_holds() == 0
        with time_machine.travel(timezone.now() + timedelta(minutes=settings.HOLD_MINUTES + 1)):
            assert expire_lapsed_holds() == 1
            assert expire_lapsed_holds() == 0  # running again changes nothing
            assert api.get("/api/v1/availability", **STAY).json()["available"] is True
        event = ReservationEvent.objects.get(reservation_id=reservation_id, action="expire")
        assert (event.from_status, event.to_status, event.actor) == ("held", "expired", "expiry job")

    def test_confirmed_stays_never_expire(self, api, demo_property, settings):
        reservation_id = api.post("/api/v1/reservations", STAY).json()["id"]
        Reservation.objects.filter(pk=reservation_id).update(status="confirmed")
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            assert expire_lapsed_holds() == 0
            assert api.get("/api/v1/availability", **STAY).json()["available"] is False


@pytest.mark.slow
@pytest.mark.live
@pytest.mark.parametrize("broker", ["redis://127.0.0.1:6379/3", ""], ids=["redis", "embedded-filesystem-queue"])
def test_a_real_celery_worker_and_beat_expire_a_hold(transactional_db, demo_property, tmp_path, broker):
    """The worker and beat of `make run` tidy a lapsed hold: through Redis with
    CELERY_BROKER_URL=redis://…, and through the queue under DATA_DIR without it."""
    from tests.live import ROOT, test_database_url

    if broker:
        import redis

        redis.Redis.from_url(broker).flushdb()
    reservation = Reservation.objects.create(
        property=demo_property,
        check_in=future(30),
        check_out=future(33),
        guests=2,
        status="held",
        hold_expires_at=timezone.now() - timedelta(seconds=1),
        price_breakdown={},
        total=0,
    )
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "CELERY_BROKER_URL": broker,
        "HOLD_SWEEP_SECONDS": "1",
        "DATA_DIR": str(tmp_path),
        "PARTNER_SYNC_SECONDS": "3600",
    }
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    worker = subprocess.Popen(
        [*celery, "worker", "--pool", "threads", "--concurrency", "1", "--loglevel", "WARNING", "--hostname", f"expiry-test-{os.getpid()}@%h"],
        cwd=ROOT,
        env=env,
    )
    beat = subprocess.Popen([*celery, "beat", "--loglevel", "WARNING", "--schedule", str(tmp_path / "beat-schedule")], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            reservation.refresh_from_db()
            if reservation.status == "expired":
                break
            assert worker.poll() is None and beat.poll() is None, "celery exited early"
            time.sleep(0.5)
        assert reservation.status == "expired"
        assert reservation.events.get(action="expire").actor == "expiry job"
    finally:
        for process in (beat, worker):
            process.terminate()
        for process in (beat, worker):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
