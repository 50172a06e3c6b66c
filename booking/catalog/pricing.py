"""The pricing and availability engine: pure functions over frozen dataclasses and Decimal.

Nothing here touches the database or the clock; callers pass in the rules (see booking/catalog/rules.py),
the nights already taken and today's date. That keeps every figure a guest sees reproducible and
testable line by line.

Conventions
- A stay is the half-open range [check_in, check_out): it occupies the nights check_in ..
  check_out - 1, so the check-out day is free for the next arrival.
- A "night" is named by its date: the night of Friday 5 June starts on that Friday.
- Money is Decimal, rounded half-up to cents.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
FRIDAY, SATURDAY = 4, 5
WEEKEND_NIGHTS = frozenset({FRIDAY, SATURDAY})


def money(value: Decimal | int | str) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Stay:
    check_in: date
    check_out: date

    def __post_init__(self) -> None:
        if self.check_out <= self.check_in:
            raise ValueError("check_out must be after check_in")

    @property
    def nights(self) -> int:
        return (self.check_out - self.check_in).days

    def each_night(self) -> Iterable[date]:
        for offset in range(self.nights):
            yield self.check_in + timedelta(days=offset)

    def overlaps(self, start: date, end: date) -> bool:
        return self.check_in < end and start < self.check_out


@dataclass(frozen=True)
class Season:
    name: str
    start: date  # first night
    end: date  # last night, inclusive
    nightly_rate: Decimal
    weekend_nightly_rate: Decimal | None = None
    min_nights: int | None = None
    priority: int = 0
    recurring: bool = True

    def covers(self, night: date) -> bool:
        if not self.recurring:
            return self.start <= night <= self.end
        # Yearly: compare (month, day), allowing a season that wraps over the new year (Dec → Jan).
        key, start, end = (night.month, night.day), self._start_key, self._end_key
        if start <= end:
            return start <= key <= end
        return key >= start or key <= end

    @property
    def _start_key(self) -> tuple[int, int]:
        return (self.start.month, self.start.day)

    @property
    def _end_key(self) -> tuple[int, int]:
        return (self.end.month, self.end.day)


class _LookUp(enum.Enum):
    """The default of the `season` arguments below: look the night's season up (a caller that
    already did passes the season, or None for none)."""

    SEASON = "look the season up"


LOOK_UP = _LookUp.SEASON


@dataclass(frozen=True)
class NightRule:
    """What the owner set for one night in the rate calendar: a price, a minimum stay, or both.
    It wins over seasons and base rates; None leaves that rule to them."""

    rate: Decimal | None = None
    min_nights: int | None = None


@dataclass(frozen=True)
class LengthOfStayDiscount:
    label: str
    min_nights: int
    percent: Decimal


@dataclass(frozen=True)
class DaysAheadDiscount:
    """Early-bird (arrival at least `days` away when booked) or last-minute (at most `days` away)."""

    days: int
    percent: Decimal


@dataclass(frozen=True)
class GapNights:
    """A free run of nights between two taken ones, shorter than the minimum stay, may be booked
    whole (the minimum stay is waived for exactly that run), at `percent` off."""

    percent: Decimal = Decimal("0")


class ExtraPer(enum.StrEnum):
    STAY = "stay"
    NIGHT = "night"
    GUEST = "guest"
    GUEST_NIGHT = "guest_night"


@dataclass(frozen=True)
class Extra:
    """Something sold with the stay (an airport transfer, a late check-out). `names` maps a
    language code to the name shown in it (English under "en", the fallback)."""

    code: str
    names: Mapping[str, str]
    price: Decimal
    per: ExtraPer = ExtraPer.STAY
    max_quantity: int = 1
    notice_days: int = 0

    def name(self, language: str | None = None) -> str:
        return self.names.get(language or "en") or self.names.get("en") or self.code


@dataclass(frozen=True)
class ExtraChoice:
    code: str
    quantity: int


@dataclass(frozen=True)
class PromoCode:
    """A code the owner hands out: `percent` or a fixed `amount` off the accommodation, within
    its windows. How often it was used is the service's business (it needs the database)."""

    code: str
    percent: Decimal | None = None
    amount: Decimal | None = None
    bookable_from: date | None = None
    bookable_until: date | None = None
    stay_from: date | None = None  # the first night it may cover
    stay_until: date | None = None  # the last night it may cover
    min_nights: int = 1
    active: bool = True


