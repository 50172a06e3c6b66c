"""The two ends of a reservation, each written in one place (DESIGN "Apps as the design card draws
them": one operation, one code path).

- expire(): a hold becomes `expired`. The expiry job, the lazy expiry before a hold or a channel
  booking takes nights, a checkout session that expired, and a payment that could not become a stay
  all call it, so each records the same `expire` event.
- cancel(): a hold or a stay becomes `cancelled`, with the refund it is still owed (decided by the
  caller: booking/payments/services/cancellation.py for a paid stay) and the guest's cancellation
  email when a confirmed stay is cancelled. Staff, the guest, a failed payment, a released
  hold and the channel manager all call it.

Both take the reservation already locked (reservation_transaction or calendar_transaction) and
leave the commit to the caller.
"""

from decimal import Decimal
from typing import Any

from django.utils import timezone

from booking.errors import InvalidTransition
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_emails
from booking.reservations.models import Reservation
from booking.reservations.services.audit import record_event

Status = Reservation.Status
ZERO = Decimal("0.00")


def expire(reservation: Reservation, *, actor: str, note: str = "", save: bool = True) -> bool:
    """Mark a held reservation expired and record it; False (nothing done) if it is not held.
    `save` False: the caller saves the row with its own changes (the status is set all the same)."""
    if reservation.status != Status.HELD:
        return False
    reservation.status = Status.EXPIRED
    if save:
        reservation.save(update_fields=["status", "updated_at"])
    record_event(reservation, action="expire", actor=actor, from_status=Status.HELD, note=note, message="" if note else "hold_lapsed")
    return True


def cancel(
    reservation: Reservation,
    *,
    actor: str,
    owed: Decimal = ZERO,
    action: str = "cancel",
    note: str = "",
    message: str = "",
    params: dict[str, Any] | None = None,
    by_platform: bool = False,
) -> str:
    """Cancel a held or confirmed reservation: its nights are free at once. Returns the status it
    had. `owed`: the refund still to be made (refund_pending). The guest and the owner are emailed
    whenever a confirmed stay is cancelled, unless the listing platform cancelled it (`by_platform`:
    it tells its own guest, and the channel manager's sync is how the owner learns of it)."""
    previous = reservation.status
    if previous not in (Status.HELD, Status.CONFIRMED):
        raise InvalidTransition(f"A reservation that is {previous} cannot be cancelled.")
    reservation.status = Status.CANCELLED
    reservation.cancelled_at = timezone.now()
    reservation.refund_pending = owed
    reservation.overbooked = False
    reservation.save(update_fields=["status", "cancelled_at", "refund_pending", "overbooked", "updated_at"])
    record_event(reservation, action=action, actor=actor, from_status=previous, note=note, message=message, params=params)
    if previous == Status.CONFIRMED and not by_platform:
        queue_emails(reservation, OutboundEmail.Kind.CANCELLATION)
    return previous
