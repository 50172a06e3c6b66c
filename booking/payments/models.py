"""Money on a stay, one row per provider object: payments (one per payment intent), the balance job's
attempts, security deposits, refunds, receipts, the provider events already applied and the
sandbox's checkouts."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext


class PaymentEvent(models.Model):
    """A provider event that was applied. Its row is written in the same transaction as the change
    the event made, so a replayed or concurrently delivered event changes nothing a second time."""

    event_id = models.CharField(max_length=255, unique=True)
    event_type = models.CharField(max_length=100)
    source = models.CharField(max_length=30, help_text="stripe webhook, sandbox checkout or reconciliation job.")
    reservation = models.ForeignKey("reservations.Reservation", null=True, blank=True, on_delete=models.SET_NULL, related_name="payment_events")
    outcome = models.CharField(max_length=300, blank=True)
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "booking_paymentevent"
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
    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.CASCADE, related_name="sandbox_checkouts")
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
        db_table = "booking_sandboxcheckout"
        ordering = ["-created_at"]
        verbose_name = "sandbox checkout (test payment)"

    def __str__(self):
        return f"{self.id} ({self.status})"


class ProviderRefund(models.Model):
    """One refund asked of the payment provider (booking/payments/services/refunds.py).

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

    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.PROTECT, related_name="provider_refunds")
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
        db_table = "booking_providerrefund"
        ordering = ["requested_at"]
        indexes = [models.Index(fields=["status", "requested_at"], name="provider_refund_open_idx")]

    def __str__(self):
        return f"{self.kind} refund {self.provider_refund_id or self.idempotency_key}: {self.amount} {self.currency} ({self.status})"


class Payment(models.Model):
    """One successful payment of a stay: the deposit, the balance, or the whole at once. The provider's
    payment intent id is unique, so a payment replayed by a webhook, the reconciliation job or a
    second worker is recorded once. Refunds are spread over these rows, newest first."""

    class Kind(models.TextChoices):
        DEPOSIT = "deposit", "Deposit"
        BALANCE = "balance", "Balance"
        FULL = "full", "Paid in full"

    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.PROTECT, related_name="payments")
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
    # dashboard are in it. booking/payments/services/refunds.py counts max(this, our refunds of it).
    provider_refunded = models.DecimalField(max_digits=10, decimal_places=2, default=0)

    class Meta:
        db_table = "booking_payment"
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

    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.CASCADE, related_name="balance_attempts")
    due_date = models.DateField()
    attempted_on = models.DateField(help_text="The property's local date of the attempt.")
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.CHARGING)
    provider_id = models.CharField(max_length=255, blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The request as it is sent (booking/payments/services/balance_charges.py): a charge whose answer was lost
    # is sent again exactly so (the provider refuses a key reused with other parameters), and the
    # provider answers with the charge it made, if any, even when the balance changed in between.
    idempotency_key = models.CharField(max_length=255, blank=True)
    amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    customer_id = models.CharField(max_length=255, blank=True)
    payment_method_id = models.CharField(max_length=255, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True, help_text="When the request was first sent (the provider keeps a key 24 hours).")

    class Meta:
        db_table = "booking_balanceattempt"
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
        cleared once its outcome is read from the provider (booking/payments/services/security_deposits.py)."""

        NONE = "", "Nothing"
        PLACE = "place", "Hold (authorise) the card"
        CAPTURE = "capture", "Capture (a claim)"
        RELEASE = "release", "Release"
        GIVE_BACK = "give_back", "Refund of a capture for a stay no longer confirmed"

    LAPSES_AFTER_DAYS = 7  # Stripe: an uncaptured card payment is cancelled after 7 days

    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.PROTECT, related_name="security_deposits")
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
        db_table = "booking_securitydeposit"
        ordering = ["placed_on", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["reservation", "placed_on"], name="one_security_hold_per_day"),
            models.UniqueConstraint(fields=["reservation"], condition=models.Q(status="held"), name="one_open_security_hold"),
        ]

    def __str__(self):
        return gettext("Security deposit of %(reservation)s: %(amount)s %(currency)s, %(status)s") % {
            "reservation": self.reservation,
            "amount": self.amount,
            "currency": self.currency,
            "status": self.get_status_display(),
        }


class GuestCheckout(models.Model):
    """A checkout page opened for a confirmed stay (the balance, or the security deposit's
    authorisation after the saved card was refused). Kept so the reconciliation job can ask the
    provider about it when its webhook is lost; `settled_at` is set once its payment is recorded."""

    class Purpose(models.TextChoices):
        BALANCE = "balance", "Balance"
        SECURITY_DEPOSIT = "security_deposit", "Security deposit authorisation"

    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.CASCADE, related_name="guest_checkouts")
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
        db_table = "booking_guestcheckout"
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
        db_table = "booking_receipt"
        ordering = ["year", "sequence"]
        constraints = [models.UniqueConstraint(fields=["year", "sequence"], name="one_receipt_number_per_year")]

    def __str__(self):
        return f"receipt {self.number}"

    @property
    def number(self) -> str:
        return f"{self.year}/{self.sequence:04d}"