@dataclass(frozen=True)
class PricingRules:
    currency: str = "EUR"
    base_nightly_rate: Decimal = Decimal("0")
    weekend_nightly_rate: Decimal | None = None
    min_nights: int = 1
    max_nights: int = 365
    arrival_day_min_nights: Mapping[int, int] = field(default_factory=dict)
    closed_to_arrival: frozenset[int] = frozenset()
    closed_to_departure: frozenset[int] = frozenset()
    max_guests: int = 7
    base_occupancy: int = 2
    extra_guest_fee: Decimal = Decimal("0")
    cleaning_fee: Decimal = Decimal("0")
    cleaning_fee_label: str = "Cleaning fee"
    city_tax_per_person_night: Decimal = Decimal("0")
    city_tax_max_nights: int = 7
    city_tax_exempt_under_age: int = 0
    booking_window_days: int = 365
    seasons: tuple[Season, ...] = ()
    discounts: tuple[LengthOfStayDiscount, ...] = ()
    display_currencies: Mapping[str, Decimal] = field(default_factory=dict)
    cancellation_tiers: tuple[RefundTier, ...] = ()
    # Payment terms (booking/catalog/payment_schedule.py): they do not change the price, only when it is paid.
    deposit_percent: Decimal = Decimal("0")
    balance_due_days: int = 0
    security_deposit: Decimal = Decimal("0")
    night_rules: Mapping[date, NightRule] = field(default_factory=dict)
    early_bird: DaysAheadDiscount | None = None
    last_minute: DaysAheadDiscount | None = None
    gap_nights: GapNights | None = None  # None: gap runs follow the minimum stay like any other
    stack_discounts: bool = False  # the owner's choice: every automatic discount applies, not the best one
    extras: tuple[Extra, ...] = ()

    def extra(self, code: str) -> Extra | None:
        return next((extra for extra in self.extras if extra.code == code), None)

    def season_for(self, night: date) -> Season | None:
        """The season pricing a night: the highest priority wins; ties go to the later-starting one."""
        best = None
        for season in self.seasons:
            if season.covers(night) and (best is None or (season.priority, season.start) > (best.priority, best.start)):
                best = season
        return best

    def min_nights_for_arrival(self, check_in: date, season: Season | None | _LookUp = LOOK_UP) -> int:
        """The shortest stay allowed for an arrival on this date.

        The season of the arrival night sets it (else the property's minimum); an arrival-weekday
        rule can only raise it (e.g. Saturday arrivals stay three nights). `season` may be passed
        when the caller already looked it up.
        """
        set_for_night = self.night_rules.get(check_in)
        if set_for_night is not None and set_for_night.min_nights:
            minimum = set_for_night.min_nights
        else:
            if season is LOOK_UP:
                season = self.season_for(check_in)
            minimum = season.min_nights if season and season.min_nights else self.min_nights
        return max(minimum, self.arrival_day_min_nights.get(check_in.weekday(), 0))

    def last_arrival_date(self, today: date) -> date:
        return today + timedelta(days=self.booking_window_days)


@dataclass(frozen=True)
class NightPrice:
    night: date
    rate: Decimal
    extra_guest_fee: Decimal
    amount: Decimal
    source: str  # "rate_calendar", "season:<name>", "weekend_rate" or "base_rate": the first that sets the night wins


# The labels of the automatic discounts; the presenters translate them (gettext) when they show them.
EARLY_BIRD_LABEL = "Early-bird discount"
LAST_MINUTE_LABEL = "Last-minute discount"
GAP_NIGHTS_LABEL = "Gap-night discount"
PROMO_CODE_LABEL = "Promo code"
DISCOUNT_KINDS = ("length_of_stay", "early_bird", "last_minute", "gap", "promo", "host_price")


@dataclass(frozen=True)
class CityTaxTerms:
    """How a stay's city tax was counted: what a stored breakdown keeps, its note rendered when read.
    `taxed` and `guests` are set when the children's ages were given (some may be exempt)."""

    rate: Decimal
    currency: str
    max_nights: int
    exempt_under_age: int | None = None
    taxed: int | None = None
    guests: int | None = None


