from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    """Money on a stay: payments, refunds, balances, security deposits and receipts, and the
    operations that move it (cancelling with a refund, changing dates, bookings made by the owner)."""

    name = "booking.payments"
    label = "payments"
    verbose_name = "Payments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from booking.payments import emails

        emails.register()  # receipts ride on the emails that report their payment
