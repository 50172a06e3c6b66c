"""The property the owner sells, its pricing rules, and the reservations and blocks on its calendar.

Pricing rules live in the database so the owner can edit them in the admin; `booking/rules.py` turns
them into the frozen dataclasses that the pure pricing engine (`booking/pricing.py`) reads.
"""

import builtins
import secrets
from datetime import time
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import dates, timezone
from django.utils.translation import gettext_lazy as _

from booking.images import UnreadableImage, open_upright, process_photo

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
    # bump writes it (booking/signals.py): see save().
    rules_version = models.PositiveIntegerField(default=1, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
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
        ordering = ["-days_before_arrival"]
        constraints = [models.UniqueConstraint(fields=["property", "days_before_arrival"], name="one_tier_per_day_count")]

    def __str__(self):
        return f"at least {self.days_before_arrival} days before arrival: {self.refund_percent} %"


class Amenity(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="amenities")
    name = models.CharField(max_length=100)
    category = models.CharField(max_length=50, blank=True, help_text=_("e.g. Kitchen, Comfort, Outdoor."))
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
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
    # Filled from the upload (booking.images.process_photo): the upright size of the original and
    # its sized copies, [{"key", "width", "height", "jpeg", "webp"}, …] smallest first.
    width = models.PositiveIntegerField(null=True, blank=True, editable=False)
    height = models.PositiveIntegerField(null=True, blank=True, editable=False)
    renditions = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
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
        ordering = ["-date", "-id"]

    def __str__(self):
        return f"{self.author} ({self.rating}★, {self.date})"

    @builtins.property  # `property` is this model's foreign key
    def verified_stay(self) -> bool:
        return self.reservation_id is not None


class Season(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    start_date = models.DateField(help_text=_("First night of the season."))
    end_date = models.DateField(help_text=_("Last night of the season (inclusive)."))
    recurring = models.BooleanField(default=True, help_text=_("Repeat every year on the same days (the year of the dates is ignored)."))
    nightly_rate = models.DecimalField(**MONEY, validators=[MinValueValidator(0)])
    weekend_nightly_rate = models.DecimalField(
        **MONEY, null=True, blank=True, validators=[MinValueValidator(0)], help_text=_("Friday and Saturday nights. Empty: the season's nightly rate.")
    )
    min_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text=_("Shortest stay for arrivals in this season. Empty: the property's minimum.")
    )
    priority = models.SmallIntegerField(default=0, help_text=_("Where seasons overlap, the higher priority wins."))

    class Meta:
        ordering = ["-priority", "start_date"]

    def __str__(self):
        return self.name

    def clean(self):
        if self.start_date and self.end_date and not self.recurring and self.end_date < self.start_date:
            raise ValidationError({"end_date": "The last night must not be before the first night."})
        if self.start_date and self.end_date and self.recurring and (self.end_date - self.start_date).days > 366:
            raise ValidationError({"end_date": "A yearly season cannot be longer than a year."})


class NightRate(models.Model):
    """A price or a minimum stay the owner set for one night in the rate calendar. It wins over the
    seasons and the base rates for that night; an empty field leaves that rule to them."""

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="night_rates")
    night = models.DateField()
    nightly_rate = models.DecimalField(**MONEY, null=True, blank=True, validators=[MinValueValidator(0)])
    min_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text=_("Shortest stay for arrivals on this night.")
    )

    class Meta:
        ordering = ["night"]
        constraints = [models.UniqueConstraint(fields=["property", "night"], name="one_rate_calendar_entry_per_night")]
        verbose_name = _("rate calendar night")

    def __str__(self):
        return f"{self.night}: {self.nightly_rate if self.nightly_rate is not None else '-'} / min {self.min_nights or '-'}"


class ArrivalDayMinimum(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="arrival_day_minimums")
    weekday = models.PositiveSmallIntegerField(choices=WEEKDAYS)
    min_nights = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        constraints = [models.UniqueConstraint(fields=["property", "weekday"], name="one_minimum_per_arrival_day")]
        verbose_name = _("minimum stay by arrival day")
        verbose_name_plural = _("minimum stays by arrival day")

    def __str__(self):
        return f"{self.get_weekday_display()}: {self.min_nights} nights"


class LengthOfStayDiscount(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="discounts")
    label = models.CharField(max_length=100, help_text=_("Shown to the guest, e.g. Weekly discount."))
    min_nights = models.PositiveSmallIntegerField(validators=[MinValueValidator(2)])
    percent = models.DecimalField(max_digits=5, decimal_places=2, validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(100)])

    class Meta:
        ordering = ["min_nights"]
        constraints = [models.UniqueConstraint(fields=["property", "min_nights"], name="one_discount_per_length")]

    def __str__(self):
        return f"{self.label}: {self.percent}% from {self.min_nights} nights"


