"""The balance job charges the saved card while the guest pays the balance's page: both payments
are recorded, and what exceeds the total goes back at once (one refund, on the job's charge)."""

from decimal import Decimal

import pytest

from booking.payments.models import ProviderRefund
from booking.payments.services import balance_charges, balances
from booking.payments.services.balance_charges import charge_due_balances
from booking.reservations.services.locking import reservation_transaction
from tests.money.test_balance_job import book_with_deposit, due_date, on

pytestmark = pytest.mark.django_db


def test_a_balance_paid_on_the_page_during_the_job_charge_is_refunded_once(api, demo_property, fake_stripe, webhook, monkeypatch):
    reservation = book_with_deposit(api, fake_stripe, webhook)
    balance = reservation.total - reservation.amount_paid
    real_saved_cards = balance_charges.saved_cards

    class PageWinsTheRace:
        def __init__(self, provider):
            self.cards = real_saved_cards(provider)

        def __getattr__(self, name):
            return getattr(self.cards, name)

        def charge(self, **request):
            answer = self.cards.charge(**request)
            with reservation_transaction(reservation.pk) as locked:  # the page's webhook, meanwhile
                balances.record_balance(
                    locked, amount=balance, provider="stripe", payment_intent_id="pi_the_page", customer_id="", payment_method_id="", actor="stripe webhook"
                )
            return answer

    monkeypatch.setattr(balance_charges, "saved_cards", PageWinsTheRace)
    with on(due_date(reservation)):
        assert charge_due_balances() == {"charged": 1}
    reservation.refresh_from_db()
    assert reservation.amount_paid == reservation.total + balance, "both payments are on record"
    [refund] = ProviderRefund.objects.filter(reservation=reservation)
    assert refund.status == "succeeded" and refund.amount == balance and refund.payment_intent_id != "pi_the_page"
    assert reservation.amount_paid - reservation.amount_refunded == reservation.total
    assert [r["amount"] for r in fake_stripe.refunds] == [int(balance * 100)]
    assert Decimal(str(api.get(f"/api/v1/reservations/{reservation.pk}").json()["payment"]["balance_due"])) == 0
