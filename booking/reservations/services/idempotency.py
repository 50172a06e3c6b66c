"""Idempotency-Key on the POSTs that create things: the same key and body within 24 hours return
the first answer and create nothing; the same key with another body is a 409.

Claims and leases. The key is claimed with a row before the work starts (a unique constraint
decides who claims it). The claim carries an owner token and a short lease (LEASE_SECONDS), which
the owner renews from a heartbeat thread while its request runs. A claim whose lease has run out
belongs to an owner that died (kill -9, OOM, a lost machine): the next retry takes it over with a
conditional UPDATE on the old owner's token, so exactly one retry wins. Nothing is stuck for longer
than a lease.

The hold and its key commit together. While a request runs, the reservation it creates writes its
id into the claim (`created_reservation_id`) from a post_save receiver, i.e. inside the very
transaction that inserts the reservation, and only if the claim still belongs to this request
(otherwise the hold is rolled back: the request was taken over, and the taker answers). So after a
crash either the hold and the link both exist, and the retry that takes over answers with that hold
(201 and the reservation for `reservations`; the hold's checkout for `checkout-link`), or neither
exists and the retry does the work. One key never makes two holds, and a client never loses its
hold to a `dates_unavailable` against itself.

Waiting. A retry that finds the key in progress under a live lease polls for up to WAIT_SECONDS
(a little more than a lease, so a crashed owner's key resolves within one retry) and releases its
database connection between polls, so waiting retries never pin pooled connections. Then 409
`idempotency_key_in_progress`.

A call that fails releases its claim, so nothing is left behind and a retry can succeed; if it
failed after its hold committed and the hold still stands, the claim is kept with its lease ended,
so the retry answers with that hold.

Personal data and retention. The stored answer keeps no more PII than a GET lookup shows: the
guest's email, phone and last name are masked exactly as GET /api/v1/reservations/{id} masks them.
A replay restores those fields from the reservation row (the system of record for them), so the
replayed answer equals the first one; only if that reservation no longer exists does the replay
show the masked values. Records are deleted once the 24 h replay window is over by the beat job
`booking.tasks.purge_idempotency_records` (purge_expired_records()); a key older than the window is
also freed when it is reused.
"""

import contextvars
import enum
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_save
from django.utils import timezone

from booking.errors import BookingError, IdempotencyKeyReused, InvalidInput, Problem
from booking.privacy import mask_email, mask_phone
from booking.reservations.models import IdempotencyRecord, Reservation

LEASE_SECONDS = 10.0  # a claim not renewed for this long belongs to a dead owner
HEARTBEAT_SECONDS = 3.0  # how often a running request renews its lease
WAIT_SECONDS = 12.0  # how long a retry waits for a live owner's answer (a lease and a bit)
POLL_SECONDS = 0.2


class IdempotencyKeyInProgress(BookingError):
    status = 409
    code = "idempotency_key_in_progress"
    default_detail = "A request with this Idempotency-Key is still being processed; retry shortly."


def request_fingerprint(payload: object) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


def lease_seconds() -> float:
    return float(getattr(settings, "IDEMPOTENCY_LEASE_SECONDS", LEASE_SECONDS))


def replay_window() -> timedelta:
    return timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS)


@dataclass(frozen=True)
class _Claim:
    pk: int
    token: str
    created_reservation_id: str | None = None


Body = dict[str, Any]
Answer = tuple[int, Body]


@dataclass(frozen=True)
class _Answer:
    status: int
    body: Body


class _Wait(enum.Enum):
    IN_PROGRESS = "another request owns the key and is alive"
    TRY_AGAIN = "the key changed hands meanwhile: look again"


_IN_PROGRESS = _Wait.IN_PROGRESS
_TRY_AGAIN = _Wait.TRY_AGAIN

# The claim the current request owns, read by the post_save receiver below.
_current_claim: contextvars.ContextVar[tuple[int, str] | None] = contextvars.ContextVar("idempotency_claim", default=None)


def run_idempotent(*, scope: str, key: object, payload: object, produce: Callable[[], Answer]) -> Answer:
    """Run `produce` once per (scope, key); return its (status, body), replayed on repeats. Every
    interface's retry key passes here and is validated here (InvalidRetryKey: each interface says
    where it took the key from)."""
    if key is None or key == "":
        return produce()
    key = valid_idempotency_key(key)
    fingerprint = request_fingerprint(payload)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        outcome = _claim_or_answer(scope, key, fingerprint)
        if isinstance(outcome, _Answer):
            return outcome.status, outcome.body
        if isinstance(outcome, _Claim):
            return _run_owned(outcome, scope, payload, produce)
        if outcome is _TRY_AGAIN:  # the key was just released or taken by someone else: look again
            continue
        if time.monotonic() > deadline:
            raise IdempotencyKeyInProgress()
        _release_connection()
        time.sleep(POLL_SECONDS)


