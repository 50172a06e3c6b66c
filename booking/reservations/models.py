"""Reservations and what happens to them: their events, date blocks, idempotency records and guest reviews."""

import builtins
import secrets
from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format  # the back office's one format (config/formats)
from django.utils.translation import gettext_lazy as _

from booking.catalog.models import MONEY, Property

CITY_TAX_BY_HOST = "host"


def new_reservation_id() -> str:
    return "res_" + secrets.token_urlsafe(16)  # 128 random bits, never sequential


class Reservation(models.Model):
    class Status(models.TextChoices):
        HELD = "held", "Held (awaiting payment)"
        CONFIRMED = "confirmed", "Confirmed"
        EXPIRED = "expired", "Expired"
        CANCELLED = "cancelled", "Cancelled"

    class Source(models.TextChoices):
        API = "api", "REST API"
        WEB = "web", "Website"
        MCP = "mcp", "MCP agent"
        A2A = "a2a", "A2A agent"
        OWNER = "owner", "Owner (back office)"
        # Bookings made on a listing platform and received from the channel manager (partner_sync/channex).
        BOOKING_COM = "booking_com", "Booking.com"
        AIRBNB = "airbnb", "Airbnb"
        EXPEDIA = "expedia", "Expedia"
        VRBO = "vrbo", "Vrbo"
        OTHER = "other", "Other channel"

    id = models.CharField(primary_key=True, max_length=40, default=new_reservation_id, editable=False)
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="reservations")
    # The number people read and say, "FLR-27-0042" (booking_numbers.py; given by services/numbers.py
    # when the stay is made): the year it was made in and its place in that year, unique together.
    booking_number = models.CharField(max_length=24, null=True, blank=True, unique=True, editable=False)  # noqa: DJ001 (NULL: not numbered)
    number_year = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    number_sequence = models.PositiveIntegerField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.HELD)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.API)
    check_in = models.DateField()
    check_out = models.DateField()
    guests = models.PositiveSmallIntegerField()
    # Ages of the children among `guests`, as the guest gave them (city tax, emails); empty: not said.
    children_ages = models.JSONField(default=list, blank=True)
    hold_expires_at = models.DateTimeField(null=True, blank=True)
    # How long the hold was made for, when not HOLD_MINUTES (a booking made by the owner for a guest
    # lasts hours: docs/owner-bookings.md); the hold's ceiling (services.payments.hold_ceiling) counts from it.
    hold_minutes = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # The breakdown the guest was quoted, frozen at hold time (rates may change afterwards).
    price_breakdown = models.JSONField()
    total = models.DecimalField(**MONEY)
    currency = models.CharField(max_length=3, default="EUR")
    guest_first_name = models.CharField(max_length=100, blank=True)
    guest_last_name = models.CharField(max_length=100, blank=True)
    guest_email = models.EmailField(blank=True)
    guest_phone = models.CharField(max_length=40, blank=True)
    special_requests = models.TextField(blank=True)  # the guest's own requests: in the guest's emails
    # What staff write about a stay for each other (a booking taken on the phone): never shown or sent to the guest.
    staff_note = models.TextField(blank=True, default="")
    # The code the stay was priced with (its discount and extras are in price_breakdown).
    promo_code = models.ForeignKey("catalog.PromoCode", on_delete=models.PROTECT, null=True, blank=True, related_name="reservations")
    agent_name = models.CharField(max_length=100, blank=True)
    # A UCP booking session's party as the platform sent it (discovery/ucp): {"guests": [...],
    # "guest_assignments": [...]}, ids preserved and returned as sent; replaced by each update.
    agent_party = models.JSONField(default=dict, blank=True, editable=False)
    client_ip = models.GenericIPAddressField(null=True, blank=True, help_text=_("Who asked for the hold; for abuse limits."))
    # Payment (see booking/payments/)
    payment_provider = models.CharField(max_length=20, blank=True)
    checkout_session_id = models.CharField(max_length=255, blank=True, db_index=True)
    checkout_url = models.URLField(max_length=2000, blank=True)
    checkout_expires_at = models.DateTimeField(null=True, blank=True)
    # When the guest pays (booking/catalog/payment_schedule.py), fixed when the stay is held: [{"type", "amount", "due_date"}].
    payment_schedule = models.JSONField(default=list, blank=True, editable=False)
    # The cancellation tiers, deposit, balance and security deposit terms in force when the stay was
    # held (booking/catalog/accepted_terms.py): later edits of the policy change only new bookings.
    accepted_terms = models.JSONField(default=dict, blank=True, editable=False)
    amount_paid = models.DecimalField(**MONEY, default=Decimal("0"))
    amount_refunded = models.DecimalField(**MONEY, default=Decimal("0"))
    payment_intent_id = models.CharField(max_length=255, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    # Owed to the guest after a cancellation and not yet confirmed by the payment provider (it
    # failed or has not answered yet); the refund job retries it.
    refund_pending = models.DecimalField(**MONEY, default=Decimal("0"))
    # The guest's own link to the stay, {BASE_URL}/manage/<token>: set when the stay is confirmed.
    manage_token = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)
    # The language the booking was made in; its emails are written in it.
    language = models.CharField(max_length=8, default="en")
    pre_arrival_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    review_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    # An unpaid hold's one reminder (booking/reservations/services/hold_reminders.py): the address the guest gave
    # on /book with the box ticked (only then), and when the reminder was claimed (at most once).
    reminder_email = models.EmailField(blank=True, editable=False)
    reminder_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A booking made on a listing platform (source booking_com, airbnb, …), as the channel manager
    # sent it (booking/reservations/services/channel_bookings.py): its booking id there, the platform's own code,
    # the commission, who collects the guest's money, the guest's country, and the time of the
    # last revision applied (an older one arriving late changes nothing).
    channel_booking_id = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)  # noqa: DJ001 (NULL: not a channel booking)
    channel_code = models.CharField(max_length=100, blank=True, help_text=_("The platform's reservation code."))
    channel_commission = models.DecimalField(**MONEY, null=True, blank=True)
    channel_payment_collect = models.CharField(
        max_length=16, blank=True, help_text=_("Who collects the guest's payment: the channel (ota) or the host (property).")
    )
    channel_revision_at = models.DateTimeField(null=True, blank=True, editable=False)
    guest_country = models.CharField(max_length=2, blank=True)
    # Who collects the city tax: "host" (CITY_TAX_BY_HOST), or the platform that collects it from its
    # guest (a Reservation.Source of a channel), fixed when the channel booking arrives by the
    # property's Italian settings (booking/italy/collectors.py); the host's return leaves those out.
    city_tax_collected_by = models.CharField(max_length=16, default=CITY_TAX_BY_HOST, editable=False)
    # A channel booking stored over nights already sold (the platform confirmed it to its guest):
    # left out of the no-overlap constraint so it is never lost; flagged `overbooking` for staff.
    overbooked = models.BooleanField(default=False, editable=False)

    class Meta:
        db_table = "booking_reservation"
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["property", "status", "check_in", "check_out"], name="reservation_calendar"),
            # The hot reads' (booking/selectors.py): only the rows that can take a night, by how far
            # they reach, so a window's query reads the stays still to come, not the whole history.
            models.Index(fields=["property", "check_out", "check_in"], condition=models.Q(status__in=["confirmed", "held"]), name="reservation_taken"),
            models.Index(fields=["client_ip", "status"], name="reservation_client"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(check_out__gt=models.F("check_in")), name="reservation_check_out_after_check_in"),
            models.UniqueConstraint(fields=["number_year", "number_sequence"], name="one_booking_number_per_year_and_sequence"),
        ]
        # Refunding moves money: a permission of its own, apart from editing a reservation.
        permissions = [("refund_reservation", "Can refund a reservation's payment")]

    def __str__(self):
        """How the back office names a stay (lists, titles, links from payments and check-ins): the
        guest, the dates and the status in the reader's language; the id only when no name is known."""
        return f"{self.guest_name or self.id}, {date_format(self.check_in)} → {date_format(self.check_out)} ({self.get_status_display()})"

    @builtins.property
    def nights(self) -> int:
        return (self.check_out - self.check_in).days

    @builtins.property
    def reference(self) -> str:
        """How a person names the stay: its booking number ("FLR-27-0042"), else (a row made
        outside the services) its id."""
        return self.booking_number or self.id

    @builtins.property
    def guest_name(self) -> str:
        return " ".join(p for p in [self.guest_first_name, self.guest_last_name] if p)

    def is_blocking(self, now=None) -> bool:
        """Whether the stay takes its dates now: confirmed, or held and not yet past its expiry."""
        if self.status == self.Status.CONFIRMED:
            return True
        now = now or timezone.now()
        return self.status == self.Status.HELD and self.hold_expires_at is not None and self.hold_expires_at > now


