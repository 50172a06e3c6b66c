"""What a date change leaves owed is charged, and only once per debt (docs/date-changes.md, "The
money"): the balance job charges a debt whose new check-in leaves no balance date ahead, refused
cards take the usual path, and a new debt of the same amount on the same date gets a new key."""

from datetime import timedelta
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
import time_machine
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.payments.models import BalanceAttempt, GuestCheckout, ProviderRefund
from booking.payments.services.balance_charges import charge_due_balances
from booking.payments.services.balances import balance_owed
from booking.payments.services.date_changes import change_dates
from booking.reservations.models import Reservation
from tests.attention import attention
from tests.dates import future, today
from tests.money.test_balance_job import on
from tests.money.test_date_changes import PAYER, STAFF, book_and_pay

DECLINES_LATER = "4000 0000 0000 0341"


def deferred(reservation: Reservation) -> dict:
    [entry] = [e for e in reservation.payment_schedule if e["type"] == "deferred"]
    return entry


def sums_to_total(reservation: Reservation) -> bool:
    return sum(Decimal(str(e["amount"])) for e in reservation.payment_schedule) == reservation.total


@pytest.mark.django_db
class TestOwedAfterAChangeIsDue:
    def test_a_deposit_stay_moved_near_its_check_in_is_charged_its_balance(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        assert reservation.amount_paid < reservation.total
        moved = change_dates(reservation.pk, future(10), future(13), actor=STAFF, by_guest=False).reservation
        owed = balance_owed(moved)
        assert owed > 0 and deferred(moved) == {"type": "deferred", "amount": float(owed), "due_date": str(today())}
        assert sums_to_total(moved)
        body = client.get(f"/api/v1/reservations/{moved.pk}").json()["payment"]
        assert body["balance_due_date"] == str(today()) and body["amount_due"] == float(owed)
        assert charge_due_balances() == {"charged": 1}
        moved.refresh_from_db()
        assert moved.amount_paid == moved.total and balance_owed(moved) == 0

    def test_a_paid_stay_made_dearer_inside_the_balance_window_is_charged_the_difference(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 10)
        assert reservation.amount_paid == reservation.total
        moved = change_dates(reservation.pk, future(10), future(14), actor=STAFF, by_guest=False).reservation
        assert deferred(moved)["amount"] == float(moved.total - reservation.total) and sums_to_total(moved)
        assert charge_due_balances() == {"charged": 1}
        moved.refresh_from_db()
        assert moved.amount_paid == moved.total

    def test_a_refused_card_takes_the_declined_grace_and_flag_path(self, client, demo_property, sandbox):
        link = client.post(
            "/api/v1/payments/checkout-link",
            {"check_in": str(future(60)), "check_out": str(future(63)), "guests": 2},
            content_type="application/json",
        ).json()
        assert client.post(urlsplit(link["checkout_url"]).path, {**PAYER, "card_number": DECLINES_LATER}).status_code == 303
        start = today()
        change_dates(link["reservation_id"], future(10), future(13), actor=STAFF, by_guest=False)
        for day in range(6):
            with on(start + timedelta(days=day)):
                assert charge_due_balances() == {"declined": 1}
        reservation = Reservation.objects.get(pk=link["reservation_id"])
        assert reservation.status == "confirmed" and attention(reservation).startswith("Balance overdue")
        [email] = OutboundEmail.objects.filter(kind="balance_declined")
        assert f"/manage/{reservation.manage_token}/pay-balance" in email.body
        assert BalanceAttempt.objects.filter(reservation=reservation, outcome="declined").count() == 6

    def test_the_guest_may_pay_it_by_link_instead(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        moved = change_dates(reservation.pk, future(10), future(13), actor=STAFF, by_guest=False).reservation
        page = client.post(f"/manage/{moved.manage_token}/pay-balance")
        assert client.post(urlsplit(page["Location"]).path, PAYER).status_code == 303
        moved.refresh_from_db()
        assert moved.amount_paid == moved.total
        assert charge_due_balances() == {}  # nothing left for the job


@pytest.mark.django_db
class TestEachDebtItsOwnCharge:
    def test_the_same_amount_owed_again_on_the_same_date_is_charged_again(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 10)  # paid in full
        start = today()
        with on(start):
            dearer = change_dates(reservation.pk, future(10), future(14), actor=STAFF, by_guest=False)
            assert charge_due_balances() == {"charged": 1}
            cheaper = change_dates(reservation.pk, future(10), future(13), actor=STAFF, by_guest=False)
            assert cheaper.quote.refund == dearer.quote.owed and not cheaper.refund_failed
            again = change_dates(reservation.pk, future(10), future(14), actor=STAFF, by_guest=False)
            assert again.quote.owed == dearer.quote.owed
            assert charge_due_balances() == {"tried_today": 1}
        with on(start + timedelta(days=1)):
            assert charge_due_balances() == {"charged": 1}
        moved = Reservation.objects.get(pk=reservation.pk)
        assert moved.payments.filter(kind="balance", amount=dearer.quote.owed).count() == 2
        assert moved.amount_paid - moved.amount_refunded == moved.total and balance_owed(moved) == 0


@pytest.mark.django_db
class TestTheRefundSurvivesACrash:
    def test_the_refund_is_requested_in_the_changes_transaction_and_the_refund_job_makes_it(self, client, demo_property, sandbox, monkeypatch):
        from booking.payments.services import date_changes, refunds

        reservation = book_and_pay(client, 10, nights=4)  # paid in full
        start = timezone.now()

        def dies(*args, **kwargs):
            raise RuntimeError("the process died after the commit")

        monkeypatch.setattr(date_changes, "_refund", dies)
        with pytest.raises(RuntimeError):
            change_dates(reservation.pk, future(10), future(13), actor=STAFF, by_guest=False)
        moved = Reservation.objects.get(pk=reservation.pk)
        excess = reservation.total - moved.total
        assert moved.check_out == future(13) and excess > 0 and moved.amount_refunded == 0  # moved, email queued, nothing refunded yet
        [request] = ProviderRefund.objects.filter(reservation=moved)
        assert request.status == "requested" and request.amount == excess and request.idempotency_key.startswith("date-change-")
        monkeypatch.undo()
        with time_machine.travel(start + refunds.REDRIVE_AFTER + timedelta(minutes=1), tick=False):
            assert refunds.redrive_stale_requests() == 1
        moved.refresh_from_db()
        request.refresh_from_db()
        assert request.status == "succeeded" and moved.amount_refunded == excess and balance_owed(moved) == 0


@pytest.mark.django_db
class TestBalancePages:
    def pay_balance_page(self, client, reservation: Reservation) -> str:
        page = client.post(f"/manage/{reservation.manage_token}/pay-balance")
        assert page.status_code == 303
        return page["Location"]

    def test_an_open_page_for_the_same_balance_is_reused(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        first = self.pay_balance_page(client, reservation)
        assert self.pay_balance_page(client, reservation) == first
        assert GuestCheckout.objects.filter(reservation=reservation, purpose="balance").count() == 1

    def test_a_change_closes_the_old_page_and_nobody_pays_the_old_amount(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        old_page = self.pay_balance_page(client, reservation)
        change_dates(reservation.pk, future(60), future(64), actor=STAFF, by_guest=False)
        [old] = GuestCheckout.objects.filter(reservation=reservation, purpose="balance")
        assert old.settled_at is not None
        client.post(urlsplit(old_page).path, PAYER)  # the guest pays the page they still have open
        moved = Reservation.objects.get(pk=reservation.pk)
        assert moved.amount_paid == reservation.amount_paid and not ProviderRefund.objects.exists()  # nothing taken, nothing to give back
        new_page = self.pay_balance_page(client, moved)
        assert new_page != old_page
        assert client.post(urlsplit(new_page).path, PAYER).status_code == 303
        moved.refresh_from_db()
        assert moved.amount_paid == moved.total and not ProviderRefund.objects.exists()


@pytest.mark.django_db
def test_a_paid_stay_refunded_down_to_its_new_total_is_still_paid(client, demo_property, sandbox):
    reservation = book_and_pay(client, 10, nights=4)
    moved = change_dates(reservation.pk, future(10), future(13), actor=STAFF, by_guest=False).reservation
    assert moved.amount_refunded > 0 and moved.amount_paid - moved.amount_refunded == moved.total
    assert client.get(f"/api/v1/reservations/{moved.pk}").json()["payment"]["status"] == "paid"


@pytest.mark.django_db
class TestSpecialPrice:
    def book_at_special_price(self, client, price: Decimal) -> Reservation:
        from booking.payments.services.owner_bookings import Party, book_for_guest
        from booking.reservations.services.holds import GuestDetails

        held = book_for_guest(
            check_in=future(60),
            check_out=future(63),
            party=Party(adults=2),
            guest=GuestDetails("Ada", "Lovelace", "ada@example.com", "+39 055 1234567"),
            language="en",
            staff="staff giulia",
            special_price=price,
        )
        opened = client.get(f"/pay/{held.pk}")
        assert client.post(urlsplit(opened["Location"]).path, PAYER).status_code == 303
        held.refresh_from_db()
        assert held.status == "confirmed"
        return held

    def test_the_hosts_price_per_night_is_kept_for_the_new_nights(self, client, demo_property, sandbox):
        reservation = self.book_at_special_price(client, Decimal("400.00"))
        old = reservation.price_breakdown
        assert [d["kind"] for d in old["discounts"]] == ["host_price"] and reservation.total < Decimal("500")
        per_night = (Decimal(str(old["accommodation"])) + Decimal(str(old["discount_amount"]))) / 3
        moved = change_dates(reservation.pk, future(70), future(74), actor=STAFF, by_guest=False)
        new = moved.reservation.price_breakdown
        fees = Decimal(str(new["cleaning_fee"])) + Decimal(str(new.get("extras_total") or 0))
        assert moved.quote.special_price == (per_night * 4).quantize(Decimal("0.01")) + fees
        assert moved.reservation.total == moved.quote.special_price + Decimal(str(new["city_tax"]))
        assert [d["kind"] for d in new["discounts"]] == ["host_price"]
        assert Decimal(str(new["accommodation"])) + Decimal(str(new["discount_amount"])) == (per_night * 4).quantize(Decimal("0.01"))

    def test_a_stay_at_list_price_is_priced_as_a_new_booking(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        moved = change_dates(reservation.pk, future(70), future(74), actor=STAFF, by_guest=False)
        assert moved.quote.special_price is None
        assert "Special price from the host" not in str(moved.reservation.price_breakdown)
