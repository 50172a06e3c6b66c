"""The pricing and availability engine, as pure functions: no database, no clock."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from booking.catalog.pricing import (
    LengthOfStayDiscount,
    PricingRules,
    Season,
    Stay,
    Unavailable,
    calendar,
    check_stay,
    check_stay_against_ranges,
    gap_window,
    money,
    quote,
    taken_nights_from_ranges,
)

D = Decimal
TODAY = date(2027, 1, 4)  # a Monday

RULES = PricingRules(
    base_nightly_rate=D("100"),
    weekend_nightly_rate=D("130"),
    min_nights=2,
    max_nights=28,
    base_occupancy=4,
    extra_guest_fee=D("20"),
    cleaning_fee=D("80"),
    cleaning_fee_label="Cleaning",
    city_tax_per_person_night=D("3.50"),
    city_tax_max_nights=7,
    city_tax_exempt_under_age=12,
    booking_window_days=540,
    max_guests=7,
    seasons=(
        Season("Summer", date(2000, 7, 1), date(2000, 8, 31), D("200"), D("220"), min_nights=5),
        Season("Ferragosto", date(2000, 8, 14), date(2000, 8, 16), D("300"), priority=5),
        Season("New Year", date(2000, 12, 30), date(2000, 1, 2), D("400"), min_nights=3, priority=10),
        Season("Easter 2027", date(2027, 3, 26), date(2027, 3, 29), D("250"), recurring=False),
    ),
    discounts=(LengthOfStayDiscount("Weekly", 7, D("10")), LengthOfStayDiscount("Monthly", 28, D("20"))),
)


def stay(check_in: str, check_out: str) -> Stay:
    return Stay(date.fromisoformat(check_in), date.fromisoformat(check_out))


class TestNightlyRates:
    def test_weekday_nights_cost_the_base_rate(self):
        q = quote(stay("2027-02-08", "2027-02-10"), 2, RULES)  # Mon, Tue nights
        assert [n.rate for n in q.nights] == [D("100"), D("100")]
        assert q.price_source == "base_rate"

    def test_friday_and_saturday_nights_cost_the_weekend_rate(self):
        q = quote(stay("2027-02-11", "2027-02-15"), 2, RULES)  # Thu, Fri, Sat, Sun nights
        assert [n.rate for n in q.nights] == [D("100"), D("130"), D("130"), D("100")]
        assert q.price_source == "base_rate + weekend_rate"

    def test_season_boundaries_are_inclusive_nights(self):
        q = quote(stay("2027-06-29", "2027-07-02"), 2, RULES)  # Jun 29, Jun 30 | Jul 1
        assert [n.source for n in q.nights] == ["base_rate", "base_rate", "season:Summer"]
        q = quote(stay("2027-08-31", "2027-09-02"), 2, RULES)
        assert [n.source for n in q.nights] == ["season:Summer", "base_rate"]

    def test_higher_priority_season_wins_where_seasons_overlap(self):
        q = quote(stay("2027-08-13", "2027-08-18"), 2, RULES)
        assert [n.rate for n in q.nights] == [D("220"), D("300"), D("300"), D("300"), D("200")]

    def test_a_yearly_season_wraps_over_the_year_end(self):
        q = quote(stay("2027-12-29", "2028-01-04"), 2, RULES)
        assert [n.source for n in q.nights] == ["base_rate", "season:New Year", "season:New Year", "season:New Year", "season:New Year", "base_rate"]

    def test_a_one_off_season_applies_only_in_its_year(self):
        assert quote(stay("2027-03-26", "2027-03-28"), 2, RULES).price_source == "season:Easter 2027"
        assert quote(stay("2028-03-27", "2028-03-29"), 2, RULES).price_source == "base_rate"

    def test_extra_guests_above_base_occupancy_pay_per_night(self):
        q = quote(stay("2027-02-08", "2027-02-10"), 6, RULES)
        assert [n.amount for n in q.nights] == [D("140"), D("140")]
        assert q.accommodation == D("280")


class TestTotals:
    def test_breakdown_adds_up_for_a_plain_stay(self):
        q = quote(stay("2027-02-08", "2027-02-11"), 2, RULES)
        assert q.accommodation == D("300")
        assert q.discount_amount == 0 and q.discount_label is None
        assert q.cleaning_fee == D("80")
        assert q.city_tax == D("21.00")  # 3.50 × 2 guests × 3 nights
        assert q.total == D("401.00")
        from booking.api.presenters import breakdown_json

        assert breakdown_json(q)["nightly_avg"] == 100.0

    def test_weekly_discount_is_a_negative_amount_on_accommodation_only(self):
        q = quote(stay("2027-02-08", "2027-02-15"), 2, RULES)  # 5 × 100 + 2 × 130
        assert q.accommodation == D("760")
        assert (q.discount_label, q.discount_percent, q.discount_amount) == ("Weekly", D("10"), D("-76.00"))
        assert q.total == D("760") - D("76") + D("80") + D("49.00")

    def test_the_longest_qualifying_discount_applies(self):
        q = quote(stay("2027-02-01", "2027-03-01"), 2, RULES)
        assert q.discount_label == "Monthly"

    def test_city_tax_is_capped_at_seven_nights(self):
        q = quote(stay("2027-02-01", "2027-02-15"), 3, RULES)
        assert q.city_tax == D("73.50")  # 3.50 × 3 × 7, not × 14
        assert "at most 7 nights" in q.city_tax_note

    def test_amounts_round_half_up_to_cents(self):
        rules = PricingRules(base_nightly_rate=D("33.335"), discounts=(LengthOfStayDiscount("x", 2, D("12.5")),))
        q = quote(stay("2027-02-08", "2027-02-10"), 1, rules)
        assert q.nights[0].rate == D("33.34")
        assert q.discount_amount == D("-8.34")  # 66.68 × 12.5% = 8.335 → 8.34
        assert money("0.005") == D("0.01")


class TestAvailability:
    def test_a_free_stay_within_the_rules_is_available(self):
        assert check_stay(stay("2027-02-08", "2027-02-11"), 2, RULES, set(), TODAY).available

    def test_a_taken_night_makes_the_stay_booked(self):
        verdict = check_stay(stay("2027-02-08", "2027-02-11"), 2, RULES, {date(2027, 2, 10)}, TODAY)
        assert (verdict.available, verdict.reason) == (False, Unavailable.BOOKED)

    def test_against_ranges_a_lapsing_hold_is_on_hold_until_it_lapses_and_a_block_is_booked(self):
        lapses = datetime(2027, 2, 9, 12, 30, tzinfo=UTC)
        held = [(date(2027, 2, 9), date(2027, 2, 12), lapses)]
        on_hold = check_stay_against_ranges(stay("2027-02-08", "2027-02-11"), 2, RULES, held, TODAY)
        blocked = check_stay_against_ranges(stay("2027-02-08", "2027-02-11"), 2, RULES, [*held, (date(2027, 2, 10), date(2027, 2, 11), None)], TODAY)
        free = check_stay_against_ranges(stay("2027-02-12", "2027-02-14"), 2, RULES, held, TODAY)  # arrives on the hold's check-out day
        assert (on_hold.reason, on_hold.held_until) == (Unavailable.ON_HOLD, lapses)
        assert blocked.reason == Unavailable.BOOKED
        assert free.available

    def test_the_check_out_day_is_free_for_the_next_arrival(self):
        taken = taken_nights_from_ranges([(date(2027, 2, 5), date(2027, 2, 8))], date(2027, 2, 1), date(2027, 3, 1))
        assert date(2027, 2, 8) not in taken
        assert check_stay(stay("2027-02-08", "2027-02-10"), 2, RULES, taken, TODAY).available

    def test_minimum_stay_is_judged_by_the_arrival_date(self):
        # Arriving 29 June (before summer) needs 2 nights, though the stay runs into summer (5).
        assert check_stay(stay("2027-06-29", "2027-07-01"), 2, RULES, set(), TODAY).available
        verdict = check_stay(stay("2027-07-01", "2027-07-04"), 2, RULES, set(), TODAY)
        assert (verdict.reason, verdict.min_nights) == (Unavailable.MIN_STAY, 5)

    def test_an_arrival_weekday_rule_raises_the_minimum(self):
        rules = PricingRules(min_nights=1, arrival_day_min_nights={5: 3})
        assert check_stay(stay("2027-02-12", "2027-02-13"), 2, rules, set(), TODAY).available  # Friday
        assert check_stay(stay("2027-02-13", "2027-02-15"), 2, rules, set(), TODAY).reason == Unavailable.MIN_STAY  # Saturday

    def test_maximum_stay(self):
        assert check_stay(stay("2027-02-01", "2027-03-02"), 2, RULES, set(), TODAY).reason == Unavailable.MAX_STAY

    def test_closed_to_arrival_and_departure_weekdays(self):
        rules = PricingRules(closed_to_arrival=frozenset({6}), closed_to_departure=frozenset({0}))
        assert check_stay(stay("2027-02-14", "2027-02-16"), 2, rules, set(), TODAY).reason == Unavailable.CLOSED_TO_ARRIVAL
        assert check_stay(stay("2027-02-12", "2027-02-15"), 2, rules, set(), TODAY).reason == Unavailable.CLOSED_TO_DEPARTURE

    def test_arrivals_beyond_the_booking_window_are_refused(self):
        last = TODAY + timedelta(days=540)
        assert check_stay(Stay(last, last + timedelta(days=2)), 2, RULES, set(), TODAY).available
        verdict = check_stay(Stay(last + timedelta(days=1), last + timedelta(days=3)), 2, RULES, set(), TODAY)
        assert verdict.reason == Unavailable.BEYOND_BOOKING_WINDOW


class TestCalendar:
    def test_days_grey_out_taken_nights_and_short_gaps(self):
        # Taken: nights of 10 and 13 Feb. Free gap 11–12 is two nights: arrival on 12 cannot fit 2 nights.
        taken = {date(2027, 2, 10), date(2027, 2, 13)}
        days = {d.date.day: d for d in calendar(date(2027, 2, 8), date(2027, 2, 15), RULES, taken, TODAY)}
        assert not days[10].available and not days[10].check_in_allowed
        assert days[11].check_in_allowed and not days[12].check_in_allowed
        assert days[10].check_out_allowed and not days[11].check_out_allowed
        assert days[13].check_out_allowed  # the night of the 12th is free
        assert days[8].nightly_rate == D("100") and days[12].nightly_rate == D("130")

    def test_past_days_cannot_be_chosen(self):
        days = calendar(TODAY - timedelta(days=3), TODAY + timedelta(days=3), RULES, set(), TODAY)
        assert [d.available for d in days] == [False, False, False, True, True, True, True]
        assert not days[2].check_in_allowed and days[3].check_in_allowed

    def test_minimum_nights_per_day_follow_the_arrival_rules(self):
        days = calendar(date(2027, 6, 30), date(2027, 7, 1), RULES, set(), TODAY)
        assert [d.min_nights for d in days] == [2, 5]

    def test_check_in_needs_a_reachable_open_departure_day(self):
        rules = PricingRules(min_nights=2, max_nights=2, closed_to_departure=frozenset({2}))  # no Wednesday departures
        days = {d.date.day: d for d in calendar(date(2027, 2, 8), date(2027, 2, 9), rules, set(), TODAY)}
        assert not days[8].check_in_allowed  # Monday + 2 nights = Wednesday
        assert days[9].check_in_allowed


@settings(max_examples=300, deadline=None)
@given(
    check_in=st.dates(min_value=date(2026, 1, 1), max_value=date(2029, 12, 31)),
    nights=st.integers(min_value=1, max_value=60),
    guests=st.integers(min_value=1, max_value=7),
    base=st.decimals(min_value=D("1"), max_value=D("5000"), places=2),
    cleaning=st.decimals(min_value=D("0"), max_value=D("500"), places=2),
    percent=st.decimals(min_value=D("0.01"), max_value=D("50"), places=2),
)
def test_the_breakdown_always_adds_up(check_in, nights, guests, base, cleaning, percent):
    rules = PricingRules(
        base_nightly_rate=base,
        weekend_nightly_rate=base * 2,
        cleaning_fee=cleaning,
        base_occupancy=2,
        extra_guest_fee=D("17.5"),
        city_tax_per_person_night=D("3.50"),
        city_tax_max_nights=7,
        seasons=RULES.seasons,
        discounts=(LengthOfStayDiscount("Weekly", 7, percent),),
    )
    q = quote(Stay(check_in, check_in + timedelta(days=nights)), guests, rules)
    assert q.total == q.accommodation + q.discount_amount + q.cleaning_fee + q.city_tax
    assert q.discount_amount <= 0
    assert q.accommodation == sum(n.amount for n in q.nights)
    assert len(q.nights) == nights
    assert q.city_tax == money(D("3.50") * guests * min(nights, 7))
    for amount in (q.total, q.accommodation, q.discount_amount, q.city_tax):
        assert amount == amount.quantize(D("0.01"))


@settings(max_examples=200, deadline=None)
@given(
    bookings=st.lists(st.tuples(st.integers(0, 80), st.integers(1, 10)), max_size=8),
    check_in_offset=st.integers(0, 80),
    nights=st.integers(2, 10),
)
def test_calendar_and_check_stay_agree_on_arrivals(bookings, check_in_offset, nights):
    """If the calendar allows check-in on a day and check-out on a later one with all nights free,
    check_stay accepts that stay; the picker never offers what the engine would refuse."""
    start = TODAY
    taken = taken_nights_from_ranges([(start + timedelta(days=o), start + timedelta(days=o + n)) for o, n in bookings], start, start + timedelta(days=120))
    days = calendar(start, start + timedelta(days=100), RULES, taken, TODAY)
    check_in = start + timedelta(days=check_in_offset)
    candidate = Stay(check_in, check_in + timedelta(days=nights))
    verdict = check_stay(candidate, 2, RULES, taken, TODAY)
    if verdict.available:
        assert days[check_in_offset].check_in_allowed, "the calendar must not hide a bookable arrival"
        assert days[check_in_offset + nights].check_out_allowed, "nor its departure day"


def test_the_city_tax_is_described_as_paid_with_the_booking_everywhere():
    """Issue 15: the policies said "nothing to pay on arrival" and the note "deducted on arrival"."""
    from booking.catalog.pricing import PricingRules, city_tax_note

    note = city_tax_note(
        PricingRules(currency="EUR", base_nightly_rate=Decimal("100"), city_tax_per_person_night=Decimal("3.50"), city_tax_exempt_under_age=12)
    )
    assert "included in the total" in note and "on arrival" not in note
    assert "children under 12 are exempt when their ages are given at booking" in note


class TestTheEndsOfTheCalendar:
    """A stay at either end of the dates Python represents is refused by the rules, not by an
    OverflowError (the owner's and the change-dates forms take any date a browser sends)."""

    def test_the_gap_window_stays_inside_the_calendar(self):
        assert gap_window(Stay(date(9999, 12, 30), date.max)) == (date(9999, 12, 29), date.max)
        assert gap_window(Stay(date.min, date(1, 1, 3))) == (date.min, date(1, 1, 4))

    def test_a_stay_in_the_year_9999_is_beyond_the_booking_window(self):
        verdict = check_stay_against_ranges(Stay(date(9999, 12, 30), date.max), 2, RULES, [], TODAY)
        assert not verdict.available and verdict.reason == Unavailable.BEYOND_BOOKING_WINDOW
