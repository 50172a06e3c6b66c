"""The read side of a stay: availability, quote and calendar, priced by the pure engine."""

import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.utils import translation
from rest_framework.renderers import JSONRenderer

from booking import pricing
from booking.errors import InvalidInput
from booking.models import Property
from booking.presenters import calendar_json, property_json
from booking.rules import rules_for_version
from booking.selectors import get_property_version, taken_ranges, taken_ranges_and_holds, today

_property_documents: dict[int, tuple[int, dict[str, Any], bytes]] = {}


def describe_property() -> dict[str, Any]:
    """The property's public document (presenters.property_json), rebuilt only when its version
    changes: any edit of the property, its rates or its content bumps rules_version."""
    return _property_document()[0]


def describe_property_json() -> bytes:
    """The same document, already encoded as JSON: the most polled answer costs one query."""
    return _property_document()[1]


def _property_document() -> tuple[dict[str, Any], bytes]:
    property_id, version = get_property_version()
    cached = _property_documents.get(property_id)
    if cached is None or cached[0] != version:
        prop = Property.objects.prefetch_related("amenities", "photos", "reviews").get(pk=property_id)
        with translation.override("en"):  # the agents' document is language-neutral (English)
            document = property_json(prop, rules_for_version(property_id, version))
        cached = (version, document, JSONRenderer().render(document))
        _property_documents[property_id] = cached
    return cached[1], cached[2]


@dataclass(frozen=True)
class StayCheck:
    stay: pricing.Stay
    guests: int
    verdict: pricing.Verdict
    quote: pricing.Quote


def check_stay(*, check_in: date, check_out: date, guests: int, children_ages: list[int] | None = None) -> StayCheck:
    """Whether the stay can be booked now, with its price either way. Two queries."""
    property_id, version = get_property_version()
    return _check(property_id, rules_for_version(property_id, version), check_in, check_out, guests, children_ages or ())


def _check(property_id: int, rules: pricing.PricingRules, check_in: date, check_out: date, guests: int, children_ages: Collection[int] = ()) -> StayCheck:
    stay = pricing.Stay(check_in, check_out)
    ranges = taken_ranges_and_holds(property_id, check_in, check_out)
    taken = pricing.taken_nights_from_ranges([(start, end) for start, end, _ in ranges], check_in, check_out)
    verdict = pricing.check_stay(stay, guests, rules, taken, today(), pricing.held_only_nights(ranges, check_in, check_out))
    return StayCheck(stay, guests, verdict, pricing.quote(stay, guests, rules, children_ages))


@dataclass(frozen=True)
class PricedQuote:
    check: StayCheck
    currency: str
    exchange_rate: Decimal


def quote_stay(
    *, check_in: date, check_out: date, guests: int, currency: str = "EUR", location: str = "body", children_ages: list[int] | None = None
) -> PricedQuote:
    property_id, version = get_property_version()
    rules = rules_for_version(property_id, version)
    currency = currency.upper()
    rate = rules.display_currencies.get(currency)
    if rate is None:
        supported = ", ".join(sorted(rules.display_currencies))
        raise InvalidInput.single([location, "currency"], f"Unsupported currency {currency!r}; supported: {supported}.", "enum")
    return PricedQuote(_check(property_id, rules, check_in, check_out, guests, children_ages or ()), currency, rate)


@dataclass(frozen=True)
class Calendar:
    first_day: date
    last_day: date
    months: int
    currency: str
    days: list[pricing.CalendarDay]


@dataclass(frozen=True)
class FoundStays:
    nights: int
    guests: int
    start: date
    end: date
    currency: str
    stays: list[pricing.FoundStay]


def find_stays(*, nights: int, guests: int, start: date | None = None, end: date | None = None, children_ages: list[int] | None = None) -> FoundStays:
    """Up to 10 bookable stays of `nights` nights arriving in [start, end] (start: today, the first
    bookable date; end: start + 60 days), cheapest first. Two queries, whatever the window."""
    property_id, version = get_property_version()
    rules = rules_for_version(property_id, version)
    start = max(start or today(), today())
    end = end or start + timedelta(days=DEFAULT_SEARCH_DAYS)
    taken = pricing.taken_nights_from_ranges(taken_ranges(property_id, start, end + timedelta(days=nights)), start, end + timedelta(days=nights))
    found = pricing.find_stays(
        nights=nights, guests=guests, rules=rules, taken_nights=taken, today=today(), first_arrival=start, last_arrival=end, children_ages=children_ages or ()
    )
    return FoundStays(nights, guests, start, end, rules.currency, found)


DEFAULT_SEARCH_DAYS = 60


def calendar_months(*, start: date | None, months: int) -> Calendar:
    """Day-by-day availability from the month of `start` (any date; default this month)."""
    return _remembered_calendar(start, months).calendar


def calendar_document(*, start: date | None, months: int) -> bytes:
    """calendar_months as the API's JSON (presenters.calendar_json), encoded once per calendar."""
    return _remembered_calendar(start, months).document()


class RememberedCalendar:
    def __init__(self, calendar: Calendar):
        self.calendar = calendar
        self._document: bytes | None = None

    def document(self) -> bytes:
        if self._document is None:  # two threads may both encode it once; the bytes are the same
            self._document = JSONRenderer().render(calendar_json(self.calendar))
        return self._document


def _remembered_calendar(start: date | None, months: int) -> RememberedCalendar:
    property_id, version = get_property_version()
    rules = rules_for_version(property_id, version)
    first = (start or today()).replace(day=1)
    year, month = divmod(first.month - 1 + months, 12)
    last = date(first.year + year, month + 1, 1) - timedelta(days=1)
    lookahead = last + timedelta(days=rules.max_nights + 2)
    ranges = taken_ranges(property_id, first - timedelta(days=1), lookahead)
    key = (property_id, version, first, last, today(), tuple(ranges))
    with _calendars_lock:
        remembered = _calendars.get(key)
        if remembered is not None:
            _calendars.move_to_end(key)
            return remembered
    taken = pricing.taken_nights_from_ranges(ranges, first - timedelta(days=1), lookahead)
    remembered = RememberedCalendar(Calendar(first, last, months, rules.currency, pricing.calendar(first, last, rules, taken, today())))
    with _calendars_lock:
        _calendars[key] = remembered
        while len(_calendars) > CALENDAR_CACHE_SIZE:
            _calendars.popitem(last=False)
    return remembered


# The day-by-day calendar is a pure function of the rules (their version), the taken ranges, today
# and the window, and costs far more than the query for the taken ranges: each web process keeps
# the last few under exactly those inputs, with their JSON. The ranges are read on every call, so
# a remembered calendar can never show a night free that has been taken since, whoever wrote it
# (a hold, a payment, an expiry, a cancellation, a block, a partner import, the admin, raw SQL):
# no writer has to remember to bump a version.
CALENDAR_CACHE_SIZE = 32
_calendars: OrderedDict[tuple, RememberedCalendar] = OrderedDict()
_calendars_lock = threading.Lock()
