"""The payments' models, moved from the booking app: their tables stay as they are, so only
Django's picture of them changes (no SQL runs)."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("reservations", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="GuestCheckout",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("purpose", models.CharField(choices=[("balance", "Balance"), ("security_deposit", "Security deposit authorisation")], max_length=20)),
                        ("provider", models.CharField(max_length=20)),
                        ("session_id", models.CharField(max_length=255, unique=True)),
                        ("url", models.URLField(max_length=2000)),
                        ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                        ("currency", models.CharField(max_length=3)),
                        ("expires_at", models.DateTimeField()),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("settled_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "reservation",
                            models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="guest_checkouts", to="reservations.reservation"),
                        ),
                    ],
                    options={
                        "db_table": "booking_guestcheckout",
                        "ordering": ["created_at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Payment",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=[("deposit", "Deposit"), ("balance", "Balance"), ("full", "Paid in full")], max_length=10)),
                        ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                        ("currency", models.CharField(max_length=3)),
                        ("provider", models.CharField(max_length=20)),
                        ("provider_id", models.CharField(help_text="The provider's payment intent id.", max_length=255)),
                        ("customer_id", models.CharField(blank=True, max_length=255)),
                        ("payment_method_id", models.CharField(blank=True, max_length=255)),
                        ("paid_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("provider_refunded", models.DecimalField(decimal_places=2, default=0, max_digits=10)),
                        ("reservation", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="payments", to="reservations.reservation")),
                    ],
                    options={
                        "db_table": "booking_payment",
                        "ordering": ["paid_at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="PaymentEvent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("event_id", models.CharField(max_length=255, unique=True)),
                        ("event_type", models.CharField(max_length=100)),
                        ("source", models.CharField(help_text="stripe webhook, sandbox checkout or reconciliation job.", max_length=30)),
                        ("outcome", models.CharField(blank=True, max_length=300)),
                        ("received_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "reservation",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="payment_events",
                                to="reservations.reservation",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "booking_paymentevent",
                        "ordering": ["-received_at"],
                    },
                ),
                migrations.CreateModel(
                    name="ProviderRefund",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("staff", "Refund by staff"),
                                    ("cancellation", "Cancellation refund"),
                                    ("returned", "Payment given back (stay not confirmed)"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                        ("currency", models.CharField(max_length=3)),
                        ("provider", models.CharField(max_length=20)),
                        ("payment_intent_id", models.CharField(help_text="The payment refunded (its provider id).", max_length=255)),
                        ("idempotency_key", models.CharField(max_length=255, unique=True)),
                        ("provider_refund_id", models.CharField(blank=True, max_length=255, null=True, unique=True)),
                        (
                            "status",
                            models.CharField(
                                choices=[("requested", "Asked of the provider"), ("succeeded", "Refunded"), ("failed", "Failed")],
                                default="requested",
                                max_length=16,
                            ),
                        ),
                        ("actor", models.CharField(max_length=100)),
                        ("reason", models.CharField(blank=True, max_length=300)),
                        ("failure", models.CharField(blank=True, max_length=300)),
                        ("requested_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("settled_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "reservation",
                            models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="provider_refunds", to="reservations.reservation"),
                        ),
                    ],
                    options={
                        "db_table": "booking_providerrefund",
                        "ordering": ["requested_at"],
                    },
                ),
                migrations.CreateModel(
                    name="Receipt",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("year", models.PositiveSmallIntegerField()),
                        ("sequence", models.PositiveIntegerField()),
                        ("issued_on", models.DateField(help_text="The property's local date.")),
                        ("payment", models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name="receipt", to="payments.payment")),
                    ],
                    options={
                        "db_table": "booking_receipt",
                        "ordering": ["year", "sequence"],
                    },
                ),
                migrations.CreateModel(
                    name="SandboxCheckout",
                    fields=[
                        ("id", models.CharField(editable=False, max_length=100, primary_key=True, serialize=False)),
                        ("amount_cents", models.PositiveIntegerField()),
                        ("currency", models.CharField(max_length=3)),
                        ("description", models.CharField(max_length=300)),
                        ("success_url", models.URLField(max_length=2000)),
                        ("cancel_url", models.URLField(max_length=2000)),
                        ("expires_at", models.DateTimeField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("open", "Open"),
                                    ("complete", "Paid (test)"),
                                    ("expired", "Expired or cancelled"),
                                    ("authorised", "Card held (test), not captured"),
                                ],
                                default="open",
                                max_length=16,
                            ),
                        ),
                        ("payer_email", models.EmailField(blank=True, max_length=254)),
                        ("payer_name", models.CharField(blank=True, max_length=200)),
                        ("payer_phone", models.CharField(blank=True, max_length=40)),
                        ("payment_intent_id", models.CharField(blank=True, max_length=100)),
                        ("payment_method", models.CharField(blank=True, max_length=40)),
                        ("amount_refunded_cents", models.PositiveIntegerField(default=0)),
                        ("refund_keys", models.JSONField(blank=True, default=list)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("capture_method", models.CharField(default="automatic", max_length=10)),
                        (
                            "reservation",
                            models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="sandbox_checkouts", to="reservations.reservation"),
                        ),
                    ],
                    options={
                        "verbose_name": "sandbox checkout (test payment)",
                        "db_table": "booking_sandboxcheckout",
                        "ordering": ["-created_at"],
                    },
                ),
                migrations.CreateModel(
                    name="SecurityDeposit",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("amount", models.DecimalField(decimal_places=2, max_digits=10)),
                        ("currency", models.CharField(max_length=3)),
                        ("provider", models.CharField(max_length=20)),
                        ("provider_id", models.CharField(blank=True, help_text="The provider's payment intent id.", max_length=255)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("held", "Held on the card"),
                                    ("released", "Released"),
                                    ("claimed", "Claimed (captured)"),
                                    ("renewed", "Replaced by a new hold"),
                                    ("replaced", "Replaced by a new hold; its release not yet confirmed"),
                                    ("placing", "Being placed (answer not yet read)"),
                                    ("failed", "Refused by the card"),
                                ],
                                default="held",
                                max_length=10,
                            ),
                        ),
                        ("placed_on", models.DateField(help_text="The property's local date the card was authorised.")),
                        ("claimed_amount", models.DecimalField(decimal_places=2, default=0, max_digits=10)),
                        ("claim_reason", models.TextField(blank=True)),
                        ("error", models.CharField(blank=True, max_length=300)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("closed_at", models.DateTimeField(blank=True, null=True)),
                        ("customer_id", models.CharField(blank=True, max_length=255)),
                        ("payment_method_id", models.CharField(blank=True, max_length=255)),
                        (
                            "pending",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("", "Nothing"),
                                    ("place", "Hold (authorise) the card"),
                                    ("capture", "Capture (a claim)"),
                                    ("release", "Release"),
                                    ("give_back", "Refund of a capture for a stay no longer confirmed"),
                                ],
                                default="",
                                max_length=10,
                            ),
                        ),
                        ("pending_key", models.CharField(blank=True, max_length=255)),
                        ("pending_amount", models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True)),
                        ("pending_actor", models.CharField(blank=True, max_length=100)),
                        (
                            "sent_at",
                            models.DateTimeField(blank=True, help_text="Set while the call is at the provider (a dead worker leaves it set).", null=True),
                        ),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("provider_failures", models.PositiveSmallIntegerField(default=0, help_text="Tries in a row the provider did not settle.")),
                        ("given_back", models.DecimalField(decimal_places=2, default=0, max_digits=10)),
                        ("given_back_id", models.CharField(blank=True, max_length=255)),
                        (
                            "reservation",
                            models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="security_deposits", to="reservations.reservation"),
                        ),
                    ],
                    options={
                        "db_table": "booking_securitydeposit",
                        "ordering": ["placed_on", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="BalanceAttempt",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("due_date", models.DateField()),
                        ("attempted_on", models.DateField(help_text="The property's local date of the attempt.")),
                        (
                            "outcome",
                            models.CharField(
                                choices=[
                                    ("charging", "Charging"),
                                    ("succeeded", "Paid"),
                                    ("declined", "Refused by the card"),
                                    ("failed", "Provider unavailable"),
                                    ("unknown", "Answer lost; left to staff"),
                                ],
                                default="charging",
                                max_length=10,
                            ),
                        ),
                        ("provider_id", models.CharField(blank=True, max_length=255)),
                        ("error", models.CharField(blank=True, max_length=300)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("idempotency_key", models.CharField(blank=True, max_length=255)),
                        ("amount", models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True)),
                        ("customer_id", models.CharField(blank=True, max_length=255)),
                        ("payment_method_id", models.CharField(blank=True, max_length=255)),
                        (
                            "sent_at",
                            models.DateTimeField(blank=True, help_text="When the request was first sent (the provider keeps a key 24 hours).", null=True),
                        ),
                        (
                            "reservation",
                            models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="balance_attempts", to="reservations.reservation"),
                        ),
                    ],
                    options={
                        "db_table": "booking_balanceattempt",
                        "ordering": ["attempted_on"],
                        "constraints": [models.UniqueConstraint(fields=("reservation", "attempted_on"), name="one_balance_attempt_per_day")],
                    },
                ),
                migrations.AddConstraint(
                    model_name="payment",
                    constraint=models.UniqueConstraint(fields=("provider", "provider_id"), name="one_payment_per_provider_intent"),
                ),
                migrations.AddIndex(
                    model_name="providerrefund",
                    index=models.Index(fields=["status", "requested_at"], name="provider_refund_open_idx"),
                ),
                migrations.AddConstraint(
                    model_name="receipt",
                    constraint=models.UniqueConstraint(fields=("year", "sequence"), name="one_receipt_number_per_year"),
                ),
                migrations.AddConstraint(
                    model_name="securitydeposit",
                    constraint=models.UniqueConstraint(fields=("reservation", "placed_on"), name="one_security_hold_per_day"),
                ),
                migrations.AddConstraint(
                    model_name="securitydeposit",
                    constraint=models.UniqueConstraint(condition=models.Q(("status", "held")), fields=("reservation",), name="one_open_security_hold"),
                ),
            ],
        ),
    ]
