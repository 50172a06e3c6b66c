"""--month YYYY-MM, shared by the report commands."""

from datetime import date

from django.core.management.base import CommandError

from booking.italy.citytax import month_bounds


def month_arg(value: str) -> tuple[date, date]:
    try:
        year, month = (int(part) for part in value.split("-"))
        return month_bounds(year, month)
    except ValueError as error:
        raise CommandError(f"--month must be YYYY-MM, not {value!r}") from error
