from django.apps import AppConfig


class OutboxConfig(AppConfig):
    """Emails owed to guests, the owner and staff, delivered with retries, and the owner's alerts."""

    name = "booking.outbox"
    label = "outbox"
    verbose_name = "Emails and alerts"
    default_auto_field = "django.db.models.BigAutoField"
