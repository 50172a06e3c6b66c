"""The stay's .ics (the manage page's download and the confirmation's attachment) in the guest's
language, its link to the manage page keeping the language's prefix."""

import pytest
from django.conf import settings
from django.core import mail
from icalendar import Calendar

from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.payments.conftest import sandbox, stay  # noqa: F401 - sandbox is a fixture

pytestmark = pytest.mark.django_db

WORDS = {
    "it": ("Soggiorno presso Attico Santa Croce — Attico a Firenze", "Check-in dalle 15:00 alle 21:00", "2 ospiti. Prenotazione"),
    "de": ("Aufenthalt im Attico Santa Croce — Penthouse in Florenz", "Check-in von 15:00 bis 21:00 Uhr", "2 Gäste. Buchung"),
    "fr": ("Séjour à Attico Santa Croce — Penthouse à Florence", "Arrivée de 15:00 à 21:00", "2 voyageurs. Réservation"),
    "en": ("Stay at Attico Santa Croce — Penthouse in Florence", "Check-in from 15:00 to 21:00", "2 guests. Reservation"),
}


def the_event(ics: bytes):
    [event] = Calendar.from_ical(ics).walk("VEVENT")
    return event


def assert_in_language(event, language: str, reservation: Reservation) -> None:
    summary, check_in, guests = WORDS[language]
    prefix = "" if language == "en" else f"/{language}"
    assert str(event["summary"]) == summary
    assert check_in in str(event["description"]) and guests in str(event["description"])
    assert str(event["url"]) == f"{settings.BASE_URL}{prefix}/manage/{reservation.manage_token}"
    assert event["summary"].params.get("LANGUAGE") == language


@pytest.mark.usefixtures("sandbox")
@pytest.mark.parametrize("language", ["it", "de", "fr", "en"])
def test_the_confirmation_attachment_and_the_download_speak_the_guests_language(client, api, site, language, django_capture_on_commit_callbacks):
    prefix = "" if language == "en" else f"/{language}"
    body = api.post("/api/v1/payments/checkout-link", stay(offset=50, nights=3, guests=2, success_url=f"{settings.BASE_URL}{prefix}/thank-you")).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone=""), amount_paid=reservation.total)
    reservation.refresh_from_db()
    guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
    [(_name, attachment, _mimetype)] = [a for a in guest.attachments if a[0] == "stay.ics"]
    assert_in_language(the_event(attachment if isinstance(attachment, bytes) else attachment.encode()), language, reservation)

    download = client.get(f"{prefix}/manage/{reservation.manage_token}/stay.ics")
    assert download.status_code == 200
    assert_in_language(the_event(download.content), language, reservation)
