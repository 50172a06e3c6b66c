from collections.abc import Mapping
from typing import Any

from booking.reservations.event_messages import english_note, to_params
from booking.reservations.models import Reservation, ReservationEvent
from booking.reservations.services.locking import reservation_transaction


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
    """One line of the history. `message` and `params` (booking/reservations/event_messages.py) let it be read in
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


def flag_for_staff(reservation_id: str, *, actor: str, note: str = "", message: str = "", params: Mapping[str, Any] | None = None) -> Reservation:
    """Mark a reservation for staff to look at (the admin's "needs attention"), with why."""
    with reservation_transaction(reservation_id) as reservation:
        flag(reservation, actor=actor, note=note, message=message, params=params)
    return reservation


def flag(reservation: Reservation, *, actor: str, note: str = "", message: str = "", params: Mapping[str, Any] | None = None) -> str:
    """flag_for_staff on a reservation already locked. `needs_attention` keeps the English sentence
    (logs, the services' startswith checks, staff may edit it); the flag line of the history keeps
    the code and its parameters, so booking/reservations/attention.py shows the flag in the reader's language.
    Returns the English sentence."""
    event = record_event(reservation, action="flag", actor=actor, from_status=reservation.status, note=note, message=message, params=params)
    reservation.needs_attention = event.note[:300]
    reservation.save(update_fields=["needs_attention", "updated_at"])
    return event.note
