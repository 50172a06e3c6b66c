"""A platform that collects the city tax itself (Airbnb, in Florence): which platforms do is the
property's Italian setting, edited by the owner; each channel booking is marked when it arrives and
keeps its mark; its stay is listed apart in the city-tax return and left out of what the host owes."""

import re
from datetime import date, timedelta

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User

from booking.italy import reports
from booking.italy.models import ItalySettings
from booking.reservations.models import Reservation
from partner_sync.channex import bookings
from tests.dates import future

pytestmark = pytest.mark.django_db
TWO_ADULTS = {"adults": 2, "children": 0, "infants": 0}


def month_of(day: date) -> tuple[date, date]:
    first = day.replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return first, following - timedelta(days=1)


def received(channex, revision: dict) -> Reservation:
    bookings.drain_feed()
    return Reservation.objects.get(channel_booking_id=revision["attributes"]["booking_id"])


def test_in_the_demo_airbnb_collects_the_city_tax_booking_com_does_not(channex):
    arrival = future(40)
    by_airbnb = received(channex, channex.book(arrival=arrival, departure=arrival + timedelta(days=3), ota="ABB", occupancy=TWO_ADULTS))
    by_booking_com = received(
        channex, channex.book(arrival=arrival + timedelta(days=3), departure=arrival + timedelta(days=6), ota="BDC", occupancy=TWO_ADULTS)
    )
    assert (by_airbnb.city_tax_collected_by, by_booking_com.city_tax_collected_by) == ("airbnb", "host")

    first, last = month_of(arrival)
    owed, _total = reports.city_tax_rows(first, last)
    assert by_airbnb.pk not in [stay.pk for stay, _tax in owed]
    host_part, platform_part = reports.city_tax_csv(first, last).split(reports.PLATFORM_SECTION + "\n")
    if by_booking_com.check_in <= last:
        assert f"\n{by_booking_com.pk}," in host_part
    assert by_airbnb.pk not in host_part and f"\nairbnb,{by_airbnb.pk}," in platform_part
    assert platform_part.rstrip().splitlines()[-1].startswith(reports.PLATFORM_TOTAL)


def edit_italian_settings(client, prop, **changes) -> None:
    """The owner saves the Italian settings page with these fields changed, the rest as shown."""
    client.force_login(User.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    url = f"/admin/italy/italysettings/{ItalySettings.for_property(prop).pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is not None and not (isinstance(value, bool) and not value):
            data[name] = value
    data.update(changes)
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.context["adminform"].form.errors if answer.context else answer


def test_the_owners_setting_decides_for_new_bookings_and_an_earlier_booking_keeps_its_collector(channex, client, demo_property):
    arrival = future(60)
    before = channex.book(arrival=arrival, departure=arrival + timedelta(days=2), ota="ABB", occupancy=TWO_ADULTS)
    assert received(channex, before).city_tax_collected_by == "airbnb"

    # Airbnb no longer collects here, Booking.com now does.
    edit_italian_settings(client, demo_property, city_tax_collecting_channels=["booking_com"])
    assert ItalySettings.objects.get(property=demo_property).city_tax_collecting_channels == ["booking_com"]

    new_airbnb = received(channex, channex.book(arrival=arrival + timedelta(days=4), departure=arrival + timedelta(days=6), ota="ABB", occupancy=TWO_ADULTS))
    new_booking_com = received(
        channex, channex.book(arrival=arrival + timedelta(days=8), departure=arrival + timedelta(days=10), ota="BDC", occupancy=TWO_ADULTS)
    )
    assert (new_airbnb.city_tax_collected_by, new_booking_com.city_tax_collected_by) == ("host", "booking_com")
    # The guest of the earlier booking paid Airbnb: a change of its dates keeps it so.
    changed = received(channex, channex.modify(before, departure=arrival + timedelta(days=3)))
    assert changed.check_out == arrival + timedelta(days=3) and changed.city_tax_collected_by == "airbnb"

    page = client.get(f"/admin/reservations/reservation/{quote(new_booking_com.pk)}/change/").content.decode()
    assert re.search(r"City tax collected by.*?Booking\.com", page, re.S)
    page = client.get(f"/admin/reservations/reservation/{quote(new_airbnb.pk)}/change/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert re.search(r"Tassa di soggiorno riscossa da.*?Gestore", page, re.S)
