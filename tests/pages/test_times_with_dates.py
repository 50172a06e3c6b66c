"""A time is said with its date when the date is not today, in the reader's language (booking/
formatting.py time_with_date): "until 15:22" today, "until 15:22 on 28 Nov" another day, "bis 15:22
Uhr am 28. Nov.", "fino alle 15:22 del 28 nov", "jusqu’à 15:22 le 28 nov.": on /book's holds, in the
hold reminder, in the owner's payment-link email and on the sandbox checkout page."""

import re
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from booking.formatting import time_with_date
from booking.payments.services.owner_bookings import payment_link_context
from booking.reservations.models import Reservation
from booking.reservations.services.hold_reminders import reminder_email
from booking.reservations.services.holds import GuestDetails, hold_stay
from tests.dates import future, property_time_zone

MORNING = datetime(2027, 11, 27, 9, 0)  # a Saturday morning in Florence


def local(day_offset: int, hour: int, minute: int) -> datetime:
    return datetime.combine(MORNING.date() + timedelta(days=day_offset), datetime.min.time()).replace(hour=hour, minute=minute, tzinfo=property_time_zone())


@pytest.fixture
def frozen(time_machine):
    time_machine.move_to(MORNING.replace(tzinfo=property_time_zone()), tick=False)


@pytest.mark.parametrize(
    ("language", "today", "tomorrow", "on_the_8th", "next_year"),
    [
        ("en", "15:22", "15:22 on 28 Nov", "15:22 on 8 Dec", "15:22 on 3 Jan 2028"),
        ("it", "15:22", "15:22 del 28 nov", "15:22 dell’8 dic", "15:22 del 3 gen 2028"),
        ("de", "15:22 Uhr", "15:22 Uhr am 28. Nov.", "15:22 Uhr am 8. Dez.", "15:22 Uhr am 3. Jan. 2028"),
        ("fr", "15:22", "15:22 le 28 nov.", "15:22 le 8 déc.", "15:22 le 3 janv. 2028"),
    ],
)
def test_a_time_is_said_with_its_date_unless_it_is_today(frozen, language, today, tomorrow, on_the_8th, next_year):
    assert time_with_date(local(0, 15, 22), language) == today
    assert time_with_date(local(1, 15, 22), language) == tomorrow
    assert time_with_date(local(11, 15, 22), language) == on_the_8th
    assert time_with_date(local(37, 15, 22), language) == next_year


def test_the_zone_is_named_when_asked(frozen):
    assert time_with_date(local(1, 15, 22), "en", zone=True) == "15:22 CET on 28 Nov"


def others_notice(html: str) -> str:
    found = re.search(r"<div class=\"notice notice-info\" data-other-holds>(.*?)</div>", html, flags=re.S)
    return " ".join(found.group(1).split()) if found else ""


@pytest.mark.django_db
def test_book_in_german_says_until_when_another_guests_hold_lasts(frozen, demo_property):
    hold = hold_stay(check_in=future(40), check_out=future(43), guests=2)
    Reservation.objects.filter(pk=hold.pk).update(hold_expires_at=local(0, 15, 22))
    assert "bis 15:22 Uhr für einen anderen Gast reserviert" in others_notice(Client().get("/de/book").content.decode())


@pytest.mark.django_db
def test_book_in_german_names_the_day_of_a_hold_lasting_past_today(frozen, demo_property):
    hold = hold_stay(check_in=future(40), check_out=future(43), guests=2)
    Reservation.objects.filter(pk=hold.pk).update(hold_expires_at=local(1, 15, 22))
    page = Client().get("/de/book").content.decode()
    assert "bis 15:22 Uhr am 28. Nov. für einen anderen Gast reserviert" in others_notice(page)
    assert '"until": "15:22 Uhr am 28. Nov."' in page  # what the calendar's day tips say


@pytest.mark.django_db
def test_the_hold_reminder_in_italian_names_the_day(frozen, demo_property):
    hold = hold_stay(check_in=future(40), check_out=future(43), guests=2, language="it")
    Reservation.objects.filter(pk=hold.pk).update(hold_expires_at=local(1, 15, 22))
    hold.refresh_from_db()
    assert "fino alle 15:22 del 28 nov." in reminder_email(hold, timezone.now())["body"]


@pytest.mark.django_db
def test_the_owners_payment_link_email_in_french_names_the_day_and_zone(frozen, demo_property):
    hold = hold_stay(check_in=future(40), check_out=future(43), guests=2, language="fr", guest=GuestDetails("Anne", "Roux", "a@example.com", ""))
    Reservation.objects.filter(pk=hold.pk).update(hold_expires_at=local(1, 15, 22))
    hold.refresh_from_db()
    with translation.override("fr"):
        assert payment_link_context(hold)["expires"] == "15:22 CET le 28 nov."


@pytest.mark.django_db
def test_the_sandbox_page_says_until_when_it_is_open_with_the_day(frozen, client, demo_property, settings):
    settings.STRIPE_SECRET_KEY = ""
    hold = hold_stay(check_in=future(40), check_out=future(43), guests=2, language="de")
    opened = client.get(f"/pay/{hold.pk}")
    assert opened.status_code == 303
    from booking.payments.models import SandboxCheckout

    checkout = SandboxCheckout.objects.get(reservation=hold)
    SandboxCheckout.objects.filter(pk=checkout.pk).update(expires_at=local(1, 15, 22))
    Reservation.objects.filter(pk=hold.pk).update(hold_expires_at=local(1, 15, 22))
    html = client.get(opened["Location"]).content.decode()
    assert "Geöffnet bis 15:22 Uhr CET am 28. Nov." in html
