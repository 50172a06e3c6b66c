"""Why a stay needs staff, in the reader's language.

Flags are rows (AttentionFlag: a code and its parameters, several open per stay), raised and
resolved by the services (booking/reservations/services/audit.py). Their sentences are the codes'
messages (booking/reservations/event_messages.py MESSAGES), rendered when they are read, in the
language active then; a flag in a person's words (code "note") shows them as written. See
docs/back-office.md, "Needs attention"."""

from collections.abc import Iterable

from django.db.models import Prefetch

from booking.reservations.event_messages import describe
from booking.reservations.models import AttentionFlag, Reservation

OPEN_FLAGS = "open_flags"  # the attribute a prefetch of open_flags_prefetch() fills (the admin's list)


def open_flags_prefetch() -> Prefetch:
    """Prefetch each reservation's open flags into reservation.open_flags."""
    return Prefetch("attention_flags", queryset=AttentionFlag.objects.filter(resolved_at__isnull=True).order_by("raised_at", "id"), to_attr=OPEN_FLAGS)


def flag_text(flag: AttentionFlag) -> str:
    """A flag's sentence in the active language."""
    params = flag.params or {}
    return describe(flag.code, params, str(params.get("text") or flag.code))


def _open(reservation: Reservation) -> list[AttentionFlag]:
    prefetched = getattr(reservation, OPEN_FLAGS, None)
    if prefetched is not None:
        return prefetched
    return list(reservation.attention_flags.filter(resolved_at__isnull=True).order_by("raised_at", "id"))


def attention_lines(reservation: Reservation) -> list[str]:
    """The sentences of the stay's open flags, oldest first."""
    return [flag_text(flag) for flag in _open(reservation)]


def attention_note(reservation: Reservation) -> str:
    """What the stay's open flags say, one after the other ("" when none is open)."""
    return " · ".join(attention_lines(reservation))


def attention_notes(reservations: Iterable[Reservation]) -> dict[str, str]:
    """Reservation id → what its open flags say, for the flagged ones (one query)."""
    by_reservation: dict[str, list[AttentionFlag]] = {}
    ids = [r.pk for r in reservations]
    for flag in AttentionFlag.objects.filter(reservation_id__in=ids, resolved_at__isnull=True).order_by("raised_at", "id"):
        by_reservation.setdefault(flag.reservation_id, []).append(flag)
    return {pk: " · ".join(flag_text(flag) for flag in flags) for pk, flags in by_reservation.items()}
