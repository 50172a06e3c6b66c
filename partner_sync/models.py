"""Calendars shared with the listing platforms: the feeds we import, the conflicts they reveal, the
listing page we probe, and the state of the calendar we export.

Only partner_sync's own tables live here. The blocks a feed produces are booking.DateBlock rows,
written through booking.reservations.services.blocks (keyed by `Feed.block_key`).
"""

from django.core.validators import URLValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

HTTP_URL = URLValidator(schemes=["http", "https"])


class SyncOutcome(models.TextChoices):
    """How the last attempt ended; the status page and the admin derive their state from it."""

    IMPORTED = "imported", "Imported"
    NOT_MODIFIED = "not_modified", "Not modified (304)"
    HELD_BACK = "held_back", "Held back: the feed suddenly had no future events"
    FAILED = "failed", "Failed"


class Feed(models.Model):
    """A listing platform's iCal export (Airbnb, Booking.com, …) whose events block our nights."""

    name = models.CharField(max_length=100, help_text=_("Shown in the admin and on the blocks it creates, e.g. Airbnb."))
    url = models.URLField(
        "iCal URL",
        max_length=2000,
        validators=[HTTP_URL],
        help_text=_("The platform's calendar export link (it usually carries a secret token: keep it private)."),
    )
    enabled = models.BooleanField(
        default=True,
        help_text=_("Untick to stop importing this calendar: its blocks are removed and its nights open up for direct stays."),
    )
    # The URL as listed in PARTNER_ICAL_URLS when the feed was seeded from the environment; blank for
    # feeds added in the admin. Seeding looks feeds up by it, so an owner's edit of `url` sticks.
    environment_url = models.CharField(max_length=2000, blank=True, editable=False)

    # Sync state, written only by partner_sync.services (with .update(), so admin edits are never clobbered).
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_outcome = models.CharField(max_length=16, choices=SyncOutcome.choices, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    event_count = models.PositiveIntegerField(_("events"), default=0, help_text=_("Current and future events imported by the last applied fetch."))
    # Validators of the content last applied, sent back as If-None-Match / If-Modified-Since.
    etag = models.CharField(max_length=500, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    # Empty-feed guard: when a feed that had events suddenly has none, the first such fetch is held
    # back and this is set; a second consecutive empty fetch confirms and clears it.
    empty_since = models.DateTimeField(null=True, blank=True)
    # A lease so that the beat, the workers and a pre-checkout refresh never fetch one feed twice at once.
    claimed_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("listing platform calendar")
        constraints = [
            models.UniqueConstraint(
                fields=["environment_url"],
                condition=~models.Q(environment_url=""),
                name="one_feed_per_environment_url",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def block_key(self) -> str:
        """The DateBlock.feed_key of this feed's blocks: stable across renames and URL edits."""
        return f"feed-{self.pk}"

    @property
    def from_environment(self) -> bool:
        return bool(self.environment_url)


class Conflict(models.Model):
    """A partner block overlapping a confirmed direct stay: both bookings are real, staff must act."""

    feed = models.ForeignKey(Feed, on_delete=models.CASCADE, related_name="conflicts")
    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.CASCADE, related_name="partner_conflicts")
    external_uid = models.CharField("event UID", max_length=500)
    start = models.DateField(help_text=_("First night of the platform's booking."))
    end = models.DateField(help_text=_("Its check-out day."))
    first_seen_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the overlap disappeared from the feed (the platform moved or cancelled its booking)."),
    )

    class Meta:
        ordering = ["resolved_at", "start", "id"]
        indexes = [models.Index(fields=["feed", "resolved_at"], name="conflict_open_by_feed")]

    def __str__(self):
        return f"{self.feed} {self.start}→{self.end} overlaps {self.reservation_id}"


class ListingProbe(models.Model):
    """The public listing page on the platform, fetched on a schedule to see that it is still up.

    A single row (pk 1), seeded from PARTNER_LISTING_URL and editable in the admin.
    """

    SINGLETON_PK = 1

    url = models.URLField("listing URL", max_length=2000, blank=True, validators=[HTTP_URL])
    enabled = models.BooleanField(default=True)
    environment_url = models.CharField(max_length=2000, blank=True, editable=False)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True, help_text=_("Time to the response headers."))
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("listing probe")

    def __str__(self):
        return self.url or "Listing probe (no URL)"

    @property
    def configured(self) -> bool:
        return bool(self.url)


class ExportedCalendar(models.Model):
    """When the exported calendar (GET /api/v1/calendar.ics) last changed: its ETag and Last-Modified.

    The content is derived from reservations and blocks, and a removed stay leaves no row behind to
    date its removal, so the export remembers the fingerprint it served and when that changed.
    """

    SINGLETON_PK = 1

    fingerprint = models.CharField(max_length=64)
    changed_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"Calendar export {self.fingerprint[:12]} ({self.changed_at:%Y-%m-%d %H:%M})"


# --- The channel manager (Channex), partner_sync/channex/ ----------------------------------------


def default_channels_collecting_city_tax() -> list[str]:
    """Migration 0002's default (the setting moved to ItalySettings.city_tax_collecting_channels)."""
    return ["airbnb"]


class ChannexConnection(models.Model):
    """The connection to the Channex channel manager: its settings (seeded from CHANNEX_* in the
    environment, then editable in the back office) and the state of the ARI push and the bookings
    feed. A single row (pk 1). Without CHANNEX_API_KEY in the environment the connection is off."""

    SINGLETON_PK = 1

    api_base = models.URLField(_("API base URL"), max_length=300, validators=[HTTP_URL])
    property_id = models.CharField(_("Channex property id"), max_length=64, blank=True)
    room_type_id = models.CharField(_("Channex room type id"), max_length=64, blank=True)
    rate_plan_id = models.CharField(_("Channex rate plan id"), max_length=64, blank=True)
    channel_rate_markup_percent = models.DecimalField(
        _("channel rate markup (%)"),
        max_digits=5,
        decimal_places=2,
        default=0,
        help_text=_("Raise the nightly rate sent to the platforms by this percentage (to cover their commission)."),
    )

    # State, written only by partner_sync.channex (with .update(), so admin edits are never clobbered).
    last_push_at = models.DateTimeField(null=True, blank=True)
    last_full_sync_at = models.DateTimeField(null=True, blank=True)
    last_revision_at = models.DateTimeField(null=True, blank=True, help_text=_("When the last booking revision was applied."))
    last_error = models.CharField(max_length=300, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    failing_since = models.DateTimeField(null=True, blank=True)
    retry_at = models.DateTimeField(null=True, blank=True)
    backoff_seconds = models.PositiveIntegerField(default=0)
    # When the ARI calls went out (ISO instants, newest last): at most one every 6 s, ten a minute.
    availability_calls = models.JSONField(default=list, blank=True)
    restrictions_calls = models.JSONField(default=list, blank=True)
    rules_version_pushed = models.PositiveIntegerField(null=True, blank=True)
    holds_checked_until = models.DateTimeField(null=True, blank=True)
    push_claimed_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("channel manager connection")
        permissions = [("resync_channex", "Can send everything to the channel manager again")]

    def __str__(self):
        return "Channex"


class ChannexDirtyNight(models.Model):
    """A night whose availability or rates must be sent to Channex. Written in the transaction that
    changed it (booking.reservations.calendar_changes); the push reads some rows, sends, and deletes exactly the
    rows it read, so a night marked again meanwhile is sent again."""

    class Kind(models.TextChoices):
        AVAILABILITY = "availability", "Availability"
        RATES = "rates", "Rates and restrictions"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    night = models.DateField()
    marked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["kind", "night"], name="channex_dirty_by_kind")]

    def __str__(self):
        return f"{self.kind} {self.night}"


