"""The city-tax return (imposta di soggiorno) as pure functions, no database.

Per person per night, for at most the property's maximum taxable nights counted from arrival;
a guest under the exemption age on the day of arrival pays nothing. Who is under age comes from
the dates of birth given at check-in when every guest has one, else from the `children_ages` given
at booking, else nobody is exempt. A stay across two months is taxed in each month for its taxed
nights that fall in it, so the two returns add up to the stay's tax.
"""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class StayTax:
    nights_taxed: int
    guests: int
    guests_exempt: int
    exemption_reasons: str
    rate: Decimal
    amount: Decimal
    # What the reasons say, as data, for a reader in another language than the CSV's English.
    exempt_under_age: int = 0
    exempt_by: str = ""  # "date_of_birth" (from the check-in) or "children_ages" (given at booking)


def age_on(born: date, day: date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def exempt_guests(arrival: date, exempt_under_age: int, dates_of_birth: list[date] | None, children_ages: list[int]) -> tuple[int, str]:
    """How many guests are exempt, and why (for the return's `exemption_reasons` column)."""
    if dates_of_birth:
        count = sum(1 for born in dates_of_birth if age_on(born, arrival) < exempt_under_age)
        source = "date of birth"
    else:
        count = sum(1 for age in children_ages if age < exempt_under_age)
        source = "children_ages"
    return count, (f"{count} under {exempt_under_age} ({source})" if count else "")


def taxed_nights_in(check_in: date, check_out: date, max_nights: int, first: date, last: date) -> int:
    """The stay's taxed nights (the first `max_nights`) that fall between first and last, inclusive."""
    taxed_until = min(check_out, check_in + timedelta(days=max_nights))  # exclusive
    start, end = max(check_in, first), min(taxed_until, last + timedelta(days=1))
    return max((end - start).days, 0)


def stay_tax(
    *,
    check_in: date,
    check_out: date,
    guests: int,
    first: date,
    last: date,
    rate: Decimal,
    max_nights: int,
    exempt_under_age: int,
    dates_of_birth: list[date] | None = None,
    children_ages: list[int] | None = None,
) -> StayTax:
    exempt, reasons = exempt_guests(check_in, exempt_under_age, dates_of_birth, children_ages or [])
    exempt = min(exempt, guests)
    nights = taxed_nights_in(check_in, check_out, max_nights, first, last)
    amount = (rate * nights * (guests - exempt)).quantize(CENT, rounding=ROUND_HALF_UP)
    return StayTax(
        nights_taxed=nights,
        guests=guests,
        guests_exempt=exempt,
        exemption_reasons=reasons,
        rate=rate,
        amount=amount,
        exempt_under_age=exempt_under_age,
        exempt_by=("date_of_birth" if dates_of_birth else "children_ages") if exempt else "",
    )


def month_bounds(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    following = date(year + month // 12, month % 12 + 1, 1)
    return first, following - timedelta(days=1)


def quarter_bounds(year: int, quarter: int) -> tuple[date, date]:
    first, _ = month_bounds(year, 3 * quarter - 2)
    _, last = month_bounds(year, 3 * quarter)
    return first, last
