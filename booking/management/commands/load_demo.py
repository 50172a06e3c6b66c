from importlib import import_module

from django.conf import settings
from django.core.management.base import BaseCommand

from booking.catalog.models import Property
from booking.demo import SLUG

# Each app with demo content has a `demo.load()` that creates it only if it is missing.
DEMO_MODULES = ["booking.demo", "pages.demo", "booking.italy.demo"]


class Command(BaseCommand):
    help = (
        "Load the demo property and site content into an empty database when DEMO is on (the default; set DEMO=off in production). "
        "Idempotent: existing (owner-edited) data is never changed, and a database with a property of its own gets no demo."
    )

    def handle(self, *args, **options):
        if not settings.DEMO:
            self.stdout.write("DEMO is off: no demo content loaded.")
            return
        if Property.objects.exclude(slug=SLUG).exists():
            self.stdout.write("The database has a property of its own: no demo content loaded (set DEMO=off to silence this).")
            return
        for name in DEMO_MODULES:
            created = import_module(name).load()
            self.stdout.write(f"{name}: {'created' if created else 'already present, left as it is'}")
