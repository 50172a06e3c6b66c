"""What each night is worth on the channels, as Channex's ARI bodies (pure: no database, no HTTP).

Availability (room type level): 1 for a night that can be sold, 0 for a night anything takes
(a stay, an unexpired hold, a block). Restrictions (rate plan level), from the pricing engine the
site quotes with: `rate`, the nightly rate for the base occupancy raised by the channel markup (a
decimal string, never a float); `min_stay_arrival`, the minimum stay for an arrival that night;
`max_stay`; `closed_to_arrival` (a closed arrival weekday, or past the booking window);
`closed_to_departure`; `stop_sell` (a night with no price). Consecutive nights with the same values
travel as one `date_from`/`date_to` entry (inclusive, as Channex's examples are).
"""

from collections.abc import Collection, Iterable
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from booking.catalog import pricing

WINDOW_DAYS = 500  # Channex's default inventory length (state_length)


def window(today: date) -> tuple[date, date]:
    """The nights Channex holds: today and the next WINDOW_DAYS - 1, as [first, end)."""
    return today, today + timedelta(days=WINDOW_DAYS)


def availability_values(nights: Iterable[date], taken: Collection[date], *, property_id: str, room_type_id: str) -> list[dict[str, Any]]:
    per_night = {night: 0 if night in taken else 1 for night in nights}
    return [{"property_id": property_id, "room_type_id": room_type_id, **span, "availability": value} for span, value in _runs(per_night)]


def restriction_for(night: date, rules: pricing.PricingRules, *, markup_percent: Decimal, today: date) -> dict[str, Any]:
    rate = pricing.money(pricing.price_night(night, rules.base_occupancy, rules).rate * (100 + markup_percent) / 100)
    values: dict[str, Any] = {}
    if rate > 0:
        values["rate"] = f"{rate:.2f}"
    values.update(
        min_stay_arrival=max(1, rules.min_nights_for_arrival(night)),
        max_stay=rules.max_nights,
        closed_to_arrival=night.weekday() in rules.closed_to_arrival or night > rules.last_arrival_date(today),
        closed_to_departure=night.weekday() in rules.closed_to_departure,
        stop_sell=rate <= 0,
    )
    return values


def restrictions_values(
    nights: Iterable[date], rules: pricing.PricingRules, *, markup_percent: Decimal, today: date, property_id: str, rate_plan_id: str
) -> list[dict[str, Any]]:
    per_night = {night: restriction_for(night, rules, markup_percent=markup_percent, today=today) for night in nights}
    return [{"property_id": property_id, "rate_plan_id": rate_plan_id, **span, **values} for span, values in _runs(per_night)]


def _runs(per_night: dict[date, Any]) -> list[tuple[dict[str, str], Any]]:
    """Consecutive nights with equal values, as ({"date": …} or {"date_from", "date_to"}, value)."""
    runs: list[tuple[date, date, Any]] = []
    for night in sorted(per_night):
        value = per_night[night]
        if runs and runs[-1][1] + timedelta(days=1) == night and runs[-1][2] == value:
            runs[-1] = (runs[-1][0], night, value)
        else:
            runs.append((night, night, value))
    return [
        ({"date": first.isoformat()} if first == last else {"date_from": first.isoformat(), "date_to": last.isoformat()}, value) for first, last, value in runs
    ]


def warned_nights(warnings: Iterable[Any], sent: Collection[date]) -> set[date]:
    """The nights a `meta.warnings` list names (all those sent, when a warning names none)."""
    found: set[date] = set()
    for warning in warnings:
        nights = _nights_of(warning) if isinstance(warning, dict) else None
        found |= set(sent) if nights is None else nights & set(sent)
    return found


def _nights_of(entry: dict) -> set[date] | None:
    try:
        if entry.get("date"):
            return {date.fromisoformat(str(entry["date"]))}
        if entry.get("date_from") and entry.get("date_to"):
            first, last = date.fromisoformat(str(entry["date_from"])), date.fromisoformat(str(entry["date_to"]))
            return {first + timedelta(days=i) for i in range((last - first).days + 1)}
    except ValueError:
        return None
    return None
