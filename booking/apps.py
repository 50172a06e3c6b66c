from django.apps import AppConfig


class BookingConfig(AppConfig):
    name = "booking"
    verbose_name = "Property, rates and reservations"

    def connect_signals(self):
        from booking import signals  # noqa: F401

    def ready(self):
        self.connect_signals()
