"""Offers in the pure engine: early-bird, last-minute, gap nights, promo codes and extras (no database)."""

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from booking.catalog.pricing import (
    DaysAheadDiscount,
    Extra,
    ExtraChoice,
    ExtraPer,
    GapNights,
    LengthOfStayDiscount,
    PricingRules,
    PromoCode,
    Stay,
    Unavailable,
    calendar,
    check_stay,
    extra_problem,
    find_stays,
    promo_problem,
    quote,
)

D = Decimal
TODAY = date(2027, 1, 4)  # a Monday

EXTRAS = (
    Extra("airport_transfer", {"en": "Airport transfer", "it": "Transfer dall'aeroporto"}, D("60")),
    Extra("late_checkout", {"en": "Late check-out"}, D("40")),
    Extra("baby_cot", {"en": "Baby cot"}, D("0"), max_quantity=1),
    Extra("breakfast", {"en": "Breakfast"}, D("12.50"), per=ExtraPer.GUEST_NIGHT, max_quantity=1, notice_days=2),
)
RULES = PricingRules(
    base_nightly_rate=D("100"),
    min_nights=3,
    max_nights=28,
    base_occupancy=4,
    cleaning_fee=D("80"),
    city_tax_per_person_night=D("3.50"),
    booking_window_days=540,
    discounts=(LengthOfStayDiscount("Weekly", 7, D("10")),),
    early_bird=DaysAheadDiscount(days=90, percent=D("5")),
    last_minute=DaysAheadDiscount(days=7, percent=D("10")),
    gap_nights=GapNights(percent=D("15")),
    extras=EXTRAS,
)
WELCOME10 = PromoCode("WELCOME10", percent=D("10"), min_nights=3)


def stay(check_in: date, nights: int) -> Stay:
    return Stay(check_in, check_in + timedelta(days=nights))


def relation_holds(q) -> bool:
    return q.total == q.accommodation + q.discount_amount + q.cleaning_fee + q.city_tax + q.extras_total


class TestAutomaticDiscounts:
    def test_last_minute_within_seven_days(self):
        q = quote(stay(TODAY + timedelta(days=7), 3), 2, RULES, today=TODAY)
        assert [(d.label, d.percent, d.amount, d.code) for d in q.discounts] == [("Last-minute discount", D("10"), D("-30.00"), None)]
        assert quote(stay(TODAY + timedelta(days=8), 3), 2, RULES, today=TODAY).discounts == ()

    def test_early_bird_from_ninety_days_ahead(self):
        q = quote(stay(TODAY + timedelta(days=90), 3), 2, RULES, today=TODAY)
        assert [d.label for d in q.discounts] == ["Early-bird discount"]
        assert q.discount_amount == D("-15.00")

    def test_the_best_single_automatic_discount_wins(self):
        # A week booked last-minute: 12 % beats the weekly 10 %; at 10 % each, length of stay comes first.
        q = quote(stay(TODAY + timedelta(days=3), 7), 2, replace(RULES, last_minute=DaysAheadDiscount(7, D("12"))), today=TODAY)
        assert [d.label for d in q.discounts] == ["Last-minute discount"]
        q = quote(stay(TODAY + timedelta(days=3), 7), 2, RULES, today=TODAY)
        assert [d.label for d in q.discounts] == ["Weekly"]

    def test_stacking_when_the_owner_says_so(self):
        q = quote(stay(TODAY + timedelta(days=3), 7), 2, replace(RULES, stack_discounts=True), today=TODAY)
        assert [d.label for d in q.discounts] == ["Weekly", "Last-minute discount"]
        assert q.discount_percent == D("20") and q.discount_amount == D("-140.00")
        assert q.discount_label == "Weekly + Last-minute discount"

    def test_without_today_no_date_discount_applies(self):
        assert quote(stay(TODAY + timedelta(days=3), 3), 2, RULES).discounts == ()


