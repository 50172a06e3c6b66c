"""A Channex booking revision → the booking service's ChannelStay, or the problem that stops it
(pure: no database, no HTTP).

Refused, with a sentence for staff: a revision for another property, a status other than new,
modified or cancelled, no booking id, a room or rate plan that is not ours (unmapped on Channex),
dates that do not parse, run backwards or fall outside the 500-day window, a new or modified
booking with no customer. A cancellation needs only the booking id and its dates as sent.
"""

from collections.abc import Collection
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.dateparse import parse_datetime

from booking.catalog.children_ages import MAX_CHILD_AGE
from booking.italy.collectors import collector_for
from booking.reservations.models import Reservation
from booking.reservations.services.channel_bookings import ChannelStay
from partner_sync.channex.ari import WINDOW_DAYS

CHANNELS = {"BDC": Reservation.Source.BOOKING_COM, "ABB": Reservation.Source.AIRBNB, "EXP": Reservation.Source.EXPEDIA, "VRB": Reservation.Source.VRBO}
STATUSES = ("new", "modified", "cancelled")


class RevisionProblem(Exception):
    """Why a revision cannot be applied; the message is for staff (English, like the logs)."""


def channel_of(unique_id: str) -> str:
    return CHANNELS.get((unique_id or "")[:3].upper(), Reservation.Source.OTHER)


def inserted_at(attributes: dict[str, Any]) -> datetime | None:
    """`inserted_at` carries no zone: Channex's clock is UTC."""
    moment = parse_datetime(str(attributes.get("inserted_at") or ""))
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def to_stay(
    attributes: dict[str, Any], *, property_id: str, room_type_id: str, rate_plan_id: str, today: date, city_tax_collectors: Collection[str] = ()
) -> ChannelStay:
    if attributes.get("property_id") != property_id:
        raise RevisionProblem(f"The revision is for another Channex property ({str(attributes.get('property_id'))[:40]}).")
    status = attributes.get("status")
    if status not in STATUSES:
        raise RevisionProblem(f"Unknown revision status {str(status)[:20]!r}.")
    booking_id = str(attributes.get("booking_id") or "")
    if not booking_id or len(booking_id) > 64:
        raise RevisionProblem("The revision has no booking id.")
    revision_at = inserted_at(attributes)
    if revision_at is None:
        raise RevisionProblem("The revision has no readable inserted_at.")
    try:
        check_in = date.fromisoformat(str(attributes.get("arrival_date")))
        check_out = date.fromisoformat(str(attributes.get("departure_date")))
    except ValueError:
        raise RevisionProblem("The booking's arrival or departure date is missing or not a date.") from None
    if check_out <= check_in:
        raise RevisionProblem(f"The booking's departure ({check_out}) is not after its arrival ({check_in}).")
    cancelled = status == "cancelled"
    rooms = attributes.get("rooms") or []
    room = rooms[0] if rooms and isinstance(rooms[0], dict) else {}
    customer = attributes.get("customer") if isinstance(attributes.get("customer"), dict) else None
    if not cancelled:
        _check_bookable(check_in, check_out, rooms, room, customer, room_type_id=room_type_id, rate_plan_id=rate_plan_id, today=today)
    customer = customer or {}
    occupancy = room.get("occupancy") if isinstance(room.get("occupancy"), dict) else attributes.get("occupancy")
    occupancy = occupancy if isinstance(occupancy, dict) else {}
    # A platform's booking is taken as it comes: an age that is not one (children_ages.MAX_CHILD_AGE) is left out.
    ages = tuple(age for age in (occupancy.get("ages") or []) if isinstance(age, int) and not isinstance(age, bool) and 0 <= age <= MAX_CHILD_AGE)
    unique_id = str(attributes.get("unique_id") or "")
    source = channel_of(unique_id)
    return ChannelStay(
        booking_id=booking_id,
        source=source,
        city_tax_collected_by=collector_for(source, frozenset(city_tax_collectors)),
        code=str(attributes.get("ota_reservation_code") or unique_id)[:100],
        cancelled=cancelled,
        check_in=check_in,
        check_out=check_out,
        revision_at=revision_at,
        adults=_count(occupancy.get("adults"), 1),
        children=_count(occupancy.get("children"), 0),
        infants=_count(occupancy.get("infants"), 0),
        children_ages=ages,
        amount=_money(attributes.get("amount")) or Decimal("0"),
        currency=str(attributes.get("currency") or "EUR")[:3],
        commission=_money(attributes.get("ota_commission")),
        payment_collect=str(attributes.get("payment_collect") or ""),
        first_name=str(customer.get("name") or "").strip(),
        last_name=str(customer.get("surname") or "").strip(),
        email=_email(customer.get("mail")),
        phone=str(customer.get("phone") or "").strip(),
        country=str(customer.get("country") or "").strip()[:2],
        language=str(customer.get("language") or "").strip()[:8],
        notes=str(attributes.get("notes") or ""),
        nightly={night: amount for night, amount in _days(room.get("days")).items()},
    )


def _check_bookable(
    check_in: date, check_out: date, rooms: list, room: dict, customer: dict | None, *, room_type_id: str, rate_plan_id: str, today: date
) -> None:
    """What a new or modified booking needs beyond a cancellation: our window, our room and rate, a customer."""
    if check_out < today or check_in > today + timedelta(days=WINDOW_DAYS):
        raise RevisionProblem(f"The booking's dates ({check_in} to {check_out}) are outside the calendar's window.")
    if len(rooms) != 1:
        raise RevisionProblem(f"The booking has {len(rooms)} rooms; the property sells one unit.")
    if room.get("room_type_id") != room_type_id:
        raise RevisionProblem("The booking's room is not mapped to this property's room type on Channex.")
    if room.get("rate_plan_id") != rate_plan_id:
        raise RevisionProblem("The booking's rate is not mapped to this property's rate plan on Channex.")
    if customer is None or not (customer.get("name") or customer.get("surname")):
        raise RevisionProblem("The booking has no customer.")


def _count(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 50 else default


def _money(value: Any) -> Decimal | None:
    if value is None or isinstance(value, bool | float):
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return None
    return amount if amount.is_finite() and abs(amount) < Decimal("100000000") else None


def _email(value: Any) -> str:
    text = str(value or "").strip()
    return text if "@" in text and len(text) <= 254 and " " not in text else ""


def _days(days: Any) -> dict[date, Decimal]:
    found: dict[date, Decimal] = {}
    if not isinstance(days, dict):
        return found
    for night, amount in days.items():
        try:
            parsed = date.fromisoformat(str(night))
        except ValueError:
            continue
        value = _money(amount)
        if value is not None:
            found[parsed] = value
    return found
