import re
import sys
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from booking.italy.police import PeriodRefused, period_file


class Command(BaseCommand):
    help = (
        "Print the arrivals of a day (--date) or of a period (--from and --to, both included, at most a year) "
        "as one Alloggiati Web upload file (168-character records, CRLF, in arrival-date order). "
        "Stays still missing data are listed on standard error and make the command exit 1."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", help="YYYY-MM-DD, the arrival day")
        parser.add_argument("--from", dest="first", metavar="YYYY-MM-DD", help="the period's first arrival day")
        parser.add_argument("--to", dest="last", metavar="YYYY-MM-DD", help="the period's last arrival day (included)")

    def handle(self, *args, date: str | None, first: str | None, last: str | None, **options):
        if date is not None and (first is not None or last is not None):
            raise CommandError("give either --date, or --from and --to")
        if date is not None:
            first_day = last_day = _parse("--date", date)
        elif first is not None and last is not None:
            first_day, last_day = _parse("--from", first), _parse("--to", last)
        else:
            raise CommandError("give --date YYYY-MM-DD, or --from YYYY-MM-DD and --to YYYY-MM-DD")
        try:
            text, missing = period_file(first_day, last_day)
        except PeriodRefused as error:
            raise CommandError(str(error)) from error
        if text:
            self.stdout.write(text, ending="\r\n")
        for arrival in missing:
            self.stderr.write(f"{arrival.reservation.pk} ({arrival.reservation.guest_name or 'no name'}): {arrival.missing}")
        if missing:
            sys.exit(1)


ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _parse(option: str, value: str) -> date:
    # fromisoformat alone also takes 20260614 and 2026-W24-1: only the one written form is a date here.
    try:
        if not ISO_DATE.fullmatch(value):
            raise ValueError(value)
        return date.fromisoformat(value)
    except ValueError as error:
        raise CommandError(f"{option} must be YYYY-MM-DD, not {value!r}") from error
