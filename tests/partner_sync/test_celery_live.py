"""The real background jobs: a Celery worker and beat (as `make run` starts them) import a
platform's calendar and probe the listing through Redis, every PARTNER_SYNC_SECONDS."""

import os
import subprocess
import sys
import time

import pytest

from booking.reservations.models import DateBlock
from partner_sync.models import Feed, ListingProbe
from tests.partner_sync.conftest import all_day, calendar, day

BROKER = "redis://127.0.0.1:6379/2"


@pytest.mark.slow
@pytest.mark.live
def test_a_real_worker_and_beat_bring_a_platform_booking_in(transactional_db, demo_property, feed_server, tmp_path):
    import redis

    from tests.live import ROOT, test_database_url

    redis.Redis.from_url(BROKER).flushdb()
    feed_url = feed_server.serve("/calendar/ical/77.ics?s=token", calendar(all_day("worker-test@airbnb.com", 40, 44)))
    listing_url = feed_server.serve("/rooms/77", b"<html>listing</html>", content_type="text/html")
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "CELERY_BROKER_URL": BROKER,
        "DATA_DIR": str(tmp_path),
        "PARTNER_SYNC_SECONDS": "1",
        "PARTNER_ICAL_URLS": feed_url,
        "PARTNER_LISTING_URL": listing_url,
        "HOLD_SWEEP_SECONDS": "3600",
    }
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    worker = subprocess.Popen(
        [*celery, "worker", "--pool", "threads", "--concurrency", "2", "--loglevel", "WARNING", "--hostname", f"partner-sync-test-{os.getpid()}@%h"],
        cwd=ROOT,
        env=env,
    )
    beat = subprocess.Popen([*celery, "beat", "--loglevel", "WARNING", "--schedule", str(tmp_path / "beat-schedule")], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            block = DateBlock.objects.filter(source="partner", external_uid="worker-test@airbnb.com").first()
            probe = ListingProbe.objects.filter(last_status_code__isnull=False).first()
            if block and probe:
                break
            assert worker.poll() is None and beat.poll() is None, "celery exited early"
            time.sleep(0.5)
        assert block is not None, "no block arrived within 60 s"
        feed = Feed.objects.get()  # seeded from PARTNER_ICAL_URLS by the job, named after the host
        assert (block.start, block.end, block.reason) == (day(40), day(44), "127.0.0.1: Reserved")
        assert feed.environment_url == feed_url and feed.last_error == "" and feed.event_count == 1
        assert probe is not None and probe.last_status_code == 200 and probe.latency_ms is not None

        # The next beat ticks keep it in step: the platform moves the booking.
        feed_server.serve("/calendar/ical/77.ics?s=token", calendar(all_day("worker-test@airbnb.com", 50, 53)))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            block.refresh_from_db()
            if block.start == day(50):
                break
            time.sleep(0.5)
        assert (block.start, block.end) == (day(50), day(53))
    finally:
        for process in (beat, worker):
            process.terminate()
        for process in (beat, worker):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
