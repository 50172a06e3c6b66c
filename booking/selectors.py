"""Reads of the calendar: which nights are taken, and the property being sold."""

from datetime import date

from django.db.models import Q
from django.utils import timezone

from booking.errors import NotFound
from booking.models import DateBlock, Property, Reservation


def get_property() -> Property:
    """The property this service sells (the first one; the schema allows more)."""
    prop = Property.objects.order_by("pk").first()
    if prop is None:
        raise NotFound("No property is configured yet: run `manage.py load_demo` or add one in the admin.")
    return prop


def today() -> date:
    """Today in the property's time zone (settings.TIME_ZONE): stays are plain local dates."""
    return timezone.localdate()


def blocking_reservations(prop: Property, start: date, end: date, now=None):
    """Reservations taking any night in [start, end): confirmed, or held and not yet expired.

    A hold past hold_expires_at never blocks, whether or not the expiry job has run.
    """
    now = now or timezone.now()
    return Reservation.objects.filter(
        Q(status=Reservation.Status.CONFIRMED) | Q(status=Reservation.Status.HELD, hold_expires_at__gt=now),
        property=prop,
        check_in__lt=end,
        check_out__gt=start,
    )


def blocks_between(prop: Property, start: date, end: date):
    return DateBlock.objects.filter(property=prop, start__lt=end, end__gt=start)


def taken_ranges(prop: Property, start: date, end: date, now=None) -> list[tuple[date, date]]:
    """Half-open [start, end) ranges of every stay or block overlapping [start, end). Two queries."""
    ranges = list(blocking_reservations(prop, start, end, now).values_list("check_in", "check_out"))
    ranges += list(blocks_between(prop, start, end).values_list("start", "end"))
    return ranges
