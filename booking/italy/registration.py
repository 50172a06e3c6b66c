"""Sending each stay's records to Alloggiati Web on the arrival day (Celery beat, hourly), when
ALLOGGIATI_USER, ALLOGGIATI_PASSWORD and ALLOGGIATI_WSKEY are set. Each stay is claimed by a
conditional update, so two workers never send it twice; a failure to reach the service is retried
with a growing pause, a refusal is flagged for staff at once (the host then registers by hand)."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from booking.italy.alloggiati import AlloggiatiClient, ServiceUnreachable
from booking.italy.models import PoliceRegistration
from booking.italy.police import arrival, deadline
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag_for_staff

logger = logging.getLogger(__name__)
MAX_ATTEMPTS = 6
CLAIM = timedelta(minutes=5)


def configured() -> bool:
    return bool(settings.ALLOGGIATI_USER and settings.ALLOGGIATI_PASSWORD and settings.ALLOGGIATI_WSKEY)


def client() -> AlloggiatiClient:
    return AlloggiatiClient(user=settings.ALLOGGIATI_USER, password=settings.ALLOGGIATI_PASSWORD, wskey=settings.ALLOGGIATI_WSKEY, url=settings.ALLOGGIATI_URL)


def send_due_registrations(*, now=None) -> int:
    """Send every complete stay arriving today or yesterday (still inside its 24 hours) not yet
    registered; return how many were accepted."""
    if not configured():
        return 0
    now = now or timezone.now()
    today = timezone.localdate(now)
    stays = Reservation.objects.filter(status=Reservation.Status.CONFIRMED, check_in__in=[today - timedelta(days=1), today]).select_related("property")
    return sum(register(stay, now=now) for stay in stays)


def register(reservation: Reservation, *, now=None) -> int:
    now = now or timezone.now()
    found = arrival(reservation)
    if found.missing:
        return 0
    row, _created = PoliceRegistration.objects.get_or_create(reservation=reservation, defaults={"next_attempt_at": now})
    claimed = PoliceRegistration.objects.filter(pk=row.pk, status=PoliceRegistration.Status.PENDING, next_attempt_at__lte=now).update(
        next_attempt_at=now + CLAIM, attempts=F("attempts") + 1
    )
    if not claimed:
        return 0
    row.refresh_from_db()
    numbers = [g.document_number for g in found.check_in.guests.all() if g.document_number] if found.check_in else []
    try:
        outcome = client().register(found.records)
    except ServiceUnreachable as error:
        row.last_error = without_documents(str(error), numbers)[:500]
        if row.attempts >= MAX_ATTEMPTS or now >= deadline(reservation):
            _fail(row, "flag_police_unreachable", {"attempts": row.attempts, "reason": row.last_error})
        else:
            row.next_attempt_at = now + timedelta(minutes=5 * 2 ** (row.attempts - 1))
            row.save(update_fields=["last_error", "next_attempt_at"])
        logger.warning("police registration of %s not sent (attempt %s): %s", reservation.pk, row.attempts, row.last_error)
        return 0
    row.answer, row.records = without_documents(outcome.answer, numbers), len(found.records)
    if not outcome.accepted:
        row.last_error = without_documents(outcome.error, numbers)[:500]
        row.save(update_fields=["answer", "records", "last_error"])
        _fail(row, "flag_police_refused", {"reason": row.last_error})
        return 0
    row.status, row.sent_at, row.last_error = PoliceRegistration.Status.SENT, now, ""
    row.save(update_fields=["status", "sent_at", "last_error", "answer", "records"])
    return 1


def _fail(row: PoliceRegistration, message: str, params: dict) -> None:
    row.status = PoliceRegistration.Status.FAILED
    row.save(update_fields=["status", "last_error"])
    flag_for_staff(row.reservation_id, actor="police registration", message=message, params=params)


def without_documents(value, numbers: list[str]):
    """The service's answer or error as kept and shown to staff: a document number it may quote is
    masked, since the answer outlives the documents and staff may not see them."""
    if isinstance(value, dict):
        return {k: without_documents(v, numbers) for k, v in value.items()}
    if isinstance(value, list):
        return [without_documents(v, numbers) for v in value]
    if isinstance(value, str):
        for number in numbers:
            value = value.replace(number, "<document>")
    return value