class ReservationEvent(models.Model):
    """The audit trail: every state change of a reservation, who or what made it, and when."""

    reservation = models.ForeignKey(Reservation, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(default=timezone.now)
    from_status = models.CharField(max_length=16, blank=True)
    to_status = models.CharField(max_length=16, blank=True)
    action = models.CharField(max_length=50)
    actor = models.CharField(max_length=150, help_text=_("Who or what made the change: a staff user, 'api', 'stripe webhook', 'expiry job'."))
    note = models.TextField(blank=True)
    # What happened as a code and its parameters (booking/reservations/event_messages.py), so the history reads in
    # the back office's language; `note` keeps the English sentence (rows older than codes: only it).
    message = models.CharField(max_length=50, blank=True)
    params = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "booking_reservationevent"
        ordering = ["at", "id"]

    def __str__(self):
        # The row's name in the history (its columns say what happened and who did, in the reader's words):
        # when, on the property's clock.
        return f"{date_format(timezone.localtime(self.at), 'DATETIME_FORMAT')} {timezone.localtime(self.at):%Z}"


class AttentionFlag(models.Model):
    """Why staff must look at a stay: a code and its parameters (the sentences are
    booking/reservations/event_messages.py MESSAGES, rendered in the reader's language). Several
    may be open on one stay, one per code; services raise and resolve them by code
    (booking/reservations/services/audit.py)."""

    reservation = models.ForeignKey(Reservation, on_delete=models.CASCADE, related_name="attention_flags")
    code = models.CharField(max_length=50)
    params = models.JSONField(default=dict, blank=True)
    raised_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["raised_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["reservation", "code"], condition=models.Q(resolved_at__isnull=True), name="one_open_flag_per_code"),
        ]

    def __str__(self):
        return f"{self.reservation_id} {self.code}"


class DateBlock(models.Model):
    """Nights taken by something other than a reservation: staff blocks and partner (iCal) blocks."""

    class Source(models.TextChoices):
        STAFF = "staff", "Staff"
        PARTNER = "partner", "Listing platform"

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="blocks")
    start = models.DateField(help_text=_("First blocked night."))
    end = models.DateField(help_text=_("The day after the last blocked night (like a check-out day)."))
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.STAFF)
    reason = models.CharField(max_length=300, blank=True)
    # Partner blocks: which feed and which event (UID) they came from, so a moved event moves.
    feed_key = models.CharField(max_length=100, blank=True)
    external_uid = models.CharField(max_length=500, blank=True)
    created_by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "booking_dateblock"
        ordering = ["start"]
        indexes = [
            models.Index(fields=["property", "start", "end"], name="block_calendar"),
            models.Index(fields=["property", "end", "start"], name="block_upcoming"),  # the hot reads': blocks still to come
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(end__gt=models.F("start")), name="block_end_after_start"),
        ]

    def __str__(self):
        return f"{self.get_source_display()} block {self.start}→{self.end}"


