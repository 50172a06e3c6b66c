"""A security deposit the saved card refused: the stay is flagged, the guest is emailed a link to
authorise the deposit on a checkout page (mode=payment, capture_method=manual), and that
authorisation is recorded once (webhook, sandbox page or reconciliation job) and then released or
claimed like any hold. The provider is the Stripe-compatible fake or the sandbox."""

from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.payments.models import GuestCheckout, SandboxCheckout, SecurityDeposit
from booking.payments.services.checkouts import reconcile_open_checkouts
from booking.payments.services.security_deposits import claim_security_deposit, place_security_deposits, release_security_deposits
from booking.reservations.models import Reservation
from tests.attention import attention
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"
REFUSES = "pm_card_chargeCustomerFail"  # Stripe's 4000 0000 0000 0341: saved, refused later


def book(api, fake_stripe, webhook, *, card=REFUSES, offset=20, nights=3) -> Reservation:
    body = api.post(LINK, stay(offset=offset, nights=nights, guests=2)).json()  # paid in full (within 30 days)
    session = fake_stripe.complete(body["session_id"], email="guest@example.com", card=card)
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


def on(day, hour=9):
    return time_machine.travel(timezone.make_aware(datetime.combine(day, time(hour, 0))), tick=False)


def refused_hold(reservation: Reservation) -> None:
    with on(reservation.check_in - timedelta(days=1)):
        assert place_security_deposits() == {"failed": 1}
    reservation.refresh_from_db()


def guest_emails(reservation):
    return list(OutboundEmail.objects.filter(reservation=reservation, kind=OutboundEmail.Kind.DEPOSIT_AUTHORISATION_NEEDED))


def owner_alerts(word: str):
    return [e for e in OutboundEmail.objects.filter(kind=OutboundEmail.Kind.OWNER_ALERT) if word in e.subject.lower()]


def start(client, reservation) -> str:
    response = client.post(f"/manage/{reservation.manage_token}/authorise-deposit")
    assert response.status_code == 303
    return response["Location"]


@pytest.fixture
def owner(settings):
    settings.OWNER_EMAIL = "owner@example.com"


