"""The property the owner sells: its texts, amenities, photos and cancellation tiers."""

import builtins
from datetime import time
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import dates
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from booking.catalog.images import UnreadableImage, open_upright, process_photo

WEEKDAYS = list(dates.WEEKDAYS.items())  # Django's own names, in the reader's language
MONEY = {"max_digits": 10, "decimal_places": 2}


def weekday_list_validator(value):
    if not isinstance(value, list) or any(not isinstance(d, int) or not 0 <= d <= 6 for d in value):
        raise ValidationError("Choose weekdays from Monday to Sunday.")


class Property(models.Model):
    """The rental being sold. One row in practice; everything else hangs off it."""

    # Identity and description
    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True, help_text=_("Used in links; lowercase words joined by hyphens."))
    headline = models.CharField(max_length=300, blank=True, help_text=_("One sentence shown under the name."))
    summary = models.TextField(blank=True, help_text=_("A short paragraph for search results and agents."))
    description = models.TextField(blank=True, help_text=_("The full description. Blank lines start new paragraphs."))
    property_type = models.CharField(max_length=100, default="Apartment")
    # Location
    street_address = models.CharField(max_length=200, blank=True)
    city = models.CharField(max_length=100, blank=True)
    postal_code = models.CharField(max_length=20, blank=True)
    region = models.CharField(max_length=100, blank=True)
    country_code = models.CharField(max_length=2, default="IT", help_text=_("Two letters, e.g. IT."))
    latitude = models.DecimalField(max_digits=9, decimal_places=6, validators=[MinValueValidator(-90), MaxValueValidator(90)])
    longitude = models.DecimalField(max_digits=9, decimal_places=6, validators=[MinValueValidator(-180), MaxValueValidator(180)])
    neighbourhood = models.CharField(max_length=200, blank=True)
    # Capacity
    max_guests = models.PositiveSmallIntegerField(
        default=7, validators=[MinValueValidator(1), MaxValueValidator(50)], help_text=_("Most guests allowed, children included.")
    )
    bedrooms = models.PositiveSmallIntegerField(default=3)
    beds = models.PositiveSmallIntegerField(default=4)
    bathrooms = models.DecimalField(max_digits=3, decimal_places=1, default=Decimal("2"))
    size_sqm = models.PositiveIntegerField(null=True, blank=True, help_text=_("Floor area in square metres."))
    # Arrival and rules
    check_in_from = models.TimeField(default=time(15, 0))
    check_in_until = models.TimeField(default=time(20, 0))
    check_out_until = models.TimeField(default=time(10, 0))
    house_rules = models.TextField(blank=True, help_text=_("One rule per line."))
    national_code = models.CharField(
        "CIN (Codice Identificativo Nazionale)",
        max_length=40,
        blank=True,
        help_text=_("The Italian national identification code of the rental, e.g. IT048017C2XXXXXXXX."),
    )
    # Contact
    host_name = models.CharField(max_length=100, blank=True)
    contact_email = models.EmailField(blank=True)
    contact_phone = models.CharField(max_length=40, blank=True)
    languages = models.CharField(max_length=200, blank=True, help_text=_("Languages the host speaks, comma-separated."))
    # The email a guest gets shortly before arriving
    pre_arrival_days = models.PositiveSmallIntegerField(
        default=3,
        validators=[MaxValueValidator(60)],
        help_text=_("How many days before check-in the guest gets the arrival email (0 = on the day of arrival)."),
    )
    pre_arrival_message = models.TextField(
        blank=True,
        help_text=_("Check-in instructions for the arrival email: how to get in, parking, whom to call. Blank lines start new paragraphs."),
    )
    # Money and calendar rules
    currency = models.CharField(max_length=3, default="EUR", editable=False)
    base_nightly_rate = models.DecimalField(
        **MONEY, validators=[MinValueValidator(0)], help_text=_("Price of one night outside any season, for up to the base occupancy.")
    )
    weekend_nightly_rate = models.DecimalField(
        **MONEY,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        help_text=_("Price of a Friday or Saturday night outside any season. Leave empty to use the base rate."),
    )
    min_nights = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1)], help_text=_("Shortest stay, unless a season or arrival-day rule says otherwise.")
    )
    max_nights = models.PositiveSmallIntegerField(default=30, validators=[MinValueValidator(1)], help_text=_("Longest stay."))
    closed_to_arrival = models.JSONField(default=list, blank=True, validators=[weekday_list_validator], help_text=_("Weekdays on which guests may not arrive."))
    closed_to_departure = models.JSONField(
        default=list, blank=True, validators=[weekday_list_validator], help_text=_("Weekdays on which guests may not leave.")
    )
    base_occupancy = models.PositiveSmallIntegerField(default=4, validators=[MinValueValidator(1)], help_text=_("Guests included in the nightly rate."))
    extra_guest_fee = models.DecimalField(
        **MONEY, default=Decimal("0"), validators=[MinValueValidator(0)], help_text=_("Per extra guest, per night, above the base occupancy.")
    )
    cleaning_fee = models.DecimalField(**MONEY, default=Decimal("0"), validators=[MinValueValidator(0)], help_text=_("Charged once per stay."))
    cleaning_fee_label = models.CharField(max_length=100, default="Final cleaning")
    city_tax_per_person_night = models.DecimalField(
        **MONEY, default=Decimal("3.50"), validators=[MinValueValidator(0)], help_text=_("Tourist tax per guest per night.")
    )
    city_tax_max_nights = models.PositiveSmallIntegerField(
        default=7, validators=[MinValueValidator(1)], help_text=_("The tax is charged for at most this many nights.")
    )
    city_tax_exempt_under_age = models.PositiveSmallIntegerField(
        default=12, help_text=_("Children under this age pay no city tax (when their ages are given at booking).")
    )
    booking_window_days = models.PositiveIntegerField(default=730, validators=[MinValueValidator(1)], help_text=_("How many days ahead guests may arrive."))
    # Receipts (docs/money.md): the host's details printed on every receipt.
    # Booking numbers people read and say ("FLR-27-0042"): booking/reservations/booking_numbers.py.
    booking_number_prefix = models.CharField(
        _("booking number prefix"),
        max_length=6,
        blank=True,
        validators=[RegexValidator(r"^[A-Z0-9]{1,6}$", _("One to six capital letters or digits, e.g. FLR."))],
        help_text=_(
            "Starts every booking number, e.g. FLR in FLR-27-0042. Blank: the city's first letter and next consonants (Bologna: BLG). Changing it changes only new bookings."
        ),
    )
    receipt_host_address = models.TextField(blank=True, help_text=_("The host's (or company's) address as printed on receipts."))
    receipt_tax_code = models.CharField(max_length=40, blank=True, help_text=_("Tax code or VAT number printed on receipts (codice fiscale / partita IVA)."))
    receipt_stamp_duty = models.BooleanField(
        default=False, help_text=_("Print the 2 EUR stamp-duty line on receipts over 77.47 EUR (Italy, art. 13 DPR 642/1972).")
    )
    # Payment terms (docs/money.md): a deposit now and the balance later, and a card hold before arrival.
    deposit_percent = models.PositiveSmallIntegerField(
        default=30,
        validators=[MaxValueValidator(100)],
        help_text=_("Share of the total paid at booking when the arrival is further away than the balance due days; 0 or 100 = pay in full."),
    )
    balance_due_days = models.PositiveSmallIntegerField(
        default=30, validators=[MaxValueValidator(730)], help_text=_("The balance is charged this many days before check-in.")
    )
    balance_grace_days = models.PositiveSmallIntegerField(
        default=5,
        validators=[MaxValueValidator(60)],
        help_text=_("Days a refused balance charge is retried before the stay is flagged for staff and you are emailed."),
    )
    security_deposit = models.DecimalField(
        **MONEY,
        default=Decimal("300"),
        validators=[MinValueValidator(0)],
        help_text=_("Refundable security deposit held on the guest's card before arrival; 0 switches it off."),
    )
    security_deposit_days_before = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(6)], help_text=_("The card hold is placed this many days before check-in.")
    )
    security_deposit_release_days = models.PositiveSmallIntegerField(
        default=3, validators=[MaxValueValidator(6)], help_text=_("The card hold is released this many days after check-out unless you claim from it.")
    )
    # Offers (docs/offers.md): automatic discounts; the best single one applies unless they stack.
    early_bird_days = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Early-bird: bookings at least this many days before arrival..."))
    early_bird_percent = models.DecimalField(
        max_digits=5, decimal_places=2, default=Decimal("0"), validators=[MinValueValidator(0), MaxValueValidator(100)], help_text=_("...get this percent off.")
    )
    last_minute_days = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Last-minute: arrivals at most this many days away..."))
    last_minute_percent = models.DecimalField(
        max_digits=5, decimal_places=2, default=Decimal("0"), validators=[MinValueValidator(0), MaxValueValidator(100)], help_text=_("...get this percent off.")
    )
    gap_nights = models.BooleanField(default=False, help_text=_("Sell a free run of nights between two stays, shorter than the minimum stay, as a whole."))
    gap_nights_percent = models.DecimalField(
        max_digits=5, decimal_places=2, default=Decimal("0"), validators=[MinValueValidator(0), MaxValueValidator(100)], help_text=_("Percent off gap nights.")
    )
    stack_discounts = models.BooleanField(
        default=False, help_text=_("Apply every automatic discount a stay earns, not only the best one. A promo code always adds on top.")
    )
    # Bumped whenever a pricing rule changes, so every process rebuilds its cached rules. Only the
    # bump writes it (booking/catalog/signals.py): see save().
    rules_version = models.PositiveIntegerField(default=1, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "booking_property"
        verbose_name_plural = _("properties")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        """An update never writes rules_version back: an instance loaded before the last bump
        (a second save of the same object, two admin tabs) would otherwise set the version back,
        and the bump after it would give an earlier number to different rules, which every
        process would take for the rules it has cached."""
        if not self._state.adding and not kwargs.get("force_insert") and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [field.name for field in self._meta.concrete_fields if not field.primary_key and field.name != "rules_version"]
        super().save(*args, **kwargs)

    def clean(self):
        if self.max_nights < self.min_nights:
            raise ValidationError({"max_nights": "The longest stay must be at least the shortest stay (minimum nights)."})
        if self.base_occupancy > self.max_guests:
            raise ValidationError({"base_occupancy": "The base occupancy cannot exceed the maximum number of guests."})


class CancellationTier(models.Model):
    """One step of the cancellation policy: cancel at least this many days before arrival (in the
    property's local dates) and get this share back. The city tax is always refunded in full."""

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="cancellation_tiers")
    days_before_arrival = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(730)],
        help_text=_("Cancelling at least this many days before the arrival date (0 = up to arrival)."),
    )
    refund_percent = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(100)],
        help_text=_("Share of the price refunded, 0 to 100 (the city tax always comes back in full)."),
    )

    class Meta:
        db_table = "booking_cancellationtier"
        ordering = ["-days_before_arrival"]
        constraints = [models.UniqueConstraint(fields=["property", "days_before_arrival"], name="one_tier_per_day_count")]

    def __str__(self):
        return ngettext(
            "at least %(days)s day before arrival: %(percent)s %%", "at least %(days)s days before arrival: %(percent)s %%", self.days_before_arrival
        ) % {"days": self.days_before_arrival, "percent": self.refund_percent}


