"""What the payment code stores: the provider events already applied, and the sandbox's checkouts.

Imported at the bottom of booking/models.py so Django registers them with the `booking` app.
"""

from django.db import models
from django.utils import timezone


class PaymentEvent(models.Model):
    """A provider event that was applied. Its row is written in the same transaction as the change
    the event made, so a replayed or concurrently delivered event changes nothing a second time."""

    event_id = models.CharField(max_length=255, unique=True)
    event_type = models.CharField(max_length=100)
    source = models.CharField(max_length=30, help_text="stripe webhook, sandbox checkout or reconciliation job.")
    reservation = models.ForeignKey("booking.Reservation", null=True, blank=True, on_delete=models.SET_NULL, related_name="payment_events")
    outcome = models.CharField(max_length=300, blank=True)
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "booking"
        ordering = ["-received_at"]

    def __str__(self):
        return f"{self.event_type} {self.event_id}: {self.outcome}"


class SandboxCheckout(models.Model):
    """A checkout session of the built-in sandbox provider (TEST PAYMENT: no money moves).

    Mirrors the fields of a Stripe Checkout Session that the payment code reads, so the same
    handlers apply its events.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        COMPLETE = "complete", "Paid (test)"
        EXPIRED = "expired", "Expired or cancelled"

    id = models.CharField(primary_key=True, max_length=100, editable=False)
    reservation = models.ForeignKey("booking.Reservation", on_delete=models.CASCADE, related_name="sandbox_checkouts")
    amount_cents = models.PositiveIntegerField()
    currency = models.CharField(max_length=3)
    description = models.CharField(max_length=300)
    success_url = models.URLField(max_length=2000)
    cancel_url = models.URLField(max_length=2000)
    expires_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    payer_email = models.EmailField(blank=True)
    payer_name = models.CharField(max_length=200, blank=True)
    payer_phone = models.CharField(max_length=40, blank=True)
    payment_intent_id = models.CharField(max_length=100, blank=True)
    # The test card the payer used (pm_sandbox_visa, or pm_sandbox_declines_later: saved, refused off-session).
    payment_method = models.CharField(max_length=40, blank=True)
    amount_refunded_cents = models.PositiveIntegerField(default=0)
    # Idempotency keys of the refunds made, like Stripe's: a retried refund is not made twice.
    refund_keys = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "booking"
        ordering = ["-created_at"]
        verbose_name = "sandbox checkout (test payment)"

    def __str__(self):
        return f"{self.id} ({self.status})"
