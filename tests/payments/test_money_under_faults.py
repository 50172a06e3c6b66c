"""Money under faults (issue 12): a red team's repros, kept as specification.

- A payment refunded because it could not become a stay is never applied again, by any path
  (a webhook retry, another event type for the same payment, the reconciliation job).
- However often a checkout session is (re)opened, a hold lasts at most HOLD_MINUTES plus one
  provider minimum (Stripe's 30 minutes) from its creation.
- A payment whose amount or currency is not the reservation's is refunded in full, the nights are
  released, staff see a flag and the owner an email.
- The reservation id opens the payment page, so that page never shows the guest's address.
- A validly signed event that cannot be read is a permanent 400 (not a 503 Stripe retries for
  days); a negative refund total is refused.
"""

import json
import logging
from datetime import timedelta

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.core import mail
from django.utils import timezone

from booking.payments.models import PaymentEvent
from booking.payments.services.checkouts import reconcile_open_checkouts
from booking.reservations.models import Reservation
from tests.attention import attention
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"
SESSION = "/api/v1/payments/checkout-session"


def reservation(reservation_id) -> Reservation:
    return Reservation.objects.get(pk=reservation_id)


def lapse(reservation_id):
    Reservation.objects.filter(pk=reservation_id).update(hold_expires_at=timezone.now() - timedelta(minutes=1))


@pytest.fixture
def owner_inbox(settings):
    settings.OWNER_EMAIL = "owner@example.com"
    return lambda: [m for m in mail.outbox if m.to == ["owner@example.com"]]


