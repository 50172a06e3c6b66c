"""The balance of a stay paid with a deposit, charged to the saved card on its due date (demo terms:
30 % deposit, balance 30 days before check-in, 5 grace days). Time is moved with time_machine; the
provider is the Stripe-compatible fake (tests/payments/fake_stripe.py) or the sandbox."""

import threading
from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.payments.models import BalanceAttempt, Payment
from booking.payments.services.balance_charges import charge_balance, charge_due_balances
from booking.payments.services.balances import balance_owed
from booking.payments.services.date_changes import change_dates
from booking.reservations.models import Reservation
from booking.reservations.services.audit import resolve_flags
from tests.attention import attention
from tests.conftest import is_postgresql
from tests.payments.conftest import stay, stripe_event

LINK = "/api/v1/payments/checkout-link"
DAYS_AHEAD = 90


def book_with_deposit(api, fake_stripe, webhook, *, card="pm_card_visa", email="guest@example.com") -> Reservation:
    body = api.post(LINK, stay(offset=DAYS_AHEAD, nights=3, guests=2)).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    deposit = Decimal(str(reservation.payment_schedule[0]["amount"]))
    assert body["amount"] == float(deposit) < float(reservation.total)  # the checkout charges the deposit only
    session = fake_stripe.complete(body["session_id"], email=email, card=card)
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    reservation.refresh_from_db()
    return reservation


def on(day, hour=9):
    """The property's local date `day`, at `hour`."""
    return time_machine.travel(timezone.make_aware(datetime.combine(day, time(hour, 0))), tick=False)


def due_date(reservation):
    return reservation.check_in - timedelta(days=30)


def intent_calls(fake_stripe):
    return fake_stripe.calls_to("POST", "/v1/payment_intents")


@pytest.fixture
def owner(settings):
    settings.OWNER_EMAIL = "owner@example.com"


