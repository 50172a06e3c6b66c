"""Each payment a guest made, one row per provider payment intent, and the balance job's attempts.

Imported at the bottom of booking/models.py so Django registers them with the `booking` app.
"""

from django.db import models
from django.utils import timezone


class Payment(models.Model):
    """One successful payment of a stay: the deposit, the balance, or the whole at once. The provider's
    payment intent id is unique, so a payment replayed by a webhook, the reconciliation job or a
    second worker is recorded once. Refunds are spread over these rows, newest first."""

    class Kind(models.TextChoices):
        DEPOSIT = "deposit", "Deposit"
        BALANCE = "balance", "Balance"
        FULL = "full", "Paid in full"

    reservation = models.ForeignKey("booking.Reservation", on_delete=models.PROTECT, related_name="payments")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    provider = models.CharField(max_length=20)
    provider_id = models.CharField(max_length=255, help_text="The provider's payment intent id.")
    # The card kept for the balance and the security deposit (Stripe: Customer + PaymentMethod).
    customer_id = models.CharField(max_length=255, blank=True)
    payment_method_id = models.CharField(max_length=255, blank=True)
    paid_at = models.DateTimeField(default=timezone.now)
    # The provider's running refunded total of this payment (charge.refunded): refunds made in its
    # dashboard are in it. booking/services/refunds.py counts max(this, our refunds of it).
    provider_refunded = models.DecimalField(max_digits=10, decimal_places=2, default=0)

    class Meta:
        app_label = "booking"
        ordering = ["paid_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["provider", "provider_id"], name="one_payment_per_provider_intent")]

    def __str__(self):
        return f"{self.get_kind_display()} {self.amount} {self.currency} ({self.provider_id})"


class BalanceAttempt(models.Model):
    """One day's try at charging a stay's balance to the saved card. One row per stay and local date:
    two workers (or a command run beside the beat job) cannot both charge on the same day."""

    class Outcome(models.TextChoices):
        CHARGING = "charging", "Charging"
        SUCCEEDED = "succeeded", "Paid"
        DECLINED = "declined", "Refused by the card"
        FAILED = "failed", "Provider unavailable"
        LEFT_TO_STAFF = "unknown", "Answer lost; left to staff"

    reservation = models.ForeignKey("booking.Reservation", on_delete=models.CASCADE, related_name="balance_attempts")
    due_date = models.DateField()
    attempted_on = models.DateField(help_text="The property's local date of the attempt.")
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.CHARGING)
    provider_id = models.CharField(max_length=255, blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The request as it is sent (booking/services/balance_charges.py): a charge whose answer was lost
    # is sent again exactly so (the provider refuses a key reused with other parameters), and the
    # provider answers with the charge it made, if any, even when the balance changed in between.
    idempotency_key = models.CharField(max_length=255, blank=True)
    amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    customer_id = models.CharField(max_length=255, blank=True)
    payment_method_id = models.CharField(max_length=255, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True, help_text="When the request was first sent (the provider keeps a key 24 hours).")

    class Meta:
        app_label = "booking"
        ordering = ["attempted_on"]
        constraints = [models.UniqueConstraint(fields=["reservation", "attempted_on"], name="one_balance_attempt_per_day")]

    def __str__(self):
        return f"balance of {self.reservation_id} on {self.attempted_on}: {self.outcome}"


class SecurityDeposit(models.Model):
    """One card authorisation (manual capture) of a stay's refundable security deposit. An
    authorisation lapses after 7 days at Stripe: a longer stay gets a new one before that, and the
    old one is released, so each row is one provider payment intent."""

    class Status(models.TextChoices):
        HELD = "held", "Held on the card"
        RELEASED = "released", "Released"
        CLAIMED = "claimed", "Claimed (captured)"
        RENEWED = "renewed", "Replaced by a new hold"
        REPLACED = "replaced", "Replaced by a new hold; its release not yet confirmed"
        PLACING = "placing", "Being placed (answer not yet read)"
        FAILED = "failed", "Refused by the card"

    class Pending(models.TextChoices):
        """A provider call that moves money, written down (with its key) before it is made and
        cleared once its outcome is read from the provider (booking/services/security_deposits.py)."""

        NONE = "", "Nothing"
        PLACE = "place", "Hold (authorise) the card"
        CAPTURE = "capture", "Capture (a claim)"
        RELEASE = "release", "Release"
        GIVE_BACK = "give_back", "Refund of a capture for a stay no longer confirmed"

    LAPSES_AFTER_DAYS = 7  # Stripe: an uncaptured card payment is cancelled after 7 days

    reservation = models.ForeignKey("booking.Reservation", on_delete=models.PROTECT, related_name="security_deposits")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    provider = models.CharField(max_length=20)
    provider_id = models.CharField(max_length=255, blank=True, help_text="The provider's payment intent id.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    placed_on = models.DateField(help_text="The property's local date the card was authorised.")
    claimed_amount = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    claim_reason = models.TextField(blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The card the guest authorised on the checkout page (after the saved card was refused):
    # renewals hold this one, not the refused one. Blank for holds on the saved card.
    customer_id = models.CharField(max_length=255, blank=True)
    payment_method_id = models.CharField(max_length=255, blank=True)
    # The provider call being made (or whose answer was lost): its key never names an amount, so a
    # call sent again is the same call; `attempts` numbers a new call after one known not made.
    pending = models.CharField(max_length=10, choices=Pending.choices, blank=True, default=Pending.NONE)
    pending_key = models.CharField(max_length=255, blank=True)
    pending_amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    pending_actor = models.CharField(max_length=100, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True, help_text="Set while the call is at the provider (a dead worker leaves it set).")
    attempts = models.PositiveSmallIntegerField(default=0)
    provider_failures = models.PositiveSmallIntegerField(default=0, help_text="Tries in a row the provider did not settle.")
    # A capture for a stay no longer confirmed is given back in full (recorded by the refund's id).
    given_back = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    given_back_id = models.CharField(max_length=255, blank=True)

    class Meta:
        app_label = "booking"
        ordering = ["placed_on", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["reservation", "placed_on"], name="one_security_hold_per_day"),
            models.UniqueConstraint(fields=["reservation"], condition=models.Q(status="held"), name="one_open_security_hold"),
        ]

    def __str__(self):
        return f"security deposit {self.amount} {self.currency} of {self.reservation_id}: {self.status}"


class GuestCheckout(models.Model):
    """A checkout page opened for a confirmed stay (the balance, or the security deposit's
    authorisation after the saved card was refused). Kept so the reconciliation job can ask the
    provider about it when its webhook is lost; `settled_at` is set once its payment is recorded."""

    class Purpose(models.TextChoices):
        BALANCE = "balance", "Balance"
        SECURITY_DEPOSIT = "security_deposit", "Security deposit authorisation"

    reservation = models.ForeignKey("booking.Reservation", on_delete=models.CASCADE, related_name="guest_checkouts")
    purpose = models.CharField(max_length=20, choices=Purpose.choices)
    provider = models.CharField(max_length=20)
    session_id = models.CharField(max_length=255, unique=True)
    url = models.URLField(max_length=2000)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "booking"
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.purpose} checkout {self.session_id} of {self.reservation_id}"


class Receipt(models.Model):
    """The receipt of one payment, numbered per calendar year (2027/0001). Issued in the transaction
    that records the payment, under the property's lock, so numbers never repeat or skip."""

    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="receipt")
    year = models.PositiveSmallIntegerField()
    sequence = models.PositiveIntegerField()
    issued_on = models.DateField(help_text="The property's local date.")

    class Meta:
        app_label = "booking"
        ordering = ["year", "sequence"]
        constraints = [models.UniqueConstraint(fields=["year", "sequence"], name="one_receipt_number_per_year")]

    def __str__(self):
        return f"receipt {self.number}"

    @property
    def number(self) -> str:
        return f"{self.year}/{self.sequence:04d}"