class ChannexRevision(models.Model):
    """A booking revision received from Channex, stored as seen, applied once (its id is unique),
    acknowledged only after it is stored (and applied, when it can be)."""

    class Outcome(models.TextChoices):
        PENDING = "pending", "Received, not applied yet"
        APPLIED = "applied", "Applied"
        OVERBOOKING = "overbooking", "Applied over nights already sold"
        SUPERSEDED = "superseded", "Nothing to change (older than, or the same as, what is applied)"
        REJECTED = "rejected", "Not applied: see the problem"

    revision_id = models.CharField(max_length=64, unique=True)
    booking_id = models.CharField(max_length=64, blank=True, db_index=True)
    property_id = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=16, blank=True)
    unique_id = models.CharField(max_length=100, blank=True)
    inserted_at = models.DateTimeField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    received_at = models.DateTimeField(default=timezone.now)
    applied_at = models.DateTimeField(null=True, blank=True)
    acked_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    problem = models.CharField(max_length=300, blank=True)
    reservation = models.ForeignKey("reservations.Reservation", on_delete=models.SET_NULL, null=True, blank=True, related_name="channex_revisions")

    class Meta:
        ordering = ["-received_at"]
        verbose_name = _("channel manager booking revision")

    def __str__(self):
        return f"{self.unique_id or self.booking_id} {self.status} ({self.outcome})"