@dataclass(frozen=True)
class Discount:
    """One discount applied to the accommodation: `amount` is ≤ 0; `code` names the promo code
    (None for the automatic ones); `percent` is None for a fixed-amount code. `kind` is what a stored
    breakdown keeps (one of DISCOUNT_KINDS; the label is rendered from it when read), with the
    length-of-stay discount's `min_nights` naming which of the owner's discounts it is."""

    label: str
    percent: Decimal | None
    amount: Decimal
    code: str | None = None
    kind: str = ""
    min_nights: int | None = None


@dataclass(frozen=True)
class ExtraLine:
    extra: Extra
    quantity: int
    amount: Decimal

    @property
    def code(self) -> str:
        return self.extra.code


@dataclass(frozen=True)
class Quote:
    stay: Stay
    guests: int
    nights: tuple[NightPrice, ...]
    accommodation: Decimal
    discount_label: str | None
    discount_percent: Decimal
    discount_amount: Decimal
    cleaning_fee: Decimal
    cleaning_fee_label: str
    city_tax: Decimal
    city_tax_note: str
    total: Decimal
    currency: str
    price_source: str
    discounts: tuple[Discount, ...] = ()
    extras: tuple[ExtraLine, ...] = ()
    extras_total: Decimal = Decimal("0.00")
    gap_stay: bool = False
    city_tax_terms: CityTaxTerms | None = None


def price_night(night: date, guests: int, rules: PricingRules, season: Season | None | _LookUp = LOOK_UP) -> NightPrice:
    if season is LOOK_UP:
        season = rules.season_for(night)
    weekend = night.weekday() in WEEKEND_NIGHTS
    set_for_night = rules.night_rules.get(night)
    if set_for_night is not None and set_for_night.rate is not None:
        rate, source = set_for_night.rate, "rate_calendar"
    elif season is not None:
        rate = season.weekend_nightly_rate if weekend and season.weekend_nightly_rate is not None else season.nightly_rate
        source = f"season:{season.name}"
    elif weekend and rules.weekend_nightly_rate is not None:
        rate, source = rules.weekend_nightly_rate, "weekend_rate"
    else:
        rate, source = rules.base_nightly_rate, "base_rate"
    extra = money(max(0, guests - rules.base_occupancy) * rules.extra_guest_fee)
    rate = money(rate)
    return NightPrice(night=night, rate=rate, extra_guest_fee=extra, amount=rate + extra, source=source)


def city_tax_note(rules: PricingRules) -> str:
    """How the city tax is counted, in words: the one place every page, email and API body takes
    it from. It is paid with the booking (in the total), never on arrival."""
    note = f"{rules.city_tax_per_person_night} {rules.currency} per person per night, for at most {rules.city_tax_max_nights} nights, included in the total"
    if rules.city_tax_exempt_under_age:
        note += f"; children under {rules.city_tax_exempt_under_age} are exempt when their ages are given at booking"
    return note


