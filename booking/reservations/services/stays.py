"""The read side of a stay: availability, quote and calendar, priced by the pure engine."""

import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Generic, TypeVar

from booking.catalog import payment_schedule, pricing
from booking.catalog.models import Property
from booking.catalog.rules import longest_stay_known, rules_for_version
from booking.catalog.selectors import get_property_version, today
from booking.errors import InvalidInput
from booking.reservations.selectors import ranges_from_text, taken_ranges, version_and_taken_text
from booking.reservations.services import offers

T = TypeVar("T")


class Memory(Generic[T]):
    """The last `size` results of a pure function, keyed by every input it reads (see below). A
    result asked again under the same inputs is the same object, so an adapter can keep what it
    derives from it in the result's `kept` (booking/api/documents.py keeps its JSON there): it
    lives exactly as long as the result is remembered."""

    def __init__(self, size: int):
        self.size = size
        self.entries: OrderedDict[tuple[Any, ...], T] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> T | None:
        with self.lock:
            remembered = self.entries.get(key)
            if remembered is not None:
                self.entries.move_to_end(key)
            return remembered

    def keep(self, key: tuple[Any, ...], remembered: T) -> None:
        with self.lock:
            self.entries[key] = remembered
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


@dataclass(frozen=True, eq=False)
class PropertyDescription:
    """The property as agents read it: the row with its amenities, photos and reviews, and its rules."""

    property: Property
    rules: pricing.PricingRules
    version: int
    kept: dict[tuple[Hashable, ...], bytes] = field(default_factory=dict, repr=False)  # what adapters derive (their JSON)


_descriptions: dict[int, PropertyDescription] = {}


def describe_property() -> PropertyDescription:
    """The property being sold, read again only when its version changes: any edit of the property,
    its rates or its content bumps rules_version. One query otherwise."""
    property_id, version = get_property_version()
    described = _descriptions.get(property_id)
    if described is None or described.version != version:
        prop = Property.objects.prefetch_related("amenities", "photos", "reviews").get(pk=property_id)
        described = _descriptions[property_id] = PropertyDescription(prop, rules_for_version(property_id, version), version)
    return described


@dataclass(frozen=True)
class StayCheck:
    stay: pricing.Stay
    guests: int
    verdict: pricing.Verdict
    quote: pricing.Quote
    terms: payment_schedule.PaymentTerms
    today: date
    kept: dict[tuple[Hashable, ...], bytes] = field(default_factory=dict, compare=False, repr=False)  # what adapters derive (their JSON)

    @property
    def schedule(self) -> tuple[payment_schedule.ScheduleEntry, ...]:
        return self.schedule_for(self.quote.total)

    def schedule_for(self, total: Decimal) -> tuple[payment_schedule.ScheduleEntry, ...]:
        """When this stay would be paid if booked today (of `total`: a quote's display currency)."""
        return payment_schedule.payment_schedule(total, check_in=self.stay.check_in, today=self.today, terms=self.terms)


def check_stay(*, check_in: date, check_out: date, guests: int, children_ages: list[int] | None = None, promo_code: str | None = None) -> StayCheck:
    """Whether the stay can be booked now, with its price either way. One query (two with a code)."""
    return _remembered_check_and_rules(Asked(check_in, check_out, guests, tuple(children_ages or ()), promo_code, ()))[0]


@dataclass(frozen=True)
class PricedQuote:
    check: StayCheck
    currency: str
    exchange_rate: Decimal


@dataclass(frozen=True)
class Asked:
    """A stay as asked for, with its offers: what a check or a quote is remembered by."""

    check_in: date
    check_out: date
    guests: int
    children_ages: tuple[int, ...]
    promo_code: str | None
    extras: tuple[tuple[str, int], ...]


def quote_stay(
    *,
    check_in: date,
    check_out: date,
    guests: int,
    currency: str = "EUR",
    children_ages: list[int] | None = None,
    promo_code: str | None = None,
    extras: list[dict[str, Any]] | None = None,
) -> PricedQuote:
    """check_stay with its offers and its price shown in `currency` (one the property lists)."""
    asked = Asked(check_in, check_out, guests, tuple(children_ages or ()), promo_code, tuple((e["code"], e["quantity"]) for e in extras or ()))
    check, rules = _remembered_check_and_rules(asked)
    currency = currency.upper()
    rate = rules.display_currencies.get(currency)
    if rate is None:
        supported = ", ".join(sorted(rules.display_currencies))
        raise InvalidInput.field("currency", f"Unsupported currency {currency!r}; supported: {supported}.", "enum")
    return PricedQuote(check, currency, rate)


def _remembered_check_and_rules(asked: Asked) -> tuple[StayCheck, pricing.PricingRules]:
    stay = pricing.Stay(asked.check_in, asked.check_out)
    property_id, version, taken_text = version_and_taken_text(*pricing.gap_window(stay))  # one query
    rules = rules_for_version(property_id, version)
    extras = offers.extras_for(rules, ({"code": c, "quantity": q} for c, q in asked.extras), stay)
    promo, _ = offers.promo_for(property_id, asked.promo_code, stay)  # a query only with a code
    key = (property_id, version, asked.check_in, asked.check_out, asked.guests, asked.children_ages, promo, extras, taken_text, today())
    remembered = _checks.get(key)
    if remembered is not None:
        return remembered, rules
    ranges = ranges_from_text(taken_text)
    verdict = pricing.check_stay_against_ranges(stay, asked.guests, rules, ranges, today())
    taken = pricing.taken_nights_from_ranges([(start, end) for start, end, _ in ranges], *pricing.gap_window(stay))
    priced = pricing.quote(stay, asked.guests, rules, asked.children_ages, today=today(), taken_nights=taken, promo=promo, extras=extras)
    remembered = StayCheck(stay, asked.guests, verdict, priced, payment_schedule.terms_of(rules), today())
    _checks.keep(key, remembered)
    return remembered, rules


