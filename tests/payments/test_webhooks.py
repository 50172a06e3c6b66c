"""POST /api/v1/payments/webhook: only Stripe-signed bodies are read; each event is applied once, in
any order; a payment confirms the stay and backfills the payer; a payment that cannot become a stay
is refunded and shown to staff."""

import json
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from booking.errors import ServiceUnavailable
from booking.payments import events
from booking.payments.models import PaymentEvent
from booking.reservations.models import Reservation
from tests.attention import attention
from tests.payments.conftest import signature, stay, stripe_event

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"


@pytest.fixture
def checkout(api, demo_property, fake_stripe):
    """A held stay with an open Stripe checkout: (reservation id, session id)."""
    body = api.post(LINK, stay()).json()
    return body["reservation_id"], body["session_id"]


def reservation(reservation_id) -> Reservation:
    return Reservation.objects.get(pk=reservation_id)


def lapse(reservation_id):
    Reservation.objects.filter(pk=reservation_id).update(hold_expires_at=timezone.now() - timedelta(minutes=1))


class TestSignatureVerification:
    def test_a_validly_signed_event_is_applied(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        response = webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id)))
        assert response.status_code == 200, response.content
        assert response.json()["outcome"] == "confirmed"
        assert reservation(reservation_id).status == "confirmed"

    def test_a_body_signed_with_another_secret_is_400_and_changes_nothing(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        response = webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id)), secret="whsec_someone_else")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_signature" and "Stripe-Signature" in response.json()["detail"]
        assert reservation(reservation_id).status == "held" and not PaymentEvent.objects.exists()

    def test_a_tampered_body_is_400(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        genuine = json.dumps(stripe_event("checkout.session.expired", fake_stripe.expire_now(session_id))).encode()
        forged = genuine.replace(b"checkout.session.expired", b"checkout.session.completed")
        response = webhook(body=forged, sign=genuine)
        assert response.status_code == 400 and response.json()["code"] == "invalid_signature"
        assert reservation(reservation_id).status == "held"

    def test_a_stale_timestamp_is_400_even_with_a_valid_signature(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        event = stripe_event("checkout.session.completed", fake_stripe.complete(session_id))
        response = webhook(event, timestamp=int(time.time()) - 10 * 60)
        assert response.status_code == 400 and response.json()["code"] == "invalid_signature"
        assert reservation(reservation_id).status == "held"

    @pytest.mark.parametrize("header", ["", "garbage", "t=notanumber,v1=abc", "t=123"])
    def test_a_missing_or_malformed_signature_header_is_400(self, checkout, webhook, header):
        response = webhook({"id": "evt_1", "type": "checkout.session.completed", "data": {"object": {}}}, header=header)
        assert response.status_code == 400 and response.json()["code"] == "invalid_signature"

    def test_without_a_webhook_secret_nothing_is_accepted(self, checkout, fake_stripe, webhook, settings):
        reservation_id, session_id = checkout
        settings.STRIPE_WEBHOOK_SECRET = ""
        response = webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id)), secret="")
        assert response.status_code == 400 and response.json()["code"] == "invalid_signature"
        assert reservation(reservation_id).status == "held"

    def test_a_signed_body_that_is_not_an_event_is_400_not_500(self, checkout, webhook):
        assert webhook(body=b"not json").status_code == 400
        assert webhook(body=b"[1, 2]").json()["code"] == "invalid_payload"
        assert webhook({"type": "checkout.session.completed"}).json()["code"] == "invalid_payload"
        assert webhook({"id": "evt_x", "type": "checkout.session.completed", "data": {"object": "nope"}}).status_code == 400

    def test_the_webhook_needs_no_csrf_token(self, checkout, fake_stripe):
        strict = Client(enforce_csrf_checks=True)
        reservation_id, session_id = checkout
        payload = json.dumps(stripe_event("checkout.session.completed", fake_stripe.complete(session_id))).encode()
        response = strict.post("/api/v1/payments/webhook", data=payload, content_type="application/json", headers={"Stripe-Signature": signature(payload)})
        assert response.status_code == 200

    def test_other_methods_are_refused(self, client, checkout):
        assert client.get("/api/v1/payments/webhook").status_code == 405


