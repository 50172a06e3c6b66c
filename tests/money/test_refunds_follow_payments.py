"""Refunds follow what was paid (DESIGN "Money, second round"): the policy's refund_due is of the
total, the host keeps total − refund_due, the guest gets back what was paid beyond that (an unpaid
balance is waived), spread over the payments made, newest first, through the one locked refund
service: one provider refund per payment, each traceable to its payment intent."""

from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from booking.catalog.payment_schedule import money_back
from booking.catalog.pricing import money
from booking.payments.models import ProviderRefund
from booking.payments.schedule import scheduled_payments
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services.balance_charges import charge_due_balances
from booking.payments.services.cancellation import cancel_by_guest
from booking.payments.services.refunds import RefundNotPossible, refund_payment
from booking.reservations.models import Reservation
from discovery.ucp.present import payment_terms_json
from tests.money.test_balance_job import book_with_deposit, due_date, on
from tests.payments.conftest import stay, stripe_event
from tests.payments.test_refunds_under_concurrency import assert_books_match_the_provider, at_once

LINK = "/api/v1/payments/checkout-link"


def at_days_before_arrival(reservation, days):
    return time_machine.travel(timezone.make_aware(datetime.combine(reservation.check_in - timedelta(days=days), time(12, 0))), tick=False)


def city_tax(reservation) -> Decimal:
    return money(str(reservation.price_breakdown["city_tax"]))


def half_tier_refund_due(reservation) -> Decimal:
    """The demo's 50 % tier (7–29 days before arrival): the city tax in full, half the rest."""
    tax = city_tax(reservation)
    return tax + money((reservation.total - tax) * Decimal("0.5"))


def paid_in_two(api, fake_stripe, webhook) -> tuple[Reservation, str, str]:
    """A stay paid with its deposit at the checkout and its balance on the due date: (stay, deposit
    intent, balance intent)."""
    reservation = book_with_deposit(api, fake_stripe, webhook)
    with on(due_date(reservation)):
        assert charge_due_balances() == {"charged": 1}
    reservation.refresh_from_db()
    deposit, balance = reservation.payments.order_by("paid_at", "pk")
    assert (deposit.kind, balance.kind) == ("deposit", "balance") and reservation.amount_paid == reservation.total
    return reservation, deposit.provider_id, balance.provider_id


def refunds_by_intent(fake_stripe) -> dict[str, int]:
    made: dict[str, int] = {}
    for refund in fake_stripe.refunds:
        made[refund["payment_intent"]] = made.get(refund["payment_intent"], 0) + refund["amount"]
    return made


@pytest.mark.django_db
class TestADepositOnlyStayCancelled:
    def test_in_the_half_tier_the_deposit_is_kept_and_the_unpaid_balance_waived(self, api, demo_property, fake_stripe, webhook):
        """Demo terms: 30 % deposit. Half the total is kept, which is more than the deposit: nothing
        comes back (not half the total, not half the deposit), and the balance is never charged."""
        booked = book_with_deposit(api, fake_stripe, webhook)
        with at_days_before_arrival(booked, 20):
            assert (
                refund_if_cancelled(booked).amount
                == 0
                == money_back(total=booked.total, refund_due=half_tier_refund_due(booked), amount_paid=booked.amount_paid)
            )
            cancelled = cancel_by_guest(booked.manage_token)
        assert (cancelled.status, cancelled.amount_refunded, cancelled.refund_pending) == ("cancelled", 0, 0)
        assert not fake_stripe.refunds and not fake_stripe.calls_to("POST", "/v1/payment_intents")

    def test_with_a_larger_deposit_the_guest_gets_back_what_was_paid_beyond_the_kept_share(self, api, demo_property, fake_stripe, webhook):
        demo_property.deposit_percent = 60
        demo_property.save()
        booked = book_with_deposit(api, fake_stripe, webhook)
        expected = booked.amount_paid - (booked.total - half_tier_refund_due(booked))
        assert 0 < expected < booked.amount_paid
        assert expected != city_tax(booked) + money((booked.amount_paid - city_tax(booked)) / 2)  # not the policy applied to the deposit
        with at_days_before_arrival(booked, 20):
            assert refund_if_cancelled(booked).amount == expected
            assert api.get(f"/api/v1/reservations/{booked.pk}").json()["cancellation"]["refund_if_cancelled_now"] == float(expected)
            cancelled = cancel_by_guest(booked.manage_token)
        assert (cancelled.amount_refunded, cancelled.refund_pending) == (expected, 0)
        [refund] = fake_stripe.refunds
        assert (refund["payment_intent"], refund["amount"]) == (booked.payment_intent_id, int(expected * 100))


