"""Emails waiting to be sent (the outbox) and alerts for the owner."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext


class OutboundEmail(models.Model):
    """An email owed to someone, written in the same transaction as the change it reports, and
    delivered by a Celery task that retries with backoff: an SMTP outage delays it, never loses it.

    The stay's emails are written when sent, from the stay as it is then: one row per
    (reservation, kind, recipient), so queueing twice (a retried cancel, a replayed event) sends
    once. A one-off notice (a refunded payment, a website inquiry) is written when queued: its
    subject, body and addresses are kept on the row, and it may have no reservation.
    """

    class Kind(models.TextChoices):
        CONFIRMATION = "confirmation", "Booking confirmed"
        CANCELLATION = "cancellation", "Booking cancelled"
        REFUND = "refund", "Refund issued"
        PRE_ARRIVAL = "pre_arrival", "Before arrival"
        REFUNDED_PAYMENT = "refunded_payment", "Payment refunded, needs attention"
        INQUIRY = "inquiry", "Website inquiry"
        PAYMENT_RECEIVED = "payment_received", "Payment received"
        BALANCE_DECLINED = "balance_declined", "Balance charge refused"
        BALANCE_OVERDUE = "balance_overdue", "Balance overdue, needs attention"
        DEPOSIT_CLAIMED = "deposit_claimed", "Security deposit claimed"
        OWNER_ALERT = "owner_alert", "Problem to look at"
        REVIEW_REQUEST = "review_request", "Review request"
        CHECK_IN_REMINDER_7 = "check_in_reminder_7", "Check-in reminder, 7 days before"
        CHECK_IN_REMINDER_2 = "check_in_reminder_2", "Check-in reminder, 2 days before"
        ARRIVAL_INFO = "arrival_info", "Arrival instructions"
        CHECK_IN_INVITATION = "check_in_invitation", "Check-in link (channel booking)"
        PAYMENT_LINK = "payment_link", "Payment link (booked by the owner)"
        HOLD_REMINDER = "hold_reminder", "Reminder of an unfinished booking"
        DATES_CHANGED = "dates_changed", "Dates changed"
        DEPOSIT_AUTHORISATION_NEEDED = "deposit_auth_needed", "Security deposit hold refused, link to authorise"
        STAFF_INVITATION = "staff_invitation", "Invitation to the back office"
        REFUND_MADE = "refund_made", "Refund made (one email each)"

    # Written from the stay when sent; the others are written when queued (subject, body on the row).
    STAY_KINDS = (Kind.CONFIRMATION, Kind.CANCELLATION, Kind.REFUND, Kind.PRE_ARRIVAL, Kind.REVIEW_REQUEST)
    # Only true of a confirmed stay: still owed when the stay is cancelled, they are dropped, not sent
    # (a door code or a "see you soon" after the cancellation email would contradict it).
    ONLY_WHILE_CONFIRMED = (
        Kind.CONFIRMATION,
        Kind.PRE_ARRIVAL,
        Kind.REVIEW_REQUEST,
        Kind.CHECK_IN_REMINDER_7,
        Kind.CHECK_IN_REMINDER_2,
        Kind.ARRIVAL_INFO,
        Kind.CHECK_IN_INVITATION,
    )

    class Recipient(models.TextChoices):
        GUEST = "guest", "Guest"
        OWNER = "owner", "Owner"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENT = "sent", "Sent"
        # The server got the whole message but never confirmed it: maybe delivered, never resent.
        UNCONFIRMED = "unconfirmed", "Sent, unconfirmed (not resent)"
        GAVE_UP = "gave_up", "Not sent (gave up)"

    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.CASCADE, related_name="emails", null=True, blank=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    recipient = models.CharField(max_length=10, choices=Recipient.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    # A one-off notice, written when queued (empty for the stay's emails).
    subject = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    to_address = models.CharField(max_length=254, blank=True)
    reply_to = models.CharField(max_length=254, blank=True)

    class Meta:
        db_table = "booking_outboundemail"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["reservation", "kind", "recipient"],
                name="one_email_per_kind_and_recipient",
                condition=models.Q(kind__in=["confirmation", "cancellation", "refund", "pre_arrival", "review_request"]),
            ),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="email_due")]

    def __str__(self):
        # Read in the back office (the stay's emails): the reader's words; stored notes use the kind's English label.
        return gettext("%(kind)s, to the %(recipient)s (%(status)s)") % {
            "kind": gettext(self.get_kind_display()),
            "recipient": self.get_recipient_display(),
            "status": self.get_status_display(),
        }


class OwnerAlert(models.Model):
    """A problem the owner was emailed about on a given day (the property's local date): at most one
    email per problem per day, however often a job sees it. The unique pair is the claim, so two
    workers noticing the same problem at once send one email."""

    problem = models.CharField(max_length=200)
    day = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "booking_owneralert"
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["problem", "day"], name="one_owner_alert_per_problem_per_day")]

    def __str__(self):
        return f"{self.problem} ({self.day})"


# The payment records live beside the payment code; imported here so Django registers them.
