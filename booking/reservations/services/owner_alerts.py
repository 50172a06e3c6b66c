"""Telling the owner about a problem by email, at most once per problem per day.

Jobs that notice problems (a platform booking overlapping a direct stay, a calendar feed that keeps
failing, a refund the provider refused) run every few minutes; the owner wants one email, not one
per run. Each problem has a stable key (`partner-overlap:<feed>:<uid>:<reservation>`, …); the first
job to claim (key, today) in the outbox's transaction sends the email, every later one that day is a
no-op. The dashboard keeps showing the problem for as long as it lasts.
"""

from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from booking.catalog.models import Property
from booking.outbox.models import OutboundEmail, OwnerAlert
from booking.outbox.notifications import queue_notice


def owner_address() -> str:
    contact = Property.objects.values_list("contact_email", flat=True).first()
    return settings.OWNER_EMAIL or contact or ""


def alert_owner(*, problem: str, subject: str, body: str, now: datetime | None = None) -> OutboundEmail | None:
    """Owe the owner an email about `problem` unless one was already owed today. `subject` and
    `body` are rendered by the caller in the back office's language (use `in_owner_language`)."""
    day = timezone.localdate(now or timezone.now())
    with transaction.atomic():
        try:
            with transaction.atomic():
                OwnerAlert.objects.create(problem=problem[:200], day=day)
        except IntegrityError:
            return None
        return queue_notice(kind=OutboundEmail.Kind.OWNER_ALERT, subject=subject, body=body, to=owner_address())


def in_owner_language() -> translation.override:
    """The owner's emails are written in the site's main language, like the other owner notices."""
    return translation.override(settings.LANGUAGE_CODE)
