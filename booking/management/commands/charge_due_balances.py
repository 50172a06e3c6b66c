"""`manage.py charge_due_balances [--as-of YYYY-MM-DD]`: the balance job, run by hand.

The same service as the Celery beat job (booking/payments/services/balances.py): each balance due on or
before the date is charged to the guest's saved card, at most once per stay and day. Operators run
it to catch up after downtime; running it twice, or beside the beat job, charges nothing twice.
"""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from booking.payments.services.balance_charges import charge_due_balances


def as_of_date(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--as-of must be a date like 2027-05-02, not {value!r}.") from None


class Command(BaseCommand):
    help = "Charge the balances due (on or before --as-of, default today in the property's time zone) to the saved cards."

    def add_arguments(self, parser):
        parser.add_argument("--as-of", help="the property's local date to run as (YYYY-MM-DD); default today")

    def handle(self, *args, as_of=None, **options):
        counts = charge_due_balances(as_of=as_of_date(as_of))
        self.stdout.write(", ".join(f"{outcome}: {n}" for outcome, n in sorted(counts.items())) or "no balance due")