def quote(
    stay: Stay,
    guests: int,
    rules: PricingRules,
    children_ages: Collection[int] = (),
    *,
    today: date | None = None,
    taken_nights: Collection[date] = (),
    promo: PromoCode | None = None,
    extras: Sequence[ExtraChoice] = (),
) -> Quote:
    """Price a stay line by line.
    total = accommodation + discount_amount + cleaning_fee + city_tax + extras_total.

    The city tax counts every guest unless `children_ages` says who is a child: children under the
    exemption age are then not taxed (docs/contract.md, "Stays and money"). Early-bird and
    last-minute need `today` (the booking date); gap nights need the `taken_nights` next to the
    stay. `promo` and `extras` must have passed promo_problem() and extra_problem() first."""
    nights = tuple(price_night(night, guests, rules) for night in stay.each_night())
    accommodation = money(sum((n.amount for n in nights), Decimal("0")))
    gap = is_gap_stay(stay, rules, taken_nights)
    discounts = apply_discounts(accommodation, automatic_discounts(stay, rules, today, gap), promo)
    discount_amount = sum((d.amount for d in discounts), Decimal("0.00"))
    lines = tuple(price_extra(rules, choice, stay, guests) for choice in extras if choice.quantity > 0)
    extras_total = sum((line.amount for line in lines), Decimal("0.00"))
    taxed = taxed_guests(guests, children_ages, rules)
    city_tax = money(rules.city_tax_per_person_night * taxed * min(stay.nights, rules.city_tax_max_nights))
    cleaning_fee = money(rules.cleaning_fee)
    total = accommodation + discount_amount + cleaning_fee + city_tax + extras_total
    return Quote(
        stay=stay,
        guests=guests,
        nights=nights,
        accommodation=accommodation,
        discount_label=" + ".join(d.label for d in discounts) or None,
        discount_percent=sum((d.percent or Decimal("0") for d in discounts), Decimal("0")),
        discount_amount=discount_amount,
        cleaning_fee=cleaning_fee,
        cleaning_fee_label=rules.cleaning_fee_label,
        city_tax=city_tax,
        city_tax_note=city_tax_note(rules) + (f"; {taxed} of {guests} guests taxed" if children_ages else ""),
        total=money(total),
        currency=rules.currency,
        price_source=" + ".join(dict.fromkeys(n.source for n in nights)),
        discounts=discounts,
        extras=lines,
        extras_total=extras_total,
        gap_stay=gap,
        city_tax_terms=CityTaxTerms(
            rules.city_tax_per_person_night,
            rules.currency,
            rules.city_tax_max_nights,
            rules.city_tax_exempt_under_age or None,
            taxed if children_ages else None,
            guests if children_ages else None,
        ),
    )


def automatic_discounts(stay: Stay, rules: PricingRules, today: date | None, gap: bool) -> list[Discount]:
    """The automatic discounts the stay earns (amounts not yet taken): the best single one, or all of
    them when the owner lets them stack. On a tie the earlier kind wins: length of stay,
    early-bird, last-minute, gap nights."""
    earned = []
    length = best_discount(stay.nights, rules.discounts)
    zero = Decimal("0.00")
    if length is not None:
        earned.append(Discount(length.label, length.percent, zero, kind="length_of_stay", min_nights=length.min_nights))
    days_ahead = (stay.check_in - today).days if today is not None else None
    if rules.early_bird and days_ahead is not None and days_ahead >= rules.early_bird.days:
        earned.append(Discount(EARLY_BIRD_LABEL, rules.early_bird.percent, zero, kind="early_bird"))
    if rules.last_minute and days_ahead is not None and 0 <= days_ahead <= rules.last_minute.days:
        earned.append(Discount(LAST_MINUTE_LABEL, rules.last_minute.percent, zero, kind="last_minute"))
    if gap and rules.gap_nights and rules.gap_nights.percent > 0:
        earned.append(Discount(GAP_NIGHTS_LABEL, rules.gap_nights.percent, zero, kind="gap"))
    earned = [item for item in earned if item.percent and item.percent > 0]
    if rules.stack_discounts or not earned:
        return earned
    best = max(item.percent or zero for item in earned)
    return [next(item for item in earned if item.percent == best)]


def apply_discounts(accommodation: Decimal, automatic: Iterable[Discount], promo: PromoCode | None) -> tuple[Discount, ...]:
    """Each discount a share of the accommodation (so the percents add up), the promo code last;
    together they never take more than the accommodation."""
    applied = []
    left = accommodation

    def take(amount: Decimal) -> Decimal:
        nonlocal left
        amount = min(max(amount, Decimal("0")), left)
        left -= amount
        return -amount

    for earned in automatic:
        percent = earned.percent or Decimal("0")
        applied.append(replace(earned, amount=take(money(accommodation * percent / 100))))
    if promo is not None:
        if promo.percent is not None:
            applied.append(Discount(PROMO_CODE_LABEL, promo.percent, take(money(accommodation * promo.percent / 100)), promo.code, kind="promo"))
        else:
            applied.append(Discount(PROMO_CODE_LABEL, None, take(money(promo.amount or 0)), promo.code, kind="promo"))
    return tuple(applied)


