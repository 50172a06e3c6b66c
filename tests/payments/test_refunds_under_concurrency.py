"""Refunds under concurrency (issue 28, items 1–3): whatever order staff, the guest, the refund job
and the provider's webhooks act in, the refunds the provider made are exactly the refunds recorded,
and a cancellation's refund is never paid on top of a refund made for it.

The provider is the fake Stripe server, slowed down where the race needs a refund in flight. Each
racing thread has its own database connection, as two web processes would (PostgreSQL and SQLite)."""

import threading
import time
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from booking.payments.models import ProviderRefund
from booking.payments.services.cancellation import cancel_by_guest, retry_pending_refunds
from booking.payments.services.refunds import RefundNotPossible, refund_payment
from booking.reservations.models import Reservation
from tests.attention import attention
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.timeout(90)
LINK = "/api/v1/payments/checkout-link"


def paid_stay(api, fake_stripe, webhook, *, days_ahead: int = 60) -> Reservation:
    body = api.post(LINK, stay(offset=days_ahead, nights=3, guests=2)).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


def provider_total(fake_stripe) -> Decimal:
    return Decimal(sum(r["amount"] for r in fake_stripe.refunds)) / 100


def assert_books_match_the_provider(reservation_id: str, fake_stripe) -> Reservation:
    reservation = Reservation.objects.get(pk=reservation_id)
    assert reservation.amount_refunded == provider_total(fake_stripe) <= reservation.amount_paid
    recorded = ProviderRefund.objects.filter(reservation=reservation, status="succeeded")
    assert sorted(recorded.values_list("provider_refund_id", flat=True)) == sorted(r["id"] for r in fake_stripe.refunds)
    return reservation


def at_once(*jobs) -> list:
    """Run each job in its own thread (its own connection), released together. Returns what each
    returned or raised."""
    barrier, results = threading.Barrier(len(jobs)), [None] * len(jobs)

    def run(i, job):
        try:
            barrier.wait(timeout=10)
            results[i] = job()
        except Exception as error:  # noqa: BLE001 — the outcome is what the test looks at
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def staff_client(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser(username, f"{username}@example.com", "x"))
    return client


def refund_page(reservation) -> str:
    return reverse("admin:reservations_reservation_refund", args=[quote(reservation.pk)])


class TestTwoStaffRefundingAtOnce:
    def test_two_refund_pages_sent_at_once_never_refund_more_than_is_recorded(self, transactional_db, demo_property, api, fake_stripe, webhook):
        """Both pages showed "refunded 0.00"; with a slow provider both are sent at once."""
        paid = paid_stay(api, fake_stripe, webhook)
        anna, bruno = staff_client("anna"), staff_client("bruno")
        forms = [c.get(refund_page(paid)).context["form"].initial for c in (anna, bruno)]
        assert [f["refunded_before"] for f in forms] == [0, 0] and forms[0]["request_key"] != forms[1]["request_key"]
        fake_stripe.delay_seconds = 1

        def send(client, initial, amount):
            return lambda: client.post(refund_page(paid), {"amount": amount, "refunded_before": "0.00", "request_key": initial["request_key"]}).status_code

        assert at_once(send(anna, forms[0], "100.00"), send(bruno, forms[1], "200.00")) == [302, 302]
        refunded = assert_books_match_the_provider(paid.pk, fake_stripe)
        # The second page was sent after the first refund was asked for: it refunds nothing.
        assert len(fake_stripe.refunds) == 1 and refunded.amount_refunded in (Decimal("100.00"), Decimal("200.00"))

    def test_two_refund_requests_at_once_are_both_made_and_both_recorded(self, transactional_db, demo_property, api, fake_stripe, webhook):
        paid = paid_stay(api, fake_stripe, webhook)
        fake_stripe.delay_seconds = 1
        results = at_once(
            lambda: refund_payment(paid.pk, actor="staff anna", amount=Decimal("100.00")),
            lambda: refund_payment(paid.pk, actor="staff bruno", amount=Decimal("200.00")),
        )
        assert all(isinstance(result, Reservation) for result in results), results
        assert assert_books_match_the_provider(paid.pk, fake_stripe).amount_refunded == Decimal("300.00")

    def test_a_request_never_exceeds_what_is_left_after_those_in_flight(self, transactional_db, demo_property, api, fake_stripe, webhook):
        paid = paid_stay(api, fake_stripe, webhook)
        fake_stripe.delay_seconds = 1
        almost_all = paid.amount_paid - Decimal("10.00")

        def once_the_first_is_at_the_provider():
            while not ProviderRefund.objects.filter(reservation=paid, status="requested").exists():
                time.sleep(0.05)
            return refund_payment(paid.pk, actor="staff bruno", amount=Decimal("20.00"))

        results = at_once(lambda: refund_payment(paid.pk, actor="staff anna", amount=almost_all), once_the_first_is_at_the_provider)
        assert isinstance(results[0], Reservation) and "Refund between 0.01 and 10.00" in str(results[1])
        assert assert_books_match_the_provider(paid.pk, fake_stripe).amount_refunded == almost_all


