"""Idempotency-Key under faults: a crashed owner never leaves its key stuck or its hold orphaned,
waiting retries do not pin database connections, records are purged after the replay window and
keep no guest email or phone in the clear."""

import itertools
import json
import os
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import requests
from django.utils import timezone

from booking.reservations.models import IdempotencyRecord, Reservation
from booking.reservations.services import idempotency
from booking.reservations.services.idempotency import request_fingerprint
from tests.dates import future

STAY = {"check_in": str(future(30)), "check_out": str(future(37))}
GUEST = {"first_name": "Anna", "last_name": "Rossi", "email": "anna.rossi@example.com", "phone": "+39 333 1234567"}


def dead_claim(body, key, **fields):
    """A claim left 'in progress' by an owner that was killed: its lease ran out long ago."""
    defaults = {"owner": "dead-owner", "lease_expires_at": timezone.now() - timedelta(seconds=1)}
    return IdempotencyRecord.objects.create(scope="reservations", key=key, request_hash=request_fingerprint(body), **{**defaults, **fields})


class SimulatedKill(BaseException):
    """kill -9 between the hold's commit and the answer being stored: no cleanup code runs."""


@pytest.mark.django_db
class TestACrashedOwner:
    def test_a_dead_owners_claim_without_a_hold_is_taken_over_and_the_hold_made(self, api, demo_property):
        dead_claim(STAY, "k-dead")
        response = api.post("/api/v1/reservations", STAY, **{"Idempotency-Key": "k-dead"})
        assert response.status_code == 201, response.content
        assert Reservation.objects.count() == 1
        again = api.post("/api/v1/reservations", STAY, **{"Idempotency-Key": "k-dead"})
        assert again.status_code == 201 and again.json()["id"] == response.json()["id"]
        assert Reservation.objects.count() == 1

    def test_a_claim_from_before_leases_existed_is_not_stuck(self, api, demo_property):
        dead_claim(STAY, "k-legacy", owner="", lease_expires_at=None)
        assert api.post("/api/v1/reservations", STAY, **{"Idempotency-Key": "k-legacy"}).status_code == 201

    def test_a_hold_committed_by_a_killed_owner_is_the_retrys_answer(self, api, demo_property, monkeypatch):
        body = {**STAY, "guest": GUEST}
        monkeypatch.setattr(idempotency, "_release", lambda claim: None)  # a killed process cleans nothing up
        with monkeypatch.context() as patch:
            patch.setattr("booking.api.views.presenters.reservation_json", lambda *a, **k: (_ for _ in ()).throw(SimulatedKill()))
            with pytest.raises(SimulatedKill):
                api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-crash"})
        held = Reservation.objects.get()
        record = IdempotencyRecord.objects.get()
        assert record.status_code is None and record.created_reservation_id == held.pk  # committed with the hold

        # Before the lease runs out the owner may be alive: the retry is told to come back.
        monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.3)
        assert api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-crash"}).json()["code"] == "idempotency_key_in_progress"

        IdempotencyRecord.objects.update(lease_expires_at=timezone.now() - timedelta(seconds=1))  # the lease ran out
        retry = api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-crash"})
        assert retry.status_code == 201, retry.content
        assert retry.json()["id"] == held.pk and retry.json()["status"] == "held"
        assert retry.json()["guest"]["email"] == GUEST["email"]
        assert Reservation.objects.count() == 1
        replay = api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-crash"})
        assert replay.status_code == 201 and replay.json() == retry.json()

    def test_a_retry_waits_for_a_live_owner_then_says_in_progress(self, api, demo_property, monkeypatch):
        dead_claim(STAY, "k-live", owner="alive", lease_expires_at=timezone.now() + timedelta(minutes=1))
        monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.3)
        response = api.post("/api/v1/reservations", STAY, **{"Idempotency-Key": "k-live"})
        assert response.status_code == 409 and response.json()["code"] == "idempotency_key_in_progress"
        assert not Reservation.objects.exists()

    def test_an_owner_whose_key_was_taken_over_cannot_commit_a_hold(self, demo_property):
        from booking.reservations.services.holds import hold_stay

        def produce():
            IdempotencyRecord.objects.update(owner="the-taker")  # another retry took the key over meanwhile
            hold_stay(check_in=future(30), check_out=future(37), guests=2)
            return 201, {}

        with pytest.raises(idempotency.IdempotencyKeyInProgress):
            idempotency.run_idempotent(scope="reservations", key="k-fenced", payload=STAY, produce=produce)
        assert not Reservation.objects.exists()  # rolled back with the failed link


@pytest.mark.django_db(transaction=True)
def test_waiting_gives_the_database_connection_back(api, demo_property, monkeypatch):
    dead_claim(STAY, "k-wait", owner="alive", lease_expires_at=timezone.now() + timedelta(minutes=1))
    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.5)
    released = []
    real = idempotency._release_connection
    monkeypatch.setattr(idempotency, "_release_connection", lambda: (released.append(1), real()))
    assert api.post("/api/v1/reservations", STAY, **{"Idempotency-Key": "k-wait"}).status_code == 409
    assert len(released) >= 2


