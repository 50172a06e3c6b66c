"""Giving a new reservation its booking number (booking/reservations/booking_numbers.py).

The next number of a year is the highest given that year plus one, read and inserted inside the
creating transaction. The creators (holds.hold_stay, channel_bookings) already hold their
property's calendar lock, which serialises them; the unique (year, sequence) constraint is the
backstop for whatever is not serialised by it (two properties, a path without the lock): the
loser's insert fails inside its own savepoint and is retried with the next number. On PostgreSQL
the loser waits for the winner's commit before its insert fails, so the retry reads the winner's
number and takes the one after.
"""

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Subquery
from django.utils import timezone, translation

from booking.catalog.models import Property
from booking.reservations.booking_numbers import format_booking_number, prefix_from_city
from booking.reservations.models import Reservation

ATTEMPTS = 10


def save_with_number(reservation: Reservation) -> Reservation:
    """Insert `reservation` (not yet saved) with the next booking number of the year it is made in.

    An IntegrityError that is not about the number (the PostgreSQL exclusion constraint on
    overlapping stays, a duplicate channel booking) is raised as it was, for the caller to read."""
    year = timezone.localdate(reservation.created_at).year
    for attempt in range(ATTEMPTS):
        prefix, last = _prefix_and_last_number(reservation.property_id, year)
        sequence = last + 1
        reservation.number_year, reservation.number_sequence = year, sequence
        reservation.booking_number = format_booking_number(prefix, year, sequence)
        try:
            with transaction.atomic():
                reservation.save(force_insert=True)
            return reservation
        except IntegrityError:
            taken = Reservation.objects.filter(number_year=year, number_sequence=sequence).exists()
            if not taken or attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _prefix_and_last_number(property_id: int, year: int) -> tuple[str, int]:
    """The property's prefix and the year's last number, in one query (the hold path's queries are
    counted: tests/booking/test_no_double_booking.py)."""
    last = Reservation.objects.filter(number_year=year).order_by("-number_sequence").values("number_sequence")[:1]
    # The city is translated ("Firenze", "Florenz"): the prefix is made from the owner's own language,
    # whatever the language of the guest who books, so every booking of a property has one prefix.
    with translation.override(settings.LANGUAGE_CODE):
        prefix, city, sequence = Property.objects.filter(pk=property_id).values_list("booking_number_prefix", "city", Subquery(last)).get()
    return prefix or prefix_from_city(city), sequence or 0