class Amenity(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="amenities")
    name = models.CharField(max_length=100)
    category = models.CharField(max_length=50, blank=True, help_text=_("e.g. Kitchen, Comfort, Outdoor."))
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "booking_amenity"
        ordering = ["position", "id"]
        verbose_name_plural = _("amenities")

    def __str__(self):
        return self.name


class Photo(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="photos")
    image = models.ImageField(upload_to="photos/", blank=True, help_text=_("Upload a photo, or give a static path below."))
    static_path = models.CharField(max_length=200, blank=True, help_text=_("A file under static/, e.g. img/terrace.svg."))
    alt_text = models.CharField(max_length=200, help_text=_("What the photo shows, for screen readers and search engines."))
    caption = models.CharField(max_length=200, blank=True)
    position = models.PositiveSmallIntegerField(default=0)
    # Filled from the upload (booking.catalog.images.process_photo): the upright size of the original and
    # its sized copies, [{"key", "width", "height", "jpeg", "webp"}, …] smallest first.
    width = models.PositiveIntegerField(null=True, blank=True, editable=False)
    height = models.PositiveIntegerField(null=True, blank=True, editable=False)
    renditions = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        db_table = "booking_photo"
        ordering = ["position", "id"]

    def __str__(self):
        return self.alt_text

    def save(self, *args, **kwargs):
        # The sized copies follow the upload, whoever saves the photo (admin, demo loader, shell).
        super().save(*args, **kwargs)
        if process_photo(self):
            super().save(update_fields=["renditions", "width", "height"])

    def clean(self):
        if not self.image and not self.static_path:
            raise ValidationError("Upload an image or give a static path.")
        if self.image and not getattr(self.image, "_committed", True):
            try:
                self.image.seek(0)
                open_upright(self.image.read())
                self.image.seek(0)
            except UnreadableImage as error:
                raise ValidationError({"image": str(error)}) from None

    @builtins.property
    def srcset_jpeg(self) -> str:
        return ", ".join(f"{default_storage.url(r['jpeg'])} {r['width']}w" for r in self.renditions)

    @builtins.property
    def srcset_webp(self) -> str:
        return ", ".join(f"{default_storage.url(r['webp'])} {r['width']}w" for r in self.renditions)

    @builtins.property
    def display_size(self) -> tuple[int, int]:
        """width, height for the img tag (the page reserves the space before the photo loads)."""
        if self.width and self.height:
            return self.width, self.height
        return 1200, 800  # the demo's illustrations

    @builtins.property
    def url(self) -> str:
        """Where the photo is published (API, JSON-LD, pages). For an upload, its largest sized
        copy: the original keeps the camera's EXIF, GPS position included, and is never linked."""
        if self.image and self.renditions:
            return default_storage.url(self.renditions[-1]["jpeg"])
        if self.image:
            return self.image.url
        from django.conf import settings
        from django.templatetags.static import static

        try:
            return static(self.static_path)
        except ValueError:  # not collected yet (a new file before collectstatic): the plain path
            return settings.STATIC_URL + self.static_path