@pytest.mark.django_db
class TestWithStripe:
    def test_the_checkout_saves_the_card_and_records_the_deposit(self, api, demo_property, fake_stripe, webhook):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        [create] = fake_stripe.calls_to("POST", "/v1/checkout/sessions")
        assert create.form["customer_creation"] == "always"
        assert create.form["payment_intent_data[setup_future_usage]"] == "off_session"
        [payment] = reservation.payments.all()
        assert (payment.kind, payment.amount, payment.provider_id) == ("deposit", reservation.amount_paid, reservation.payment_intent_id)
        assert payment.customer_id.startswith("cus_")
        body = api.get(f"/api/v1/reservations/{reservation.pk}").json()["payment"]
        assert body["status"] == "deposit_paid"
        assert Decimal(str(body["balance_due"])) == reservation.total - reservation.amount_paid
        assert body["balance_due_date"] == str(due_date(reservation)) and body["amount_due"] == 0

    def test_nothing_is_charged_before_the_due_date(self, api, demo_property, fake_stripe, webhook):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        with on(due_date(reservation) - timedelta(days=1)):
            assert charge_due_balances() == {"not_due": 1}
        assert not intent_calls(fake_stripe)

    def test_on_the_due_date_the_balance_is_charged_off_session_once(self, api, demo_property, fake_stripe, webhook, django_capture_on_commit_callbacks):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        balance = reservation.total - reservation.amount_paid
        mail.outbox.clear()
        with on(due_date(reservation)), django_capture_on_commit_callbacks(execute=True):
            assert charge_due_balances() == {"charged": 1}
            assert charge_due_balances() == {}  # run twice: nothing is owed any more
        [call] = intent_calls(fake_stripe)
        assert call.form["off_session"] == "true" and call.form["confirm"] == "true"
        assert call.form["amount"] == str(int(balance * 100)) and call.form["payment_method"] == "pm_card_visa"
        assert call.headers["idempotency-key"] == f"balance-{reservation.pk}-{due_date(reservation)}-{int(balance * 100)}-p1-try1"
        reservation.refresh_from_db()
        assert reservation.amount_paid == reservation.total
        assert [p.kind for p in reservation.payments.all()] == ["deposit", "balance"]
        assert api.get(f"/api/v1/reservations/{reservation.pk}").json()["payment"]["status"] == "paid"
        [email] = [m for m in mail.outbox if m.to == ["guest@example.com"] and "Payment received" in m.subject]
        assert f"/manage/{reservation.manage_token}" in email.body

    def test_the_command_runs_the_same_job_as_of_a_date(self, api, demo_property, fake_stripe, webhook, capsys):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        call_command("charge_due_balances", "--as-of", str(due_date(reservation) - timedelta(days=1)))
        assert "not_due: 1" in capsys.readouterr().out
        call_command("charge_due_balances", "--as-of", str(due_date(reservation) + timedelta(days=2)))  # catching up after downtime
        assert "charged: 1" in capsys.readouterr().out
        reservation.refresh_from_db()
        assert reservation.amount_paid == reservation.total

    def test_a_provider_outage_is_retried_the_same_day_with_the_same_key(self, api, demo_property, fake_stripe, webhook):
        reservation = book_with_deposit(api, fake_stripe, webhook)
        with on(due_date(reservation)):
            fake_stripe.fail_with = 500
            assert charge_due_balances() == {"provider_unavailable": 1}
            fake_stripe.fail_with = None
            assert charge_due_balances() == {"charged": 1}
        assert len({call.headers["idempotency-key"] for call in intent_calls(fake_stripe)}) == 1
        reservation.refresh_from_db()
        assert reservation.amount_paid == reservation.total

    def test_a_refused_card_keeps_the_stay_emails_a_link_retries_daily_then_flags_after_grace(
        self, api, demo_property, fake_stripe, webhook, owner, django_capture_on_commit_callbacks
    ):
        reservation = book_with_deposit(api, fake_stripe, webhook, card="pm_card_chargeCustomerFail")
        mail.outbox.clear()
        due = due_date(reservation)
        for day in range(6):
            with on(due + timedelta(days=day)), django_capture_on_commit_callbacks(execute=True):
                assert charge_due_balances() == {"declined": 1}
                assert charge_due_balances() == {"tried_today": 1}  # once a day
            reservation.refresh_from_db()
            assert reservation.status == "confirmed"
            assert bool(attention(reservation)) is (day >= 5)
        keys = [call.headers["idempotency-key"] for call in intent_calls(fake_stripe)]
        assert len(keys) == len(set(keys)) == 6  # a fresh key for each daily try
        [to_guest] = [m for m in mail.outbox if m.to == ["guest@example.com"] and "refused" in m.subject]  # one email, not six
        assert f"/manage/{reservation.manage_token}" in to_guest.body
        [to_owner] = [m for m in mail.outbox if m.to == ["owner@example.com"] and "overdue" in m.subject.lower()]
        assert reservation.booking_number in to_owner.body and quote(reservation.pk) in to_owner.body
        assert BalanceAttempt.objects.filter(reservation=reservation, outcome="declined").count() == 6

    def test_the_guest_pays_the_balance_from_the_manage_page(self, api, client, demo_property, fake_stripe, webhook):
        reservation = book_with_deposit(api, fake_stripe, webhook, card="pm_card_chargeCustomerFail")
        page = client.get(f"/manage/{reservation.manage_token}")
        assert page.status_code == 200 and "pay-balance" in page.content.decode()
        response = client.post(f"/manage/{reservation.manage_token}/pay-balance")
        assert response.status_code == 303
        session_id = response["Location"].rsplit("/", 1)[-1]
        balance = reservation.total - reservation.amount_paid
        assert fake_stripe.sessions[session_id]["amount_total"] == int(balance * 100)
        session = fake_stripe.complete(session_id, card="pm_card_visa")
        assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == f"balance of {balance} EUR paid"
        assert webhook(stripe_event("checkout.session.completed", session, event_id="evt_again")).json()["outcome"] == "already recorded"
        reservation.refresh_from_db()
        assert reservation.amount_paid == reservation.total and reservation.payments.count() == 2
        with on(due_date(reservation)):
            assert charge_due_balances() == {}  # nothing left for the job
        assert not intent_calls(fake_stripe)


@pytest.mark.django_db
class TestWithTheSandbox:
    def pay_deposit(self, client, api, card: str) -> Reservation:
        body = api.post(LINK, stay(offset=DAYS_AHEAD)).json()
        page = client.post(
            body["checkout_url"].replace("http://testserver", ""),
            {"action": "pay", "email": "ada@example.com", "name": "Ada L", "phone": "+39 055 1234567", "card_number": card},
        )
        assert page.status_code == 303
        return Reservation.objects.get(pk=body["reservation_id"])

    def test_the_test_card_that_declines_later(self, client, api, demo_property, sandbox):
        reservation = self.pay_deposit(client, api, "4000 0000 0000 0341")
        assert reservation.status == "confirmed" and reservation.amount_paid < reservation.total
        with on(due_date(reservation)):
            assert charge_due_balances() == {"declined": 1}

    def test_a_good_test_card_is_charged(self, client, api, demo_property, sandbox):
        reservation = self.pay_deposit(client, api, "4242 4242 4242 4242")
        with on(due_date(reservation)):
            assert charge_due_balances() == {"charged": 1}
            assert charge_due_balances() == {}
        reservation.refresh_from_db()
        assert reservation.amount_paid == reservation.total
        balance = reservation.payments.get(kind="balance")
        assert balance.provider == "sandbox" and balance.provider_id.startswith("pi_sandbox_")


