from importlib import import_module

from django.core.management.base import BaseCommand

# Each app with demo content has a `demo.load()` that creates it only if it is missing.
DEMO_MODULES = ["booking.demo", "pages.demo"]


class Command(BaseCommand):
    help = "Load the demo property and site content. Idempotent: existing (owner-edited) data is never changed."

    def handle(self, *args, **options):
        for name in DEMO_MODULES:
            created = import_module(name).load()
            self.stdout.write(f"{name}: {'created' if created else 'already present, left as it is'}")
