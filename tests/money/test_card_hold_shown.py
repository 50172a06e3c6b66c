"""The refundable security deposit (demo: 300 EUR) is shown wherever the price is, as a card hold
with its dates, never inside the total: the booking page's breakdown (drawn by booking.js from the
quote and the page's texts) in each language, the thank-you page, the confirmation email and
find_stays."""

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.core import mail

from booking.reservations.models import Reservation
from pages.booking_text import PHRASES
from tests.dates import future
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db
PHRASE = "Refundable security deposit (card hold): {amount}, not part of the total."


def config_of(page) -> dict:
    found = re.search(r'<script id="booking-config" type="application/json">(.*?)</script>', page.content.decode(), re.S)
    assert found is not None
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("prefix", "words"),
    [
        ("", "Refundable security deposit (card hold): {amount}, not part of the total."),
        ("/it", "Deposito cauzionale rimborsabile (blocco sulla carta): {amount}, non incluso nel totale."),
        ("/de", "Erstattungsfähige Kaution (Reservierung auf der Karte): {amount}, nicht im Gesamtbetrag enthalten."),
        ("/fr", "Caution remboursable (blocage sur la carte) : {amount}, non comprise dans le total."),
    ],
)
@pytest.mark.parametrize("path", ["/book", "/availability"])
def test_the_booking_widget_says_the_card_hold_and_its_dates_in_each_language(client, demo_property, prefix, words, path):
    config = config_of(client.get(prefix + path))
    assert config["securityDeposit"] == {"daysBefore": 1, "releaseDays": 3}
    [phrase] = [p for p in PHRASES if p.startswith(PHRASE)]
    assert phrase in Path("static/js/booking.js").read_text()  # the script writes it with the quote's amount and dates
    text = config["text"].get(phrase, phrase)  # English is the phrase itself
    assert text.startswith(words) and "{placed}" in text and "{released}" in text


def test_the_quote_carries_it_apart_from_the_total(api, demo_property):
    body = api.post("/api/v1/quote", stay(offset=20, nights=3, guests=2)).json()
    assert body["security_deposit"]["amount"] == 300 and body["security_deposit"]["kind"] == "card_hold"
    assert Decimal(str(body["total"])) == sum(Decimal(str(entry["amount"])) for entry in body["payment_schedule"])  # not in it


def test_find_stays_says_it_once(api, demo_property):
    body = api.get("/api/v1/stays", nights=3, guests=2, start=str(future(20)), end=str(future(40))).json()
    assert body["security_deposit"]["amount"] == 300 and body["security_deposit"]["refundable"] is True


def test_thank_you_and_confirmation_email_say_it(api, client, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
    body = api.post("/api/v1/payments/checkout-link", stay(offset=20, nights=3, guests=2)).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        webhook(stripe_event("checkout.session.completed", session))
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    page = client.get(f"/thank-you?reservation_id={reservation.pk}&session_id={session['id']}").content.decode()
    assert "data-security-deposit" in page and "card hold" in page
    [email] = [m for m in mail.outbox if m.to == ["guest@example.com"] and "confirmed" in m.subject]
    assert "Refundable security deposit (card hold): 300.00 EUR" in email.body
    html = email.alternatives[0][0]
    assert "data-security-deposit" in html and "card hold" in html
