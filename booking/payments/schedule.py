"""When the guest pays what: a reservation's payment schedule as its readers (UCP `payment.terms`)
show it. The schedule itself is decided once, when the stay is held, and stored on the reservation
(booking/catalog/payment_schedule.py, DESIGN "Money, second round"): a deposit now and the balance on its
due date, or the total at once. A reservation held before schedules existed pays its total at once.
"""

from dataclasses import dataclass
from datetime import datetime, time
from decimal import Decimal

from django.utils import timezone

from booking.catalog import payment_schedule as schedules
from booking.reservations.models import Reservation


@dataclass(frozen=True)
class ScheduledPayment:
    kind: str  # "immediate" (due on booking), "deferred" (due at `due_at`) or "at_property"
    amount: Decimal
    currency: str
    description: str
    due_at: datetime | None = None


def scheduled_payments(reservation: Reservation) -> list[ScheduledPayment]:
    """The payments that together make the reservation's total, in the order they fall due. A
    deferred payment falls due at the start of its due date in the property's time zone (the
    balance job charges it that day, to the card kept at the checkout)."""
    stored = schedules.stored_schedule(reservation.payment_schedule, reservation.total)
    if len(stored) == 1:
        return [ScheduledPayment("immediate", stored[0].amount, reservation.currency, "The full price, paid by card when the stay is booked.")]
    payments = []
    for entry in stored:
        if entry.type == schedules.IMMEDIATE:
            payments.append(ScheduledPayment("immediate", entry.amount, reservation.currency, "The deposit, paid by card when the stay is booked."))
        else:
            due_at = datetime.combine(entry.due_date, time(0), tzinfo=timezone.get_default_timezone()) if entry.due_date else None
            description = f"The balance, charged on {entry.due_date} to the card used for the deposit."
            payments.append(ScheduledPayment("deferred", entry.amount, reservation.currency, description, due_at))
    return payments
