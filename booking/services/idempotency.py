"""Idempotency-Key on the POSTs that create things: the same key and body within 24 hours return
the first answer and create nothing; the same key with another body is a 409.

The key is claimed with a row before the work starts (a unique constraint decides who claims it),
so two concurrent retries cannot both create a hold: the second waits for the first's answer.
A call that fails releases its claim, so nothing is left behind and a retry can succeed.
"""

import hashlib
import json
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from booking.errors import BookingError, IdempotencyKeyReused
from booking.models import IdempotencyRecord

WAIT_SECONDS = 20


class IdempotencyKeyInProgress(BookingError):
    status = 409
    code = "idempotency_key_in_progress"
    default_detail = "A request with this Idempotency-Key is still being processed; retry shortly."


def request_fingerprint(payload) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


def run_idempotent(*, scope: str, key: str | None, payload, produce: Callable[[], tuple[int, dict]]) -> tuple[int, dict]:
    """Run `produce` once per (scope, key); return its (status, body), replayed on repeats."""
    if not key:
        return produce()
    key = key[:255]
    fingerprint = request_fingerprint(payload)
    cutoff = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_TTL_HOURS)
    IdempotencyRecord.objects.filter(scope=scope, key=key, created_at__lt=cutoff).delete()
    try:
        with transaction.atomic():
            record = IdempotencyRecord.objects.create(scope=scope, key=key, request_hash=fingerprint)
    except IntegrityError:
        return _replay(scope, key, fingerprint)
    try:
        status, body = produce()
    except BaseException:
        IdempotencyRecord.objects.filter(pk=record.pk).delete()
        raise
    record.status_code, record.response_body = status, body
    record.save(update_fields=["status_code", "response_body"])
    return status, body


def _replay(scope: str, key: str, fingerprint: str) -> tuple[int, dict]:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if record is None:  # the first call failed and released the key: the caller may retry
            raise IdempotencyKeyInProgress("The first request with this Idempotency-Key failed; retry it.")
        if record.request_hash != fingerprint:
            raise IdempotencyKeyReused()
        if record.status_code is not None:
            return record.status_code, record.response_body
        if time.monotonic() > deadline:
            raise IdempotencyKeyInProgress()
        time.sleep(0.1)