class TestWithStripe:
    def test_a_refused_hold_emails_the_guest_a_link_that_authorises_it_once(self, api, client, demo_property, fake_stripe, webhook, owner):
        reservation = book(api, fake_stripe, webhook)
        with on(reservation.check_in - timedelta(days=1)):
            refused_hold(reservation)
            assert reservation.status == "confirmed" and attention(reservation).startswith("Security deposit not held")
            [email] = guest_emails(reservation)
            assert email.to_address == "guest@example.com" and "security deposit" in email.subject.lower()
            assert f"/manage/{reservation.manage_token}/authorise-deposit" in email.body and "300.00" in email.body
            page = client.get(f"/manage/{reservation.manage_token}").content.decode()
            assert 'id="authorise-deposit"' in page
            assert "card hold" in client.get(f"/manage/{reservation.manage_token}/authorise-deposit").content.decode()

            url = start(client, reservation)
            assert start(client, reservation) == url  # a second click reuses the open page
            [create] = fake_stripe.calls_to("POST", "/v1/checkout/sessions")[1:]
            assert create.form["mode"] == "payment" and create.form["payment_intent_data[capture_method]"] == "manual"
            assert create.form["line_items[0][price_data][unit_amount]"] == "30000" and create.form["metadata[purpose]"] == "security_deposit"
            assert create.headers["idempotency-key"] == f"security-deposit-authorise-{reservation.pk}-1"

            session = fake_stripe.complete(url.rsplit("/", 1)[-1], card="pm_card_visa")
            assert fake_stripe.payment_intents[session["payment_intent"]]["status"] == "requires_capture"
            assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "security deposit of 300.00 EUR authorised"
            assert webhook(stripe_event("checkout.session.completed", session, event_id="evt_again")).json()["outcome"] == "already recorded"
            [deposit] = reservation.security_deposits.all()
            assert (deposit.status, deposit.provider_id, deposit.amount) == ("held", session["payment_intent"], Decimal("300.00"))
            reservation.refresh_from_db()
            assert attention(reservation) == "" and reservation.status == "confirmed"
            assert 'id="authorise-deposit"' not in client.get(f"/manage/{reservation.manage_token}").content.decode()
            assert start(client, reservation).endswith(f"/manage/{reservation.manage_token}")  # nothing left to authorise

        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {"released": 1}
        deposit.refresh_from_db()
        assert deposit.status == "released" and fake_stripe.payment_intents[deposit.provider_id]["status"] == "canceled"

    def test_the_guest_is_written_to_in_their_language(self, api, client, demo_property, fake_stripe, webhook):
        reservation = book(api, fake_stripe, webhook)
        Reservation.objects.filter(pk=reservation.pk).update(language="it")
        refused_hold(reservation)
        [email] = guest_emails(reservation)
        assert email.subject.startswith("Autorizza il deposito cauzionale") and "blocco sulla carta" in email.body
        assert f"/manage/{reservation.manage_token}/authorise-deposit" in email.body
        with on(reservation.check_in - timedelta(days=1)):
            page = client.get(f"/it/manage/{reservation.manage_token}/authorise-deposit").content.decode()
        assert "Autorizza il deposito cauzionale" in page

    def test_staff_claim_from_an_authorised_deposit(self, api, client, demo_property, fake_stripe, webhook):
        reservation = book(api, fake_stripe, webhook)
        with on(reservation.check_in - timedelta(days=1)):
            refused_hold(reservation)
            session = fake_stripe.complete(start(client, reservation).rsplit("/", 1)[-1], card="pm_card_visa")
            webhook(stripe_event("checkout.session.completed", session))
        deposit = claim_security_deposit(reservation.security_deposits.get().pk, amount=Decimal("120"), reason="A broken lamp.", actor="marco")
        assert (deposit.status, deposit.claimed_amount) == ("claimed", Decimal("120.00"))
        assert fake_stripe.payment_intents[deposit.provider_id]["amount_received"] == 12000

    def test_a_long_stay_renews_on_the_card_the_guest_authorised(self, api, client, demo_property, fake_stripe, webhook):
        reservation = book(api, fake_stripe, webhook, nights=10)
        first_day = reservation.check_in - timedelta(days=1)
        with on(first_day):
            refused_hold(reservation)
            session = fake_stripe.complete(start(client, reservation).rsplit("/", 1)[-1], card="pm_card_visa")
            webhook(stripe_event("checkout.session.completed", session))
        with on(first_day + timedelta(days=6)):
            assert place_security_deposits() == {"renewed": 1}
        assert list(reservation.security_deposits.values_list("status", flat=True)) == ["renewed", "held"]
        renewed = reservation.security_deposits.get(status="held")
        assert fake_stripe.payment_intents[renewed.provider_id]["customer"] == session["customer"]

    def test_a_lost_webhook_is_recorded_once_by_the_reconciliation_job(self, api, client, demo_property, fake_stripe, webhook):
        reservation = book(api, fake_stripe, webhook)
        with on(reservation.check_in - timedelta(days=1)):
            refused_hold(reservation)
            session = fake_stripe.complete(start(client, reservation).rsplit("/", 1)[-1], card="pm_card_visa")  # its webhook is lost
        with on(reservation.check_in - timedelta(days=1), hour=10):
            assert reconcile_open_checkouts() == 1
            assert reconcile_open_checkouts() == 0
            assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "already recorded"  # arriving late
        [deposit] = reservation.security_deposits.all()
        assert deposit.status == "held" and deposit.provider_id == session["payment_intent"]
        assert GuestCheckout.objects.get(session_id=session["id"]).settled_at is not None

    def test_a_lost_balance_webhook_is_recorded_once_by_the_reconciliation_job(self, api, client, demo_property, fake_stripe, webhook):
        body = api.post(LINK, stay(offset=90, nights=3, guests=2)).json()  # a deposit now, the balance later
        webhook(stripe_event("checkout.session.completed", fake_stripe.complete(body["session_id"], email="guest@example.com")))
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        balance = reservation.total - reservation.amount_paid
        response = client.post(f"/manage/{reservation.manage_token}/pay-balance")
        session = fake_stripe.complete(response["Location"].rsplit("/", 1)[-1])  # paid; its webhook is lost
        assert reconcile_open_checkouts() == 1
        assert reconcile_open_checkouts() == 0
        reservation.refresh_from_db()
        assert reservation.amount_paid == reservation.total and reservation.payments.filter(kind="balance", amount=balance).count() == 1
        assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "already recorded"

    def test_a_surplus_authorisation_is_released(self, api, client, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
        reservation = book(api, fake_stripe, webhook)
        with on(reservation.check_in - timedelta(days=1)):
            refused_hold(reservation)
            session = fake_stripe.complete(start(client, reservation).rsplit("/", 1)[-1], card="pm_card_visa")
        SecurityDeposit.objects.create(
            reservation=reservation, amount=300, currency="EUR", provider="stripe", provider_id="pi_other", placed_on=reservation.check_in
        )
        with django_capture_on_commit_callbacks(execute=True):
            outcome = webhook(stripe_event("checkout.session.completed", session)).json()["outcome"]
        assert outcome.startswith("released")
        assert fake_stripe.payment_intents[session["payment_intent"]]["status"] == "canceled"


class TestTheOwnerIsEmailedOnceADay:
    def test_a_refused_security_deposit(self, api, demo_property, fake_stripe, webhook, owner, settings):
        settings.LANGUAGE_CODE = "it"  # the back office's language
        reservation = book(api, fake_stripe, webhook)
        day = reservation.check_in - timedelta(days=1)
        with on(day):
            assert place_security_deposits() == {"failed": 1}
            assert place_security_deposits() == {"done_today": 1}
        with on(day, hour=15):
            place_security_deposits(as_of=day + timedelta(days=1))  # refused again, the same day for the owner
        assert len(owner_alerts("deposito cauzionale")) == 1
        with on(day + timedelta(days=1), hour=10):
            assert place_security_deposits(as_of=day + timedelta(days=2)) == {"failed": 1}
        assert len(owner_alerts("deposito cauzionale")) == 2
        assert len(guest_emails(reservation)) == 1  # the guest's link is sent once

    def test_a_refused_refund(self, api, demo_property, fake_stripe, webhook, owner):
        from booking.errors import BookingError
        from booking.payments.services.refunds import refund_payment

        reservation = book(api, fake_stripe, webhook, card="pm_card_visa")
        today = timezone.localdate()
        fake_stripe.fail_with = 500
        for hour in (9, 15):
            with on(today, hour=hour), pytest.raises(BookingError):
                refund_payment(reservation.pk, actor="marco", amount=Decimal("10"))
        assert len(owner_alerts("refund failed")) == 1
        reservation.refresh_from_db()
        assert attention(reservation).startswith("Refund failed")  # on the dashboard's attention list
        with on(today + timedelta(days=1)), pytest.raises(BookingError):
            refund_payment(reservation.pk, actor="marco", amount=Decimal("10"))
        assert len(owner_alerts("refund failed")) == 2
        fake_stripe.fail_with = None
        refund_payment(reservation.pk, actor="marco", amount=Decimal("10"))
        reservation.refresh_from_db()
        assert attention(reservation) == ""

    def test_an_overdue_balance(self, api, demo_property, fake_stripe, webhook, owner):
        from booking.payments.services.balance_charges import charge_balance

        body = api.post(LINK, stay(offset=90, nights=3, guests=2)).json()
        webhook(stripe_event("checkout.session.completed", fake_stripe.complete(body["session_id"], email="guest@example.com", card=REFUSES)))
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        due = reservation.check_in - timedelta(days=30)
        with on(due + timedelta(days=5)):
            assert charge_balance(reservation.pk, as_of=due + timedelta(days=5)) == "declined"
            assert charge_balance(reservation.pk, as_of=due + timedelta(days=6)) == "declined"  # the same day for the owner
        assert len(owner_alerts("overdue")) == 1
        with on(due + timedelta(days=7)):
            assert charge_balance(reservation.pk, as_of=due + timedelta(days=7)) == "declined"
        [first, second] = owner_alerts("overdue")
        assert reservation.booking_number in first.body and quote(reservation.pk) in first.body and first.to_address == "owner@example.com"


class TestWithTheSandbox:
    def test_end_to_end_on_the_sandbox_page(self, api, client, demo_property, sandbox):
        body = api.post(LINK, stay(offset=20)).json()
        payer = {"action": "pay", "email": "ada@example.com", "name": "Ada L", "phone": "+39 055 1234567"}
        assert client.post(body["checkout_url"].replace("http://testserver", ""), {**payer, "card_number": "4000 0000 0000 0341"}).status_code == 303
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        with on(reservation.check_in - timedelta(days=1)):
            refused_hold(reservation)
            assert len(guest_emails(reservation)) == 1
            page = start(client, reservation).replace("http://testserver", "")
            shown = client.get(page).content.decode()
            assert "300" in shown and "Hold €300.00 on the card (test)" in shown
            paid = client.post(page, {**payer, "card_number": "4242 4242 4242 4242"})
            assert paid.status_code == 303 and f"/manage/{reservation.manage_token}?paid=1" in paid["Location"]
            assert client.post(page, {**payer, "card_number": "4242 4242 4242 4242"}).status_code == 409  # once
            [deposit] = reservation.security_deposits.all()
            assert deposit.status == "held" and deposit.provider_id.startswith("pi_sandbox_")
            assert SandboxCheckout.objects.get(payment_intent_id=deposit.provider_id).status == "authorised"
            assert reconcile_open_checkouts() == 0  # already recorded
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {"released": 1}
        assert SandboxCheckout.objects.get(payment_intent_id=deposit.provider_id).status == "expired"

    def test_a_claim_on_the_sandbox(self, api, client, demo_property, sandbox):
        body = api.post(LINK, stay(offset=20)).json()
        payer = {"action": "pay", "email": "ada@example.com", "name": "Ada L", "phone": "+39 055 1234567"}
        client.post(body["checkout_url"].replace("http://testserver", ""), {**payer, "card_number": "4000 0000 0000 0341"})
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        with on(reservation.check_in - timedelta(days=1)):
            refused_hold(reservation)
            client.post(start(client, reservation).replace("http://testserver", ""), {**payer, "card_number": "4242 4242 4242 4242"})
        deposit = claim_security_deposit(reservation.security_deposits.get().pk, amount=Decimal("50"), reason="A stain.", actor="marco")
        assert deposit.status == "claimed"
        checkout = SandboxCheckout.objects.get(payment_intent_id=deposit.provider_id)
        assert (checkout.status, checkout.amount_cents) == ("complete", 5000)
