"""The back office's reservation page adds up (DESIGN "Finishing what a guest and an owner see"):
every line with the extras and the total, what was paid, refunded and is still due and when, the
security deposit's and the check-in's state; "hold expires" only on a hold; the language by its
name; provider ids and the client's address below, under "Technical details"."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.urls import reverse
from django.utils.dateformat import format as date_format

from booking.catalog.payment_schedule import DEFERRED
from booking.reservations.models import Reservation
from tests.payments.conftest import stay

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"
PAYER = {"action": "pay", "email": "greta@example.com", "name": "Greta Weber", "phone": "+49 30 1234567"}
OFFERS = {"guests": 2, "promo_code": "WELCOME10", "extras": [{"code": "airport_transfer", "quantity": 1}]}


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def amounts(text: str) -> list[Decimal]:
    return [Decimal(value.replace(",", "")) for value in re.findall(r"(-?[\d,]+\.\d\d) EUR", text)]


@pytest.fixture
def booked(api, client, demo_property, sandbox):
    body = api.post(LINK, stay(offset=90, **OFFERS)).json()
    Reservation.objects.filter(pk=body["reservation_id"]).update(language="it")
    assert client.post(body["checkout_url"].replace("http://testserver", ""), PAYER).status_code == 303
    return Reservation.objects.get(pk=body["reservation_id"])


def page(admin_client, reservation) -> str:
    response = admin_client.get(reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_lists_the_extra_and_the_balance_due_with_its_date(admin_client, booked):
    html = page(admin_client, booked)
    start = html.index("field-breakdown_table")
    price = text_of(html[start : html.index("</table>", start)])
    lines = price[price.index("Accommodation") :]
    assert "Airport transfer 60.00 EUR" in lines and "Promo code" in lines
    *parts, total = amounts(lines)
    assert sum(parts) == total == booked.total
    balance = next(entry for entry in booked.payment_schedule if entry["type"] == DEFERRED)
    when = date_format(date.fromisoformat(balance["due_date"]), "d M Y")
    money = text_of(html[html.index('class="stay-money"') :])
    owed = booked.total - booked.amount_paid
    assert f"Paid {booked.amount_paid:,.2f} EUR" in money
    assert f"Still due {owed:,.2f} EUR (due on {when})" in money
    shown = text_of(html)
    assert "not held yet (placed on the card shortly before arrival)" in shown
    assert re.search(r"online check-in:\s+not started", shown, re.I)
    assert "Italian" in shown and 'readonly">it<' not in html


def test_a_confirmed_stay_has_no_hold_expiry_and_its_provider_ids_are_folded_below(admin_client, booked):
    html = page(admin_client, booked)
    assert "hold expires" not in text_of(html).lower()
    technical = html.index("Technical details")
    assert technical > html.index('class="stay-money"')
    assert html.index(booked.checkout_session_id) > technical
    fieldset = html[html.rindex("<fieldset", 0, technical) : technical]
    assert "collapse" in fieldset


def test_a_hold_shows_when_it_expires(admin_client, api, demo_property, sandbox):
    body = api.post(LINK, stay(offset=60)).json()
    held = Reservation.objects.get(pk=body["reservation_id"])
    assert "hold expires" in text_of(page(admin_client, held)).lower()
