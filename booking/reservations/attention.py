"""Why a reservation needs attention, in the reader's language.

`Reservation.needs_attention` keeps the English sentence (logs, the services' checks; staff may
edit it). The flag line of the history (action "flag", written by audit.flag_for_staff) keeps the
message code and its parameters: when the reservation's note is still that line's sentence, the
back office shows the code's sentence in its language; otherwise (a staff member's words, a flag
older than the codes) the note as written. See docs/back-office.md, "Needs attention"."""

from collections.abc import Iterable

from booking.reservations.event_messages import describe
from booking.reservations.models import Reservation, ReservationEvent

FLAG_LINES = "flag_lines"  # the attribute a prefetch of flag_lines() fills (the admin's list)


def flag_lines():
    """The history's flag lines that carry a code: Prefetch("events", flag_lines(), to_attr=FLAG_LINES)."""
    return ReservationEvent.objects.filter(action="flag").exclude(message="").order_by("at", "id")


def shown(needs_attention: str, lines: Iterable[ReservationEvent]) -> str:
    """The latest flag line whose sentence the note still is, in the reader's language; else the note."""
    text = needs_attention
    for event in lines:
        if needs_attention and event.note[:300] == needs_attention:
            text = describe(event.message, event.params, event.note)
    return text


def attention_notes(reservations: Iterable[Reservation]) -> dict[str, str]:
    """Reservation id → what its "needs attention" says, for the flagged ones (one query)."""
    flagged = {r.pk: r.needs_attention for r in reservations if r.needs_attention}
    lines: dict[str, list[ReservationEvent]] = {pk: [] for pk in flagged}
    if flagged:
        for event in flag_lines().filter(reservation_id__in=flagged).only("reservation_id", "note", "message", "params"):
            lines[event.reservation_id].append(event)
    return {pk: shown(note, lines[pk]) for pk, note in flagged.items()}


def attention_note(reservation: Reservation) -> str:
    """What the reservation's "needs attention" says in the reader's language ("" when not flagged)."""
    prefetched = getattr(reservation, FLAG_LINES, None)
    if prefetched is not None:
        return shown(reservation.needs_attention, prefetched)
    return attention_notes([reservation]).get(reservation.pk, "")
