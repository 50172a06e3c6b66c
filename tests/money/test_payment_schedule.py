"""The payment schedule and the refund formula, as pure functions: no database, no clock."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from booking.catalog.payment_schedule import (
    DEFERRED,
    IMMEDIATE,
    PaidPart,
    PaymentTerms,
    ScheduleEntry,
    due_now,
    money_back,
    payment_schedule,
    schedule_from_json,
    schedule_json,
    spread_refund,
)

D = Decimal
TODAY = date(2027, 1, 4)
DEMO = PaymentTerms(deposit_percent=D("30"), balance_due_days=30)
cents = st.integers(min_value=1, max_value=10_000_000).map(lambda c: D(c) / 100)
percents = st.integers(min_value=0, max_value=100).map(D) | st.decimals(min_value=0, max_value=100, places=2)


def test_far_stay_pays_a_deposit_now_and_the_balance_thirty_days_before():
    schedule = payment_schedule(D("1234.55"), check_in=date(2027, 6, 1), today=TODAY, terms=DEMO)
    assert schedule == (ScheduleEntry(IMMEDIATE, D("370.37"), None), ScheduleEntry(DEFERRED, D("864.18"), date(2027, 5, 2)))
    assert schedule_json(schedule) == [
        {"type": "immediate", "amount": 370.37, "due_date": None},
        {"type": "deferred", "amount": 864.18, "due_date": "2027-05-02"},
    ]


def test_deposit_rounds_half_up():
    # 30 % of 10.05 is 3.015: half a cent rounds up.
    assert payment_schedule(D("10.05"), check_in=date(2027, 6, 1), today=TODAY, terms=DEMO)[0].amount == D("3.02")


@pytest.mark.parametrize("days_away, in_full", [(30, True), (29, True), (0, True), (31, False)])
def test_the_local_date_rule(days_away, in_full):
    """More than balance_due_days days away pays a deposit; exactly that many or fewer pays in full."""
    schedule = payment_schedule(D("1000"), check_in=TODAY + timedelta(days=days_away), today=TODAY, terms=DEMO)
    assert (len(schedule) == 1) is in_full
    if not in_full:
        assert schedule[1].due_date == TODAY + timedelta(days=1)


@pytest.mark.parametrize("percent", [D("0"), D("100")])
def test_deposit_zero_or_hundred_means_in_full(percent):
    schedule = payment_schedule(D("999.99"), check_in=date(2028, 1, 1), today=TODAY, terms=PaymentTerms(percent, 30))
    assert schedule == (ScheduleEntry(IMMEDIATE, D("999.99"), None),)


def test_a_stay_of_a_cent_is_paid_in_full():
    assert payment_schedule(D("0.01"), check_in=date(2028, 1, 1), today=TODAY, terms=DEMO) == (ScheduleEntry(IMMEDIATE, D("0.01"), None),)


@given(total=cents, percent=percents, due_days=st.integers(0, 400), days_away=st.integers(0, 800))
def test_schedule_sums_to_the_total_and_is_well_formed(total, percent, due_days, days_away):
    check_in = TODAY + timedelta(days=days_away)
    schedule = payment_schedule(total, check_in=check_in, today=TODAY, terms=PaymentTerms(percent, due_days))
    assert sum(e.amount for e in schedule) == total
    assert schedule[0].type == IMMEDIATE and schedule[0].due_date is None
    assert all(e.amount > 0 and e.amount == e.amount.quantize(D("0.01")) for e in schedule)
    if len(schedule) == 2:
        assert schedule[1].type == DEFERRED
        assert TODAY < schedule[1].due_date <= check_in
        assert schedule[0].amount == (total * percent / 100).quantize(D("0.01"), rounding="ROUND_HALF_UP")
    else:
        assert due_now(schedule) == total
    assert schedule_from_json(schedule_json(schedule)) == schedule


def test_money_back_examples():
    # 1000 stay, 30 % deposit paid, cancelled in the 50 % tier: the host keeps 500, more than was paid.
    assert money_back(total=D("1000"), refund_due=D("500"), amount_paid=D("300")) == D("0.00")
    # Paid in full, 50 % tier: 500 back.
    assert money_back(total=D("1000"), refund_due=D("500"), amount_paid=D("1000")) == D("500.00")
    # Deposit paid, 100 % tier: the whole deposit back, the balance waived.
    assert money_back(total=D("1000"), refund_due=D("1000"), amount_paid=D("300")) == D("300.00")
    # A partial refund already made counts.
    assert money_back(total=D("1000"), refund_due=D("1000"), amount_paid=D("1000"), already_refunded=D("200")) == D("800.00")


@given(total=cents, share=st.integers(0, 100), paid_share=st.integers(0, 100), refunded_share=st.integers(0, 100))
def test_money_back_never_exceeds_what_is_held_nor_leaves_the_host_more_than_kept(total, share, paid_share, refunded_share):
    refund_due = (total * share / 100).quantize(D("0.01"))
    paid = (total * paid_share / 100).quantize(D("0.01"))
    already = (paid * refunded_share / 100).quantize(D("0.01"))
    back = money_back(total=total, refund_due=refund_due, amount_paid=paid, already_refunded=already)
    assert D("0") <= back <= paid - already
    if back > 0:  # the host ends with exactly what the policy lets it keep
        assert paid - already - back == total - refund_due


@given(amounts=st.lists(cents, min_size=1, max_size=4), data=st.data())
def test_spread_refund_newest_first_and_exact(amounts, data):
    payments = [PaidPart(f"pi_{i}", a, data.draw(st.sampled_from([D("0"), (a / 2).quantize(D("0.01"))]))) for i, a in enumerate(amounts)]
    left = sum(p.amount - p.refunded for p in payments)
    amount = D(data.draw(st.integers(0, int(left * 100)))) / 100
    parts = spread_refund(amount, payments)
    assert sum(a for _, a in parts) == amount
    by_id = {p.provider_id: p for p in payments}
    assert all(0 < a <= by_id[pid].amount - by_id[pid].refunded for pid, a in parts)
    order = [int(pid[3:]) for pid, _ in parts]
    assert order == sorted(order, reverse=True)  # newest first
    # Every payment but the last one touched is given back in full.
    for pid, a in parts[:-1]:
        assert a == by_id[pid].amount - by_id[pid].refunded


def test_spread_refund_over_deposit_and_balance():
    payments = [PaidPart("pi_deposit", D("300")), PaidPart("pi_balance", D("700"))]
    assert spread_refund(D("800"), payments) == [("pi_balance", D("700.00")), ("pi_deposit", D("100.00"))]
    with pytest.raises(ValueError):
        spread_refund(D("1000.01"), payments)