@pytest.mark.django_db
class TestAStayPaidInTwo:
    def test_a_refund_takes_the_balance_first_then_the_deposit_one_provider_refund_each(self, api, demo_property, fake_stripe, webhook):
        booked, deposit_intent, balance_intent = paid_in_two(api, fake_stripe, webhook)
        balance = booked.payments.get(provider_id=balance_intent).amount
        refunded = refund_payment(booked.pk, actor="staff anna", amount=balance + Decimal("10.00"), request_key="refund-two-parts")
        assert refunded.amount_refunded == balance + Decimal("10.00")
        assert [(r["payment_intent"], r["amount"]) for r in fake_stripe.refunds] == [(balance_intent, int(balance * 100)), (deposit_intent, 1000)]
        rows = ProviderRefund.objects.filter(reservation=booked).order_by("pk")
        assert [(r.payment_intent_id, r.amount, r.idempotency_key) for r in rows] == [
            (balance_intent, balance, "refund-two-parts"),
            (deposit_intent, Decimal("10.00"), "refund-two-parts-part2"),
        ]
        assert_books_match_the_provider(booked.pk, fake_stripe)
        # The same request again is the same refund: nothing more at the provider.
        refund_payment(booked.pk, actor="staff anna", amount=balance + Decimal("10.00"), request_key="refund-two-parts")
        assert len(fake_stripe.refunds) == 2

    def test_a_cancellation_refunds_the_balance_first_then_the_deposit(self, api, demo_property, fake_stripe, webhook):
        booked, deposit_intent, balance_intent = paid_in_two(api, fake_stripe, webhook)
        with at_days_before_arrival(booked, 30):  # the balance was charged this morning; the 100 % tier still applies
            assert refund_if_cancelled(booked).amount == booked.total
            cancelled = cancel_by_guest(booked.manage_token)
        assert (cancelled.amount_refunded, cancelled.refund_pending) == (booked.total, 0)
        paid = {p.provider_id: int(p.amount * 100) for p in booked.payments.all()}
        assert [r["payment_intent"] for r in fake_stripe.refunds] == [balance_intent, deposit_intent]  # newest first
        assert refunds_by_intent(fake_stripe) == paid
        rows = ProviderRefund.objects.filter(reservation=booked, kind="cancellation").order_by("pk")
        assert [r.payment_intent_id for r in rows] == [balance_intent, deposit_intent] and len({r.idempotency_key for r in rows}) == 2
        assert_books_match_the_provider(booked.pk, fake_stripe)

    def test_in_the_half_tier_only_the_newest_payment_is_refunded_when_it_covers_it(self, api, demo_property, fake_stripe, webhook):
        booked, deposit_intent, balance_intent = paid_in_two(api, fake_stripe, webhook)
        with at_days_before_arrival(booked, 20):
            due = refund_if_cancelled(booked).amount
            assert due == half_tier_refund_due(booked)  # all was paid: the money back is the policy's refund
            cancel_by_guest(booked.manage_token)
        assert [(r["payment_intent"], r["amount"]) for r in fake_stripe.refunds] == [(balance_intent, int(due * 100))]
        assert_books_match_the_provider(booked.pk, fake_stripe)

    def test_charge_refunded_of_each_payment_never_overwrites_the_stays_total(self, api, demo_property, fake_stripe, webhook):
        booked, deposit_intent, balance_intent = paid_in_two(api, fake_stripe, webhook)
        balance = booked.payments.get(provider_id=balance_intent).amount
        refund_payment(booked.pk, actor="staff anna", amount=balance + Decimal("10.00"))
        charges = {deposit_intent: 1000, balance_intent: int(balance * 100)}
        for n, (intent, cents) in enumerate(charges.items()):
            charge = {"id": f"ch_{n}", "object": "charge", "payment_intent": intent, "amount_refunded": cents, "metadata": {}}
            webhook(stripe_event("charge.refunded", charge, event_id=f"evt_refunded_{n}"))
            assert Reservation.objects.get(pk=booked.pk).amount_refunded == balance + Decimal("10.00")
        # A refund made in the provider's dashboard on the deposit's charge adds to that payment only.
        charge = {"id": "ch_0", "object": "charge", "payment_intent": deposit_intent, "amount_refunded": 1000 + 2500, "metadata": {}}
        webhook(stripe_event("charge.refunded", charge, event_id="evt_dashboard"))
        assert Reservation.objects.get(pk=booked.pk).amount_refunded == balance + Decimal("35.00")

    def test_ucp_payment_terms_show_the_deposit_and_the_balance(self, api, demo_property):
        body = api.post("/api/v1/reservations", stay(offset=90, nights=3, guests=2)).json()
        held = Reservation.objects.get(pk=body["id"])
        immediate, deferred = scheduled_payments(held)
        assert (immediate.kind, deferred.kind) == ("immediate", "deferred") and immediate.amount + deferred.amount == held.total
        assert deferred.due_at is not None and timezone.localtime(deferred.due_at).date() == held.check_in - timedelta(days=30)
        [terms] = payment_terms_json(held)
        assert [s["type"] for s in terms["schedules"]] == ["immediate", "deferred"]
        assert sum(s["amount"] for s in terms["schedules"]) == int(held.total * 100)


class TestTwoStaffRefundsAtOnceOnTwoPayments:
    def test_they_never_refund_more_than_was_paid(self, transactional_db, demo_property, api, fake_stripe, webhook):
        booked, deposit_intent, balance_intent = paid_in_two(api, fake_stripe, webhook)
        fake_stripe.delay_seconds = 1
        most = booked.amount_paid - Decimal("50.00")  # each alone would take the balance and most of the deposit
        results = at_once(
            lambda: refund_payment(booked.pk, actor="staff anna", amount=most),
            lambda: refund_payment(booked.pk, actor="staff bruno", amount=most),
        )
        assert sorted(type(result).__name__ for result in results) == ["RefundNotPossible", "Reservation"], results
        refunded = assert_books_match_the_provider(booked.pk, fake_stripe)
        assert refunded.amount_refunded == most <= refunded.amount_paid
        paid = {p.provider_id: int(p.amount * 100) for p in booked.payments.all()}
        assert all(cents <= paid[intent] for intent, cents in refunds_by_intent(fake_stripe).items())
        with pytest.raises(RefundNotPossible):
            refund_payment(booked.pk, actor="staff carla", amount=Decimal("50.01"))
        refund_payment(booked.pk, actor="staff carla", amount=Decimal("50.00"))
        assert assert_books_match_the_provider(booked.pk, fake_stripe).amount_refunded == booked.amount_paid