def promo_problem(promo: PromoCode, stay: Stay, today: date) -> str | None:
    """Why the code cannot price this stay booked today (None: it can). Uses are counted elsewhere."""
    if not promo.active:
        return f"The code {promo.code} is no longer active."
    if promo.bookable_from and today < promo.bookable_from:
        return f"The code {promo.code} can be used from {promo.bookable_from.isoformat()}."
    if promo.bookable_until and today > promo.bookable_until:
        return f"The code {promo.code} expired on {promo.bookable_until.isoformat()}."
    last_night = stay.check_out - timedelta(days=1)
    if promo.stay_from and stay.check_in < promo.stay_from or promo.stay_until and last_night > promo.stay_until:
        window = f"{promo.stay_from.isoformat() if promo.stay_from else '…'} to {promo.stay_until.isoformat() if promo.stay_until else '…'}"
        return f"The code {promo.code} covers only nights from {window}."
    if stay.nights < promo.min_nights:
        return f"The code {promo.code} needs a stay of at least {promo.min_nights} nights."
    return None


def extra_problem(rules: PricingRules, choice: ExtraChoice, stay: Stay, today: date) -> str | None:
    """Why this extra cannot be added to this stay booked today (None: it can)."""
    extra = rules.extra(choice.code)
    if extra is None:
        known = ", ".join(e.code for e in rules.extras) or "none"
        return f"Unknown extra {choice.code!r}; offered: {known}."
    if choice.quantity < 0 or choice.quantity > extra.max_quantity:
        return f"{extra.code}: choose from 0 to {extra.max_quantity}."
    if choice.quantity and (stay.check_in - today).days < extra.notice_days:
        return f"{extra.code} must be booked at least {extra.notice_days} days before arrival."
    return None


def price_extra(rules: PricingRules, choice: ExtraChoice, stay: Stay, guests: int) -> ExtraLine:
    extra = rules.extra(choice.code)
    if extra is None:
        raise ValueError(f"unknown extra {choice.code!r}")
    units = {ExtraPer.STAY: 1, ExtraPer.NIGHT: stay.nights, ExtraPer.GUEST: guests, ExtraPer.GUEST_NIGHT: guests * stay.nights}[extra.per]
    return ExtraLine(extra, choice.quantity, money(extra.price * units * choice.quantity))


def is_gap_stay(stay: Stay, rules: PricingRules, taken_nights: Collection[date]) -> bool:
    """Whether the stay is exactly a free run between two taken nights, shorter than the minimum
    stay, and the owner sells such runs (rules.gap_nights)."""
    return (
        rules.gap_nights is not None
        and stay.nights < rules.min_nights_for_arrival(stay.check_in)
        and stay.check_in - timedelta(days=1) in taken_nights
        and stay.check_out in taken_nights
        and not any(night in taken_nights for night in stay.each_night())
    )


def taxed_guests(guests: int, children_ages: Collection[int], rules: PricingRules) -> int:
    """Guests who pay the city tax: all of them, less the children under the exemption age."""
    exempt = sum(1 for age in children_ages if age < rules.city_tax_exempt_under_age)
    return max(guests - exempt, 0)


def best_discount(nights: int, discounts: Iterable[LengthOfStayDiscount]) -> LengthOfStayDiscount | None:
    eligible = [d for d in discounts if nights >= d.min_nights]
    return max(eligible, key=lambda d: (d.min_nights, d.percent), default=None)


# --- Availability ---------------------------------------------------------------------------------


class Unavailable:
    """Reasons a well-formed stay cannot be booked, in the order they are checked."""

    BEYOND_BOOKING_WINDOW = "beyond_booking_window"
    TOO_MANY_GUESTS = "too_many_guests"
    BOOKED = "booked"
    ON_HOLD = "on_hold"  # only another guest's unpaid hold is in the way; see Verdict.held_until
    CLOSED_TO_ARRIVAL = "closed_to_arrival"
    CLOSED_TO_DEPARTURE = "closed_to_departure"
    MIN_STAY = "min_stay"
    MAX_STAY = "max_stay"


@dataclass(frozen=True)
class Verdict:
    available: bool
    reason: str | None = None
    message: str | None = None
    min_nights: int | None = None
    held_until: datetime | None = None  # with ON_HOLD: when the last hold in the way lapses unless paid


