"""Bookings made on a listing platform and received through the channel manager (partner_sync/channex).

The platform has already confirmed the stay to its guest, so it is stored whatever the calendar
says: over nights already sold it is still stored, marked `overbooked` (which keeps it out of the
PostgreSQL no-overlap backstop, so it is never lost) and flagged `overbooking` for staff, and the
caller is told which stays and blocks it collides with (for the owner's email).

Each change carries the whole booking as it stands (a Channex revision), so applying one replaces
what is held, keyed by the channel's booking id. A change older than the one already applied (it
arrived late) changes nothing. A cancellation refunds nothing: the money was the channel's.
"""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone

from booking.catalog.models import Property
from booking.catalog.pricing import money
from booking.catalog.selectors import get_property
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_emails
from booking.reservations.models import CITY_TAX_BY_HOST, DateBlock, Reservation
from booking.reservations.selectors import blocking_reservations, blocks_between
from booking.reservations.services import transitions
from booking.reservations.services.audit import flag, record_event
from booking.reservations.services.holds import expire_lapsed_holds_overlapping
from booking.reservations.services.locking import calendar_transaction
from booking.reservations.services.numbers import save_with_number

ACTOR = "channel manager"
Status = Reservation.Status


@dataclass(frozen=True)
class ChannelStay:
    """One booking as the channel manager sends it (already validated by the caller)."""

    booking_id: str
    source: str  # a Reservation.Source of a channel
    code: str
    cancelled: bool
    check_in: date
    check_out: date
    revision_at: datetime
    adults: int = 1
    children_ages: tuple[int, ...] = ()
    children: int = 0
    infants: int = 0
    amount: Decimal = Decimal("0")
    currency: str = "EUR"
    commission: Decimal | None = None
    payment_collect: str = ""
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    country: str = ""
    language: str = ""
    notes: str = ""
    nightly: dict[date, Decimal] = field(default_factory=dict)
    # "host", or the platform that collects the city tax (the caller reads the property's setting).
    city_tax_collected_by: str = CITY_TAX_BY_HOST

    @property
    def guests(self) -> int:
        return max(1, self.adults + self.children + self.infants)


@dataclass(frozen=True)
class Collision:
    """Something already on the nights of an overbooked channel stay."""

    kind: str  # "stay" or "block"
    label: str  # a stay's booking number (its id if it has none), or the block's reason
    start: date
    end: date


@dataclass(frozen=True)
class ChannelBookingResult:
    reservation: Reservation
    applied: bool  # False: an older change than the one already applied, or nothing to change
    freed: tuple[date, date] | None = None  # the nights given back by a change of dates
    collisions: tuple[Collision, ...] = ()


def apply_channel_booking(stay: ChannelStay) -> ChannelBookingResult:
    """Create, update or cancel the reservation of a channel booking, under the calendar lock.

    Runs in the caller's transaction when there is one (the caller records the revision it came
    from in the same transaction)."""
    prop = get_property()
    with calendar_transaction(prop.pk):
        reservation = Reservation.objects.select_for_update().filter(channel_booking_id=stay.booking_id).first()
        if reservation is not None and reservation.channel_revision_at and stay.revision_at < reservation.channel_revision_at:
            return ChannelBookingResult(reservation, applied=False)
        if stay.cancelled:
            return _cancel(prop, reservation, stay)
        return _book(prop, reservation, stay)


def _book(prop: Property, existing: Reservation | None, stay: ChannelStay) -> ChannelBookingResult:
    now = timezone.now()
    expire_lapsed_holds_overlapping(prop, stay.check_in, stay.check_out, now)
    collisions = _collisions(prop, stay, exclude=existing.pk if existing else None, now=now)
    created = existing is None
    old = None if existing is None else (existing.check_in, existing.check_out, existing.status)
    reservation = existing if existing is not None else Reservation(property=prop, channel_booking_id=stay.booking_id, created_at=now)
    reservation.status = Status.CONFIRMED
    reservation.confirmed_at = reservation.confirmed_at or now
    reservation.cancelled_at = None
    reservation.hold_expires_at = None
    _fill(reservation, stay)
    reservation.overbooked = bool(collisions)
    if created:
        save_with_number(reservation)
    else:
        reservation.save()
    if created:
        record_event(
            reservation,
            action="channel_booking",
            actor=ACTOR,
            message="channel_booked",
            params={"channel": reservation.get_source_display(), "code": stay.code},
        )
        # The owner hears of it as of any new booking; the platform confirms it to its guest.
        queue_emails(reservation, OutboundEmail.Kind.CONFIRMATION, guest_copy=False)
    elif old is not None and (old[0], old[1]) != (stay.check_in, stay.check_out):
        record_event(
            reservation,
            action="channel_booking",
            actor=ACTOR,
            from_status=old[2],
            message="channel_changed",
            params={
                "channel": reservation.get_source_display(),
                "old_check_in": old[0],
                "old_check_out": old[1],
                "check_in": stay.check_in,
                "check_out": stay.check_out,
            },
        )
    else:
        record_event(reservation, action="edit", actor=ACTOR, from_status=old[2] if old else "", message="edited", params={"fields": ["channel booking"]})
    if collisions:
        others = ", ".join(c.label for c in collisions)
        flag(reservation, actor=ACTOR, message="flag_overbooking", params={"channel": reservation.get_source_display(), "other": others})
    freed = (old[0], old[1]) if old and old[2] in (Status.CONFIRMED, Status.HELD) and (old[0], old[1]) != (stay.check_in, stay.check_out) else None
    return ChannelBookingResult(reservation, applied=True, freed=freed, collisions=tuple(collisions))


