"""Money that arrives for a stay that is no longer confirmed is given back whole at once, recorded
once by its provider id, and the stay is flagged for staff (DESIGN "Reliability, fourth round"):
the balance job's charge answered after the guest cancelled, and the balance page paid after the
stay was cancelled. Demo terms: 30 % deposit, balance 30 days before check-in; booked 90 days
ahead, the guest cancels on the balance's due date (the full-refund tier)."""

import threading
from decimal import Decimal

import pytest
from django.db import connection

from booking.payments.models import GuestCheckout, Payment, ProviderRefund
from booking.payments.services import balance_charges, refunds
from booking.payments.services.balance_charges import charge_balance, charge_due_balances
from booking.payments.services.cancellation import cancel_by_guest, cancel_stay
from booking.reservations.models import Reservation
from booking.reservations.services.locking import reservation_transaction
from tests.attention import attention
from tests.conftest import is_postgresql
from tests.money.test_balance_job import book_with_deposit, due_date, on
from tests.payments.conftest import stripe_event


def assert_everything_given_back(reservation: Reservation, fake_stripe, *, returned_intent: str) -> None:
    reservation.refresh_from_db()
    assert reservation.status == "cancelled"
    assert reservation.amount_paid == reservation.total, "the balance is on record as paid"
    assert reservation.amount_refunded == reservation.amount_paid, "and as given back: the guest is out nothing"
    assert reservation.refund_pending == 0
    assert sum(refund["amount"] for refund in fake_stripe.refunds) == int(reservation.total * 100)
    [returned] = ProviderRefund.objects.filter(reservation=reservation, kind="returned")
    assert (returned.status, returned.payment_intent_id) == ("succeeded", returned_intent)
    assert Payment.objects.filter(reservation=reservation, provider_id=returned_intent).count() == 1
    assert attention(reservation).startswith("Payment of"), "flagged for staff"