class TestARefundedLatePaymentStaysRefunded:
    """Item 1: R1's hold lapses, R2 takes the nights, R1's payment arrives and is refunded; then R2
    lapses unpaid. Nothing may turn R1's refunded payment into a stay afterwards."""

    @pytest.fixture
    def refunded_late_payment(self, api, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
        first = api.post(LINK, stay()).json()
        lapse(first["reservation_id"])
        second = api.post(LINK, stay()).json()
        session = fake_stripe.complete(first["session_id"])
        with django_capture_on_commit_callbacks(execute=True):
            assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"].startswith("refunded")
        assert reservation(first["reservation_id"]).status == "expired"
        # R2 lapses unpaid, and its checkout expires.
        lapse(second["reservation_id"])
        fake_stripe.expire_now(second["session_id"])
        mail.outbox.clear()
        return first["reservation_id"], second["reservation_id"], session

    def test_the_reconciliation_job_does_not_confirm_it(self, refunded_late_payment, fake_stripe, django_capture_on_commit_callbacks):
        first, second, _ = refunded_late_payment
        with django_capture_on_commit_callbacks(execute=True):
            reconcile_open_checkouts()
        refunded = reservation(first)
        assert refunded.status == "expired" and refunded.amount_refunded == refunded.amount_paid == refunded.total
        assert reservation(second).status == "expired"
        assert len(fake_stripe.refunds) == 1 and not mail.outbox
        assert not refunded.events.filter(action="confirm").exists()

    def test_the_job_does_not_even_ask_the_provider_again(self, refunded_late_payment, fake_stripe):
        first, _, session = refunded_late_payment
        reconcile_open_checkouts()
        asked = [call.path for call in fake_stripe.calls_to("GET", "/v1/checkout/sessions/")]
        assert not any(session["id"] in path for path in asked)

    @pytest.mark.parametrize("event_type", ["checkout.session.completed", "checkout.session.async_payment_succeeded"])
    def test_a_late_webhook_retry_with_a_new_event_id_does_not_confirm_it(self, refunded_late_payment, fake_stripe, webhook, event_type):
        first, _, session = refunded_late_payment
        response = webhook(stripe_event(event_type, session, event_id=f"evt_retry_{event_type}"))
        assert response.status_code == 200 and response.json()["outcome"].startswith("ignored")
        assert reservation(first).status == "expired" and len(fake_stripe.refunds) == 1 and not mail.outbox

    def test_the_owner_was_told_when_it_was_refunded(self, api, demo_property, fake_stripe, webhook, owner_inbox, django_capture_on_commit_callbacks):
        first = api.post(LINK, stay()).json()
        lapse(first["reservation_id"])
        api.post(LINK, stay())
        with django_capture_on_commit_callbacks(execute=True):
            webhook(stripe_event("checkout.session.completed", fake_stripe.complete(first["session_id"])))
        [email] = owner_inbox()
        assert Reservation.objects.get(pk=first["reservation_id"]).booking_number in email.subject and "nights were taken" in email.body
        assert f"/admin/reservations/reservation/{quote(first['reservation_id'])}/change/" in email.body


class TestAHoldCannotBeRenewedForever:
    """Item 3: every checkout-session call near the end of a hold used to add another 31 minutes."""

    def test_renewing_the_checkout_every_few_minutes_never_passes_the_ceiling(self, api, demo_property, fake_stripe, settings):
        settings.HOLD_MINUTES = 30
        start = timezone.now()
        with time_machine.travel(start, tick=False) as clock:
            link = api.post(LINK, stay()).json()
            created = reservation(link["reservation_id"]).created_at
            ceiling = created + timedelta(minutes=30 + 30)
            answers = []
            for minute in range(0, 121, 3):
                clock.move_to(start + timedelta(minutes=minute, seconds=30))
                response = api.post(SESSION, {"reservation_id": link["reservation_id"]})
                answers.append(response.status_code)
                held = reservation(link["reservation_id"])
                assert held.hold_expires_at <= ceiling, f"at minute {minute} the hold runs to {held.hold_expires_at}"
                assert held.checkout_expires_at <= ceiling
            assert answers[-1] == 409 and api.post(SESSION, {"reservation_id": link["reservation_id"]}).json()["code"] == "reservation_not_payable"
            clock.move_to(ceiling + timedelta(seconds=1))
            assert api.get("/api/v1/availability", **stay()).json()["available"] is True
        # Every session Stripe was asked for respected its own 30-minute floor.
        created_sessions = [call for call in fake_stripe.calls_to("POST", "/v1/checkout/sessions") if call.path == "/v1/checkout/sessions"]
        assert len(created_sessions) == 1  # at 30.5 minutes a new one would outlive the ceiling: the open one was reused
        for call in created_sessions:
            assert int(call.form["expires_at"]) <= ceiling.timestamp()

    def test_the_last_open_session_is_handed_out_rather_than_a_new_one(self, api, demo_property, fake_stripe, settings):
        settings.HOLD_MINUTES = 30
        start = timezone.now()
        with time_machine.travel(start, tick=False) as clock:
            link = api.post(LINK, stay()).json()
            clock.move_to(start + timedelta(minutes=29, seconds=50))
            renewed = api.post(SESSION, {"reservation_id": link["reservation_id"]}).json()
            assert renewed["session_id"] != link["session_id"]  # one renewal still fits, up to the ceiling
            clock.move_to(start + timedelta(minutes=59))
            last = api.post(SESSION, {"reservation_id": link["reservation_id"]})
            assert last.status_code == 200 and last.json()["session_id"] == renewed["session_id"]
            assert len([call for call in fake_stripe.calls_to("POST", "/v1/checkout/sessions") if call.path == "/v1/checkout/sessions"]) == 2

    def test_a_hold_paid_by_checkout_session_late_in_its_life_still_gets_a_session(self, api, demo_property, fake_stripe, settings):
        settings.HOLD_MINUTES = 30
        start = timezone.now()
        with time_machine.travel(start, tick=False) as clock:
            reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
            clock.move_to(start + timedelta(minutes=29, seconds=40))
            response = api.post(SESSION, {"reservation_id": reservation_id})
            assert response.status_code == 200, response.content
            assert reservation(reservation_id).hold_expires_at <= reservation(reservation_id).created_at + timedelta(minutes=60)


class TestAPaymentThatIsNotThePrice:
    """Item 5: a signed completed event for too little, too much or another currency."""

    @pytest.mark.parametrize("change", [{"amount_total": 100}, {"currency": "usd"}, {"amount_total_delta": 1}], ids=["underpaid", "usd", "overpaid"])
    def test_is_refunded_in_full_releases_the_nights_flags_and_tells_the_owner(
        self, api, demo_property, fake_stripe, webhook, owner_inbox, django_capture_on_commit_callbacks, change
    ):
        link = api.post(LINK, stay()).json()
        session = fake_stripe.complete(link["session_id"])
        if "amount_total_delta" in change:
            fake_stripe.sessions[session["id"]]["amount_total"] += change["amount_total_delta"]  # Stripe took more
            session["amount_total"] += change["amount_total_delta"]
        else:
            session.update(change)
        with django_capture_on_commit_callbacks(execute=True):
            response = webhook(stripe_event("checkout.session.completed", session))
        assert response.status_code == 200 and response.json()["outcome"].startswith("refunded")
        [refund] = fake_stripe.refunds
        assert (refund["payment_intent"], refund["amount"]) == (session["payment_intent"], session["amount_total"])
        unpaid = reservation(link["reservation_id"])
        assert unpaid.status == "expired" and attention(unpaid) and "but the total is" in attention(unpaid)
        assert api.get("/api/v1/availability", **stay()).json()["available"] is True
        [email] = owner_inbox()
        assert "needs attention" in email.subject.lower() and "but the total is" in email.body
        assert not [m for m in mail.outbox if "confirmed" in m.subject]
        # Stripe delivers again, and the job runs: still no stay, still one refund.
        webhook(stripe_event("checkout.session.completed", session, event_id="evt_again"))
        reconcile_open_checkouts()
        assert reservation(link["reservation_id"]).status == "expired" and len(fake_stripe.refunds) == 1

    def test_the_exact_amount_in_the_reservations_currency_confirms(self, api, demo_property, fake_stripe, webhook):
        link = api.post(LINK, stay()).json()
        session = fake_stripe.complete(link["session_id"])
        session["currency"] = session["currency"].upper()  # case is not a different currency
        assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
        assert not attention(reservation(link["reservation_id"]))


class TestWhatTheReservationIdReveals:
    """Item 6: the masked lookup hands out the payment page; that page must not unmask the guest."""

    def test_the_sandbox_page_does_not_show_the_address_given_at_hold_time(self, api, client, demo_property, sandbox):
        reservation_id = api.post("/api/v1/reservations", stay(guest={"email": "anna.secret@example.com", "phone": "+39 333 7654321"})).json()["id"]
        api.post(SESSION, {"reservation_id": reservation_id})
        lookup = api.get(f"/api/v1/reservations/{reservation_id}").json()
        assert "anna.secret@example.com" not in json.dumps(lookup)
        page = client.get(lookup["payment"]["checkout_url"].split("testserver", 1)[-1].replace("http://localhost:8000", "")).content.decode()
        assert "Pay" in page
        assert "anna.secret" not in page and "7654321" not in page


class TestEventsThatCannotBeRead:
    """Also from the audit: signed but malformed events are permanent failures, not outages."""

    @pytest.mark.parametrize("broken", [{"metadata": "x"}, {"amount_total": "abc"}, {"amount_total": -5}, {"amount_total": 10.5}, {"currency": 7}])
    def test_are_400_logged_and_change_nothing(self, api, demo_property, fake_stripe, webhook, caplog, broken):
        link = api.post(LINK, stay()).json()
        session = {**fake_stripe.complete(link["session_id"]), **broken}
        with caplog.at_level(logging.WARNING, logger="booking"):
            response = webhook(stripe_event("checkout.session.completed", session))
        assert response.status_code == 400 and response.json()["code"] == "invalid_payload"
        assert any("could not be read" in record.getMessage() for record in caplog.records)
        assert reservation(link["reservation_id"]).status == "held" and not PaymentEvent.objects.exists()

    @pytest.mark.parametrize("amount_refunded", [-5000, "abc", 1.5])
    def test_a_refund_total_that_is_not_a_positive_number_of_cents_is_refused(self, api, demo_property, fake_stripe, webhook, amount_refunded):
        link = api.post(LINK, stay()).json()
        session = fake_stripe.complete(link["session_id"])
        webhook(stripe_event("checkout.session.completed", session))
        charge = {
            "id": "ch_1",
            "object": "charge",
            "payment_intent": session["payment_intent"],
            "amount": session["amount_total"],
            "metadata": {},
            "amount_refunded": amount_refunded,
        }
        response = webhook(stripe_event("charge.refunded", charge, event_id="evt_bad_refund"))
        assert response.status_code == 400
        assert reservation(link["reservation_id"]).amount_refunded == 0
