"""Blocked nights that are not reservations: staff blocks, and partner (listing platform) blocks.

partner_sync never writes these tables itself; it hands each feed's events to
`replace_partner_blocks`, which applies them under the same property lock as holds.
"""

from dataclasses import dataclass
from datetime import date

from booking.catalog.selectors import get_property
from booking.errors import DatesUnavailable, InvalidInput, NotFound
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.selectors import blocking_reservations
from booking.reservations.services.locking import calendar_transaction


def block_dates(*, start: date, end: date, reason: str, actor: str) -> DateBlock:
    """A staff block of the nights [start, end). Refused over a held or confirmed stay."""
    if end <= start:
        raise InvalidInput.field("end", "The block must end after it starts.", "date_order")
    with calendar_transaction(get_property().pk) as prop:
        clash = blocking_reservations(prop, start, end).first()
        if clash is not None:
            raise DatesUnavailable(f"Reservation {clash.pk} ({clash.status}) takes some of these nights; cancel it first.", "booked")
        return DateBlock.objects.create(property=prop, start=start, end=end, reason=reason, source=DateBlock.Source.STAFF, created_by=actor)


def change_block(block_id: int, *, start: date, end: date, reason: str, actor: str) -> DateBlock:
    """Move or re-word a staff block in one transaction: a refused change leaves the old block as it was."""
    if end <= start:
        raise InvalidInput.field("end", "The block must end after it starts.", "date_order")
    with calendar_transaction(get_property().pk) as prop:
        block = DateBlock.objects.select_for_update().filter(pk=block_id, property=prop, source=DateBlock.Source.STAFF).first()
        if block is None:
            raise NotFound(f"No staff block with id {block_id}.")
        clash = blocking_reservations(prop, start, end).first()
        if clash is not None:
            raise DatesUnavailable(f"Reservation {clash.pk} ({clash.status}) takes some of these nights; cancel it first.", "booked")
        block.start, block.end, block.reason = start, end, reason
        block.save(update_fields=["start", "end", "reason", "updated_at"])
        return block


def unblock_dates(block_id: int, *, actor: str) -> None:
    with calendar_transaction(get_property().pk):
        deleted, _ = DateBlock.objects.filter(pk=block_id, source=DateBlock.Source.STAFF).delete()
        if not deleted:
            raise NotFound(f"No staff block with id {block_id}.")


@dataclass(frozen=True)
class PartnerEvent:
    uid: str
    start: date
    end: date  # exclusive, like a check-out day
    summary: str = ""


@dataclass(frozen=True)
class PartnerBlocksResult:
    created: int
    updated: int
    deleted: int
    unchanged: int
    conflicts: list[tuple[str, str]]  # (event uid, reservation id) overlapping a direct stay


def replace_partner_blocks(*, feed_key: str, events: list[PartnerEvent]) -> PartnerBlocksResult:
    """Make the feed's blocks exactly `events`, keyed by UID so a moved booking moves.

    A partner block overlapping a confirmed direct stay is still stored (the platform's booking is
    real) and returned as a conflict for staff to resolve.
    """
    created = updated = unchanged = 0
    conflicts: list[tuple[str, str]] = []
    with calendar_transaction(get_property().pk) as prop:
        existing = {b.external_uid: b for b in DateBlock.objects.filter(property=prop, source=DateBlock.Source.PARTNER, feed_key=feed_key)}
        seen = set()
        for event in events:
            if event.uid in seen:
                continue
            seen.add(event.uid)
            reason = event.summary[:300]
            block = existing.get(event.uid)
            if block is None:
                DateBlock.objects.create(
                    property=prop,
                    start=event.start,
                    end=event.end,
                    reason=reason,
                    source=DateBlock.Source.PARTNER,
                    feed_key=feed_key,
                    external_uid=event.uid,
                    created_by=f"feed {feed_key}",
                )
                created += 1
            elif (block.start, block.end, block.reason) != (event.start, event.end, reason):
                block.start, block.end, block.reason = event.start, event.end, reason
                block.save(update_fields=["start", "end", "reason", "updated_at"])
                updated += 1
            else:
                unchanged += 1
            for reservation in blocking_reservations(prop, event.start, event.end).filter(status=Reservation.Status.CONFIRMED):
                conflicts.append((event.uid, reservation.pk))
        stale = [b.pk for uid, b in existing.items() if uid not in seen]
        deleted, _ = DateBlock.objects.filter(pk__in=stale).delete()
    return PartnerBlocksResult(created, updated, deleted, unchanged, conflicts)


def remove_partner_blocks(*, feed_key: str) -> int:
    """Drop every block of a feed (the feed was deleted in the admin)."""
    with calendar_transaction(get_property().pk):
        deleted, _ = DateBlock.objects.filter(source=DateBlock.Source.PARTNER, feed_key=feed_key).delete()
    return deleted