class TestPromoCodes:
    def test_a_code_adds_on_top_of_the_automatic_discount(self):
        q = quote(stay(TODAY + timedelta(days=3), 3), 2, RULES, today=TODAY, promo=WELCOME10)
        assert [(d.label, d.percent, d.amount, d.code) for d in q.discounts] == [
            ("Last-minute discount", D("10"), D("-30.00"), None),
            ("Promo code", D("10"), D("-30.00"), "WELCOME10"),
        ]
        assert q.discount_label == "Last-minute discount + Promo code"
        assert q.discount_percent == D("20") and q.discount_amount == D("-60.00")
        assert relation_holds(q)

    def test_a_fixed_code_is_capped_at_the_accommodation(self):
        q = quote(stay(TODAY + timedelta(days=30), 3), 2, RULES, today=TODAY, promo=PromoCode("BIG", amount=D("1000")))
        assert q.discounts[-1].amount == -q.accommodation and q.discounts[-1].percent is None
        assert q.total == q.cleaning_fee + q.city_tax

    def test_reasons_a_code_does_not_apply(self):
        three = stay(TODAY + timedelta(days=30), 3)
        assert promo_problem(WELCOME10, three, TODAY) is None
        assert "at least 3 nights" in promo_problem(WELCOME10, stay(TODAY + timedelta(days=30), 2), TODAY)
        assert "no longer active" in promo_problem(replace(WELCOME10, active=False), three, TODAY)
        assert "expired" in promo_problem(replace(WELCOME10, bookable_until=TODAY - timedelta(days=1)), three, TODAY)
        assert "can be used from" in promo_problem(replace(WELCOME10, bookable_from=TODAY + timedelta(days=1)), three, TODAY)
        assert "covers only nights" in promo_problem(replace(WELCOME10, stay_until=three.check_in + timedelta(days=1)), three, TODAY)
        assert promo_problem(replace(WELCOME10, stay_until=three.check_out - timedelta(days=1)), three, TODAY) is None


class TestExtras:
    def test_lines_and_total(self):
        choices = [ExtraChoice("airport_transfer", 2), ExtraChoice("baby_cot", 1), ExtraChoice("breakfast", 1)]
        q = quote(stay(TODAY + timedelta(days=30), 3), 2, RULES, today=TODAY, extras=choices)
        assert [(line.code, line.quantity, line.amount) for line in q.extras] == [
            ("airport_transfer", 2, D("120.00")),
            ("baby_cot", 1, D("0.00")),
            ("breakfast", 1, D("75.00")),  # 12.50 x 2 guests x 3 nights
        ]
        assert q.extras_total == D("195.00") and relation_holds(q)

    def test_problems(self):
        three = stay(TODAY + timedelta(days=1), 3)
        assert "Unknown extra 'spa'" in extra_problem(RULES, ExtraChoice("spa", 1), three, TODAY)
        assert "from 0 to 1" in extra_problem(RULES, ExtraChoice("baby_cot", 2), three, TODAY)
        assert "at least 2 days" in extra_problem(RULES, ExtraChoice("breakfast", 1), three, TODAY)
        assert extra_problem(RULES, ExtraChoice("airport_transfer", 1), three, TODAY) is None

    def test_names_by_language_fall_back_to_english(self):
        assert EXTRAS[0].name("it") == "Transfer dall'aeroporto" and EXTRAS[0].name("de") == "Airport transfer"


class TestGapNights:
    # Taken: Jan 10 and Jan 13 nights; the run Jan 11-12 (2 nights) is shorter than the minimum of 3.
    TAKEN = {date(2027, 1, 10), date(2027, 1, 13)}
    GAP = Stay(date(2027, 1, 11), date(2027, 1, 13))

    def test_the_whole_run_is_bookable_at_the_gap_discount(self):
        assert check_stay(self.GAP, 2, RULES, self.TAKEN, TODAY).available
        q = quote(self.GAP, 2, RULES, today=TODAY, taken_nights=self.TAKEN)
        assert q.gap_stay and [(d.label, d.percent) for d in q.discounts] == [("Gap-night discount", D("15"))]

    def test_part_of_the_run_is_not(self):
        part = Stay(date(2027, 1, 11), date(2027, 1, 12))
        assert check_stay(part, 2, RULES, self.TAKEN, TODAY).reason == Unavailable.MIN_STAY

    def test_without_the_rule_the_run_follows_the_minimum_stay(self):
        assert check_stay(self.GAP, 2, replace(RULES, gap_nights=None), self.TAKEN, TODAY).reason == Unavailable.MIN_STAY

    def test_the_calendar_marks_the_run_with_its_price(self):
        days = {d.date: d for d in calendar(date(2027, 1, 9), date(2027, 1, 14), RULES, self.TAKEN, TODAY)}
        assert days[date(2027, 1, 11)].check_in_allowed and days[date(2027, 1, 11)].gap_night
        assert not days[date(2027, 1, 12)].check_in_allowed and days[date(2027, 1, 12)].gap_night
        assert days[date(2027, 1, 13)].check_out_allowed
        assert days[date(2027, 1, 11)].gap_nightly_rate == D("85.00")
        assert not days[date(2027, 1, 14)].gap_night

    def test_find_stays_finds_it(self):
        found = find_stays(
            nights=2, guests=2, rules=RULES, taken_nights=self.TAKEN, today=TODAY, first_arrival=date(2027, 1, 5), last_arrival=date(2027, 1, 20)
        )
        assert [(f.check_in, f.gap_stay) for f in found] == [(date(2027, 1, 11), True)]


