"""When the guest pays what: the one place a reservation's payment schedule is decided.

Today every stay is paid in full when it is booked (one immediate payment of the total). A deposit
and balance schedule replaces this function's body; its readers (UCP `payment.terms`, and later the
checkout and the emails) need not change.
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from booking.models import Reservation


@dataclass(frozen=True)
class ScheduledPayment:
    kind: str  # "immediate" (due on booking), "deferred" (due at `due_at`) or "at_property"
    amount: Decimal
    currency: str
    description: str
    due_at: datetime | None = None


def payment_schedule(reservation: Reservation) -> list[ScheduledPayment]:
    """The payments that together make the reservation's total, in the order they fall due."""
    return [ScheduledPayment("immediate", reservation.total, reservation.currency, "The full price, paid by card when the stay is booked.")]
