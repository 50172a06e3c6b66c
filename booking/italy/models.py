"""What running the rental in Italy stores: the owner's Italian settings (with the regional
short-let authorisation and the emergency information), each stay's online check-in (every guest's
identity, the lead guest's document), its police registration, and the safety register."""

import calendar
from datetime import date

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from booking.catalog.models import Property
from booking.reservations.models import Reservation


class ItalySettings(models.Model):
    """The owner's settings for check-in and arrival; the city-tax rate, cap and exemption age stay
    on the property (Property.city_tax_*)."""

    property = models.OneToOneField(Property, on_delete=models.CASCADE, related_name="italy_settings")
    arrival_info_days = models.PositiveSmallIntegerField(
        default=2,
        validators=[MaxValueValidator(30)],
        help_text=_("Arrival instructions are shown and emailed once check-in is complete and arrival is at most this many days away."),
    )
    document_retention_days = models.PositiveSmallIntegerField(
        default=30,
        validators=[MinValueValidator(1), MaxValueValidator(365)],
        help_text=_("Identity documents are erased this many days after check-out (the police receipt is kept)."),
    )
    arrival_instructions = models.TextField(
        blank=True,
        help_text=_("Address details, door and key instructions, Wi-Fi, house rules. Blank lines start new paragraphs."),
    )
    # The regional short-let rules (docs/italy.md, "short-let rules").
    regional_authorisation_number = models.CharField(
        _("regional authorisation number"),
        max_length=60,
        blank=True,
        help_text=_("The number of the regional short-let authorisation of the unit."),
    )
    regional_authorisation_issued = models.DateField(_("regional authorisation issued on"), null=True, blank=True)
    regional_authorisation_expires = models.DateField(
        _("regional authorisation expires on"),
        null=True,
        blank=True,
        help_text=_("The owner is emailed 60 days before this date."),
    )
    # The expiry date the owner was reminded of: one email per expiry date (the claim of the job).
    authorisation_reminder_sent_for = models.DateField(null=True, blank=True, editable=False)
    emergency_info = models.TextField(
        _("emergency information"),
        blank=True,
        help_text=_(
            "Emergency procedures, the 24-hour contact, waste sorting and house conduct. Sent with the arrival instructions and shown on the booking page once check-in is complete. Blank lines start new paragraphs."
        ),
    )
    # The platforms that collect the city tax from their own guests here (Airbnb does in some cities,
    # Booking.com does not): their stays are marked when they arrive (booking/italy/collectors.py).
    city_tax_collecting_channels = models.JSONField(
        _("platforms that collect the city tax"),
        default=list,
        blank=True,
        help_text=_(
            "Their guests pay the city tax to the platform: those stays are left out of what the host owes. Applies to bookings that arrive from now on."
        ),
    )

    class Meta:
        verbose_name = _("Italian settings")
        verbose_name_plural = _("Italian settings")

    def __str__(self):
        return str(_("Italian settings of %(name)s") % {"name": self.property.name})

    @classmethod
    def for_property(cls, prop: Property) -> "ItalySettings":
        settings, _created = cls.objects.get_or_create(property=prop)
        return settings

    @classmethod
    def read(cls, prop: Property) -> "ItalySettings":
        """The settings without writing them (the defaults until the owner saves them)."""
        return cls.objects.filter(property=prop).first() or cls(property=prop)


class CheckIn(models.Model):
    """A stay's online check-in. Created by the first save or by the reminder job; complete once
    every guest of the stay is given (completed_at)."""

    class Party(models.TextChoices):
        FAMILY = "family", _("Family")
        GROUP = "group", _("Group")

    reservation = models.OneToOneField(Reservation, on_delete=models.CASCADE, related_name="online_check_in")
    party = models.CharField(max_length=10, choices=Party.choices, default=Party.FAMILY)
    completed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    documents_erased_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Each guest email goes once: the jobs claim it by a conditional update of these.
    reminder_7_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    reminder_2_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    arrival_info_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A channel booking's guest is sent the check-in link once (booking/italy/channel_checkin.py);
    # the owner is told once of a stay whose guests' identity is still unseen (booking/italy/identity.py).
    invitation_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    identity_alert_sent_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("check-in")

    def __str__(self):
        return str(_("Check-in of %(reservation)s") % {"reservation": self.reservation})

    @property
    def is_complete(self) -> bool:
        return self.completed_at is not None


class VerificationMethod(models.TextChoices):
    IN_PERSON = "in_person", _("In person")
    VIDEO = "video", _("Live video")