@pytest.mark.timeout(60)
def test_two_workers_racing_charge_once(transactional_db, api, demo_property, fake_stripe, webhook):
    if not is_postgresql():
        pytest.skip("two workers at once need PostgreSQL's row locks (SQLite serialises every writer anyway)")
    reservation = book_with_deposit(api, fake_stripe, webhook)
    fake_stripe.delay_seconds = 0.3  # both workers are inside the job while the provider answers
    barrier, outcomes = threading.Barrier(2), []

    def worker():
        try:
            barrier.wait(timeout=10)
            outcomes.append(charge_balance(reservation.pk, as_of=due_date(reservation)))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["charged", "tried_today"]
    assert len(intent_calls(fake_stripe)) == 1
    assert Payment.objects.filter(reservation=reservation, kind="balance").count() == 1


@pytest.mark.django_db
class TestAChargeWhoseAnswerWasLost:
    """The provider charged the card, but its answer never came back (a timeout, every retry of the
    SDK too). Before the next run the stay's dates change, so the balance owed changes: the next run
    must ask about the charge it sent, not send a second one for the new amount."""

    def lose_the_answer_on_the_due_date(self, api, fake_stripe, webhook) -> Reservation:
        reservation = book_with_deposit(api, fake_stripe, webhook)
        with on(due_date(reservation)):
            fake_stripe.lose_answers = True
            assert charge_due_balances() == {"provider_unavailable": 1}
            fake_stripe.lose_answers = False
        [made] = [i for i in fake_stripe.payment_intents.values() if i.get("metadata", {}).get("purpose") == "balance"]
        assert made["status"] == "succeeded"  # the money was taken; nothing recorded it yet
        assert reservation.payments.count() == 1
        return reservation

    def balance_charges(self, fake_stripe) -> list[int]:
        return [i["amount"] for i in fake_stripe.payment_intents.values() if i.get("metadata", {}).get("purpose") == "balance"]

    def test_a_dearer_change_in_between_records_the_lost_charge_then_charges_only_the_difference(self, api, demo_property, fake_stripe, webhook):
        reservation = self.lose_the_answer_on_the_due_date(api, fake_stripe, webhook)
        first_balance = reservation.total - reservation.amount_paid
        with on(due_date(reservation)):
            dearer = change_dates(reservation.pk, reservation.check_in, reservation.check_out + timedelta(days=1), actor="staff:test", by_guest=False)
            assert dearer.quote.total > reservation.total
            assert charge_due_balances() == {"charged": 1}  # the lost charge, asked again with its key
        moved = Reservation.objects.get(pk=reservation.pk)
        assert moved.amount_paid == reservation.amount_paid + first_balance
        with on(due_date(reservation) + timedelta(days=1)):
            assert charge_due_balances() == {"charged": 1}  # the difference the change added
            assert charge_due_balances() == {}  # nothing is owed any more
        moved.refresh_from_db()
        assert self.balance_charges(fake_stripe) == [int(first_balance * 100), int((moved.total - reservation.total) * 100)]
        assert moved.amount_paid == moved.total and moved.amount_refunded == 0 and balance_owed(moved) == 0

    def test_a_cheaper_change_in_between_records_the_lost_charge_and_gives_back_the_excess(self, api, demo_property, fake_stripe, webhook):
        reservation = self.lose_the_answer_on_the_due_date(api, fake_stripe, webhook)
        first_balance = reservation.total - reservation.amount_paid
        with on(due_date(reservation)):
            cheaper = change_dates(reservation.pk, reservation.check_in, reservation.check_out - timedelta(days=1), actor="staff:test", by_guest=False)
            assert cheaper.quote.total < reservation.total and cheaper.quote.refund == 0  # only the deposit is known to be paid
            assert charge_due_balances() == {"charged": 1}
            assert charge_due_balances() == {}  # paid, the excess given back: nothing to ask
        moved = Reservation.objects.get(pk=reservation.pk)
        assert self.balance_charges(fake_stripe) == [int(first_balance * 100)]  # no second charge
        assert moved.amount_paid == reservation.total
        assert moved.amount_paid - moved.amount_refunded == moved.total  # the excess went back at once
        assert sum(r["amount"] for r in fake_stripe.refunds) == int((reservation.total - moved.total) * 100)

    def test_a_stay_paid_on_its_page_in_between_still_asks_about_the_lost_charge(self, api, client, demo_property, fake_stripe, webhook):
        reservation = self.lose_the_answer_on_the_due_date(api, fake_stripe, webhook)
        first_balance = reservation.total - reservation.amount_paid
        session_id = client.post(f"/manage/{reservation.manage_token}/pay-balance")["Location"].rsplit("/", 1)[-1]
        session = fake_stripe.complete(session_id, card="pm_card_visa")  # a new Stripe customer: the newest card
        assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == f"balance of {first_balance} EUR paid"
        with on(due_date(reservation), hour=11):
            assert charge_due_balances() == {"charged": 1}  # sent again with the first customer and card, as Stripe requires
        moved = Reservation.objects.get(pk=reservation.pk)
        assert self.balance_charges(fake_stripe) == [int(first_balance * 100)]
        assert moved.payments.count() == 3 and moved.amount_paid - moved.amount_refunded == moved.total  # the page's payment went back
        [attempt] = BalanceAttempt.objects.filter(reservation=moved)
        assert attempt.outcome == "succeeded" and attempt.customer_id == moved.payments.order_by("paid_at")[0].customer_id

    def test_a_lost_answer_older_than_the_providers_memory_of_its_key_is_left_to_staff(self, api, demo_property, fake_stripe, webhook):
        reservation = self.lose_the_answer_on_the_due_date(api, fake_stripe, webhook)
        with on(due_date(reservation) + timedelta(days=1)):
            assert charge_due_balances() == {"left_to_staff": 1}, "the same key a day later would be a second charge"
            assert charge_due_balances() == {"waiting_for_staff": 1}
        with on(due_date(reservation) + timedelta(days=2)):
            assert charge_due_balances() == {"waiting_for_staff": 1}, "nothing more is charged until staff looked"
        assert len(self.balance_charges(fake_stripe)) == 1
        flagged = Reservation.objects.get(pk=reservation.pk)
        assert attention(flagged).startswith("A balance charge of")
        resolve_flags(flagged, "flag_balance_answer_lost", by="staff admin")  # staff looked (and refunded it in Stripe's dashboard)
        with on(due_date(reservation) + timedelta(days=3)):
            assert charge_due_balances() == {"charged": 1}

    def test_a_refused_charge_sent_again_after_the_page_was_paid_asks_nothing_of_the_guest(self, api, client, demo_property, fake_stripe, webhook):
        reservation = book_with_deposit(api, fake_stripe, webhook, card="pm_card_chargeCustomerFail")
        with on(due_date(reservation)):
            fake_stripe.fail_with = 500
            assert charge_due_balances() == {"provider_unavailable": 1}
            fake_stripe.fail_with = None
        session_id = client.post(f"/manage/{reservation.manage_token}/pay-balance")["Location"].rsplit("/", 1)[-1]
        webhook(stripe_event("checkout.session.completed", fake_stripe.complete(session_id, card="pm_card_visa")))
        mail.outbox.clear()
        with on(due_date(reservation), hour=11):
            assert charge_due_balances() == {"declined": 1}
        moved = Reservation.objects.get(pk=reservation.pk)
        assert moved.amount_paid == moved.total and attention(moved) == ""
        assert not OutboundEmail.objects.filter(reservation=moved, kind=OutboundEmail.Kind.BALANCE_DECLINED).exists()

    def test_a_stay_cancelled_in_between_is_left_to_staff_not_charged_again(self, api, demo_property, fake_stripe, webhook):
        reservation = self.lose_the_answer_on_the_due_date(api, fake_stripe, webhook)
        Reservation.objects.filter(pk=reservation.pk).update(status=Reservation.Status.CANCELLED)
        with on(due_date(reservation), hour=11):
            assert charge_due_balances() == {"left_to_staff": 1}
            assert charge_due_balances() == {}  # flagged once
            assert charge_balance(reservation.pk, as_of=due_date(reservation)) == "not_due"
        ended = Reservation.objects.get(pk=reservation.pk)
        assert len(self.balance_charges(fake_stripe)) == 1, "a stay that is over is never asked to pay"
        [attempt] = BalanceAttempt.objects.filter(reservation=ended)
        assert attempt.outcome == "unknown" and attempt.idempotency_key in attention(ended)
        assert attention(ended).startswith("A balance charge of")
