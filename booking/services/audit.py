from collections.abc import Mapping
from typing import Any

from booking.event_messages import english_note, to_params
from booking.models import Reservation, ReservationEvent
from booking.services.locking import reservation_transaction


def record_event(
    reservation: Reservation,
    *,
    action: str,
    actor: str,
    from_status: str = "",
    note: str = "",
    message: str = "",
    params: Mapping[str, Any] | None = None,
) -> ReservationEvent:
    """One line of the history. `message` and `params` (booking/event_messages.py) let it be read in
    the back office's language; `note` is free text (a staff member's words), or else the English
    sentence of the message."""
    stored = to_params(params or {})
    return ReservationEvent.objects.create(
        reservation=reservation,
        action=action,
        actor=actor,
        from_status=from_status,
        to_status=reservation.status,
        note=note or (english_note(message, stored) if message else ""),
        message=message,
        params=stored,
    )


def flag_for_staff(reservation_id: str, *, actor: str, note: str) -> Reservation:
    """Mark a reservation for staff to look at (the admin's "needs attention"), with why."""
    with reservation_transaction(reservation_id) as reservation:
        reservation.needs_attention = note[:300]
        reservation.save(update_fields=["needs_attention", "updated_at"])
        record_event(reservation, action="flag", actor=actor, from_status=reservation.status, note=note)
    return reservation