def purge_expired_records(now: datetime | None = None) -> int:
    """Delete the records past the replay window (the beat job); returns how many."""
    now = now or timezone.now()
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=now - replay_window()).delete()
    return deleted


# --- claiming -----------------------------------------------------------------------------------


def _claim_or_answer(scope: str, key: str, fingerprint: str) -> "_Claim | _Answer | _Wait":
    now = timezone.now()
    IdempotencyRecord.objects.filter(scope=scope, key=key, created_at__lt=now - replay_window()).delete()
    token = secrets.token_hex(16)
    lease_until = now + timedelta(seconds=lease_seconds())
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(scope=scope, key=key, request_hash=fingerprint, owner=token, lease_expires_at=lease_until)
        return _Claim(record.pk, token)
    except IntegrityError:
        pass
    existing = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
    if existing is None:  # released between our insert and our read
        return _TRY_AGAIN
    record = existing
    if record.request_hash != fingerprint:
        raise IdempotencyKeyReused()
    if record.status_code is not None:
        return _Answer(record.status_code, _restore_personal_data(record.response_body or {}, record.created_reservation_id))
    if record.lease_expires_at is not None and record.lease_expires_at > now:
        return _IN_PROGRESS
    # The owner stopped renewing its lease: it is dead. Take the claim over; one retry wins.
    taken = IdempotencyRecord.objects.filter(pk=record.pk, owner=record.owner, status_code__isnull=True).update(owner=token, lease_expires_at=lease_until)
    if not taken:
        return _TRY_AGAIN
    # Re-read: on PostgreSQL the UPDATE may have waited for the old owner's hold to commit.
    linked = IdempotencyRecord.objects.filter(pk=record.pk).values_list("created_reservation_id", flat=True).first()
    return _Claim(record.pk, token, linked)


def _run_owned(claim: _Claim, scope: str, payload: object, produce: Callable[[], Answer]) -> Answer:
    heartbeat = _Heartbeat(claim)
    heartbeat.start()
    context = _current_claim.set((claim.pk, claim.token))
    try:
        try:
            answer: Answer | None = None
            if claim.created_reservation_id:
                answer = _recover(scope, claim.created_reservation_id, payload)
                if answer is None:  # the hold it made is gone (released): the first call left nothing
                    IdempotencyRecord.objects.filter(pk=claim.pk, owner=claim.token).update(created_reservation_id=None)
            status, body = answer if answer is not None else produce()
        except BaseException:
            try:
                _release(claim)
            except Exception:  # e.g. the database is gone: the lease lapses and a retry takes over
                pass
            raise
    finally:
        _current_claim.reset(context)
        heartbeat.stop()
    IdempotencyRecord.objects.filter(pk=claim.pk, owner=claim.token).update(status_code=status, response_body=_mask_personal_data(body), lease_expires_at=None)
    return status, body


def _release(claim: _Claim) -> None:
    """After a failure: free the key, unless a hold it made still stands (then a retry answers with it)."""
    record = IdempotencyRecord.objects.filter(pk=claim.pk, owner=claim.token).first()
    if record is None:
        return
    if (
        record.created_reservation_id
        and Reservation.objects.filter(pk=record.created_reservation_id, status__in=[Reservation.Status.HELD, Reservation.Status.CONFIRMED]).exists()
    ):
        IdempotencyRecord.objects.filter(pk=claim.pk, owner=claim.token).update(lease_expires_at=timezone.now())
    else:
        IdempotencyRecord.objects.filter(pk=claim.pk, owner=claim.token).delete()


# How to answer a key whose first request committed a hold but died before storing its answer:
# one function per scope, registered by the module that owns the scope's operation (holds.py for
# "reservations", services/payments.py for "checkout-link"), so this generic service needs to know
# none of them. A scope without one answers by running the request again.
Recovery = Callable[[Reservation, object], "Answer | None"]
_recoveries: dict[str, Recovery] = {}