class IdempotencyRecord(models.Model):
    """The first answer to a POST sent with an Idempotency-Key, replayed for 24 hours."""

    scope = models.CharField(max_length=100)
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    response_body = models.JSONField(null=True)  # guest email/phone/last name masked as GET shows them
    created_at = models.DateTimeField(default=timezone.now, db_index=True)  # purged after the replay window
    # While in progress: who runs the request and until when its claim holds (renewed while it runs).
    owner = models.CharField(max_length=32, default="", blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # The reservation the request created, written in the same transaction as that reservation.
    created_reservation_id = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001 (NULL: none yet; a column of ids, never text)

    class Meta:
        db_table = "booking_idempotencyrecord"
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="one_answer_per_idempotency_key")]

    def __str__(self):
        return f"{self.scope} {self.key}"


def new_manage_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits; not derived from the reservation id


class Review(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="reviews")
    author = models.CharField(max_length=100)
    rating = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(5)], help_text=_("1 to 5 stars."))
    date = models.DateField()
    text = models.TextField()
    source = models.CharField(max_length=50, default="Direct", help_text=_("Where the review was written, e.g. Airbnb, Booking.com, Direct."))
    published = models.BooleanField(default=True, help_text=_("Shown on the site. A guest's review waits for the owner's approval."))
    # Set when the guest wrote it from their booking link after the stay: a verified stay. Empty for
    # the reviews the owner types in (from the platforms), which the site marks as such.
    reservation = models.OneToOneField("Reservation", null=True, blank=True, on_delete=models.SET_NULL, related_name="review", editable=False)
    language = models.CharField(max_length=8, blank=True, editable=False)

    class Meta:
        db_table = "booking_review"
        ordering = ["-date", "-id"]

    def __str__(self):
        return f"{self.author} ({self.rating}★, {self.date})"

    @builtins.property  # `property` is this model's foreign key
    def verified_stay(self) -> bool:
        return self.reservation_id is not None
