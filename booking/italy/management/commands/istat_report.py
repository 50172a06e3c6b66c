from django.core.management.base import BaseCommand

from booking.italy.management.commands._period import month_arg
from booking.italy.reports import istat_csv


class Command(BaseCommand):
    help = "Print the month's tourism statistics as CSV: citizenship, arrivals, nights (guest-nights, 'presenze')."

    def add_arguments(self, parser):
        parser.add_argument("--month", required=True, help="YYYY-MM")

    def handle(self, *args, month, **options):
        self.stdout.write(istat_csv(*month_arg(month)), ending="")
