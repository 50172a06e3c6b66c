"""The rate calendar: the owner sets the price or the minimum stay of chosen nights.

What is set here wins over the seasons and the base rates for those nights (pricing.NightRule); the
site, the API and the agents quote it at once, because writing bumps the property's rules version in
the same transaction. Stays already held or booked keep the price they were quoted (a reservation
freezes its breakdown).
"""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.db import transaction

from booking.catalog.models import NightRate, Property
from booking.catalog.pricing import money
from booking.catalog.selectors import get_property
from booking.catalog.signals import bump_rules_version
from booking.errors import InvalidInput

# Far enough for a booking window of two years; a longer range is a typing mistake.
LONGEST_RANGE_NIGHTS = 731
HIGHEST_RATE = Decimal("99999999.99")


@dataclass(frozen=True)
class RateCalendarChange:
    first_night: date
    last_night: date
    nights: int
    what: str  # what was set, in words, for the message and the audit log


def set_night_rates(
    start: date,
    end: date,
    *,
    nightly_rate: Decimal | None = None,
    min_nights: int | None = None,
    clear: bool = False,
    actor: str,
) -> RateCalendarChange:
    """Set the price and/or the minimum stay of the nights [start, end); with clear=True, hand those
    nights back to the seasons and base rates. A field left None is kept as it was."""
    if end <= start:
        raise InvalidInput.field("end", "The last night must not be before the first night.", "date_order")
    if (end - start).days > LONGEST_RANGE_NIGHTS:
        raise InvalidInput.field("end", f"Set at most {LONGEST_RANGE_NIGHTS} nights at once.", "range_too_long")
    if not clear and nightly_rate is None and min_nights is None:
        raise InvalidInput.field((), "Give a nightly price, a minimum stay, or both.", "missing")
    if nightly_rate is not None:
        nightly_rate = money(nightly_rate)
        if not Decimal("0") <= nightly_rate <= HIGHEST_RATE:
            raise InvalidInput.field("nightly_rate", "The nightly price must be between 0 and 99,999,999.99.", "out_of_range")
    if min_nights is not None and not 1 <= min_nights <= 365:
        raise InvalidInput.field("min_nights", "The minimum stay must be between 1 and 365 nights.", "out_of_range")

    prop = get_property()
    nights = [start + timedelta(days=i) for i in range((end - start).days)]
    with transaction.atomic():
        existing = {r.night: r for r in NightRate.objects.select_for_update().filter(property=prop, night__gte=start, night__lt=end)}
        if clear:
            NightRate.objects.filter(pk__in=[r.pk for r in existing.values()]).delete()
            what = "back to the seasons and base rates"
        else:
            _write(prop, nights, existing, nightly_rate, min_nights)
            parts = []
            if nightly_rate is not None:
                parts.append(f"price {nightly_rate} {prop.currency} a night")
            if min_nights is not None:
                parts.append(f"minimum stay {min_nights} night{'s' if min_nights != 1 else ''}")
            what = " and ".join(parts)
        bump_rules_version(prop.pk)  # bulk writes send no signals
    return RateCalendarChange(first_night=start, last_night=end - timedelta(days=1), nights=len(nights), what=what)


def _write(prop: Property, nights: list[date], existing: dict[date, NightRate], nightly_rate: Decimal | None, min_nights: int | None) -> None:
    changed, created = [], []
    for night in nights:
        row = existing.get(night)
        if row is None:
            created.append(NightRate(property=prop, night=night, nightly_rate=nightly_rate, min_nights=min_nights))
            continue
        if nightly_rate is not None:
            row.nightly_rate = nightly_rate
        if min_nights is not None:
            row.min_nights = min_nights
        changed.append(row)
    NightRate.objects.bulk_create(created)
    NightRate.objects.bulk_update(changed, ["nightly_rate", "min_nights"])
