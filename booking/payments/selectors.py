"""Reads of money on a stay: what a cancellation would give back, what date changes refunded."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone

from booking.catalog import pricing
from booking.catalog.payment_schedule import money_back
from booking.payments.models import ProviderRefund
from booking.reservations.models import Reservation
from booking.reservations.selectors import accepted_tiers


@dataclass(frozen=True)
class RefundQuote:
    """What the guest would get back if the stay were cancelled on `on` (the property's local date)."""

    amount: Decimal
    currency: str
    days_before_arrival: int
    on: date


def refund_if_cancelled(reservation: Reservation, *, on: date | None = None) -> RefundQuote:
    """The money back for cancelling on a local date (today by default), DESIGN "Refunds with partial
    payment": the accepted policy gives the guest refund_due of the total (the city tax in full, the
    rest by the tier); the host keeps total − refund_due, so the guest gets what was paid beyond that,
    less what was already refunded. An unpaid balance is waived, never charged."""
    on = on or timezone.localdate()
    if reservation.status != Reservation.Status.CONFIRMED:
        return RefundQuote(Decimal("0.00"), reservation.currency, (reservation.check_in - on).days, on)
    city_tax = pricing.money(str((reservation.price_breakdown or {}).get("city_tax") or "0"))
    total = reservation.total
    refund_due = pricing.refund_for_cancellation(
        tiers=accepted_tiers(reservation), check_in=reservation.check_in, today=on, paid=total, city_tax=city_tax, already_refunded=Decimal("0")
    )
    amount = money_back(total=total, refund_due=refund_due, amount_paid=reservation.amount_paid, already_refunded=reservation.amount_refunded)
    return RefundQuote(amount, reservation.currency, (reservation.check_in - on).days, on)


# The refund service's idempotency keys of the refunds a date change makes (services/date_changes.py).
DATE_CHANGE_REFUND_PREFIX = "date-change-"


def _date_change_refunds():
    return ProviderRefund.objects.filter(idempotency_key__startswith=DATE_CHANGE_REFUND_PREFIX).exclude(status=ProviderRefund.Status.FAILED)


def stays_given_back_for_date_changes() -> set[str]:
    """The reservations a date change refunded (the balance job also looks at those paid in full)."""
    return set(_date_change_refunds().values_list("reservation_id", flat=True))


def given_back_for_date_changes(reservation: Reservation) -> Decimal:
    """Refunds made or being made because a date change lowered the total (failed ones excluded):
    owed again if the stay later costs more (services/balances.balance_owed, the API's balance_due)."""
    if reservation.pk is None:
        return Decimal("0.00")
    return _date_change_refunds().filter(reservation_id=reservation.pk).aggregate(total=Sum("amount"))["total"] or Decimal("0.00")