def check_stay(
    stay: Stay,
    guests: int,
    rules: PricingRules,
    taken_nights: Collection[date],
    today: date,
    held_only: Mapping[date, datetime] | None = None,
) -> Verdict:
    """Whether a stay can be booked under the rules, given the nights already taken (with the
    nights just before and after the stay, for gap nights).

    `held_only` maps the taken nights that only unpaid holds take to when those holds lapse: when
    they are all that is in the way, the answer is ON_HOLD (the nights may free up) rather than BOOKED.
    """
    min_nights = rules.min_nights_for_arrival(stay.check_in)

    def refuse(reason: str, message: str, held_until: datetime | None = None) -> Verdict:
        return Verdict(False, reason, message, min_nights, held_until)

    if stay.check_in > rules.last_arrival_date(today):
        return refuse(Unavailable.BEYOND_BOOKING_WINDOW, f"Bookings open at most {rules.booking_window_days} days ahead.")
    if guests > rules.max_guests:
        return refuse(Unavailable.TOO_MANY_GUESTS, f"The property sleeps at most {rules.max_guests} guests.")
    taken_here = [night for night in stay.each_night() if night in taken_nights]
    if taken_here:
        if held_only and all(night in held_only for night in taken_here):
            until = max(held_only[night] for night in taken_here)
            return refuse(
                Unavailable.ON_HOLD,
                f"Another guest holds some of these nights until {until.isoformat()} while they pay; the nights are free again then unless the hold is paid.",
                until,
            )
        return refuse(Unavailable.BOOKED, "Some of these nights are already booked.")
    if stay.check_in.weekday() in rules.closed_to_arrival:
        return refuse(Unavailable.CLOSED_TO_ARRIVAL, f"Arrivals are not possible on a {stay.check_in:%A}.")
    if stay.check_out.weekday() in rules.closed_to_departure:
        return refuse(Unavailable.CLOSED_TO_DEPARTURE, f"Departures are not possible on a {stay.check_out:%A}.")
    if stay.nights < min_nights and not is_gap_stay(stay, rules, taken_nights):
        return refuse(Unavailable.MIN_STAY, f"Stays arriving on {stay.check_in.isoformat()} last at least {min_nights} nights.")
    if stay.nights > rules.max_nights:
        return refuse(Unavailable.MAX_STAY, f"Stays last at most {rules.max_nights} nights.")
    return Verdict(True, min_nights=min_nights)


def check_stay_against_ranges(stay: Stay, guests: int, rules: PricingRules, ranges: Collection[tuple[date, date, datetime | None]], today: date) -> Verdict:
    """check_stay() given the taken ranges as the calendar reads them: half-open [start, end), each
    with the instant its unpaid hold lapses (None: a paid stay or a block)."""
    taken = taken_nights_from_ranges([(start, end) for start, end, _ in ranges], *gap_window(stay))
    return check_stay(stay, guests, rules, taken, today, held_only_nights(ranges, stay.check_in, stay.check_out))


def gap_window(stay: Stay) -> tuple[date, date]:
    """The nights to read to judge a stay: its own, and one each side (is it a gap between two taken ones?).
    Kept inside the dates Python can represent: a stay at either end of the calendar is refused by
    the rules (booking window), never by an OverflowError."""
    before = stay.check_in - timedelta(days=1) if stay.check_in > date.min else stay.check_in
    after = stay.check_out + timedelta(days=1) if stay.check_out < date.max else stay.check_out
    return before, after


def held_only_nights(ranges: Iterable[tuple[date, date, datetime | None]], window_start: date, window_end: date) -> dict[date, datetime]:
    """The nights in the window taken only by unpaid holds, each with when its last hold lapses."""
    firm: set[date] = set()
    held: dict[date, datetime] = {}
    for start, end, held_until in ranges:
        night = max(start, window_start)
        while night < min(end, window_end):
            if held_until is None:
                firm.add(night)
            else:
                held[night] = max(held_until, held.get(night, held_until))
            night += timedelta(days=1)
    return {night: until for night, until in held.items() if night not in firm}


@dataclass(frozen=True)
class FoundStay:
    check_in: date
    check_out: date
    total: Decimal
    gap_stay: bool = False
    promo_code_applied: bool = False