# A stay's check and a calendar are pure functions of the rules (their version), the taken ranges
# (with when each unpaid hold lapses), today and the asked stay or window; they cost more than the
# query for the taken ranges. Each web process keeps the last few under exactly those inputs, with
# what adapters derive from them (their JSON). The ranges are read on every call, as one text the
# database joins (selectors.version_and_taken_text: one value to hash, however many there are), so
# a remembered answer can never show a night free that has been taken since, whoever wrote it (a
# hold, a payment, an expiry, a cancellation, a block, a partner import, the admin, raw SQL): no
# writer has to remember to bump a version.
_checks: Memory[StayCheck] = Memory(256)


@dataclass(frozen=True)
class Calendar:
    first_day: date
    last_day: date
    months: int
    currency: str
    days: list[pricing.CalendarDay]
    kept: dict[tuple[Hashable, ...], bytes] = field(default_factory=dict, compare=False, repr=False)  # what adapters derive (their JSON)


@dataclass(frozen=True)
class FoundStays:
    nights: int
    guests: int
    start: date
    end: date
    currency: str
    stays: list[pricing.FoundStay]
    terms: payment_schedule.PaymentTerms
    today: date
    promo_code: str | None = None

    def schedule_of(self, found: pricing.FoundStay) -> tuple[payment_schedule.ScheduleEntry, ...]:
        return payment_schedule.payment_schedule(found.total, check_in=found.check_in, today=self.today, terms=self.terms)


def find_stays(
    *,
    nights: int,
    guests: int,
    start: date | None = None,
    end: date | None = None,
    children_ages: list[int] | None = None,
    promo_code: str | None = None,
) -> FoundStays:
    """Up to 10 bookable stays of `nights` nights arriving in [start, end] (start: today, the first
    bookable date; end: start + 60 days), cheapest first. Two queries, whatever the window (three
    with a code: it prices the stays it applies to, and one usable on none of them is a 422)."""
    property_id, version = get_property_version()
    rules = rules_for_version(property_id, version)
    start = max(start or today(), today())
    end = end or start + timedelta(days=DEFAULT_SEARCH_DAYS)
    promo, _ = offers.promo_for(property_id, promo_code, pricing.Stay(start, start + timedelta(days=nights)), any_window=True)
    # From the night before the first arrival to the night after the last departure: gap nights.
    first, last = start - timedelta(days=1), end + timedelta(days=nights + 1)
    taken = pricing.taken_nights_from_ranges(taken_ranges(property_id, first, last), first, last)
    found = pricing.find_stays(
        nights=nights,
        guests=guests,
        rules=rules,
        taken_nights=taken,
        today=today(),
        first_arrival=start,
        last_arrival=end,
        children_ages=children_ages or (),
        promo=promo,
    )
    return FoundStays(nights, guests, start, end, rules.currency, found, payment_schedule.terms_of(rules), today(), promo.code if promo else None)


DEFAULT_SEARCH_DAYS = 60


def calendar_months(*, start: date | None, months: int) -> Calendar:
    """Day-by-day availability from the month of `start` (any date; default this month)."""
    return _remembered_calendar(start, months)


def _remembered_calendar(start: date | None, months: int) -> Calendar:
    first = (start or today()).replace(day=1)
    year, month = divmod(first.month - 1 + months, 12)
    last = date(first.year + year, month + 1, 1) - timedelta(days=1)
    # A day's availability depends on the nights after it, up to the longest stay the rules allow,
    # so the ranges are read past the last day. They come with the version in one query, as far
    # as the longest stay of the rules this process knows; if the rules now allow longer stays, the
    # rest is read again.
    before = first - timedelta(days=1)
    read_until = last + timedelta(days=longest_stay_known() + 2)
    property_id, version, taken_text = version_and_taken_text(before, read_until)
    rules = rules_for_version(property_id, version)
    lookahead = last + timedelta(days=rules.max_nights + 2)
    if lookahead > read_until:
        _, _, taken_text = version_and_taken_text(before, lookahead)
    # Keyed by the text of the ranges read (the same text, the same taken nights), read into
    # ranges only when the answer must be worked out.
    key = (property_id, version, first, last, lookahead, today(), taken_text)
    remembered = _calendars.get(key)
    if remembered is not None:
        return remembered
    ranges = [(first_night, end) for first_night, end, _ in ranges_from_text(taken_text) if first_night < lookahead]
    taken = pricing.taken_nights_from_ranges(ranges, before, lookahead)
    remembered = Calendar(first, last, months, rules.currency, pricing.calendar(first, last, rules, taken, today()))
    _calendars.keep(key, remembered)
    return remembered


CALENDAR_CACHE_SIZE = 32
_calendars: Memory[Calendar] = Memory(CALENDAR_CACHE_SIZE)  # the same rule as _checks above


def forget_remembered() -> None:
    """Drop what this process remembers (tests: a rolled-back database reuses ids and versions)."""
    _checks.clear()
    _calendars.clear()
    _descriptions.clear()
