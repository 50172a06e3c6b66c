"""A payment refunded because it could not be taken (a second payment of the balance) closes its
checkout: the reconciliation job, which asks the provider about checkouts whose outcome was never
recorded, must not apply it a second time."""

from datetime import timedelta

import pytest

from booking.outbox.models import OutboundEmail
from booking.payments.models import GuestCheckout
from booking.payments.services.balance_charges import charge_due_balances
from booking.payments.services.checkouts import reconcile_open_checkouts
from booking.reservations.models import Reservation, ReservationEvent
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"


def test_a_second_balance_payment_refunded_by_its_webhook_is_not_replayed_by_the_reconciliation_job(api, client, demo_property, fake_stripe, webhook):
    """The guest opens the balance's page, the balance job charges the saved card meanwhile, then the
    guest pays the page too: that second payment is refunded when its webhook arrives, and its
    checkout is settled then, so the reconciliation job does not apply it again (a second "payment
    refunded" email to the owner, a second line in the history)."""
    body = api.post(LINK, stay(offset=90, nights=3, guests=2)).json()  # a deposit now, the balance later
    webhook(stripe_event("checkout.session.completed", fake_stripe.complete(body["session_id"], email="guest@example.com")))
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    page = client.post(f"/manage/{reservation.manage_token}/pay-balance")["Location"].rsplit("/", 1)[-1]
    assert charge_due_balances(as_of=reservation.check_in - timedelta(days=30)) == {"charged": 1}
    outcome = webhook(stripe_event("checkout.session.completed", fake_stripe.complete(page))).json()["outcome"]
    assert outcome.startswith("refunded"), outcome
    notices = OutboundEmail.objects.filter(kind=OutboundEmail.Kind.REFUNDED_PAYMENT).count()
    history = ReservationEvent.objects.filter(reservation=reservation).count()

    assert reconcile_open_checkouts() == 0
    assert OutboundEmail.objects.filter(kind=OutboundEmail.Kind.REFUNDED_PAYMENT).count() == notices == 1
    assert ReservationEvent.objects.filter(reservation=reservation).count() == history
    assert GuestCheckout.objects.filter(reservation=reservation, settled_at=None).count() == 0


def test_the_same_second_payment_reconciled_first_then_its_late_webhook_is_refunded_and_told_once(api, client, demo_property, fake_stripe, webhook):
    """The other order: the webhook is late, the reconciliation job finds the paid page first and
    refunds it; the webhook's retry then answers with that refund, and the owner hears of it once."""
    body = api.post(LINK, stay(offset=90, nights=3, guests=2)).json()
    webhook(stripe_event("checkout.session.completed", fake_stripe.complete(body["session_id"], email="guest@example.com")))
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    page = client.post(f"/manage/{reservation.manage_token}/pay-balance")["Location"].rsplit("/", 1)[-1]
    assert charge_due_balances(as_of=reservation.check_in - timedelta(days=30)) == {"charged": 1}
    session = fake_stripe.complete(page)  # paid; its webhook is late
    assert reconcile_open_checkouts() == 1
    history = ReservationEvent.objects.filter(reservation=reservation).count()

    outcome = webhook(stripe_event("checkout.session.completed", session)).json()["outcome"]
    assert outcome == "duplicate: this payment was already refunded"
    assert OutboundEmail.objects.filter(kind=OutboundEmail.Kind.REFUNDED_PAYMENT).count() == 1
    assert ReservationEvent.objects.filter(reservation=reservation).count() == history
    assert [r["amount"] for r in fake_stripe.refunds if r["payment_intent"] == session["payment_intent"]] == [session["amount_total"]]
