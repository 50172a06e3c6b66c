"""The rate calendar of the back office, read side: for each night of a month, its price for the
base occupancy, where the price comes from, the minimum stay for an arrival that night, and what
takes the night (a stay, a hold, a staff block or a partner's booking).

Prices and minimum stays come from the pricing engine itself (pricing.price_night and
min_nights_for_arrival over the cached rules), so the grid shows exactly what the site quotes.
Three queries whatever the month: the property, its reservations and its blocks over the month.
"""

import calendar
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from booking.catalog import pricing
from booking.catalog.models import Property, Season
from booking.catalog.rules import rules_for
from booking.reservations.models import DateBlock, Reservation

Status = Reservation.Status


@dataclass(frozen=True)
class Taker:
    kind: str  # "stay", "hold", "block" (staff) or "partner"
    label: str
    reservation_id: str | None = None
    block_id: int | None = None

    @property
    def kind_label(self) -> str:
        """`kind` in the page's language (`kind` itself stays a stable CSS class)."""
        return {
            "stay": pgettext("night taken by", "stay"),
            "hold": pgettext("night taken by", "hold"),
            "block": pgettext("night taken by", "blocked"),
            "partner": pgettext("night taken by", "partner booking"),
        }.get(self.kind, self.kind)


@dataclass(frozen=True)
class RateNight:
    night: date
    in_month: bool
    rate: Decimal
    source: str
    min_nights: int
    set_in_calendar: bool  # the owner set this night's price or minimum here
    taken_by: Taker | None
    offers: tuple[str, ...] = ()  # the automatic discounts an arrival on this night gets (early-bird, last-minute, gap night)
    season_names: Mapping[str, str] = field(default_factory=dict)

    @property
    def source_label(self) -> str:
        return source_label(self.source, self.season_names)


def source_label(source: str, season_names: Mapping[str, str] | None = None) -> str:
    """Where a night's price comes from (pricing.price_night's `source`), in the page's language. A
    season is named in the rules in English (booking/catalog/rules.py); `season_names` maps that name
    to the season's name in the reader's language, where the owner gave one."""
    if source == "rate_calendar":
        return _("set here")
    if source.startswith("season:"):
        name = source.removeprefix("season:")
        if season_names is None:  # one night read alone (a reservation's nightly rates): its season's row
            season = Season.objects.filter(name_en=name).first()
            return season.name if season else name
        return season_names.get(name, name)
    return {"weekend_rate": _("weekend rate"), "base_rate": _("base rate")}.get(source, source)


@dataclass(frozen=True)
class RateMonth:
    first: date
    weeks: list[list[RateNight]]
    currency: str
    base_occupancy: int

    @property
    def previous(self) -> date:
        return (self.first - timedelta(days=1)).replace(day=1)

    @property
    def following(self) -> date:
        return (self.first + timedelta(days=32)).replace(day=1)


def rate_month(prop: Property, first: date, now=None) -> RateMonth:
    now = now or timezone.now()
    rules = rules_for(prop)
    season_names = {season.name_en or season.name: season.name for season in prop.seasons.all()}  # type: ignore[attr-defined]
    weeks_of_dates = calendar.Calendar().monthdatescalendar(first.year, first.month)
    start, end = weeks_of_dates[0][0], weeks_of_dates[-1][-1] + timedelta(days=1)
    takers: dict[date, Taker] = {}
    reservations = (
        Reservation.objects.filter(property=prop, check_in__lt=end, check_out__gt=start)
        .filter(Q(status=Status.CONFIRMED) | Q(status=Status.HELD, hold_expires_at__gt=now))
        .only("id", "status", "check_in", "check_out", "guest_first_name", "guest_last_name", "guests")
    )
    for r in reservations:
        kind = "stay" if r.status == Status.CONFIRMED else "hold"
        if kind == "stay":
            guests = ngettext("%(count)d guest", "%(count)d guests", r.guests) % {"count": r.guests}
            label = f"{r.guest_name or r.pk[:10]} · {guests}"
        else:
            label = r.pk[:10]
        for night in _nights(max(r.check_in, start), min(r.check_out, end)):
            takers[night] = Taker(kind, label, reservation_id=r.pk)
    for b in DateBlock.objects.filter(property=prop, start__lt=end, end__gt=start):
        kind = "block" if b.source == DateBlock.Source.STAFF else "partner"
        if kind == "block":
            label = b.reason or _("blocked")
        else:
            label = f"{b.feed_key or _('partner')}: {b.reason or _('booked')}"
        for night in _nights(max(b.start, start), min(b.end, end)):
            takers.setdefault(night, Taker(kind, label, block_id=b.pk))
    today = timezone.localdate(now)
    gap_nights = {day.date for day in pricing.calendar(start, end - timedelta(days=1), rules, set(takers), today) if day.gap_night}
    weeks = []
    for week in weeks_of_dates:
        row = []
        for night in week:
            price = pricing.price_night(night, rules.base_occupancy, rules)
            row.append(
                RateNight(
                    night=night,
                    in_month=night.month == first.month,
                    rate=price.rate,
                    source=price.source,
                    min_nights=rules.min_nights_for_arrival(night),
                    set_in_calendar=night in rules.night_rules,
                    taken_by=takers.get(night),
                    offers=night_offers(rules, night, today, night in gap_nights),
                    season_names=season_names,
                )
            )
        weeks.append(row)
    return RateMonth(first=first, weeks=weeks, currency=rules.currency, base_occupancy=rules.base_occupancy)


def night_offers(rules: pricing.PricingRules, night: date, today: date, gap: bool) -> tuple[str, ...]:
    """The automatic discounts a stay arriving on `night` (booked today) earns, in words: the rules
    the engine may apply on top of the night's price (the best one wins, unless they stack)."""
    days_ahead = (night - today).days
    offers = []
    if rules.early_bird and rules.early_bird.percent and days_ahead >= rules.early_bird.days:
        offers.append(_("early-bird −%(percent)s %%") % {"percent": f"{rules.early_bird.percent.normalize():f}"})
    if rules.last_minute and rules.last_minute.percent and 0 <= days_ahead <= rules.last_minute.days:
        offers.append(_("last-minute −%(percent)s %%") % {"percent": f"{rules.last_minute.percent.normalize():f}"})
    if gap and rules.gap_nights:
        offers.append(_("gap night −%(percent)s %%") % {"percent": f"{rules.gap_nights.percent.normalize():f}"})
    return tuple(offers)


def _nights(start: date, end: date):
    return (start + timedelta(days=i) for i in range((end - start).days))