def find_stays(
    *,
    nights: int,
    guests: int,
    rules: PricingRules,
    taken_nights: Collection[date],
    today: date,
    first_arrival: date,
    last_arrival: date,
    limit: int = 10,
    children_ages: Collection[int] = (),
    promo: PromoCode | None = None,
) -> list[FoundStay]:
    """The cheapest bookable stays of exactly `nights` nights arriving between the two dates
    (inclusive), cheapest first (then earliest). One pass over the arrival days, against the nights
    taken as read once (from the night before the first arrival: gap nights): the same verdict and
    total a check or a quote of each would give. A promo code prices the stays it applies to."""
    found = []
    arrival = first_arrival
    while arrival <= last_arrival:
        stay = Stay(arrival, arrival + timedelta(days=nights))
        if check_stay(stay, guests, rules, taken_nights, today).available:
            code = promo if promo is not None and promo_problem(promo, stay, today) is None else None
            priced = quote(stay, guests, rules, children_ages, today=today, taken_nights=taken_nights, promo=code)
            found.append(FoundStay(stay.check_in, stay.check_out, priced.total, priced.gap_stay, code is not None))
        arrival += timedelta(days=1)
    found.sort(key=lambda candidate: (candidate.total, candidate.check_in))
    return found[:limit]


def taken_nights_from_ranges(ranges: Iterable[tuple[date, date]], window_start: date, window_end: date) -> set[date]:
    """The nights inside [window_start, window_end) covered by any half-open [start, end) range."""
    nights: set[date] = set()
    for start, end in ranges:
        night = max(start, window_start)
        last = min(end, window_end)
        while night < last:
            nights.add(night)
            night += timedelta(days=1)
    return nights


@dataclass(frozen=True)
class CalendarDay:
    date: date
    nightly_rate: Decimal
    available: bool  # the night starting this day can be sold
    check_in_allowed: bool  # a stay may start today (and the minimum stay fits)
    check_out_allowed: bool  # a stay may end today
    min_nights: int
    gap_night: bool = False  # part of a gap run: bookable only whole (check in on its first day)
    gap_nightly_rate: Decimal | None = None  # the nightly rate less the gap-night discount


def calendar(first_day: date, last_day: date, rules: PricingRules, taken_nights: Collection[date], today: date) -> list[CalendarDay]:
    """Per day from first_day to last_day inclusive: enough for a date picker to grey out correctly.

    A day allows check-in when its night is free, arrival is allowed, it is inside the booking
    window and the minimum stay from that day fits before the next taken night (and passes no
    closed departure day for every possible length: at least one valid check-out must exist).
    A day allows check-out when the night before it is free and departures are allowed.
    With gap nights sold (rules.gap_nights), a free run between two taken nights shorter than the
    minimum stay is marked night by night, and its first day allows check-in (for the whole run).
    """
    last_arrival = rules.last_arrival_date(today)
    span = (last_day - first_day).days + 1
    # Sellable nights over the span plus the longest look-ahead the minimum-stay check needs.
    lookahead = max(
        [
            rules.max_nights,
            rules.min_nights,
            *rules.arrival_day_min_nights.values(),
            *(s.min_nights or 0 for s in rules.seasons),
            *(r.min_nights or 0 for r in rules.night_rules.values()),
        ]
    )
    free = [(first_day + timedelta(days=i)) >= today and (first_day + timedelta(days=i)) not in taken_nights for i in range(span + lookahead + 1)]
    # free_run[i]: how many consecutive sellable nights start at day i.
    free_run = [0] * (len(free) + 1)
    for i in range(len(free) - 1, -1, -1):
        free_run[i] = free_run[i + 1] + 1 if free[i] else 0

    gap_until = -1  # the days before this index belong to the gap run being marked
    gap_percent = rules.gap_nights.percent if rules.gap_nights else Decimal("0")
    days = []
    for i in range(span):
        day = first_day + timedelta(days=i)
        season = rules.season_for(day)
        min_nights = rules.min_nights_for_arrival(day, season)
        rate = price_night(day, rules.base_occupancy, rules, season).rate
        gap_start = (
            rules.gap_nights is not None
            and free[i]
            and free_run[i] < min_nights
            and day - timedelta(days=1) in taken_nights
            and day + timedelta(days=free_run[i]) in taken_nights
        )
        if gap_start:
            gap_until = i + free_run[i]
        check_in_allowed = (
            free[i]
            and day <= last_arrival
            and day.weekday() not in rules.closed_to_arrival
            and (
                free_run[i] >= min_nights
                and any((day + timedelta(days=n)).weekday() not in rules.closed_to_departure for n in range(min_nights, min(free_run[i], rules.max_nights) + 1))
                or gap_start
                and (day + timedelta(days=free_run[i])).weekday() not in rules.closed_to_departure
            )
        )
        check_out_allowed = (
            i > 0 and free[i - 1] or i == 0 and day - timedelta(days=1) >= today and (day - timedelta(days=1)) not in taken_nights
        ) and day.weekday() not in rules.closed_to_departure
        gap = i < gap_until
        gap_rate = money(rate * (100 - gap_percent) / 100) if gap else None
        days.append(CalendarDay(day, rate, free[i], bool(check_in_allowed), bool(check_out_allowed), min_nights, gap, gap_rate))
    return days


