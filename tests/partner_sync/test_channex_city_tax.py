"""A platform that collects the city tax itself (Airbnb, in Florence): its stays are listed apart in
the city-tax return and left out of what the host owes."""

from datetime import date, timedelta

import pytest

from booking.italy import reports
from booking.reservations.models import Reservation
from partner_sync.channex import bookings
from tests.dates import future

pytestmark = pytest.mark.django_db


def month_of(day: date) -> tuple[date, date]:
    first = day.replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return first, following - timedelta(days=1)


def test_airbnb_collects_the_city_tax_booking_com_does_not(channex):
    arrival = future(40)
    airbnb = channex.book(arrival=arrival, departure=arrival + timedelta(days=3), ota="ABB", occupancy={"adults": 2, "children": 0, "infants": 0})
    booking_com = channex.book(
        arrival=arrival + timedelta(days=3), departure=arrival + timedelta(days=6), ota="BDC", occupancy={"adults": 2, "children": 0, "infants": 0}
    )
    bookings.drain_feed()
    by_airbnb = Reservation.objects.get(channel_booking_id=airbnb["attributes"]["booking_id"])
    by_booking_com = Reservation.objects.get(channel_booking_id=booking_com["attributes"]["booking_id"])
    assert (by_airbnb.city_tax_collected_by, by_booking_com.city_tax_collected_by) == ("airbnb", "")

    first, last = month_of(arrival)
    owed, total = reports.city_tax_rows(first, last)
    assert by_airbnb.pk not in [stay.pk for stay, _tax in owed]
    text = reports.city_tax_csv(first, last)
    host_part, platform_part = text.split("COLLECTED BY PLATFORM\n")
    if by_booking_com.check_in <= last:
        assert by_booking_com.pk in host_part
    assert by_airbnb.pk not in host_part and by_airbnb.pk in platform_part and "Airbnb" in platform_part
    assert platform_part.rstrip().splitlines()[-1].startswith("PLATFORM TOTAL")
