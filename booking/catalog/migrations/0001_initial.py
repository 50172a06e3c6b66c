"""The catalog's models, moved from the booking app: their tables (booking_property, …) stay as
they are, so only Django's picture of them changes (no SQL runs)."""

import datetime
from decimal import Decimal

import django.core.validators
import django.db.models.deletion
import django.db.models.functions.text
import django.utils.timezone
from django.db import migrations, models

import booking.catalog.models.property


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("booking", "0038_outboundemail_staff_invitation"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Property",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=200)),
                        ("name_en", models.CharField(max_length=200, null=True)),
                        ("name_it", models.CharField(max_length=200, null=True)),
                        ("name_de", models.CharField(max_length=200, null=True)),
                        ("name_fr", models.CharField(max_length=200, null=True)),
                        ("slug", models.SlugField(help_text="Used in links; lowercase words joined by hyphens.", unique=True)),
                        ("headline", models.CharField(blank=True, help_text="One sentence shown under the name.", max_length=300)),
                        ("headline_en", models.CharField(blank=True, help_text="One sentence shown under the name.", max_length=300, null=True)),
                        ("headline_it", models.CharField(blank=True, help_text="One sentence shown under the name.", max_length=300, null=True)),
                        ("headline_de", models.CharField(blank=True, help_text="One sentence shown under the name.", max_length=300, null=True)),
                        ("headline_fr", models.CharField(blank=True, help_text="One sentence shown under the name.", max_length=300, null=True)),
                        ("summary", models.TextField(blank=True, help_text="A short paragraph for search results and agents.")),
                        ("summary_en", models.TextField(blank=True, help_text="A short paragraph for search results and agents.", null=True)),
                        ("summary_it", models.TextField(blank=True, help_text="A short paragraph for search results and agents.", null=True)),
                        ("summary_de", models.TextField(blank=True, help_text="A short paragraph for search results and agents.", null=True)),
                        ("summary_fr", models.TextField(blank=True, help_text="A short paragraph for search results and agents.", null=True)),
                        ("description", models.TextField(blank=True, help_text="The full description. Blank lines start new paragraphs.")),
                        ("description_en", models.TextField(blank=True, help_text="The full description. Blank lines start new paragraphs.", null=True)),
                        ("description_it", models.TextField(blank=True, help_text="The full description. Blank lines start new paragraphs.", null=True)),
                        ("description_de", models.TextField(blank=True, help_text="The full description. Blank lines start new paragraphs.", null=True)),
                        ("description_fr", models.TextField(blank=True, help_text="The full description. Blank lines start new paragraphs.", null=True)),
                        ("property_type", models.CharField(default="Apartment", max_length=100)),
                        ("property_type_en", models.CharField(default="Apartment", max_length=100, null=True)),
                        ("property_type_it", models.CharField(default="Apartment", max_length=100, null=True)),
                        ("property_type_de", models.CharField(default="Apartment", max_length=100, null=True)),
                        ("property_type_fr", models.CharField(default="Apartment", max_length=100, null=True)),
                        ("street_address", models.CharField(blank=True, max_length=200)),
                        ("city", models.CharField(blank=True, max_length=100)),
                        ("postal_code", models.CharField(blank=True, max_length=20)),
                        ("region", models.CharField(blank=True, max_length=100)),
                        ("country_code", models.CharField(default="IT", help_text="Two letters, e.g. IT.", max_length=2)),
                        (
                            "latitude",
                            models.DecimalField(
                                decimal_places=6,
                                max_digits=9,
                                validators=[django.core.validators.MinValueValidator(-90), django.core.validators.MaxValueValidator(90)],
                            ),
                        ),
                        (
                            "longitude",
                            models.DecimalField(
                                decimal_places=6,
                                max_digits=9,
                                validators=[django.core.validators.MinValueValidator(-180), django.core.validators.MaxValueValidator(180)],
                            ),
                        ),
                        ("neighbourhood", models.CharField(blank=True, max_length=200)),
                        (
                            "max_guests",
                            models.PositiveSmallIntegerField(
                                default=7,
                                help_text="Most guests allowed, children included.",
                                validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(50)],
                            ),
                        ),
                        ("bedrooms", models.PositiveSmallIntegerField(default=3)),
                        ("beds", models.PositiveSmallIntegerField(default=4)),
                        ("bathrooms", models.DecimalField(decimal_places=1, default=Decimal("2"), max_digits=3)),
                        ("size_sqm", models.PositiveIntegerField(blank=True, help_text="Floor area in square metres.", null=True)),
                        ("check_in_from", models.TimeField(default=datetime.time(15, 0))),
                        ("check_in_until", models.TimeField(default=datetime.time(20, 0))),
                        ("check_out_until", models.TimeField(default=datetime.time(10, 0))),
                        ("house_rules", models.TextField(blank=True, help_text="One rule per line.")),
                        ("house_rules_en", models.TextField(blank=True, help_text="One rule per line.", null=True)),
                        ("house_rules_it", models.TextField(blank=True, help_text="One rule per line.", null=True)),
                        ("house_rules_de", models.TextField(blank=True, help_text="One rule per line.", null=True)),
                        ("house_rules_fr", models.TextField(blank=True, help_text="One rule per line.", null=True)),
                        (
                            "national_code",
                            models.CharField(
                                blank=True,
                                help_text="The Italian national identification code of the rental, e.g. IT048017C2XXXXXXXX.",
                                max_length=40,
                                verbose_name="CIN (Codice Identificativo Nazionale)",
                            ),
                        ),
                        ("host_name", models.CharField(blank=True, max_length=100)),
                        ("contact_email", models.EmailField(blank=True, max_length=254)),
                        ("contact_phone", models.CharField(blank=True, max_length=40)),
                        ("languages", models.CharField(blank=True, help_text="Languages the host speaks, comma-separated.", max_length=200)),
                        (
                            "pre_arrival_days",
                            models.PositiveSmallIntegerField(
                                default=3,
                                help_text="How many days before check-in the guest gets the arrival email (0 = on the day of arrival).",
                                validators=[django.core.validators.MaxValueValidator(60)],
                            ),
                        ),
                        (
                            "pre_arrival_message",
                            models.TextField(
                                blank=True,
                                help_text="Check-in instructions for the arrival email: how to get in, parking, whom to call. Blank lines start new paragraphs.",
                            ),
                        ),
                        (
                            "pre_arrival_message_en",
                            models.TextField(
                                blank=True,
                                help_text="Check-in instructions for the arrival email: how to get in, parking, whom to call. Blank lines start new paragraphs.",
                                null=True,
                            ),
                        ),
                        (
                            "pre_arrival_message_it",
                            models.TextField(
                                blank=True,
                                help_text="Check-in instructions for the arrival email: how to get in, parking, whom to call. Blank lines start new paragraphs.",
                                null=True,
                            ),
                        ),
                        (
                            "pre_arrival_message_de",
                            models.TextField(
                                blank=True,
                                help_text="Check-in instructions for the arrival email: how to get in, parking, whom to call. Blank lines start new paragraphs.",
                                null=True,
                            ),
                        ),
                        (
                            "pre_arrival_message_fr",
                            models.TextField(
                                blank=True,
                                help_text="Check-in instructions for the arrival email: how to get in, parking, whom to call. Blank lines start new paragraphs.",
                                null=True,
                            ),
                        ),
                        ("currency", models.CharField(default="EUR", editable=False, max_length=3)),
                        (
                            "base_nightly_rate",
                            models.DecimalField(
                                decimal_places=2,
                                help_text="Price of one night outside any season, for up to the base occupancy.",
                                max_digits=10,
                                validators=[django.core.validators.MinValueValidator(0)],
                            ),
                        ),
                        (
                            "weekend_nightly_rate",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                help_text="Price of a Friday or Saturday night outside any season. Leave empty to use the base rate.",
                                max_digits=10,
                                null=True,
                                validators=[django.core.validators.MinValueValidator(0)],
                            ),
                        ),
                        (
                            "min_nights",
                            models.PositiveSmallIntegerField(
                                default=2,
                                help_text="Shortest stay, unless a season or arrival-day rule says otherwise.",
                                validators=[django.core.validators.MinValueValidator(1)],
                            ),
                        ),
                        (
                            "max_nights",
                            models.PositiveSmallIntegerField(default=30, help_text="Longest stay.", validators=[django.core.validators.MinValueValidator(1)]),
                        ),
                        (
                            "closed_to_arrival",
                            models.JSONField(
                                blank=True,
                                default=list,
                                help_text="Weekdays on which guests may not arrive.",
                                validators=[booking.catalog.models.property.weekday_list_validator],
                            ),
                        ),
                        (
                            "closed_to_departure",
                            models.JSONField(
                                blank=True,
                                default=list,
                                help_text="Weekdays on which guests may not leave.",
                                validators=[booking.catalog.models.property.weekday_list_validator],
                            ),
                        ),
                        (
                            "base_occupancy",
                            models.PositiveSmallIntegerField(
                                default=4, help_text="Guests included in the nightly rate.", validators=[django.core.validators.MinValueValidator(1)]
                            ),
                        ),
                        (
                            "extra_guest_fee",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("0"),
                                help_text="Per extra guest, per night, above the base occupancy.",
                                max_digits=10,
                                validators=[django.core.validators.MinValueValidator(0)],
                            ),
                        ),
                        (
                            "cleaning_fee",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("0"),
                                help_text="Charged once per stay.",
                                max_digits=10,
                                validators=[django.core.validators.MinValueValidator(0)],
                            ),
                        ),
                        ("cleaning_fee_label", models.CharField(default="Final cleaning", max_length=100)),
                        ("cleaning_fee_label_en", models.CharField(default="Final cleaning", max_length=100, null=True)),
                        ("cleaning_fee_label_it", models.CharField(default="Final cleaning", max_length=100, null=True)),
                        ("cleaning_fee_label_de", models.CharField(default="Final cleaning", max_length=100, null=True)),
                        ("cleaning_fee_label_fr", models.CharField(default="Final cleaning", max_length=100, null=True)),
                        (
                            "city_tax_per_person_night",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("3.50"),
                                help_text="Tourist tax per guest per night.",
                                max_digits=10,
                                validators=[django.core.validators.MinValueValidator(0)],
                            ),
                        ),
                        (
                            "city_tax_max_nights",
                            models.PositiveSmallIntegerField(
                                default=7,
                                help_text="The tax is charged for at most this many nights.",
                                validators=[django.core.validators.MinValueValidator(1)],
                            ),
                        ),
                        (
                            "city_tax_exempt_under_age",
                            models.PositiveSmallIntegerField(
                                default=12, help_text="Children under this age pay no city tax (when their ages are given at booking)."
                            ),
                        ),
                        (
                            "booking_window_days",
                            models.PositiveIntegerField(
                                default=730, help_text="How many days ahead guests may arrive.", validators=[django.core.validators.MinValueValidator(1)]
                            ),
                        ),
                        ("receipt_host_address", models.TextField(blank=True, help_text="The host's (or company's) address as printed on receipts.")),
                        (
                            "receipt_tax_code",
                            models.CharField(blank=True, help_text="Tax code or VAT number printed on receipts (codice fiscale / partita IVA).", max_length=40),
                        ),
                        (
                            "receipt_stamp_duty",
                            models.BooleanField(
                                default=False, help_text="Print the 2 EUR stamp-duty line on receipts over 77.47 EUR (Italy, art. 13 DPR 642/1972)."
                            ),
                        ),
                        (
                            "deposit_percent",
                            models.PositiveSmallIntegerField(
                                default=30,
                                help_text="Share of the total paid at booking when the arrival is further away than the balance due days; 0 or 100 = pay in full.",
                                validators=[django.core.validators.MaxValueValidator(100)],
                            ),
                        ),
                        (
                            "balance_due_days",
                            models.PositiveSmallIntegerField(
                                default=30,
                                help_text="The balance is charged this many days before check-in.",
                                validators=[django.core.validators.MaxValueValidator(730)],
                            ),
                        ),
                        (
                            "balance_grace_days",
                            models.PositiveSmallIntegerField(
                                default=5,
                                help_text="Days a refused balance charge is retried before the stay is flagged for staff and you are emailed.",
                                validators=[django.core.validators.MaxValueValidator(60)],
                            ),
                        ),
                        (
                            "security_deposit",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("300"),
                                help_text="Refundable security deposit held on the guest's card before arrival; 0 switches it off.",
                                max_digits=10,
                                validators=[django.core.validators.MinValueValidator(0)],
                            ),
                        ),
                        (
                            "security_deposit_days_before",
                            models.PositiveSmallIntegerField(
                                default=1,
                                help_text="The card hold is placed this many days before check-in.",
                                validators=[django.core.validators.MaxValueValidator(6)],
                            ),
                        ),
                        (
                            "security_deposit_release_days",
                            models.PositiveSmallIntegerField(
                                default=3,
                                help_text="The card hold is released this many days after check-out unless you claim from it.",
                                validators=[django.core.validators.MaxValueValidator(6)],
                            ),
                        ),
                        (
                            "early_bird_days",
                            models.PositiveSmallIntegerField(blank=True, help_text="Early-bird: bookings at least this many days before arrival...", null=True),
                        ),
                        (
                            "early_bird_percent",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("0"),
                                help_text="...get this percent off.",
                                max_digits=5,
                                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100)],
                            ),
                        ),
                        (
                            "last_minute_days",
                            models.PositiveSmallIntegerField(blank=True, help_text="Last-minute: arrivals at most this many days away...", null=True),
                        ),
                        (
                            "last_minute_percent",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("0"),
                                help_text="...get this percent off.",
                                max_digits=5,
                                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100)],
                            ),
                        ),
                        (
                            "gap_nights",
                            models.BooleanField(
                                default=False, help_text="Sell a free run of nights between two stays, shorter than the minimum stay, as a whole."
                            ),
                        ),
                        (
                            "gap_nights_percent",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("0"),
                                help_text="Percent off gap nights.",
                                max_digits=5,
                                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100)],
                            ),
                        ),
                        (
                            "stack_discounts",
                            models.BooleanField(
                                default=False, help_text="Apply every automatic discount a stay earns, not only the best one. A promo code always adds on top."
                            ),
                        ),
                        ("rules_version", models.PositiveIntegerField(default=1, editable=False)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        "verbose_name_plural": "properties",
                        "db_table": "booking_property",
                    },
                ),
                migrations.CreateModel(
                    name="Photo",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("image", models.ImageField(blank=True, help_text="Upload a photo, or give a static path below.", upload_to="photos/")),
                        ("static_path", models.CharField(blank=True, help_text="A file under static/, e.g. img/terrace.svg.", max_length=200)),
                        ("alt_text", models.CharField(help_text="What the photo shows, for screen readers and search engines.", max_length=200)),
                        ("alt_text_en", models.CharField(help_text="What the photo shows, for screen readers and search engines.", max_length=200, null=True)),
                        ("alt_text_it", models.CharField(help_text="What the photo shows, for screen readers and search engines.", max_length=200, null=True)),
                        ("alt_text_de", models.CharField(help_text="What the photo shows, for screen readers and search engines.", max_length=200, null=True)),
                        ("alt_text_fr", models.CharField(help_text="What the photo shows, for screen readers and search engines.", max_length=200, null=True)),
                        ("caption", models.CharField(blank=True, max_length=200)),
                        ("caption_en", models.CharField(blank=True, max_length=200, null=True)),
                        ("caption_it", models.CharField(blank=True, max_length=200, null=True)),
                        ("caption_de", models.CharField(blank=True, max_length=200, null=True)),
                        ("caption_fr", models.CharField(blank=True, max_length=200, null=True)),
                        ("position", models.PositiveSmallIntegerField(default=0)),
                        ("width", models.PositiveIntegerField(blank=True, editable=False, null=True)),
                        ("height", models.PositiveIntegerField(blank=True, editable=False, null=True)),
                        ("renditions", models.JSONField(blank=True, default=list, editable=False)),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="photos", to="catalog.property")),
                    ],
                    options={
                        "db_table": "booking_photo",
                        "ordering": ["position", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="Amenity",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=100)),
                        ("name_en", models.CharField(max_length=100, null=True)),
                        ("name_it", models.CharField(max_length=100, null=True)),
                        ("name_de", models.CharField(max_length=100, null=True)),
                        ("name_fr", models.CharField(max_length=100, null=True)),
                        ("category", models.CharField(blank=True, help_text="e.g. Kitchen, Comfort, Outdoor.", max_length=50)),
                        ("category_en", models.CharField(blank=True, help_text="e.g. Kitchen, Comfort, Outdoor.", max_length=50, null=True)),
                        ("category_it", models.CharField(blank=True, help_text="e.g. Kitchen, Comfort, Outdoor.", max_length=50, null=True)),
                        ("category_de", models.CharField(blank=True, help_text="e.g. Kitchen, Comfort, Outdoor.", max_length=50, null=True)),
                        ("category_fr", models.CharField(blank=True, help_text="e.g. Kitchen, Comfort, Outdoor.", max_length=50, null=True)),
                        ("position", models.PositiveSmallIntegerField(default=0)),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="amenities", to="catalog.property")),
                    ],
                    options={
                        "verbose_name_plural": "amenities",
                        "db_table": "booking_amenity",
                        "ordering": ["position", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="Season",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=100)),
                        ("start_date", models.DateField(help_text="First night of the season.")),
                        ("end_date", models.DateField(help_text="Last night of the season (inclusive).")),
                        ("recurring", models.BooleanField(default=True, help_text="Repeat every year on the same days (the year of the dates is ignored).")),
                        ("nightly_rate", models.DecimalField(decimal_places=2, max_digits=10, validators=[django.core.validators.MinValueValidator(0)])),
                        (
                            "weekend_nightly_rate",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                help_text="Friday and Saturday nights. Empty: the season's nightly rate.",
                                max_digits=10,
                                null=True,
                                validators=[django.core.validators.MinValueValidator(0)],
                            ),
                        ),
                        (
                            "min_nights",
                            models.PositiveSmallIntegerField(
                                blank=True,
                                help_text="Shortest stay for arrivals in this season. Empty: the property's minimum.",
                                null=True,
                                validators=[django.core.validators.MinValueValidator(1)],
                            ),
                        ),
                        ("priority", models.SmallIntegerField(default=0, help_text="Where seasons overlap, the higher priority wins.")),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="seasons", to="catalog.property")),
                    ],
                    options={
                        "db_table": "booking_season",
                        "ordering": ["-priority", "start_date"],
                    },
                ),
                migrations.CreateModel(
                    name="PromoCode",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "code",
                            models.CharField(
                                help_text="What the guest types; capitals or not, it is the same code.",
                                max_length=40,
                                validators=[django.core.validators.RegexValidator("^[A-Za-z0-9_-]+$", "Letters, digits, hyphens and underscores only.")],
                            ),
                        ),
                        (
                            "percent",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                help_text="Percent off the accommodation. Fill this or the fixed amount.",
                                max_digits=5,
                                null=True,
                                validators=[django.core.validators.MinValueValidator(Decimal("0.01")), django.core.validators.MaxValueValidator(100)],
                            ),
                        ),
                        (
                            "amount",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                help_text="A fixed amount off the accommodation.",
                                max_digits=10,
                                null=True,
                                validators=[django.core.validators.MinValueValidator(Decimal("0.01"))],
                            ),
                        ),
                        ("bookable_from", models.DateField(blank=True, help_text="First day the code can be used to book.", null=True)),
                        ("bookable_until", models.DateField(blank=True, help_text="Last day the code can be used to book.", null=True)),
                        ("stay_from", models.DateField(blank=True, help_text="First night the code may cover.", null=True)),
                        ("stay_until", models.DateField(blank=True, help_text="Last night the code may cover.", null=True)),
                        (
                            "min_nights",
                            models.PositiveSmallIntegerField(
                                default=1, help_text="Shortest stay the code applies to.", validators=[django.core.validators.MinValueValidator(1)]
                            ),
                        ),
                        (
                            "max_uses",
                            models.PositiveIntegerField(
                                blank=True,
                                help_text="How many confirmed stays may use it. Empty: no limit.",
                                null=True,
                                validators=[django.core.validators.MinValueValidator(1)],
                            ),
                        ),
                        ("active", models.BooleanField(default=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="promo_codes", to="catalog.property")),
                    ],
                    options={
                        "verbose_name": "promo code",
                        "verbose_name_plural": "promo codes",
                        "db_table": "booking_promocode",
                        "ordering": ["code"],
                        "constraints": [
                            models.UniqueConstraint(django.db.models.functions.text.Upper("code"), models.F("property"), name="one_promo_code_per_spelling"),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(("amount__isnull", False), ("percent__isnull", True)),
                                    models.Q(("amount__isnull", True), ("percent__isnull", False)),
                                    _connector="OR",
                                ),
                                name="promo_code_percent_or_amount",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="NightRate",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("night", models.DateField()),
                        (
                            "nightly_rate",
                            models.DecimalField(
                                blank=True, decimal_places=2, max_digits=10, null=True, validators=[django.core.validators.MinValueValidator(0)]
                            ),
                        ),
                        (
                            "min_nights",
                            models.PositiveSmallIntegerField(
                                blank=True,
                                help_text="Shortest stay for arrivals on this night.",
                                null=True,
                                validators=[django.core.validators.MinValueValidator(1)],
                            ),
                        ),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="night_rates", to="catalog.property")),
                    ],
                    options={
                        "verbose_name": "rate calendar night",
                        "db_table": "booking_nightrate",
                        "ordering": ["night"],
                        "constraints": [models.UniqueConstraint(fields=("property", "night"), name="one_rate_calendar_entry_per_night")],
                    },
                ),
                migrations.CreateModel(
                    name="LengthOfStayDiscount",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("label", models.CharField(help_text="Shown to the guest, e.g. Weekly discount.", max_length=100)),
                        ("label_en", models.CharField(help_text="Shown to the guest, e.g. Weekly discount.", max_length=100, null=True)),
                        ("label_it", models.CharField(help_text="Shown to the guest, e.g. Weekly discount.", max_length=100, null=True)),
                        ("label_de", models.CharField(help_text="Shown to the guest, e.g. Weekly discount.", max_length=100, null=True)),
                        ("label_fr", models.CharField(help_text="Shown to the guest, e.g. Weekly discount.", max_length=100, null=True)),
                        ("min_nights", models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(2)])),
                        (
                            "percent",
                            models.DecimalField(
                                decimal_places=2,
                                max_digits=5,
                                validators=[django.core.validators.MinValueValidator(Decimal("0.01")), django.core.validators.MaxValueValidator(100)],
                            ),
                        ),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="discounts", to="catalog.property")),
                    ],
                    options={
                        "db_table": "booking_lengthofstaydiscount",
                        "ordering": ["min_nights"],
                        "constraints": [models.UniqueConstraint(fields=("property", "min_nights"), name="one_discount_per_length")],
                    },
                ),
                migrations.CreateModel(
                    name="Extra",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("code", models.SlugField(help_text="Agents and the API name the extra by this, e.g. airport_transfer.", max_length=40)),
                        ("name", models.CharField(help_text="Shown to the guest, e.g. Airport transfer.", max_length=100)),
                        ("name_en", models.CharField(help_text="Shown to the guest, e.g. Airport transfer.", max_length=100, null=True)),
                        ("name_it", models.CharField(help_text="Shown to the guest, e.g. Airport transfer.", max_length=100, null=True)),
                        ("name_de", models.CharField(help_text="Shown to the guest, e.g. Airport transfer.", max_length=100, null=True)),
                        ("name_fr", models.CharField(help_text="Shown to the guest, e.g. Airport transfer.", max_length=100, null=True)),
                        ("price", models.DecimalField(decimal_places=2, max_digits=10, validators=[django.core.validators.MinValueValidator(0)])),
                        (
                            "per",
                            models.CharField(
                                choices=[("stay", "per stay"), ("night", "per night"), ("guest", "per guest"), ("guest_night", "per guest per night")],
                                default="stay",
                                max_length=12,
                            ),
                        ),
                        (
                            "max_quantity",
                            models.PositiveSmallIntegerField(
                                default=1, help_text="Most a guest may choose.", validators=[django.core.validators.MinValueValidator(1)]
                            ),
                        ),
                        ("notice_days", models.PositiveSmallIntegerField(default=0, help_text="Days before arrival by which it must be booked (0: any time).")),
                        ("active", models.BooleanField(default=True)),
                        ("position", models.PositiveSmallIntegerField(default=0)),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="extras", to="catalog.property")),
                    ],
                    options={
                        "verbose_name": "extra",
                        "verbose_name_plural": "extras",
                        "db_table": "booking_extra",
                        "ordering": ["position", "code"],
                        "constraints": [models.UniqueConstraint(fields=("property", "code"), name="one_extra_per_code")],
                    },
                ),
                migrations.CreateModel(
                    name="DisplayCurrency",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "code",
                            models.CharField(
                                max_length=3, validators=[django.core.validators.RegexValidator("^[A-Z]{3}$", "Three capital letters, e.g. USD.")]
                            ),
                        ),
                        (
                            "rate",
                            models.DecimalField(
                                decimal_places=6,
                                help_text="Units of this currency per 1 unit of the property's currency.",
                                max_digits=12,
                                validators=[django.core.validators.MinValueValidator(Decimal("0.000001"))],
                            ),
                        ),
                        ("enabled", models.BooleanField(default=True)),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="display_currencies", to="catalog.property")),
                    ],
                    options={
                        "verbose_name_plural": "display currencies",
                        "db_table": "booking_displaycurrency",
                        "ordering": ["code"],
                        "constraints": [models.UniqueConstraint(fields=("property", "code"), name="one_rate_per_currency")],
                    },
                ),
                migrations.CreateModel(
                    name="CancellationTier",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "days_before_arrival",
                            models.PositiveSmallIntegerField(
                                help_text="Cancelling at least this many days before the arrival date (0 = up to arrival).",
                                validators=[django.core.validators.MaxValueValidator(730)],
                            ),
                        ),
                        (
                            "refund_percent",
                            models.PositiveSmallIntegerField(
                                help_text="Share of the price refunded, 0 to 100 (the city tax always comes back in full).",
                                validators=[django.core.validators.MaxValueValidator(100)],
                            ),
                        ),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="cancellation_tiers", to="catalog.property")),
                    ],
                    options={
                        "db_table": "booking_cancellationtier",
                        "ordering": ["-days_before_arrival"],
                        "constraints": [models.UniqueConstraint(fields=("property", "days_before_arrival"), name="one_tier_per_day_count")],
                    },
                ),
                migrations.CreateModel(
                    name="ArrivalDayMinimum",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "weekday",
                            models.PositiveSmallIntegerField(
                                choices=[(0, "Monday"), (1, "Tuesday"), (2, "Wednesday"), (3, "Thursday"), (4, "Friday"), (5, "Saturday"), (6, "Sunday")]
                            ),
                        ),
                        ("min_nights", models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1)])),
                        (
                            "property",
                            models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="arrival_day_minimums", to="catalog.property"),
                        ),
                    ],
                    options={
                        "verbose_name": "minimum stay by arrival day",
                        "verbose_name_plural": "minimum stays by arrival day",
                        "db_table": "booking_arrivaldayminimum",
                        "constraints": [models.UniqueConstraint(fields=("property", "weekday"), name="one_minimum_per_arrival_day")],
                    },
                ),
            ],
        ),
    ]
