"""Stays known only from a listing platform's calendar feed (iCal: partner_sync/ical_import.py): a
block of nights, no guest. The arrivals screen lists the ones arriving and asks staff for the party:
given the number of guests, the block becomes a platform stay (booking/reservations/services/
channel_bookings.py, the path of every platform booking; the block and the stay are then the same
booking seen twice, as for the channel manager), which takes the check-in like any other."""

from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services.channel_bookings import ChannelStay, apply_channel_booking

MAX_GUESTS = 50


@dataclass(frozen=True)
class CalendarStay:
    block: DateBlock
    platform: str  # the feed's name as stored (its key)


def booking_id(block: DateBlock) -> str:
    return f"ical-{block.pk}"


def calendar_only_arrivals(first: date, last: date) -> list[CalendarStay]:
    """Platform blocks starting from first to last with no stay of their own yet."""
    blocks = DateBlock.objects.filter(source=DateBlock.Source.PARTNER, start__gte=first, start__lte=last).order_by("start", "pk")
    known = set(
        Reservation.objects.filter(status=Reservation.Status.CONFIRMED, check_in__gte=first, check_in__lte=last, channel_booking_id__isnull=False).values_list(
            "check_in", "check_out"
        )
    )
    return [CalendarStay(block, block.feed_key) for block in blocks if (block.start, block.end) not in known]


def stay_for_block(block: DateBlock, *, guests: int, last_name: str = "") -> Reservation:
    """The block as a platform stay of `guests` guests (ValueError outside 1..50); the same stay
    again when asked twice."""
    if not 1 <= guests <= MAX_GUESTS:
        raise ValueError("guests")
    stay = ChannelStay(
        booking_id=booking_id(block),
        source=Reservation.Source.OTHER,
        code=(block.reason or block.feed_key or "iCal")[:100],
        cancelled=False,
        check_in=block.start,
        check_out=block.end,
        revision_at=timezone.now(),
        adults=guests,
        last_name=last_name.strip()[:100],
    )
    existing = Reservation.objects.filter(channel_booking_id=stay.booking_id).first()
    if existing is not None and existing.status == Reservation.Status.CONFIRMED:
        return existing
    return apply_channel_booking(stay).reservation
