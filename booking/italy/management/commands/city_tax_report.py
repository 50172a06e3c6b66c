from django.core.management.base import BaseCommand

from booking.italy.management.commands._period import month_arg
from booking.italy.reports import city_tax_csv


class Command(BaseCommand):
    help = "Print the month's city-tax return as CSV: one row per confirmed stay with nights in the month, then TOTAL."

    def add_arguments(self, parser):
        parser.add_argument("--month", required=True, help="YYYY-MM")

    def handle(self, *args, month, **options):
        self.stdout.write(city_tax_csv(*month_arg(month)), ending="")
