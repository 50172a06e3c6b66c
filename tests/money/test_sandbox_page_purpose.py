"""The sandbox checkout page says what its checkout does: a booking holds the dates until it closes;
a security deposit's authorisation only holds an amount on the card; a balance pays what is left of
a confirmed stay. In the guest's language."""

from datetime import timedelta

import pytest

from booking.reservations.models import Reservation
from tests.money.test_balance_job import DAYS_AHEAD
from tests.money.test_deposit_authorisation import on, refused_hold, start
from tests.payments.conftest import stay

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"
PAYER = {"action": "pay", "email": "ada@example.com", "name": "Ada L", "phone": "+39 055 1234567"}
DATES_HELD = "Your dates are held until then."
CARD_HOLD = "The amount is only held on your card, not charged"
BALANCE = "This pays the balance of your confirmed stay."


def path(url: str) -> str:
    return url.replace("http://testserver", "")


def booked(api, client, *, offset: int, card: str = "4242 4242 4242 4242") -> Reservation:
    body = api.post(LINK, stay(offset=offset)).json()
    page = client.get(path(body["checkout_url"])).content.decode()
    assert DATES_HELD in page and CARD_HOLD not in page and BALANCE not in page
    assert client.post(path(body["checkout_url"]), {**PAYER, "card_number": card}).status_code == 303
    return Reservation.objects.get(pk=body["reservation_id"])


def test_a_deposit_authorisation_says_it_holds_the_amount_on_the_card(api, client, demo_property, sandbox):
    reservation = booked(api, client, offset=20, card="4000 0000 0000 0341")
    with on(reservation.check_in - timedelta(days=1)):
        refused_hold(reservation)
        page = client.get(path(start(client, reservation))).content.decode()
        assert CARD_HOLD in page and DATES_HELD not in page and BALANCE not in page


def test_a_balance_checkout_says_it_pays_the_balance_in_the_guests_language(api, client, demo_property, sandbox):
    reservation = booked(api, client, offset=DAYS_AHEAD)
    assert reservation.amount_paid < reservation.total
    response = client.post(f"/manage/{reservation.manage_token}/pay-balance")
    assert response.status_code == 303
    page = client.get(path(response["Location"])).content.decode()
    assert BALANCE in page and DATES_HELD not in page and CARD_HOLD not in page
    Reservation.objects.filter(pk=reservation.pk).update(language="de")
    page = client.get(path(response["Location"])).content.decode()
    assert "Hiermit zahlen Sie den Restbetrag Ihres bestätigten Aufenthalts." in page
