"""The policy the guest accepted applies: the tiers and payment terms are copied onto the
reservation when it is held, so an owner editing them later changes only new bookings."""

import importlib
from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from booking.catalog.models import CancellationTier
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services.cancellation import cancel_by_guest
from booking.reservations.models import Reservation
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"


def paid_stay(api, fake_stripe, webhook, days_ahead=60) -> Reservation:
    body = api.post(LINK, stay(offset=days_ahead, nights=3, guests=2)).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


def owner_makes_the_policy_strict(prop):
    """Nothing back, whenever the guest cancels (the city tax aside)."""
    prop.cancellation_tiers.all().delete()
    CancellationTier.objects.create(property=prop, days_before_arrival=0, refund_percent=0)


def at_days_before_arrival(reservation, days):
    return time_machine.travel(timezone.make_aware(datetime.combine(reservation.check_in - timedelta(days=days), time(12, 0))), tick=False)


def test_the_hold_copies_the_terms_in_force(api, demo_property):
    body = api.post("/api/v1/reservations", stay(offset=90)).json()
    terms = Reservation.objects.get(pk=body["id"]).accepted_terms
    assert terms == {
        "cancellation_tiers": [
            {"days_before_arrival": 30, "refund_percent": "100"},
            {"days_before_arrival": 7, "refund_percent": "50"},
            {"days_before_arrival": 0, "refund_percent": "0"},
        ],
        "deposit_percent": "30",
        "balance_due_days": 30,
        "security_deposit": "300.00",
    }


def test_editing_the_tiers_after_booking_keeps_the_old_refund(api, demo_property, fake_stripe, webhook):
    booked = paid_stay(api, fake_stripe, webhook)
    owner_makes_the_policy_strict(demo_property)
    with at_days_before_arrival(booked, 45):
        booked.refresh_from_db()
        assert refund_if_cancelled(booked).amount == booked.amount_paid  # the 100 % tier the guest accepted
        shown = api.get(f"/api/v1/reservations/{booked.pk}").json()["cancellation"]
        assert "full refund" in shown["policy"]
        cancelled = cancel_by_guest(booked.manage_token)
    assert cancelled.amount_refunded == booked.amount_paid
    # A booking made after the edit gets the new policy.
    later = paid_stay(api, fake_stripe, webhook, days_ahead=120)
    with at_days_before_arrival(later, 45):
        tax = Decimal(str(later.price_breakdown["city_tax"]))
        # The new policy gives back only the city tax of the total; the host keeps the rest, which is
        # more than the deposit paid so far: nothing comes back and the balance is waived.
        assert later.amount_paid < later.total - tax
        assert refund_if_cancelled(later).amount == 0


def test_the_migration_gives_existing_reservations_the_tiers_in_force(api, demo_property):
    body = api.post("/api/v1/reservations", stay(offset=90)).json()
    Reservation.objects.filter(pk=body["id"]).update(accepted_terms={}, payment_schedule=[])
    name = "0021_accepted_terms_on_reservations"
    migration = importlib.import_module(f"booking.migrations.{name}")
    migration.copy_terms_in_force(MigrationLoader(connection).project_state(("booking", name)).apps, None)
    reservation = Reservation.objects.get(pk=body["id"])
    assert [t["days_before_arrival"] for t in reservation.accepted_terms["cancellation_tiers"]] == [30, 7, 0]
    assert reservation.accepted_terms["deposit_percent"] == "0"  # they were sold as paid in full
    assert reservation.payment_schedule == [{"type": "immediate", "amount": float(reservation.total), "due_date": None}]
