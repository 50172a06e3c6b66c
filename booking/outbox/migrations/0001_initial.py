"""The outbox's models, moved from the booking app: their tables stay as they are, so only
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
                    name="OwnerAlert",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("problem", models.CharField(max_length=200)),
                        ("day", models.DateField()),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                    ],
                    options={
                        "db_table": "booking_owneralert",
                        "ordering": ["-created_at"],
                        "constraints": [models.UniqueConstraint(fields=("problem", "day"), name="one_owner_alert_per_problem_per_day")],
                    },
                ),
                migrations.CreateModel(
                    name="OutboundEmail",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("confirmation", "Booking confirmed"),
                                    ("cancellation", "Booking cancelled"),
                                    ("refund", "Refund issued"),
                                    ("pre_arrival", "Before arrival"),
                                    ("refunded_payment", "Payment refunded, needs attention"),
                                    ("inquiry", "Website inquiry"),
                                    ("payment_received", "Payment received"),
                                    ("balance_declined", "Balance charge refused"),
                                    ("balance_overdue", "Balance overdue, needs attention"),
                                    ("deposit_claimed", "Security deposit claimed"),
                                    ("owner_alert", "Problem to look at"),
                                    ("review_request", "Review request"),
                                    ("check_in_reminder_7", "Check-in reminder, 7 days before"),
                                    ("check_in_reminder_2", "Check-in reminder, 2 days before"),
                                    ("arrival_info", "Arrival instructions"),
                                    ("payment_link", "Payment link (booked by the owner)"),
                                    ("hold_reminder", "Reminder of an unfinished booking"),
                                    ("dates_changed", "Dates changed"),
                                    ("deposit_auth_needed", "Security deposit hold refused, link to authorise"),
                                    ("staff_invitation", "Invitation to the back office"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("recipient", models.CharField(choices=[("guest", "Guest"), ("owner", "Owner")], max_length=10)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Waiting to be sent"),
                                    ("sent", "Sent"),
                                    ("unconfirmed", "Sent, unconfirmed (not resent)"),
                                    ("gave_up", "Not sent (gave up)"),
                                ],
                                default="pending",
                                max_length=12,
                            ),
                        ),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("next_attempt_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("last_error", models.CharField(blank=True, max_length=300)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("sent_at", models.DateTimeField(blank=True, null=True)),
                        ("subject", models.CharField(blank=True, max_length=300)),
                        ("body", models.TextField(blank=True)),
                        ("to_address", models.CharField(blank=True, max_length=254)),
                        ("reply_to", models.CharField(blank=True, max_length=254)),
                        (
                            "reservation",
                            models.ForeignKey(
                                blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="emails", to="reservations.reservation"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "booking_outboundemail",
                        "ordering": ["-created_at"],
                        "indexes": [models.Index(fields=["status", "next_attempt_at"], name="email_due")],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("kind__in", ["confirmation", "cancellation", "refund", "pre_arrival", "review_request"])),
                                fields=("reservation", "kind", "recipient"),
                                name="one_email_per_kind_and_recipient",
                            )
                        ],
                    },
                ),
            ],
        ),
    ]
