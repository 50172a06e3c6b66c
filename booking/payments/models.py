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
        AUTHORISED = "authorised", "Card held (test), not captured"

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
    # "manual": paying it only holds the card (a security deposit's authorisation), like Stripe's
    # payment_intent_data.capture_method=manual.
    capture_method = models.CharField(max_length=10, default="automatic")

    class Meta:
        app_label = "booking"
        ordering = ["-created_at"]
        verbose_name = "sandbox checkout (test payment)"

    def __str__(self):
        return f"{self.id} ({self.status})"


class ProviderRefund(models.Model):
    """One refund asked of the payment provider (booking/services/refunds.py).

    The row is written under the reservation's lock before the provider is called, so a concurrent
    request sees its amount as taken; it is settled with the provider's refund id, which is unique:
    a refund is added to the reservation's refunded total once, however often its answer arrives.
    Its idempotency key belongs to the request, not to the amount: the same request sent again is
    the same refund at the provider, a new request is a new refund.
    """

    class Status(models.TextChoices):
        REQUESTED = "requested", "Asked of the provider"
        SUCCEEDED = "succeeded", "Refunded"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        STAFF = "staff", "Refund by staff"
        CANCELLATION = "cancellation", "Cancellation refund"
        # Money that arrived for a stay no longer confirmed, given back whole (services/balances.receive_payment).
        RETURNED = "returned", "Payment given back (stay not confirmed)"

    reservation = models.ForeignKey("booking.Reservation", on_delete=models.PROTECT, related_name="provider_refunds")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    provider = models.CharField(max_length=20)
    payment_intent_id = models.CharField(max_length=255, help_text="The payment refunded (its provider id).")
    idempotency_key = models.CharField(max_length=255, unique=True)
    provider_refund_id = models.CharField(max_length=255, null=True, blank=True, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REQUESTED)
    actor = models.CharField(max_length=100)
    reason = models.CharField(max_length=300, blank=True)
    failure = models.CharField(max_length=300, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "booking"
        ordering = ["requested_at"]
        indexes = [models.Index(fields=["status", "requested_at"], name="provider_refund_open_idx")]

    def __str__(self):
        return f"{self.kind} refund {self.provider_refund_id or self.idempotency_key}: {self.amount} {self.currency} ({self.status})"
