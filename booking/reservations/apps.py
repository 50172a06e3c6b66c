from django.apps import AppConfig


class ReservationsConfig(AppConfig):
    """Stays on the calendar: holds, reservations, date blocks, their history and the flags staff
    must look at."""

    name = "booking.reservations"
    label = "reservations"
    verbose_name = "Reservations"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from booking.reservations import emails, signals  # noqa: F401  (reviews bump the version; changed nights reach the channel manager)

        emails.register()  # the outbox writes a stay's emails with this app's words
