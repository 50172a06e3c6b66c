from django.apps import AppConfig


class BookingConfig(AppConfig):
    """The shared kernel (errors, ids, money and date formatting), the interfaces (booking.api, the
    Celery tasks, the management commands) and the migrations from before the apps split. Its
    apps (catalog, reservations, payments, outbox, italy) are installed beside it."""

    name = "booking"
    verbose_name = "Booking"

    def ready(self):
        # Tasks: registered in every process (web ones too), so the email outbox can queue its
        # delivery by the task's name.
        from booking import tasks  # noqa: F401