@pytest.mark.django_db
class TestRetentionAndPersonalData:
    def test_the_stored_answer_masks_email_and_phone_and_the_replay_equals_the_first(self, api, demo_property):
        body = {**STAY, "guest": GUEST}
        first = api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-pii"})
        assert first.status_code == 201 and first.json()["guest"]["email"] == GUEST["email"]
        stored = json.dumps(IdempotencyRecord.objects.get().response_body)
        assert GUEST["email"] not in stored and "1234567" not in stored and "Rossi" not in stored
        lookup = api.get(f"/api/v1/reservations/{first.json()['id']}").json()
        assert IdempotencyRecord.objects.get().response_body["guest"] == lookup["guest"]  # masked as GET masks
        replay = api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-pii"})
        assert replay.status_code == 201 and replay.json() == first.json()

    def test_records_past_the_replay_window_are_purged_by_the_beat_job(self, api, demo_property):
        from booking.tasks import purge_idempotency_records
        from config.celery import app

        api.post("/api/v1/reservations", STAY, **{"Idempotency-Key": "k-old"})
        api.post("/api/v1/reservations", {"check_in": str(future(60)), "check_out": str(future(67))}, **{"Idempotency-Key": "k-new"})
        IdempotencyRecord.objects.filter(key="k-old").update(created_at=timezone.now() - timedelta(hours=24, minutes=1))
        assert purge_idempotency_records() == 1
        assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["k-new"]
        schedule = {entry["task"] for entry in app.conf.beat_schedule.values()}
        assert "booking.tasks.purge_idempotency_records" in schedule


# --- live: kill -9 mid-burst, retry every key on another instance ------------------------------


def start_server(env: dict):
    from tests.live import ROOT, collect_static_once, free_port, test_database_url, web_command

    collect_static_once()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    child_env = {**os.environ, "DATABASE_URL": test_database_url(), "BASE_URL": base, "DEBUG": "false", **env}
    process = subprocess.Popen(
        web_command(port),
        cwd=ROOT,
        env=child_env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(base + "/api/v1/health", timeout=5).status_code < 500:
                return process, base
        except requests.RequestException:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("live server did not start")
        time.sleep(0.2)


@pytest.mark.live
def test_kill_9_mid_burst_then_every_key_resolves_on_another_instance(transactional_db, demo_property):
    env = {"BOOKING_RATE_LIMIT": "off", "MAX_UNPAID_HOLDS_PER_CLIENT": "1000"}
    bodies = {f"burst-{i}": {"check_in": str(future(30 + 8 * i)), "check_out": str(future(37 + 8 * i)), "guests": 2} for i in range(40)}

    def send(base, key, timeout):
        try:
            return requests.post(base + "/api/v1/reservations", json=bodies[key], headers={"Idempotency-Key": key}, timeout=timeout)
        except requests.RequestException:
            return None

    process_a, base_a = start_server(env)
    try:
        with ThreadPoolExecutor(40) as pool:
            futures = [pool.submit(send, base_a, key, 10) for key in bodies]
            time.sleep(0.25)
            os.killpg(process_a.pid, signal.SIGKILL)
            [f.result() for f in futures]
    finally:
        if process_a.poll() is None:
            os.killpg(process_a.pid, signal.SIGKILL)
        process_a.wait()

    process_b, base_b = start_server(env)
    try:
        started = time.monotonic()
        with ThreadPoolExecutor(40) as pool:
            answers = dict(zip(bodies, pool.map(lambda key: send(base_b, key, 30), bodies), strict=True))
        assert time.monotonic() - started < 30
        for key, response in answers.items():
            assert response is not None and response.status_code == 201, (key, response is not None and response.text)
        ids = {key: response.json()["id"] for key, response in answers.items()}
        assert len(set(ids.values())) == len(bodies)
        for key in list(bodies)[:5]:  # a further retry replays the same hold
            assert send(base_b, key, 30).json()["id"] == ids[key]
        # 34 retries waiting on one key whose owner is alive do not starve unrelated reads of connections
        stuck = {"check_in": str(future(500)), "check_out": str(future(507)), "guests": 2}
        bodies["stuck"] = stuck
        dead_claim(stuck, "stuck", owner="alive", lease_expires_at=timezone.now() + timedelta(minutes=5))
        with ThreadPoolExecutor(40) as pool:
            waiting = [pool.submit(send, base_b, "stuck", 30) for _ in range(34)]
            time.sleep(1)
            for _ in range(5):
                started = time.monotonic()
                response = requests.get(base_b + "/api/v1/availability", params={"check_in": stuck["check_in"], "check_out": stuck["check_out"]}, timeout=10)
                assert response.status_code == 200 and time.monotonic() - started < 3, response.text
                time.sleep(0.5)
            assert {f.result().json()["code"] for f in waiting} == {"idempotency_key_in_progress"}
    finally:
        os.killpg(process_b.pid, signal.SIGKILL)
        process_b.wait()

    active = list(Reservation.objects.filter(status__in=["held", "confirmed"]).values_list("id", "check_in", "check_out"))
    assert sorted(r[0] for r in active) == sorted(ids.values())  # exactly one hold per key, no orphans
    ranges = sorted((r[1], r[2]) for r in active)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(ranges))  # no overlapping rows
