import sys
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from booking.italy.police import day_file


class Command(BaseCommand):
    help = (
        "Print the day's arrivals as the Alloggiati Web upload file (168-character records, CRLF). "
        "Stays still missing data are listed on standard error and make the command exit 1."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", required=True, help="YYYY-MM-DD, the arrival day")

    def handle(self, *args, date: str, **options):
        try:
            day = _parse(date)
        except ValueError as error:
            raise CommandError(f"--date must be YYYY-MM-DD, not {date!r}") from error
        text, missing = day_file(day)
        if text:
            self.stdout.write(text, ending="\r\n")
        for arrival in missing:
            self.stderr.write(f"{arrival.reservation.pk} ({arrival.reservation.guest_name or 'no name'}): {arrival.missing}")
        if missing:
            sys.exit(1)


def _parse(value: str) -> date:
    return date.fromisoformat(value)
