from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from booking.reservations.event_messages import english_note, to_params
from booking.reservations.models import AttentionFlag, Reservation, ReservationEvent
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
    """flag_for_staff on a reservation already locked: a line of the history and an open flag of the
    message's code (a staff member's words: the code "note" with the text). Returns the English
    sentence (for logs and the owner's alerts)."""
    event = record_event(reservation, action="flag", actor=actor, from_status=reservation.status, note=note, message=message, params=params)
    raise_flag(reservation, message or NOTE, event.params if message else {"text": event.note})
    return event.note


NOTE = "note"  # a flag in a person's words: params {"text": ...}


def raise_flag(reservation: Reservation, code: str, params: Mapping[str, Any] | None = None) -> AttentionFlag:
    """An open flag of `code` on the stay: one per code, raising it again updates its parameters."""
    stored = to_params(params or {})
    open_flag = open_flags(reservation, code).first()
    if open_flag is None:
        return AttentionFlag.objects.create(reservation=reservation, code=code, params=stored)
    open_flag.params = stored
    open_flag.save(update_fields=["params"])
    return open_flag


def open_flags(reservation: Reservation, *codes: str) -> QuerySet[AttentionFlag]:
    """The stay's open flags (of those codes, when given)."""
    flags = AttentionFlag.objects.filter(reservation=reservation, resolved_at__isnull=True)
    return flags.filter(code__in=codes) if codes else flags


def has_open_flag(reservation: Reservation, *codes: str) -> bool:
    return open_flags(reservation, *codes).exists()


def resolve_flags(reservation: Reservation, *codes: str, by: str, params: Mapping[str, Any] | None = None) -> int:
    """Resolve the stay's open flags of those codes (only those whose parameters include `params`,
    when given): recorded with when and by whom. Returns how many."""
    flags = open_flags(reservation, *codes)
    for name, value in (params or {}).items():
        flags = flags.filter(**{f"params__{name}": value})
    return flags.update(resolved_at=timezone.now(), resolved_by=by[:150])


def resolve_flag(flag_id: int, *, by: str) -> bool:
    """A staff member marks one flag done (the admin). False when it was already resolved."""
    return bool(AttentionFlag.objects.filter(pk=flag_id, resolved_at__isnull=True).update(resolved_at=timezone.now(), resolved_by=by[:150]))
