"""The arrival email: N days before check-in (the owner's `pre_arrival_days`, demo 3) every
confirmed stay gets the owner's check-in instructions once. Run hourly by beat."""

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from booking.catalog.models import Property
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_emails
from booking.reservations.models import Reservation


def queue_pre_arrival_emails(*, today: date | None = None) -> int:
    """Queue the arrival email of each confirmed stay whose day has come; return how many."""
    today = today or timezone.localdate()
    queued = 0
    for prop in Property.objects.all():
        due = Reservation.objects.filter(
            property=prop,
            status=Reservation.Status.CONFIRMED,
            pre_arrival_sent_at__isnull=True,
            check_in__gte=today,
            check_in__lte=today + timedelta(days=prop.pre_arrival_days),
        ).select_related("property")
        for reservation in due:
            with transaction.atomic():
                # The conditional update makes "once" hold even with two beat runs overlapping.
                if Reservation.objects.filter(pk=reservation.pk, pre_arrival_sent_at__isnull=True).update(pre_arrival_sent_at=timezone.now()):
                    queue_emails(reservation, OutboundEmail.Kind.PRE_ARRIVAL)
                    queued += 1
    return queued
