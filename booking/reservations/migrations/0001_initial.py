"""The reservations' models, moved from the booking app: their tables stay as they are, so only
Django's picture of them changes (no SQL runs)."""

from decimal import Decimal

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

import booking.reservations.models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("catalog", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="IdempotencyRecord",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("scope", models.CharField(max_length=100)),
                        ("key", models.CharField(max_length=255)),
                        ("request_hash", models.CharField(max_length=64)),
                        ("status_code", models.PositiveSmallIntegerField(null=True)),
                        ("response_body", models.JSONField(null=True)),
                        ("created_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                        ("owner", models.CharField(blank=True, default="", max_length=32)),
                        ("lease_expires_at", models.DateTimeField(blank=True, null=True)),
                        ("created_reservation_id", models.CharField(blank=True, max_length=40, null=True)),
                    ],
                    options={
                        "db_table": "booking_idempotencyrecord",
                        "constraints": [models.UniqueConstraint(fields=("scope", "key"), name="one_answer_per_idempotency_key")],
                    },
                ),
                migrations.CreateModel(
                    name="Reservation",
                    fields=[
                        (
                            "id",
                            models.CharField(
                                default=booking.reservations.models.new_reservation_id, editable=False, max_length=40, primary_key=True, serialize=False
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[("held", "Held (awaiting payment)"), ("confirmed", "Confirmed"), ("expired", "Expired"), ("cancelled", "Cancelled")],
                                default="held",
                                max_length=16,
                            ),
                        ),
                        (
                            "source",
                            models.CharField(
                                choices=[
                                    ("api", "REST API"),
                                    ("web", "Website"),
                                    ("mcp", "MCP agent"),
                                    ("a2a", "A2A agent"),
                                    ("owner", "Owner (back office)"),
                                    ("booking_com", "Booking.com"),
                                    ("airbnb", "Airbnb"),
                                    ("expedia", "Expedia"),
                                    ("vrbo", "Vrbo"),
                                    ("other", "Other channel"),
                                ],
                                default="api",
                                max_length=16,
                            ),
                        ),
                        ("check_in", models.DateField()),
                        ("check_out", models.DateField()),
                        ("guests", models.PositiveSmallIntegerField()),
                        ("children_ages", models.JSONField(blank=True, default=list)),
                        ("hold_expires_at", models.DateTimeField(blank=True, null=True)),
                        ("hold_minutes", models.PositiveIntegerField(blank=True, editable=False, null=True)),
                        ("price_breakdown", models.JSONField()),
                        ("total", models.DecimalField(decimal_places=2, max_digits=10)),
                        ("currency", models.CharField(default="EUR", max_length=3)),
                        ("guest_first_name", models.CharField(blank=True, max_length=100)),
                        ("guest_last_name", models.CharField(blank=True, max_length=100)),
                        ("guest_email", models.EmailField(blank=True, max_length=254)),
                        ("guest_phone", models.CharField(blank=True, max_length=40)),
                        ("special_requests", models.TextField(blank=True)),
                        ("agent_name", models.CharField(blank=True, max_length=100)),
                        ("agent_party", models.JSONField(blank=True, default=dict, editable=False)),
                        ("client_ip", models.GenericIPAddressField(blank=True, help_text="Who asked for the hold; for abuse limits.", null=True)),
                        ("payment_provider", models.CharField(blank=True, max_length=20)),
                        ("checkout_session_id", models.CharField(blank=True, db_index=True, max_length=255)),
                        ("checkout_url", models.URLField(blank=True, max_length=2000)),
                        ("checkout_expires_at", models.DateTimeField(blank=True, null=True)),
                        ("payment_schedule", models.JSONField(blank=True, default=list, editable=False)),
                        ("accepted_terms", models.JSONField(blank=True, default=dict, editable=False)),
                        ("amount_paid", models.DecimalField(decimal_places=2, default=Decimal("0"), max_digits=10)),
                        ("amount_refunded", models.DecimalField(decimal_places=2, default=Decimal("0"), max_digits=10)),
                        ("payment_intent_id", models.CharField(blank=True, max_length=255)),
                        (
                            "needs_attention",
                            models.CharField(blank=True, help_text="Set when staff must act, e.g. a late payment for dates taken meanwhile.", max_length=300),
                        ),
                        ("confirmed_at", models.DateTimeField(blank=True, null=True)),
                        ("cancelled_at", models.DateTimeField(blank=True, null=True)),
                        ("refund_pending", models.DecimalField(decimal_places=2, default=Decimal("0"), max_digits=10)),
                        ("manage_token", models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True)),
                        ("language", models.CharField(default="en", max_length=8)),
                        ("pre_arrival_sent_at", models.DateTimeField(blank=True, editable=False, null=True)),
                        ("review_requested_at", models.DateTimeField(blank=True, editable=False, null=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("reminder_email", models.EmailField(blank=True, editable=False, max_length=254)),
                        ("reminder_sent_at", models.DateTimeField(blank=True, editable=False, null=True)),
                        ("channel_booking_id", models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True)),
                        ("channel_code", models.CharField(blank=True, help_text="The platform's reservation code.", max_length=100)),
                        ("channel_commission", models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True)),
                        (
                            "channel_payment_collect",
                            models.CharField(
                                blank=True, help_text="Who collects the guest's payment: the channel (ota) or the host (property).", max_length=16
                            ),
                        ),
                        ("channel_revision_at", models.DateTimeField(blank=True, editable=False, null=True)),
                        ("guest_country", models.CharField(blank=True, max_length=2)),
                        ("city_tax_collected_by", models.CharField(blank=True, max_length=16)),
                        ("overbooked", models.BooleanField(default=False, editable=False)),
                        (
                            "promo_code",
                            models.ForeignKey(
                                blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="reservations", to="catalog.promocode"
                            ),
                        ),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="reservations", to="catalog.property")),
                    ],
                    options={
                        "db_table": "booking_reservation",
                        "ordering": ["-created_at"],
                        "permissions": [("refund_reservation", "Can refund a reservation's payment")],
                    },
                ),
                migrations.CreateModel(
                    name="ReservationEvent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("from_status", models.CharField(blank=True, max_length=16)),
                        ("to_status", models.CharField(blank=True, max_length=16)),
                        ("action", models.CharField(max_length=50)),
                        (
                            "actor",
                            models.CharField(help_text="Who or what made the change: a staff user, 'api', 'stripe webhook', 'expiry job'.", max_length=150),
                        ),
                        ("note", models.TextField(blank=True)),
                        ("message", models.CharField(blank=True, max_length=50)),
                        ("params", models.JSONField(blank=True, default=dict)),
                        ("reservation", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="events", to="reservations.reservation")),
                    ],
                    options={
                        "db_table": "booking_reservationevent",
                        "ordering": ["at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="Review",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("author", models.CharField(max_length=100)),
                        (
                            "rating",
                            models.PositiveSmallIntegerField(
                                help_text="1 to 5 stars.", validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(5)]
                            ),
                        ),
                        ("date", models.DateField()),
                        ("text", models.TextField()),
                        (
                            "source",
                            models.CharField(default="Direct", help_text="Where the review was written, e.g. Airbnb, Booking.com, Direct.", max_length=50),
                        ),
                        ("published", models.BooleanField(default=True, help_text="Shown on the site. A guest's review waits for the owner's approval.")),
                        ("language", models.CharField(blank=True, editable=False, max_length=8)),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="reviews", to="catalog.property")),
                        (
                            "reservation",
                            models.OneToOneField(
                                blank=True,
                                editable=False,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="review",
                                to="reservations.reservation",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "booking_review",
                        "ordering": ["-date", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="DateBlock",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("start", models.DateField(help_text="First blocked night.")),
                        ("end", models.DateField(help_text="The day after the last blocked night (like a check-out day).")),
                        ("source", models.CharField(choices=[("staff", "Staff"), ("partner", "Listing platform")], default="staff", max_length=16)),
                        ("reason", models.CharField(blank=True, max_length=300)),
                        ("feed_key", models.CharField(blank=True, max_length=100)),
                        ("external_uid", models.CharField(blank=True, max_length=500)),
                        ("created_by", models.CharField(blank=True, max_length=150)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("property", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="blocks", to="catalog.property")),
                    ],
                    options={
                        "db_table": "booking_dateblock",
                        "ordering": ["start"],
                        "indexes": [
                            models.Index(fields=["property", "start", "end"], name="block_calendar"),
                            models.Index(fields=["property", "end", "start"], name="block_upcoming"),
                        ],
                        "constraints": [models.CheckConstraint(condition=models.Q(("end__gt", models.F("start"))), name="block_end_after_start")],
                    },
                ),
                migrations.AddIndex(
                    model_name="reservation",
                    index=models.Index(fields=["property", "status", "check_in", "check_out"], name="reservation_calendar"),
                ),
                migrations.AddIndex(
                    model_name="reservation",
                    index=models.Index(
                        condition=models.Q(("status__in", ["confirmed", "held"])), fields=["property", "check_out", "check_in"], name="reservation_taken"
                    ),
                ),
                migrations.AddIndex(
                    model_name="reservation",
                    index=models.Index(fields=["client_ip", "status"], name="reservation_client"),
                ),
                migrations.AddConstraint(
                    model_name="reservation",
                    constraint=models.CheckConstraint(condition=models.Q(("check_out__gt", models.F("check_in"))), name="reservation_check_out_after_check_in"),
                ),
            ],
        ),
    ]
