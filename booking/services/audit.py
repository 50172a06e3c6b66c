from booking.models import Reservation, ReservationEvent


def record_event(reservation: Reservation, *, action: str, actor: str, from_status: str = "", note: str = "") -> ReservationEvent:
    return ReservationEvent.objects.create(
        reservation=reservation,
        action=action,
        actor=actor,
        from_status=from_status,
        to_status=reservation.status,
        note=note,
    )