def recover_with(scope: str) -> Callable[[Recovery], Recovery]:
    def register(recovery: Recovery) -> Recovery:
        _recoveries[scope] = recovery
        return recovery

    return register


def _recover(scope: str, reservation_id: str, payload: object) -> Answer | None:
    """The answer for a hold that committed under this key but whose answer was never stored."""
    reservation = Reservation.objects.filter(pk=reservation_id).first()
    recovery = _recoveries.get(scope)
    if reservation is None or recovery is None:
        return None
    return recovery(reservation, payload)


def _link_reservation(sender: type[Reservation], instance: Reservation, created: bool, raw: bool = False, **kwargs: Any) -> None:
    """Inside the transaction that inserts a reservation: tie it to the key being served, or roll
    it back if another request has taken the key over."""
    claim = _current_claim.get()
    if not created or raw or claim is None:
        return
    pk, token = claim
    if not IdempotencyRecord.objects.filter(pk=pk, owner=token).update(created_reservation_id=instance.pk):
        raise IdempotencyKeyInProgress("Another request with this Idempotency-Key took it over; retry shortly.")


post_save.connect(_link_reservation, sender=Reservation, dispatch_uid="booking.idempotency.link_reservation")


class _Heartbeat:
    """Renews the claim's lease while its request runs; dies with the process, so the lease lapses."""

    def __init__(self, claim: _Claim) -> None:
        self.claim = claim
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"idempotency-lease-{claim.pk}", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()

    def _run(self) -> None:
        from django.db import connections

        interval = min(HEARTBEAT_SECONDS, lease_seconds() / 3)
        try:
            while not self.stopped.wait(interval):
                try:
                    IdempotencyRecord.objects.filter(pk=self.claim.pk, owner=self.claim.token, status_code__isnull=True).update(
                        lease_expires_at=timezone.now() + timedelta(seconds=lease_seconds())
                    )
                except Exception:  # a missed renewal only shortens the lease; fencing keeps it safe
                    pass
                finally:
                    connections.close_all()  # this thread's connection only: back to the pool
        finally:
            connections.close_all()


def _release_connection() -> None:
    """Give the connection back (to the pool on PostgreSQL) while waiting; reopened on next use."""
    if not connection.in_atomic_block:
        connection.close()


# --- personal data ------------------------------------------------------------------------------


def _mask_personal_data(body: Body) -> Body:
    """The stored copy: the guest's email, phone and last name masked as GET shows them."""
    if not isinstance(body, dict) or not isinstance(body.get("guest"), dict):
        return body
    guest = dict(body["guest"])
    guest["email"] = mask_email(guest.get("email") or "")
    guest["phone"] = mask_phone(guest.get("phone") or "")
    last = guest.get("last_name") or ""
    guest["last_name"] = last[:1] + "." if last else None
    return {**body, "guest": guest}


def _restore_personal_data(body: Body, reservation_id: str | None) -> Body:
    """The replayed answer: the masked guest fields restored from the reservation row."""
    if not isinstance(body, dict) or not isinstance(body.get("guest"), dict):
        return body
    reservation = Reservation.objects.filter(pk=reservation_id or body.get("id") or body.get("reservation_id") or "").first()
    if reservation is None:
        return body
    guest = {
        **body["guest"],
        "last_name": reservation.guest_last_name or None,
        "email": reservation.guest_email or None,
        "phone": reservation.guest_phone or None,
    }
    return {**body, "guest": guest}


MAX_IDEMPOTENCY_KEY = 255


class InvalidRetryKey(InvalidInput):
    """A retry key that is not one, named KEY_FIELD: the interface knows where it took it from (a
    header, an argument, a message id) and says so."""


KEY_FIELD = ("idempotency_key",)


def valid_idempotency_key(key: object) -> str:
    """A retry key (REST Idempotency-Key, MCP idempotency_key, A2A messageId, UCP's): a string of
    1 to 255 printable characters, or InvalidRetryKey. A NUL or a lone surrogate would otherwise
    reach the database and fail there (a 503 "try again" for a request that can never succeed)."""
    if not isinstance(key, str) or not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
        raise InvalidRetryKey([Problem(KEY_FIELD, f"Must be a string of 1 to {MAX_IDEMPOTENCY_KEY} characters.", "string_type")])
    if not key.isprintable():
        raise InvalidRetryKey(
            [Problem(KEY_FIELD, "Must contain printable characters only (no control characters or lone surrogates).", "string_pattern_mismatch")]
        )
    return key
