from django.apps import AppConfig


class BookingConfig(AppConfig):
    name = "booking"
    verbose_name = "Property, rates and reservations"

    def ready(self):
        # Signals: any edit of the rates bumps the rules version. Tasks: registered in every
        # process (web ones too), so the email outbox can queue its delivery by the task's name.
        from booking import signals, tasks  # noqa: F401
