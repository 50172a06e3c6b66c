from booking.models import Reservation, ReservationEvent
from booking.services.locking import reservation_transaction


def record_event(reservation: Reservation, *, action: str, actor: str, from_status: str = "", note: str = "") -> ReservationEvent:
    return ReservationEvent.objects.create(
        reservation=reservation,
        action=action,
        actor=actor,
        from_status=from_status,
        to_status=reservation.status,
        note=note,
    )


def flag_for_staff(reservation_id: str, *, actor: str, note: str) -> Reservation:
    """Mark a reservation for staff to look at (the admin's "needs attention"), with why."""
    with reservation_transaction(reservation_id) as reservation:
        reservation.needs_attention = note[:300]
        reservation.save(update_fields=["needs_attention", "updated_at"])
        record_event(reservation, action="flag", actor=actor, from_status=reservation.status, note=note)
    return reservation