class TestPaymentConfirms:
    def test_a_paid_checkout_confirms_and_backfills_the_payer(self, checkout, fake_stripe, webhook, django_capture_on_commit_callbacks):
        reservation_id, session_id = checkout
        session = fake_stripe.complete(session_id, email="maria@example.com", name="Maria Grazia Bianchi", phone="+39 333 7654321")
        with django_capture_on_commit_callbacks(execute=True):
            assert webhook(stripe_event("checkout.session.completed", session)).status_code == 200
        paid = reservation(reservation_id)
        assert paid.status == "confirmed" and paid.confirmed_at is not None
        assert (paid.guest_email, paid.guest_first_name, paid.guest_last_name, paid.guest_phone) == (
            "maria@example.com",
            "Maria",
            "Grazia Bianchi",
            "+39 333 7654321",
        )
        assert paid.amount_paid == paid.total and paid.payment_intent_id == session["payment_intent"]
        assert paid.events.filter(action="confirm", actor="stripe webhook").count() == 1
        assert [m.to for m in mail.outbox][0] == ["maria@example.com"]

    def test_an_unpaid_completion_waits_for_async_payment_succeeded(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        session = fake_stripe.complete(session_id, paid=False)
        assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"].startswith("waiting")
        assert reservation(reservation_id).status == "held"
        session = {**session, "payment_status": "paid"}
        assert webhook(stripe_event("checkout.session.async_payment_succeeded", session)).json()["outcome"] == "confirmed"
        assert reservation(reservation_id).status == "confirmed"

    def test_async_payment_failed_cancels_the_hold(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        session = fake_stripe.complete(session_id, paid=False)
        webhook(stripe_event("checkout.session.async_payment_failed", session))
        assert reservation(reservation_id).status == "cancelled"

    def test_a_session_of_another_integration_is_ignored(self, checkout, webhook):
        foreign = {"id": "cs_other", "object": "checkout.session", "payment_status": "paid", "metadata": {}, "client_reference_id": None}
        response = webhook(stripe_event("checkout.session.completed", foreign))
        assert response.status_code == 200 and response.json()["outcome"].startswith("ignored")

    def test_unknown_event_types_are_200_and_ignored(self, checkout, webhook):
        response = webhook({"id": "evt_unknown", "object": "event", "type": "customer.created", "data": {"object": {"id": "cus_1"}}})
        assert response.status_code == 200 and response.json()["outcome"].startswith("ignored")
        assert not PaymentEvent.objects.exists()


class TestEachEventAppliedOnceInAnyOrder:
    def test_a_replayed_event_is_applied_once(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        event = stripe_event("checkout.session.completed", fake_stripe.complete(session_id))
        assert webhook(event).json()["outcome"] == "confirmed"
        replay = webhook(event)
        assert replay.status_code == 200 and replay.json()["outcome"].startswith("duplicate")
        assert reservation(reservation_id).events.filter(action="confirm").count() == 1
        assert PaymentEvent.objects.filter(event_id=event["id"], reservation_id=reservation_id).count() == 1

    def test_expired_after_completed_changes_nothing(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        session = fake_stripe.complete(session_id)
        webhook(stripe_event("checkout.session.completed", session))
        response = webhook(stripe_event("checkout.session.expired", {**session, "status": "expired"}))
        assert response.status_code == 200 and reservation(reservation_id).status == "confirmed"

    def test_an_expired_checkout_releases_its_hold(self, api, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        assert webhook(stripe_event("checkout.session.expired", fake_stripe.expire_now(session_id))).json()["outcome"] == "hold released"
        assert reservation(reservation_id).status == "expired"
        assert api.get("/api/v1/availability", check_in=stay()["check_in"], check_out=stay()["check_out"]).json()["available"] is True

    def test_the_expiry_of_a_replaced_session_does_not_release_the_newer_one(self, api, checkout, fake_stripe, webhook):
        reservation_id, old_session = checkout
        Reservation.objects.filter(pk=reservation_id).update(checkout_expires_at=timezone.now() + timedelta(seconds=10))
        new_session = api.post("/api/v1/payments/checkout-session", {"reservation_id": reservation_id}).json()["session_id"]
        assert new_session != old_session
        webhook(stripe_event("checkout.session.expired", fake_stripe.sessions[old_session]))
        assert reservation(reservation_id).status == "held"

    def test_a_refund_total_never_goes_backwards(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        session = fake_stripe.complete(session_id)
        webhook(stripe_event("checkout.session.completed", session))
        charge = {"id": "ch_1", "object": "charge", "payment_intent": session["payment_intent"], "amount": session["amount_total"], "metadata": {}}
        webhook(stripe_event("charge.refunded", {**charge, "amount_refunded": 5000}, event_id="evt_refund_2"))
        webhook(stripe_event("charge.refunded", {**charge, "amount_refunded": 2000}, event_id="evt_refund_1"))  # late, older
        assert reservation(reservation_id).amount_refunded == 50
        assert reservation(reservation_id).status == "confirmed"


class TestLatePayments:
    def test_a_payment_after_the_hold_lapsed_confirms_when_the_nights_are_still_free(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        lapse(reservation_id)
        response = webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id)))
        assert response.json()["outcome"] == "confirmed"
        late = reservation(reservation_id)
        assert late.status == "confirmed" and not attention(late) and not fake_stripe.refunds
        assert "late payment" in late.events.get(action="confirm").note

    def test_a_late_payment_confirms_beside_a_newer_hold_that_lapsed_too(self, api, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        lapse(reservation_id)
        newer = api.post(LINK, stay()).json()["reservation_id"]
        lapse(newer)  # still `held` in the table, but no longer blocking (PostgreSQL's constraint must not trip)
        assert webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id))).json()["outcome"] == "confirmed"
        assert (reservation(reservation_id).status, reservation(newer).status) == ("confirmed", "expired")

    def test_a_payment_after_the_expiry_job_ran_still_confirms_when_free(self, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        Reservation.objects.filter(pk=reservation_id).update(status="expired")
        webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id)))
        assert reservation(reservation_id).status == "confirmed"

    def test_a_payment_for_nights_taken_meanwhile_is_refunded_and_flagged(self, api, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        lapse(reservation_id)
        other = api.post(LINK, stay()).json()["reservation_id"]  # someone else holds the same nights
        session = fake_stripe.complete(session_id)
        response = webhook(stripe_event("checkout.session.completed", session))
        assert response.status_code == 200 and response.json()["outcome"].startswith("refunded")
        [refund] = fake_stripe.refunds
        assert (refund["payment_intent"], refund["amount"]) == (session["payment_intent"], session["amount_total"])
        late = reservation(reservation_id)
        assert late.status == "expired" and late.amount_paid == late.amount_refunded == late.total
        assert "refunded" in attention(late).lower()
        assert late.events.filter(action="flag").exists()
        assert reservation(other).status == "held"
        # Stripe delivers again: nothing more is refunded.
        assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"].startswith("duplicate")
        assert len(fake_stripe.refunds) == 1

    def test_when_that_refund_fails_the_webhook_asks_to_be_retried_and_records_nothing(self, api, checkout, fake_stripe, webhook):
        reservation_id, session_id = checkout
        lapse(reservation_id)
        api.post(LINK, stay())
        event = stripe_event("checkout.session.completed", fake_stripe.complete(session_id))
        fake_stripe.fail_with = 500
        response = webhook(event)
        assert response.status_code == 502 and response.json()["code"] == "payment_provider_error"
        assert not PaymentEvent.objects.exists() and not attention(reservation(reservation_id))
        fake_stripe.fail_with = None
        assert webhook(event).json()["outcome"].startswith("refunded")
        assert len(fake_stripe.refunds) == 1

    def test_a_second_payment_for_a_paid_reservation_is_refunded(self, api, checkout, fake_stripe, webhook):
        reservation_id, first_session = checkout
        Reservation.objects.filter(pk=reservation_id).update(checkout_expires_at=timezone.now())
        second_session = api.post("/api/v1/payments/checkout-session", {"reservation_id": reservation_id}).json()["session_id"]
        fake_stripe.sessions[first_session].update(status="open")  # paid on a tab left open
        first = fake_stripe.complete(first_session)
        second = fake_stripe.complete(second_session)
        webhook(stripe_event("checkout.session.completed", first))
        assert webhook(stripe_event("checkout.session.completed", second)).json()["outcome"].startswith("refunded")
        paid = reservation(reservation_id)
        assert paid.status == "confirmed" and paid.payment_intent_id == first["payment_intent"] and paid.amount_refunded == 0
        assert [r["payment_intent"] for r in fake_stripe.refunds] == [second["payment_intent"]]
        assert attention(paid)


class TestTemporaryTrouble:
    def test_a_lock_timeout_is_503_so_stripe_retries(self, checkout, fake_stripe, webhook, monkeypatch):
        reservation_id, session_id = checkout
        event = stripe_event("checkout.session.completed", fake_stripe.complete(session_id))

        def busy(property_id):
            raise ServiceUnavailable("The calendar is busy; try again in a moment.")

        monkeypatch.setattr("booking.reservations.services.locking.lock_property", busy)
        response = webhook(event)
        assert response.status_code == 503 and response.json()["code"] == "service_unavailable"
        assert not PaymentEvent.objects.exists()
        monkeypatch.undo()
        assert webhook(event).json()["outcome"] == "confirmed"

    def test_an_unexpected_error_is_503_not_500(self, checkout, fake_stripe, webhook, monkeypatch):
        reservation_id, session_id = checkout

        def broken(*args, **kwargs):
            raise RuntimeError("bug")

        monkeypatch.setitem(events.HANDLERS, "checkout.session.completed", broken)
        response = webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id)))
        assert response.status_code == 503
        assert not PaymentEvent.objects.exists()
