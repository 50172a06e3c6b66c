"""Money on a reservation: what was paid, what was refunded, and which checkout is open.

Each write runs under the property lock with the reservation re-read inside it (as in
booking/reservations/services/reservations.py), so a webhook, the sandbox page, the reconciliation job and an
admin refund never overwrite each other's figures. Refunds asked of the provider are recorded by
booking/payments/services/refunds.py.
"""

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from booking.catalog.pricing import CENT, money
from booking.reservations.models import Reservation
from booking.reservations.services import transitions
from booking.reservations.services.audit import flag_for_staff, record_event
from booking.reservations.services.locking import reservation_transaction

Status = Reservation.Status


def to_cents(amount: Decimal) -> int:
    return int((money(amount) / CENT).to_integral_value())


def from_cents(cents: int) -> Decimal:
    return money(Decimal(int(cents)) * CENT)


def record_checkout(reservation_id: str, *, provider: str, session_id: str, url: str, expires_at: datetime, actor: str) -> None:
    """Remember the open checkout session of a hold (call inside a writer transaction)."""
    Reservation.objects.filter(pk=reservation_id).update(
        payment_provider=provider,
        checkout_session_id=session_id,
        checkout_url=url[:2000],
        checkout_expires_at=expires_at,
        updated_at=timezone.now(),
    )
    reservation = Reservation.objects.get(pk=reservation_id)
    record_event(
        reservation,
        action="checkout",
        actor=actor,
        from_status=reservation.status,
        message="checkout_opened",
        params={"provider": provider, "session": session_id, "until": expires_at},
    )


def record_unbookable_payment(
    reservation_id: str,
    *,
    amount_paid: Decimal,
    amount_refunded: Decimal,
    payment_intent_id: str,
    actor: str,
    note: str = "",
    message: str = "",
    params: Mapping[str, Any] | None = None,
) -> Reservation:
    """A payment that could not become a stay (its nights were taken, or it was cancelled, or it was
    a second payment): keep the money trail on the reservation and leave its status as it is,
    except that a lapsed hold is marked expired (it no longer blocks anything)."""
    with reservation_transaction(reservation_id) as reservation:
        previous = reservation.status
        transitions.expire(reservation, actor=actor, note=note, save=False)  # a lapsed hold no longer blocks anything
        if reservation.status != Status.CONFIRMED:
            # A confirmed stay keeps its own payment figures; a second payment is only noted.
            reservation.amount_paid = max(reservation.amount_paid, money(amount_paid))
            reservation.amount_refunded = max(reservation.amount_refunded, money(amount_refunded))
            if payment_intent_id and not reservation.payment_intent_id:
                reservation.payment_intent_id = payment_intent_id
        reservation.save()
        record_event(reservation, action="refund", actor=actor, from_status=previous, note=note, message=message, params=params)
        return flag_for_staff(reservation_id, actor=actor, note=note, message=message, params=params)
