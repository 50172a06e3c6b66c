"""Refunds from the back office (full or partial, through the provider that took the money, audited)
and the reconciliation job that settles checkouts whose webhook never arrived."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.urls import reverse
from django.utils import timezone

from booking import tasks
from booking.errors import PaymentProviderError
from booking.payments.services.cancellation import cancel_stay
from booking.payments.services.checkouts import reconcile_open_checkouts
from booking.payments.services.refunds import RefundNotPossible, refund_payment
from booking.reservations.models import Reservation
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"


@pytest.fixture
def paid(api, demo_property, fake_stripe, webhook):
    """A stay confirmed through Stripe: (reservation, the completed session)."""
    body = api.post(LINK, stay()).json()
    session = fake_stripe.complete(body["session_id"])
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"]), session


class TestRefundService:
    def test_a_full_refund_goes_through_stripe_and_is_recorded_and_audited(self, api, paid, fake_stripe):
        reservation, session = paid
        refunded = refund_payment(reservation.pk, actor="staff anna", reason="guest asked")
        [refund] = fake_stripe.refunds
        assert (refund["payment_intent"], refund["amount"]) == (session["payment_intent"], session["amount_total"])
        assert refunded.amount_refunded == reservation.total and refunded.status == "confirmed"
        event = refunded.events.get(action="refund")
        assert event.actor == "staff anna" and "guest asked" in event.note and refund["id"] in event.note
        assert api.get(f"/api/v1/reservations/{reservation.pk}").json()["payment"]["status"] == "refunded"

    def test_partial_refunds_add_up_to_the_payment_and_no_further(self, paid, fake_stripe):
        reservation, _ = paid
        refund_payment(reservation.pk, actor="staff", amount=Decimal("100.00"))
        after_first = refund_payment(reservation.pk, actor="staff", amount=Decimal("50.50"))
        assert after_first.amount_refunded == Decimal("150.50")
        assert [r["amount"] for r in fake_stripe.refunds] == [10000, 5050]
        with pytest.raises(RefundNotPossible):
            refund_payment(reservation.pk, actor="staff", amount=reservation.total)
        rest = refund_payment(reservation.pk, actor="staff")
        assert rest.amount_refunded == reservation.total
        with pytest.raises(RefundNotPossible):
            refund_payment(reservation.pk, actor="staff")

    def test_the_same_refund_request_sent_twice_is_one_refund(self, paid, fake_stripe):
        reservation, _ = paid
        refund_payment(reservation.pk, actor="staff", amount=Decimal("10"), request_key="refund-page-1")
        again = refund_payment(reservation.pk, actor="staff", amount=Decimal("10"), request_key="refund-page-1")
        assert len(fake_stripe.refunds) == 1 and again.amount_refunded == Decimal("10")
        # A new request for the same amount is a new refund: the key is the request's, not the amount's.
        another = refund_payment(reservation.pk, actor="staff", amount=Decimal("10"), request_key="refund-page-2")
        assert len(fake_stripe.refunds) == 2 and another.amount_refunded == Decimal("20")
        assert [r.provider_refund_id for r in another.provider_refunds.all()] == [r["id"] for r in fake_stripe.refunds]

    def test_refund_and_cancel_frees_the_dates(self, api, paid):
        reservation, _ = paid
        cancelled = cancel_stay(reservation.pk, actor="staff", refund=reservation.amount_paid)
        assert cancelled.status == "cancelled" and cancelled.amount_refunded == reservation.total
        assert api.get("/api/v1/availability", check_in=stay()["check_in"], check_out=stay()["check_out"]).json()["available"] is True

    def test_nothing_paid_means_nothing_to_refund(self, api, demo_property, fake_stripe):
        reservation_id = api.post(LINK, stay()).json()["reservation_id"]
        with pytest.raises(RefundNotPossible):
            refund_payment(reservation_id, actor="staff")
        assert not fake_stripe.refunds

    def test_a_provider_refusal_records_nothing(self, paid, fake_stripe):
        reservation, _ = paid
        fake_stripe.fail_with = 402
        with pytest.raises(PaymentProviderError):
            refund_payment(reservation.pk, actor="staff")
        assert Reservation.objects.get(pk=reservation.pk).amount_refunded == 0

    def test_a_sandbox_payment_is_refunded_in_the_sandbox(self, client, api, demo_property, sandbox):
        link = api.post(LINK, stay()).json()
        client.post(f"/api/v1/payments/sandbox/{link['session_id']}", {"email": "a@example.com", "name": "A B", "phone": "1", "action": "pay"})
        refunded = refund_payment(link["reservation_id"], actor="staff", amount=Decimal("20"))
        assert refunded.amount_refunded == Decimal("20")
        assert refunded.sandbox_checkouts.get().amount_refunded_cents == 2000


class TestAdminRefund:
    """The refund confirmation page (the list's action leads there too): the amount suggested is what
    is left, editable down, never up; one page sent twice is one refund."""

    def changelist(self):
        return reverse("admin:reservations_reservation_changelist")

    def refund_page(self, reservation):
        return reverse("admin:reservations_reservation_refund", args=[quote(reservation.pk)])

    def test_the_action_leads_to_the_confirmation_page_then_refunds_through_the_service(self, admin_client, paid, fake_stripe):
        reservation, _ = paid
        action = admin_client.post(self.changelist(), {"action": "refund_selected", "_selected_action": [reservation.pk]})
        assert action.status_code == 302 and action["Location"] == self.refund_page(reservation)
        page = admin_client.get(self.refund_page(reservation))
        assert page.status_code == 200 and b'name="amount"' in page.content and b"Left to refund" in page.content
        assert page.context["form"].initial["amount"] == reservation.total  # everything left, to lower if need be
        assert not fake_stripe.refunds  # nothing happens before the confirmation
        done = admin_client.post(
            self.refund_page(reservation),
            {"amount": "75.00", "reason": "broken heater", "refunded_before": "0.00"},
            follow=True,
        )
        assert done.status_code == 200 and b"refunded so far 75.00 EUR" in done.content
        refunded = Reservation.objects.get(pk=reservation.pk)
        assert refunded.amount_refunded == Decimal("75.00") and refunded.status == "confirmed"
        assert refunded.events.get(action="refund").actor == "staff admin"
        assert [r["amount"] for r in fake_stripe.refunds] == [7500]
        # The reservation's page lists the refund with the provider's id, to match in its dashboard.
        page = admin_client.get(reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)]))
        assert fake_stripe.refunds[0]["id"].encode() in page.content and b"refunds asked of the provider" in page.content.lower()

    def test_the_same_page_sent_twice_refunds_once(self, admin_client, paid, fake_stripe):
        reservation, _ = paid
        form = {"amount": "75.00", "reason": "double click", "refunded_before": "0.00"}
        admin_client.post(self.refund_page(reservation), form, follow=True)
        again = admin_client.post(self.refund_page(reservation), form, follow=True)
        said = [str(m) for m in again.context["messages"]]
        assert len(said) == 1 and "refunded meanwhile" in said[0]
        assert Reservation.objects.get(pk=reservation.pk).amount_refunded == Decimal("75.00")
        assert len(fake_stripe.refunds) == 1

    def test_too_large_an_amount_is_refused_with_a_message(self, admin_client, paid, fake_stripe):
        reservation, _ = paid
        response = admin_client.post(self.refund_page(reservation), {"amount": str(reservation.total + 1), "refunded_before": "0.00"})
        assert response.status_code == 200 and b"At most" in response.content
        assert not fake_stripe.refunds

    def test_refund_and_cancel_in_one_go(self, admin_client, paid, fake_stripe):
        reservation, _ = paid
        admin_client.post(self.refund_page(reservation), {"amount": str(reservation.total), "refunded_before": "0.00", "cancel_reservation": "on"})
        cancelled = Reservation.objects.get(pk=reservation.pk)
        assert cancelled.status == "cancelled" and cancelled.amount_refunded == cancelled.total
        assert len(fake_stripe.refunds) == 1

    def test_nothing_left_to_refund_sends_back_with_a_warning(self, admin_client, paid, fake_stripe):
        reservation, _ = paid
        admin_client.post(self.refund_page(reservation), {"amount": str(reservation.total), "refunded_before": "0.00"})
        again = admin_client.get(self.refund_page(reservation), follow=True)
        assert b"nothing is left to refund" in again.content
        assert len(fake_stripe.refunds) == 1

    def test_one_reservation_at_a_time(self, admin_client, api, paid):
        reservation, _ = paid
        other = api.post(LINK, stay(offset=80)).json()["reservation_id"]
        response = admin_client.post(self.changelist(), {"action": "refund_selected", "_selected_action": [reservation.pk, other]}, follow=True)
        assert b"Choose exactly one reservation" in response.content


class TestReconciliation:
    def test_a_paid_session_whose_webhook_was_lost_is_confirmed(self, api, demo_property, fake_stripe):
        body = api.post(LINK, stay()).json()
        fake_stripe.complete(body["session_id"], email="lost@example.com", name="Lost Hook", phone="+39 1")
        assert tasks.reconcile_open_checkouts() == 1  # the Celery task, run in-process
        confirmed = Reservation.objects.get(pk=body["reservation_id"])
        assert confirmed.status == "confirmed" and confirmed.guest_email == "lost@example.com"
        assert confirmed.events.get(action="confirm").actor == "reconciliation job"

    def test_an_expired_session_releases_its_hold_and_an_open_one_is_left_alone(self, api, demo_property, fake_stripe):
        expired = api.post(LINK, stay(offset=40)).json()
        still_open = api.post(LINK, stay(offset=60)).json()
        fake_stripe.expire_now(expired["session_id"])
        assert reconcile_open_checkouts() == 1
        assert Reservation.objects.get(pk=expired["reservation_id"]).status == "expired"
        assert Reservation.objects.get(pk=still_open["reservation_id"]).status == "held"

    def test_a_payment_after_the_expiry_job_is_still_found(self, api, demo_property, fake_stripe):
        body = api.post(LINK, stay()).json()
        Reservation.objects.filter(pk=body["reservation_id"]).update(status="expired", hold_expires_at=timezone.now() - timedelta(minutes=5))
        fake_stripe.complete(body["session_id"])
        assert reconcile_open_checkouts() == 1
        assert Reservation.objects.get(pk=body["reservation_id"]).status == "confirmed"

    def test_a_settled_session_is_not_asked_about_again(self, api, demo_property, fake_stripe):
        body = api.post(LINK, stay()).json()
        fake_stripe.expire_now(body["session_id"])
        reconcile_open_checkouts()
        asked = len(fake_stripe.calls_to("GET", "/v1/checkout/sessions/"))
        assert reconcile_open_checkouts() == 0
        assert len(fake_stripe.calls_to("GET", "/v1/checkout/sessions/")) == asked

    def test_a_provider_outage_skips_this_round_and_changes_nothing(self, api, demo_property, fake_stripe):
        body = api.post(LINK, stay()).json()
        fake_stripe.complete(body["session_id"])
        fake_stripe.fail_with = 500
        assert reconcile_open_checkouts() == 0
        assert Reservation.objects.get(pk=body["reservation_id"]).status == "held"
        fake_stripe.fail_with = None
        assert reconcile_open_checkouts() == 1