def _cancel(prop: Property, reservation: Reservation | None, stay: ChannelStay) -> ChannelBookingResult:
    now = timezone.now()
    if reservation is None:
        # Cancelled before we ever saw it: kept, cancelled, so the booking is on record.
        reservation = Reservation(property=prop, channel_booking_id=stay.booking_id, created_at=now, status=Status.CANCELLED, cancelled_at=now)
        _fill(reservation, stay)
        save_with_number(reservation)
        record_event(reservation, action="cancel", actor=ACTOR, message="channel_cancelled", params={"channel": reservation.get_source_display()})
        return ChannelBookingResult(reservation, applied=True)
    previous = reservation.status
    reservation.channel_revision_at = stay.revision_at
    if previous == Status.CANCELLED:
        reservation.save(update_fields=["channel_revision_at", "updated_at"])
        return ChannelBookingResult(reservation, applied=False)
    reservation.save(update_fields=["channel_revision_at", "updated_at"])
    transitions.cancel(reservation, actor=ACTOR, message="channel_cancelled", params={"channel": reservation.get_source_display()}, by_platform=True)
    return ChannelBookingResult(reservation, applied=True, freed=(reservation.check_in, reservation.check_out))


def _collisions(prop: Property, stay: ChannelStay, *, exclude: str | None, now: datetime) -> list[Collision]:
    stays = blocking_reservations(prop, stay.check_in, stay.check_out, now)
    if exclude:
        stays = stays.exclude(pk=exclude)
    found = [Collision("stay", number or pk, start, end) for pk, number, start, end in stays.values_list("pk", "booking_number", "check_in", "check_out")]
    for reason, source, start, end in blocks_between(prop, stay.check_in, stay.check_out).values_list("reason", "source", "start", "end"):
        if source == DateBlock.Source.PARTNER and (start, end) == (stay.check_in, stay.check_out):
            continue  # the same stay, seen through the platform's iCal feed too: not a second booking
        found.append(Collision("block", reason or str(DateBlock.Source(source).label), start, end))
    return found


def _fill(reservation: Reservation, stay: ChannelStay) -> None:
    nights = (stay.check_out - stay.check_in).days
    amount = money(stay.amount)
    reservation.source = stay.source
    reservation.channel_code = stay.code[:100]
    reservation.channel_commission = None if stay.commission is None else money(stay.commission)
    reservation.channel_payment_collect = stay.payment_collect[:16]
    reservation.channel_revision_at = stay.revision_at
    reservation.check_in, reservation.check_out = stay.check_in, stay.check_out
    reservation.guests = stay.guests
    reservation.children_ages = list(stay.children_ages)
    reservation.total = amount
    reservation.currency = stay.currency[:3] or "EUR"
    reservation.guest_first_name = stay.first_name[:100]
    reservation.guest_last_name = stay.last_name[:100]
    reservation.guest_email = stay.email[:254]
    reservation.guest_phone = stay.phone[:40]
    reservation.guest_country = stay.country[:2].upper()
    if reservation._state.adding:  # who collects is decided when the booking first arrives; a change keeps it
        reservation.city_tax_collected_by = stay.city_tax_collected_by[:16] or CITY_TAX_BY_HOST
    reservation.language = (stay.language or "en")[:8].lower()
    reservation.special_requests = stay.notes[:2000]
    reservation.price_breakdown = _breakdown(stay, amount, nights)


def _breakdown(stay: ChannelStay, amount: Decimal, nights: int) -> dict[str, Any]:
    """The breakdown every interface shows, from what the channel sent: its total as accommodation
    (the channel priced the stay; its own fees and taxes are its business)."""
    nightly = [(stay.check_in + timedelta(days=i)) for i in range(nights)]
    return {
        "nights": nights,
        "nightly_avg": float(money(amount / nights)) if nights else 0.0,
        "accommodation": float(amount),
        "discount_percent": 0.0,
        "discount_amount": 0.0,
        "discounts": [],
        "cleaning_fee": 0.0,
        "city_tax": 0.0,
        "city_tax_terms": None,
        "extras": [],
        "extras_total": 0.0,
        "total": float(amount),
        "currency": stay.currency or "EUR",
        "price_source": f"channel:{stay.source}",
        "nightly_rates": [
            {
                "date": night.isoformat(),
                "rate": float(stay.nightly.get(night, Decimal("0"))),
                "extra_guest_fee": 0.0,
                "amount": float(stay.nightly.get(night, Decimal("0"))),
                "source": "channel",
            }
            for night in nightly
        ],
    }
