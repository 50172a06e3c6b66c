"""Emails read as each language writes: Italian says "presso <name>" and elides the article before
a day said with a vowel ("dall’8 … all’11"), German and French keep their own prepositions."""

from datetime import date, timedelta

import pytest
from django.conf import settings
from django.core import mail

from booking.formatting import date_range, with_elision
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.dates import future
from tests.payments.conftest import sandbox  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db


def an_eighth_of_a_month() -> date:
    day = future(40)
    while day.day != 8:
        day += timedelta(days=1)
    return day


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("it", "dall’8 feb 2027 all’11 feb 2027"),
        ("de", "8. Feb. 2027 bis 11. Feb. 2027"),
        ("fr", "du 8 févr. 2027 au 11 févr. 2027"),
        ("en", "8 Feb 2027 to 11 Feb 2027"),
    ],
)
def test_a_date_range_reads_as_the_language_writes_it(language, words):
    assert date_range(date(2027, 2, 8), date(2027, 2, 11), language=language) == words


def test_only_italian_days_said_with_a_vowel_are_elided():
    assert with_elision("dal 9 feb al 18 feb", "it") == "dal 9 feb al 18 feb"
    assert with_elision("arrivo il 8 feb, dal 11 al 28", "it") == "arrivo l’8 feb, dall’11 al 28"
    assert with_elision("il 8", "fr") == "il 8"


@pytest.mark.usefixtures("sandbox")
def test_the_italian_confirmation_says_presso_and_dall_8(api, demo_property, django_capture_on_commit_callbacks):
    arrival = an_eighth_of_a_month()
    body = api.post(
        "/api/v1/payments/checkout-link",
        {"check_in": str(arrival), "check_out": str(arrival + timedelta(days=3)), "guests": 2, "success_url": f"{settings.BASE_URL}/it/thank-you"},
    ).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone=""), amount_paid=reservation.total)
    guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
    assert "Il tuo soggiorno presso Attico Santa Croce" in guest.subject
    assert ": dall’8 " in guest.subject and " all’11 " in guest.subject
    assert "dal 8" not in guest.subject and " a Attico" not in guest.body + guest.subject
    assert "presso Attico Santa Croce" in guest.body


def test_a_notice_written_when_queued_is_elided_in_the_readers_language(demo_property):
    """Emails written when queued (date changes, payment links, reminders, owner notices) come from
    many templates: the outbox elides them once, in the guest's language or the back office's."""
    from booking.outbox.models import OutboundEmail
    from booking.outbox.notifications import build_message

    reservation = Reservation.objects.create(
        property=demo_property,
        check_in=date(2027, 2, 8),
        check_out=date(2027, 2, 11),
        guests=2,
        total=500,
        price_breakdown={},
        language="it",
        guest_email="g@example.com",
    )
    guest = OutboundEmail.objects.create(
        reservation=reservation,
        kind=OutboundEmail.Kind.DATES_CHANGED,
        recipient=OutboundEmail.Recipient.GUEST,
        subject="Nuove date dal 8 feb",
        body="Nuove date: dal 8 feb 2027 al 11 feb 2027.",
        to_address="g@example.com",
    )
    assert build_message(guest).body.startswith("Nuove date: dall’8 feb 2027 all’11 feb 2027.")
    assert build_message(guest).subject == "Nuove date dall’8 feb"
    Reservation.objects.filter(pk=reservation.pk).update(language="de")
    guest.refresh_from_db()
    assert build_message(guest).body.startswith("Nuove date: dal 8 feb"), "only Italian elides"
