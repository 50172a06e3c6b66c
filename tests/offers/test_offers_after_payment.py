"""After the payment: the guest's email and manage page list the extras in the booking's language,
the owner's note names the code and the extras, and a cancellation refunds extras like the stay."""

from html import unescape

import pytest
from django.core import mail

from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.dates import future

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid_with_offers(demo_property, django_capture_on_commit_callbacks):
    held = hold_stay(
        check_in=future(20),
        check_out=future(23),
        guests=2,
        language="it",
        promo_code="WELCOME10",
        extras=[{"code": "baby_cot", "quantity": 1}, {"code": "airport_transfer", "quantity": 2}],
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(held.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone="+39 1"), amount_paid=held.total)
    return Reservation.objects.get(pk=held.pk)


def test_the_guest_email_lists_the_extras_in_the_booking_language(paid_with_offers, demo_property):
    guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
    [(html, _)] = guest.alternatives
    for body in (guest.body, unescape(html)):
        assert "Culla" in body and "Transfer dall'aeroporto × 2" in body and "Codice promozionale" in body
        assert "120,00" in body  # two transfers at 60 EUR
    owner = next(m for m in mail.outbox if m.to == [demo_property.contact_email])
    assert "Promo code:  WELCOME10" in owner.body and "Extras:" in owner.body


def test_the_manage_page_lists_the_extras(paid_with_offers, client):
    html = client.get(f"/it/manage/{paid_with_offers.manage_token}").content.decode()
    assert "Culla" in html and "Transfer dall&#x27;aeroporto × 2" in html
    assert paid_with_offers.price_breakdown["extras_total"] == 120.0


def test_a_cancellation_refunds_the_extras_like_the_accommodation(paid_with_offers, settings):
    from decimal import Decimal

    from booking.catalog.pricing import money
    from booking.payments.services.cancellation import cancel_by_guest

    settings.STRIPE_SECRET_KEY = ""  # the sandbox provider refunds at once
    cancelled = cancel_by_guest(paid_with_offers.manage_token)  # 20 days ahead: the demo's 50 % tier
    assert cancelled.status == Reservation.Status.CANCELLED
    paid, city_tax = paid_with_offers.amount_paid, money(Decimal(str(paid_with_offers.price_breakdown["city_tax"])))
    # The city tax back in full; the rest, extras included, by the tier like the accommodation.
    assert cancelled.amount_refunded + cancelled.refund_pending == city_tax + money((paid - city_tax) / 2)