# --- Properties -----------------------------------------------------------------------------------

codes = st.one_of(
    st.none(),
    st.builds(PromoCode, code=st.just("C"), percent=st.decimals(D("0.01"), D("100"), places=2)),
    st.builds(PromoCode, code=st.just("F"), amount=st.decimals(D("0.01"), D("100000"), places=2)),
)
choices = st.lists(st.builds(ExtraChoice, code=st.sampled_from([e.code for e in EXTRAS]), quantity=st.integers(0, 1)), max_size=4, unique_by=lambda c: c.code)
percents = st.decimals(D("0"), D("60"), places=2)


@given(
    offset=st.integers(0, 400),
    nights=st.integers(1, 28),
    guests=st.integers(1, 7),
    base=st.decimals(D("0"), D("3000"), places=2),
    early=percents,
    last=percents,
    gap=percents,
    weekly=percents,
    stack=st.booleans(),
    promo=codes,
    extras=choices,
    taken=st.sets(st.integers(-1, 40), max_size=10),
)
def test_total_relation_best_discount_and_never_negative(offset, nights, guests, base, early, last, gap, weekly, stack, promo, extras, taken):
    rules = replace(
        RULES,
        base_nightly_rate=base,
        early_bird=DaysAheadDiscount(90, early),
        last_minute=DaysAheadDiscount(7, last),
        gap_nights=GapNights(gap),
        discounts=(LengthOfStayDiscount("Weekly", 7, weekly),),
        stack_discounts=stack,
    )
    s = stay(TODAY + timedelta(days=offset), nights)
    taken_nights = {s.check_in + timedelta(days=d) for d in taken}
    q = quote(s, guests, rules, today=TODAY, taken_nights=taken_nights, promo=promo, extras=extras)
    assert relation_holds(q)
    assert q.discount_amount == sum(d.amount for d in q.discounts) <= 0
    assert q.accommodation + q.discount_amount >= 0
    assert q.total >= 0
    assert q.extras_total == sum(line.amount for line in q.extras)
    automatic = [d for d in q.discounts if d.code is None]
    earned = [
        p
        for p, ok in [
            (weekly, nights >= 7),
            (early, offset >= 90),
            (last, offset <= 7),
            (gap, q.gap_stay),
        ]
        if ok and p > 0
    ]
    if stack:
        assert len(automatic) == len(earned)
    else:
        assert len(automatic) == (1 if earned else 0)
        if earned:
            assert automatic[0].percent == max(earned)
    assert (q.discounts[-1].code if promo else None) == (promo.code if promo else None)


@given(taken=st.sets(st.integers(0, 30), max_size=12), check_in=st.integers(1, 29), nights=st.integers(1, 5))
def test_a_gap_stay_is_always_enclosed_by_taken_nights(taken, check_in, nights):
    start = TODAY + timedelta(days=10)
    taken_nights = {start + timedelta(days=d) for d in taken}
    s = stay(start + timedelta(days=check_in), nights)
    verdict = check_stay(s, 2, RULES, taken_nights, TODAY)
    q = quote(s, 2, RULES, today=TODAY, taken_nights=taken_nights)
    enclosed = s.check_in - timedelta(days=1) in taken_nights and s.check_out in taken_nights
    if not enclosed:
        assert not q.gap_stay
        if nights < RULES.min_nights:
            assert not verdict.available
    if q.gap_stay:
        assert enclosed and verdict.available and nights < RULES.min_nights
    days = {d.date: d for d in calendar(start, start + timedelta(days=40), RULES, taken_nights, TODAY)}
    # The calendar and the check agree on arrivals whose whole stay is a gap run.
    if q.gap_stay:
        assert days[s.check_in].check_in_allowed and days[s.check_in].gap_night