def convert(amount: Decimal, rate: Decimal) -> Decimal:
    return money(amount * rate)


# --- Cancellation -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RefundTier:
    """ "Cancel at least `days_before_arrival` days before arrival: `refund_percent` % back."""

    days_before_arrival: int
    refund_percent: Decimal


def applicable_tier(tiers: Iterable[RefundTier], days_before_arrival: int) -> RefundTier | None:
    """The tier with the most days that the cancellation still meets; None when none does."""
    met = [tier for tier in tiers if tier.days_before_arrival <= days_before_arrival]
    return max(met, key=lambda tier: tier.days_before_arrival, default=None)


def refund_for_cancellation(
    *,
    tiers: Iterable[RefundTier],
    check_in: date,
    today: date,
    paid: Decimal,
    city_tax: Decimal,
    already_refunded: Decimal,
) -> Decimal:
    """What a guest gets back for cancelling on `today` (the property's local date).

    The city tax comes back in full (it is owed only for nights stayed); the rest by the tier the
    cancellation meets, rounded half-up to the cent. Never negative, never more than what was paid
    and not yet refunded. After arrival (days < 0) only a tier of 0 days or fewer could apply.
    """
    paid, city_tax, already_refunded = money(paid), money(city_tax), money(already_refunded)
    tax = min(max(city_tax, Decimal("0")), paid)
    tier = applicable_tier(tiers, (check_in - today).days)
    percent = tier.refund_percent if tier is not None else Decimal("0")
    refund = tax + money((paid - tax) * percent / 100)
    return max(Decimal("0.00"), min(refund, paid - already_refunded))


def policy_lines(tiers: Iterable[RefundTier]) -> list[str]:
    """The cancellation policy in words, generated from the tiers so the site, the emails and the
    API can never disagree with what the refund function does."""
    from django.utils.translation import gettext as _

    ordered = sorted(tiers, key=lambda tier: tier.days_before_arrival, reverse=True)
    lines = []
    for index, tier in enumerate(ordered):
        days, percent = tier.days_before_arrival, _percent(tier.refund_percent)
        upper = ordered[index - 1].days_before_arrival - 1 if index else None
        if percent == "100":
            outcome = _("a full refund")
        elif percent == "0":
            outcome = _("no refund")
        else:
            outcome = _("%(percent)s %% refunded") % {"percent": percent}
        if days == 0 and upper is not None:
            lines.append(_("Cancel less than %(days)s days before arrival: %(outcome)s.") % {"days": upper + 1, "outcome": outcome})
        elif upper is None:
            lines.append(_("Cancel at least %(days)s days before arrival: %(outcome)s.") % {"days": days, "outcome": outcome})
        else:
            lines.append(_("Cancel %(low)s to %(high)s days before arrival: %(outcome)s.") % {"low": days, "high": upper, "outcome": outcome})
    if ordered and ordered[-1].days_before_arrival > 0:
        lines.append(_("Cancel less than %(days)s days before arrival: no refund.") % {"days": ordered[-1].days_before_arrival})
    lines.append(_("The city tax is always refunded in full."))
    return lines


def policy_text(tiers: Iterable[RefundTier]) -> str:
    return " ".join(policy_lines(tiers))


def _percent(value: Decimal) -> str:
    return f"{Decimal(value).normalize():f}"