@pytest.mark.django_db
class TestTheBalanceChargeAnsweredAfterTheCancel:
    def test_the_charge_is_given_back_whole_and_the_stay_flagged(
        self, api, demo_property, fake_stripe, webhook, monkeypatch, django_capture_on_commit_callbacks
    ):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        real_saved_cards = balance_charges.saved_cards

        class GuestCancelsWhileTheChargeIsOut:
            def __init__(self, provider):
                self.cards = real_saved_cards(provider)

            def __getattr__(self, name):
                return getattr(self.cards, name)

            def charge(self, **request):
                cancel_by_guest(reservation.manage_token)  # the guest, meanwhile, on the manage page
                return self.cards.charge(**request)

        monkeypatch.setattr(balance_charges, "saved_cards", GuestCancelsWhileTheChargeIsOut)
        with on(due_date(reservation)), django_capture_on_commit_callbacks(execute=True):
            assert charge_due_balances() == {"given_back": 1}
            assert charge_due_balances() == {}, "nothing more is charged or given back"
        [charge] = [intent for intent in fake_stripe.payment_intents.values() if intent.get("metadata", {}).get("purpose") == "balance"]
        assert_everything_given_back(reservation, fake_stripe, returned_intent=charge["id"])

    def test_the_same_answer_recorded_again_gives_back_nothing_more(self, api, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        cancel_stay(reservation.pk, actor="staff test", refund=Decimal("0"))
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(2):  # a second worker, or the job after a crash, reports the same charge
                with reservation_transaction(reservation.pk) as locked:
                    balance_charges.record_balance(
                        locked,
                        amount=Decimal("100.00"),
                        provider="stripe",
                        payment_intent_id="pi_late",
                        customer_id="",
                        payment_method_id="",
                        actor="balance job",
                    )
        returned = ProviderRefund.objects.filter(reservation=reservation, kind="returned")
        assert [(r.payment_intent_id, r.amount) for r in returned] == [("pi_late", Decimal("100.00"))]
        assert Reservation.objects.get(pk=reservation.pk).amount_paid == reservation.amount_paid + Decimal("100.00")

    def test_a_refused_give_back_is_flagged_and_left_for_the_refund_page(self, api, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        cancel_stay(reservation.pk, actor="staff test", refund=Decimal("0"))
        fake_stripe.fail_with = 500
        with django_capture_on_commit_callbacks(execute=True), reservation_transaction(reservation.pk) as locked:
            balance_charges.record_balance(
                locked, amount=Decimal("100.00"), provider="stripe", payment_intent_id="pi_late", customer_id="", payment_method_id="", actor="balance job"
            )
        fake_stripe.fail_with = None
        flagged = Reservation.objects.get(pk=reservation.pk)
        assert "Refund failed" in attention(flagged), "staff see that the money did not go back"
        assert ProviderRefund.objects.get(reservation=flagged, kind="returned").status == "failed"
        assert refunds.refundable(flagged) == Decimal("100.00") + reservation.amount_paid  # the refund page can give it back

    def test_the_providers_refund_report_of_a_given_back_payment_never_pays_the_cancellation(self, api, demo_property, fake_stripe, webhook):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        fake_stripe.fail_with = 500
        owed = cancel_stay(reservation.pk, actor="staff test").refund_pending  # the cancellation's refund waits for the job
        fake_stripe.fail_with = None
        assert owed > 0
        with reservation_transaction(reservation.pk) as locked:  # given back: asked after the commit (not run here)
            balance_charges.record_balance(
                locked, amount=Decimal("100.00"), provider="stripe", payment_intent_id="pi_late", customer_id="", payment_method_id="", actor="balance job"
            )
        # Stripe reports the give-back's refund before its answer is recorded here.
        webhook(stripe_event("charge.refunded", {"id": "ch_late", "object": "charge", "payment_intent": "pi_late", "amount_refunded": 10000}))
        after = Reservation.objects.get(pk=reservation.pk)
        assert after.amount_refunded == Decimal("100.00") and after.refund_pending == owed, "the deposit's refund is still owed"


@pytest.mark.timeout(60)
def test_racing_the_guests_cancel_gives_the_charge_back(transactional_db, api, demo_property, fake_stripe, webhook):
    """The job's charge is out at the provider (the slow fake holds it) while the guest cancels under
    the stay's lock; the answer then meets a cancelled stay."""
    if not is_postgresql():
        pytest.skip("the job and the guest at once need PostgreSQL's row locks (SQLite serialises every writer anyway)")
    reservation = book_with_deposit(api, fake_stripe, webhook)
    fake_stripe.hold_charges = threading.Event()
    outcomes = []

    def job():
        try:
            outcomes.append(charge_balance(reservation.pk, as_of=due_date(reservation)))
        finally:
            connection.close()

    worker = threading.Thread(target=job)
    worker.start()
    try:
        assert fake_stripe.charge_out.wait(timeout=20), "the charge reached the provider"
        cancelled = cancel_by_guest(reservation.manage_token)
        assert cancelled.status == "cancelled" and cancelled.amount_refunded == cancelled.amount_paid  # the deposit, back at once
    finally:
        fake_stripe.hold_charges.set()
        worker.join(timeout=30)
    assert outcomes == ["given_back"]
    [charge] = [intent for intent in fake_stripe.payment_intents.values() if intent.get("metadata", {}).get("purpose") == "balance"]
    assert_everything_given_back(reservation, fake_stripe, returned_intent=charge["id"])


@pytest.mark.django_db
class TestTheBalancePagePaidAfterTheCancel:
    def test_the_page_is_given_back_whole_once_and_the_stay_flagged(self, api, client, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
        reservation = book_with_deposit(api, fake_stripe, webhook, card="pm_card_chargeCustomerFail")
        session_id = client.post(f"/manage/{reservation.manage_token}/pay-balance")["Location"].rsplit("/", 1)[-1]
        session = fake_stripe.complete(session_id, card="pm_card_visa")  # paid in one tab …
        cancel_by_guest(reservation.manage_token)  # … cancelled in another before the payment's webhook arrived
        with django_capture_on_commit_callbacks(execute=True):
            outcome = webhook(stripe_event("checkout.session.completed", session)).json()["outcome"]
            assert outcome.endswith("refunded in full")
            again = webhook(stripe_event("checkout.session.completed", session, event_id="evt_again")).json()["outcome"]
            assert again == "already recorded"
        assert_everything_given_back(reservation, fake_stripe, returned_intent=session["payment_intent"])

    def test_cancelling_closes_the_open_balance_page(self, api, client, demo_property, fake_stripe, webhook):
        reservation = book_with_deposit(api, fake_stripe, webhook, card="pm_card_chargeCustomerFail")
        session_id = client.post(f"/manage/{reservation.manage_token}/pay-balance")["Location"].rsplit("/", 1)[-1]
        cancel_by_guest(reservation.manage_token)
        assert fake_stripe.sessions[session_id]["status"] == "expired"
        assert GuestCheckout.objects.get(session_id=session_id).settled_at is not None