class TestAGuestCancellingWhileStaffRefund:
    def test_both_refunds_are_recorded(self, transactional_db, demo_property, api, fake_stripe, webhook):
        """Staff refund 300.00 with 1.5 s of provider latency; the guest cancels 0.3 s later."""
        paid = paid_stay(api, fake_stripe, webhook)
        fake_stripe.delay_seconds = 1.5

        def cancel_while_the_refund_is_at_the_provider():
            while not ProviderRefund.objects.filter(reservation=paid, status="requested").exists():
                time.sleep(0.05)
            time.sleep(0.3)
            return cancel_by_guest(paid.manage_token)

        results = at_once(lambda: refund_payment(paid.pk, actor="staff anna", amount=Decimal("300.00")), cancel_while_the_refund_is_at_the_provider)
        assert all(isinstance(result, Reservation) for result in results), results
        cancelled = assert_books_match_the_provider(paid.pk, fake_stripe)
        assert len(fake_stripe.refunds) == 2 and cancelled.status == "cancelled" and cancelled.refund_pending == 0


@pytest.mark.django_db
class TestAPendingCancellationRefund:
    """The guest cancelled while the provider was down: the policy's refund is pending."""

    @pytest.fixture
    def pending(self, api, demo_property, fake_stripe, webhook):
        paid = paid_stay(api, fake_stripe, webhook, days_ahead=21)  # the demo policy gives 50 % (and the city tax)
        fake_stripe.fail_with = 500
        cancelled = cancel_by_guest(paid.manage_token)
        fake_stripe.fail_with = None
        assert 0 < cancelled.refund_pending < cancelled.amount_paid and cancelled.amount_refunded == 0
        return cancelled

    def test_the_refund_page_offers_only_what_the_cancellation_does_not_owe(self, admin_client, pending):
        page = admin_client.get(refund_page(pending))
        assert page.context["form"].initial["amount"] == pending.amount_paid - pending.refund_pending
        assert b"Owed by the cancellation" in page.content

    def test_a_staff_refund_counts_toward_it_and_the_job_pays_only_the_rest(self, admin_client, pending, fake_stripe):
        owed = pending.refund_pending
        initial = admin_client.get(refund_page(pending)).context["form"].initial
        admin_client.post(refund_page(pending), {"amount": "100.00", "refunded_before": "0.00", "request_key": initial["request_key"]})
        assert Reservation.objects.get(pk=pending.pk).refund_pending == owed - Decimal("100.00")
        assert retry_pending_refunds() == 1
        refunded = assert_books_match_the_provider(pending.pk, fake_stripe)
        assert (refunded.amount_refunded, refunded.refund_pending, attention(refunded)) == (owed, 0, "")
        assert retry_pending_refunds() == 0 and len(fake_stripe.refunds) == 2

    def test_a_refund_made_in_the_provider_dashboard_settles_it(self, pending, fake_stripe, webhook):
        owed_cents = int(pending.refund_pending * 100)
        status, made = fake_stripe.handle(
            "POST", "/v1/refunds", {"payment_intent": pending.payment_intent_id, "amount": str(owed_cents)}, {"authorization": "Bearer sk_x"}
        )
        assert status == 200
        charge = {"id": "ch_1", "object": "charge", "payment_intent": pending.payment_intent_id, "amount_refunded": owed_cents, "metadata": {}}
        webhook(stripe_event("charge.refunded", charge))
        assert Reservation.objects.get(pk=pending.pk).refund_pending == 0
        assert retry_pending_refunds() == 0 and fake_stripe.refunds == [made]

    def test_staff_cannot_refund_while_the_cancellation_refund_is_at_the_provider(self, pending):
        ProviderRefund.objects.create(
            reservation=pending, kind="cancellation", amount=pending.refund_pending, currency="EUR", provider="stripe", idempotency_key="k", actor="job"
        )
        with pytest.raises(RefundNotPossible, match="cancellation refund is being made"):
            refund_payment(pending.pk, actor="staff", amount=Decimal("1.00"))


@pytest.mark.django_db
class TestARequestLeftByADeadProcess:
    def test_the_refund_job_asks_again_with_the_same_key_and_records_it_once(self, api, demo_property, fake_stripe, webhook):
        paid = paid_stay(api, fake_stripe, webhook)
        left = ProviderRefund.objects.create(
            reservation=paid,
            kind="staff",
            amount=Decimal("40.00"),
            currency="EUR",
            provider="stripe",
            payment_intent_id=paid.payment_intent_id,
            idempotency_key="refund-died",
            actor="staff anna",
        )
        with pytest.raises(RefundNotPossible):  # its amount is taken while it is unanswered
            refund_payment(paid.pk, actor="staff", amount=paid.amount_paid)
        ProviderRefund.objects.filter(pk=left.pk).update(requested_at=timezone.now() - timedelta(minutes=10))
        retry_pending_refunds()
        retry_pending_refunds()
        [again] = [c for c in fake_stripe.calls if c.path == "/v1/refunds" and c.headers["idempotency-key"] == "refund-died"]
        assert again.form["amount"] == "4000"
        assert_books_match_the_provider(paid.pk, fake_stripe)
