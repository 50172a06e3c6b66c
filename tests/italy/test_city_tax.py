"""The city-tax arithmetic as pure functions (booking/italy/citytax.py): the cap on nights, who
is exempt (date of birth from check-in, else children_ages), and stays across months. No database."""

from datetime import date
from decimal import Decimal

import pytest

from booking.italy.citytax import age_on, month_bounds, quarter_bounds, stay_tax, taxed_nights_in

RATE = Decimal("5.50")
JUNE = month_bounds(2026, 6)
JULY = month_bounds(2026, 7)


def tax(check_in, check_out, guests, period=JUNE, **kwargs):
    return stay_tax(
        check_in=check_in, check_out=check_out, guests=guests, first=period[0], last=period[1], rate=RATE, max_nights=7, exempt_under_age=12, **kwargs
    )


def test_per_person_per_night():
    result = tax(date(2026, 6, 10), date(2026, 6, 13), 2)
    assert (result.nights_taxed, result.guests_exempt, result.amount) == (3, 0, Decimal("33.00"))


def test_at_most_seven_nights_from_arrival():
    result = tax(date(2026, 6, 1), date(2026, 6, 15), 2)
    assert result.nights_taxed == 7 and result.amount == Decimal("77.00")


def test_a_stay_across_months_is_split_and_the_cap_counts_from_arrival():
    june = tax(date(2026, 6, 27), date(2026, 7, 10), 1)
    july = tax(date(2026, 6, 27), date(2026, 7, 10), 1, period=JULY)
    assert (june.nights_taxed, july.nights_taxed) == (4, 3)  # 27–30 June, then 1–3 July: seven in all
    assert june.amount + july.amount == Decimal("38.50")


def test_exempt_by_date_of_birth_on_the_day_of_arrival():
    births = [date(1980, 1, 1), date(2014, 6, 11), date(2014, 6, 10)]  # the last turns 12 on arrival: taxed
    result = tax(date(2026, 6, 10), date(2026, 6, 12), 3, dates_of_birth=births)
    assert (result.guests_exempt, result.exemption_reasons, result.amount) == (1, "1 under 12 (date of birth)", Decimal("22.00"))


def test_dates_of_birth_win_over_children_ages():
    result = tax(date(2026, 6, 10), date(2026, 6, 11), 2, dates_of_birth=[date(1980, 1, 1), date(1985, 1, 1)], children_ages=[5])
    assert result.guests_exempt == 0


def test_without_check_in_children_ages_decide():
    result = tax(date(2026, 6, 10), date(2026, 6, 11), 4, children_ages=[5, 11, 14])
    assert (result.guests_exempt, result.exemption_reasons, result.amount) == (2, "2 under 12 (children_ages)", Decimal("11.00"))


def test_without_ages_everyone_is_taxed():
    assert tax(date(2026, 6, 10), date(2026, 6, 11), 3).guests_exempt == 0


@pytest.mark.parametrize(
    ("check_in", "check_out", "expected"),
    [
        (date(2026, 5, 28), date(2026, 6, 2), 1),
        (date(2026, 5, 20), date(2026, 6, 5), 0),
        (date(2026, 6, 30), date(2026, 7, 2), 1),
        (date(2026, 7, 1), date(2026, 7, 2), 0),
    ],
)
def test_taxed_nights_in_a_month(check_in, check_out, expected):
    assert taxed_nights_in(check_in, check_out, 7, *JUNE) == expected


def test_ages_and_periods():
    assert age_on(date(2000, 2, 29), date(2012, 2, 28)) == 11 and age_on(date(2000, 2, 29), date(2012, 3, 1)) == 12
    assert month_bounds(2026, 12) == (date(2026, 12, 1), date(2026, 12, 31))
    assert quarter_bounds(2026, 1) == (date(2026, 1, 1), date(2026, 3, 31))