class Guest(models.Model):
    """One guest as the law asks for them. Codes are resolved from the official tables when the
    check-in is saved, so a later refresh of the tables does not change a stored guest."""

    class Sex(models.TextChoices):
        MALE = "M", _("Male")
        FEMALE = "F", _("Female")

    class DocumentType(models.TextChoices):
        IDENTITY_CARD = "identity_card", _("Identity card")
        PASSPORT = "passport", _("Passport")
        DRIVING_LICENCE = "driving_licence", _("Driving licence")

    check_in = models.ForeignKey(CheckIn, on_delete=models.CASCADE, related_name="guests")
    position = models.PositiveSmallIntegerField(help_text=_("0 is the lead guest."))
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    sex = models.CharField(max_length=1, choices=Sex.choices)
    date_of_birth = models.DateField()
    citizenship = models.CharField(max_length=2, help_text=_("ISO 3166-1 alpha-2"))
    country_of_birth = models.CharField(max_length=2, help_text=_("ISO 3166-1 alpha-2"))
    comune_of_birth = models.CharField(max_length=100, blank=True)
    province_of_birth = models.CharField(max_length=2, blank=True)
    comune_of_birth_code = models.CharField(max_length=9, blank=True, editable=False)
    # The lead guest's document (blank for the others, and once erased after the stay).
    document_type = models.CharField(max_length=20, choices=DocumentType.choices, blank=True)
    document_number = models.CharField(max_length=20, blank=True)
    document_issued_in = models.CharField(max_length=100, blank=True, help_text=_("A country code, or an Italian comune."))
    document_issued_in_code = models.CharField(max_length=9, blank=True, editable=False)
    # Identity seen by staff (de visu): in person or by a live video at entry. Only a verified guest
    # is sent to the police (booking/italy/police.py).
    identity_method = models.CharField(_("identity verified"), max_length=10, choices=VerificationMethod.choices, blank=True, editable=False)
    identity_verified_at = models.DateTimeField(null=True, blank=True, editable=False)
    identity_verified_by = models.CharField(max_length=150, blank=True, editable=False)

    class Meta:
        ordering = ["check_in", "position"]
        constraints = [models.UniqueConstraint(fields=["check_in", "position"], name="one_guest_per_position")]
        permissions = [
            ("view_guest_documents", "Can see guests' identity documents"),
            ("verify_guest_identity", "Can verify guests' identity and enter a stay's party"),
        ]

    def __str__(self):
        return f"{self.first_name} {self.last_name}"

    @property
    def identity_verified(self) -> dict | None:
        """{"method", "at", "by"} once staff saw the guest's identity, else None."""
        if not self.identity_method or self.identity_verified_at is None:
            return None
        return {"method": self.identity_method, "at": self.identity_verified_at.isoformat(), "by": self.identity_verified_by}


class Arrival(CheckIn):
    """The back office's arrivals screen (booking/italy/admin_arrivals.py): a name in the menu, no table."""

    class Meta:
        proxy = True
        verbose_name = _("arrival")
        verbose_name_plural = _("arrivals")


class PoliceRegistration(models.Model):
    """A stay's records as sent to Alloggiati Web (GenerateToken, Test, then Send), with the
    service's answer, kept after the documents are erased: it is the host's proof."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENT = "sent", _("Sent and accepted")
        FAILED = "failed", _("Failed: send it by hand")

    reservation = models.OneToOneField(Reservation, on_delete=models.CASCADE, related_name="police_registration")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    records = models.PositiveSmallIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    answer = models.JSONField(default=dict, blank=True, help_text=_("What the service answered to Test and Send."))
    last_error = models.CharField(max_length=500, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("police registration")

    def __str__(self):
        return f"{self.reservation}: {self.get_status_display()}"


def add_months(day: date, months: int) -> date:
    """The same day `months` later (the month's last day when it is shorter)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1]))


class SafetyCheck(models.Model):
    """One check of a safety device (DL 145/2023): an extinguisher every 6 months, a gas or CO
    detector every 12 unless the owner sets the interval (the maker's). The next check is due
    `interval_months` after this one; the owner is emailed 14 days before (once per due date)."""

    class Kind(models.TextChoices):
        EXTINGUISHER = "extinguisher", _("Fire extinguisher")
        GAS_DETECTOR = "gas_detector", _("Gas detector")
        CO_DETECTOR = "co_detector", _("Carbon monoxide detector")

    DEFAULT_INTERVAL = {Kind.EXTINGUISHER: 6, Kind.GAS_DETECTOR: 12, Kind.CO_DETECTOR: 12}

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="safety_checks")
    kind = models.CharField(_("device"), max_length=20, choices=Kind.choices)
    location = models.CharField(_("where"), max_length=100, blank=True, help_text=_("Which one, e.g. the kitchen one."))
    checked_on = models.DateField(_("checked on"))
    checked_by = models.CharField(_("checked by"), max_length=150, help_text=_("The person or firm that made the check."))
    interval_months = models.PositiveSmallIntegerField(
        _("interval in months"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
        help_text=_("Blank: 6 months for an extinguisher, 12 for a detector."),
    )
    next_due = models.DateField(_("next check due"), editable=False)
    notes = models.CharField(_("notes"), max_length=300, blank=True)
    # The due date the owner was reminded of: one email per due date (the claim of the job).
    reminder_sent_for = models.DateField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("safety check")
        verbose_name_plural = _("safety register")
        ordering = ["next_due"]

    def __str__(self):
        return f"{self.get_kind_display()} {self.location} ({date_format(self.checked_on)})".replace("  ", " ")

    def save(self, *args, **kwargs):
        self.next_due = add_months(self.checked_on, self.months())
        super().save(*args, **kwargs)

    def months(self) -> int:
        return self.interval_months or self.DEFAULT_INTERVAL[self.Kind(self.kind)]
