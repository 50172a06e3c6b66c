"""`manage.py place_security_deposits [--as-of YYYY-MM-DD]`: the security deposit job, run by hand.

The same service as the Celery beat job (booking/payments/services/security_deposits.py); running it twice,
or beside the beat job, holds or releases nothing twice.
"""

from django.core.management.base import BaseCommand

from booking.management.commands.charge_due_balances import as_of_date
from booking.payments.services.security_deposits import place_security_deposits


class Command(BaseCommand):
    help = "Hold the security deposits due (and renew holds about to lapse) on the saved cards, as of --as-of (default today)."

    def add_arguments(self, parser):
        parser.add_argument("--as-of", help="the property's local date to run as (YYYY-MM-DD); default today")

    def handle(self, *args, as_of=None, **options):
        counts = place_security_deposits(as_of=as_of_date(as_of))
        self.stdout.write(", ".join(f"{outcome}: {n}" for outcome, n in sorted(counts.items())) or "nothing to do")