class DisplayCurrency(models.Model):
    """A currency a quote may be shown in. The property's currency is what is charged."""

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="display_currencies")
    code = models.CharField(max_length=3, validators=[RegexValidator(r"^[A-Z]{3}$", "Three capital letters, e.g. USD.")])
    rate = models.DecimalField(
        max_digits=12,
        decimal_places=6,
        validators=[MinValueValidator(Decimal("0.000001"))],
        help_text=_("Units of this currency per 1 unit of the property's currency."),
    )
    enabled = models.BooleanField(default=True)

    class Meta:
        ordering = ["code"]
        constraints = [models.UniqueConstraint(fields=["property", "code"], name="one_rate_per_currency")]
        verbose_name_plural = _("display currencies")

    def __str__(self):
        return f"{self.code} @ {self.rate}"


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
    special_requests = models.TextField(blank=True)
    # The code the stay was priced with (its discount and extras are in price_breakdown).
    promo_code = models.ForeignKey("booking.PromoCode", on_delete=models.PROTECT, null=True, blank=True, related_name="reservations")
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
    # When the guest pays (booking/payment_schedule.py), fixed when the stay is held: [{"type", "amount", "due_date"}].
    payment_schedule = models.JSONField(default=list, blank=True, editable=False)
    # The cancellation tiers, deposit, balance and security deposit terms in force when the stay was
    # held (booking/accepted_terms.py): later edits of the policy change only new bookings.
    accepted_terms = models.JSONField(default=dict, blank=True, editable=False)
    amount_paid = models.DecimalField(**MONEY, default=Decimal("0"))
    amount_refunded = models.DecimalField(**MONEY, default=Decimal("0"))
    payment_intent_id = models.CharField(max_length=255, blank=True)
    needs_attention = models.CharField(max_length=300, blank=True, help_text=_("Set when staff must act, e.g. a late payment for dates taken meanwhile."))
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
    # An unpaid hold's one reminder (booking/services/hold_reminders.py): the address the guest gave
    # on /book with the box ticked (only then), and when the reminder was claimed (at most once).
    reminder_email = models.EmailField(blank=True, editable=False)
    reminder_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A booking made on a listing platform (source booking_com, airbnb, …), as the channel manager
    # sent it (booking/services/channel_bookings.py): its booking id there, the platform's own code,
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
    # Who collects the city tax: blank, the host; else the channel that does (a Reservation.Source
    # of a platform; which platforms collect it is a setting of the channel manager's connection).
    city_tax_collected_by = models.CharField(max_length=16, blank=True)
    # A channel booking stored over nights already sold (the platform confirmed it to its guest):
    # left out of the no-overlap constraint so it is never lost; flagged `overbooking` for staff.
    overbooked = models.BooleanField(default=False, editable=False)

    class Meta:
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
        ]
        # Refunding moves money: a permission of its own, apart from editing a reservation.
        permissions = [("refund_reservation", "Can refund a reservation's payment")]

    def __str__(self):
        return f"{self.id} {self.check_in}→{self.check_out} ({self.status})"

    @builtins.property
    def nights(self) -> int:
        return (self.check_out - self.check_in).days

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
    # What happened as a code and its parameters (booking/event_messages.py), so the history reads in
    # the back office's language; `note` keeps the English sentence (rows older than codes: only it).
    message = models.CharField(max_length=50, blank=True)
    params = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self):
        return f"{timezone.localtime(self.at):%Y-%m-%d %H:%M %Z} {self.action} by {self.actor}"  # the property's clock


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
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="one_answer_per_idempotency_key")]

    def __str__(self):
        return f"{self.scope} {self.key}"


def new_manage_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits; not derived from the reservation id


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
        PAYMENT_LINK = "payment_link", "Payment link (booked by the owner)"
        HOLD_REMINDER = "hold_reminder", "Reminder of an unfinished booking"
        DATES_CHANGED = "dates_changed", "Dates changed"
        DEPOSIT_AUTHORISATION_NEEDED = "deposit_auth_needed", "Security deposit hold refused, link to authorise"
        STAFF_INVITATION = "staff_invitation", "Invitation to the back office"

    # Written from the stay when sent; the others are written when queued (subject, body on the row).
    STAY_KINDS = (Kind.CONFIRMATION, Kind.CANCELLATION, Kind.REFUND, Kind.PRE_ARRIVAL, Kind.REVIEW_REQUEST)
    # Only true of a confirmed stay: still owed when the stay is cancelled, they are dropped, not sent
    # (a door code or a "see you soon" after the cancellation email would contradict it).
    ONLY_WHILE_CONFIRMED = (Kind.CONFIRMATION, Kind.PRE_ARRIVAL, Kind.REVIEW_REQUEST, Kind.CHECK_IN_REMINDER_7, Kind.CHECK_IN_REMINDER_2, Kind.ARRIVAL_INFO)

    class Recipient(models.TextChoices):
        GUEST = "guest", "Guest"
        OWNER = "owner", "Owner"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENT = "sent", "Sent"
        # The server got the whole message but never confirmed it: maybe delivered, never resent.
        UNCONFIRMED = "unconfirmed", "Sent, unconfirmed (not resent)"
        GAVE_UP = "gave_up", "Not sent (gave up)"

    reservation = models.ForeignKey(Reservation, on_delete=models.CASCADE, related_name="emails", null=True, blank=True)
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
        return f"{self.get_kind_display()} to the {self.recipient} ({self.status})"


class OwnerAlert(models.Model):
    """A problem the owner was emailed about on a given day (the property's local date): at most one
    email per problem per day, however often a job sees it. The unique pair is the claim, so two
    workers noticing the same problem at once send one email."""

    problem = models.CharField(max_length=200)
    day = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["problem", "day"], name="one_owner_alert_per_problem_per_day")]

    def __str__(self):
        return f"{self.problem} ({self.day})"


# The payment records live beside the payment code; imported here so Django registers them.
from booking.models_offers import Extra, PromoCode  # noqa: E402, F401  (models of this app, kept in their own module)
from booking.payments.models import PaymentEvent, ProviderRefund, SandboxCheckout  # noqa: E402, F401
from booking.payments.payment_models import BalanceAttempt, GuestCheckout, Payment, Receipt, SecurityDeposit  # noqa: E402, F401
