from django.db import migrations, models


def copy_terms_in_force(apps, schema_editor):
    """Existing reservations accepted the tiers in force today and paid (or were to pay) in full,
    with no security deposit: that is what their guests were shown."""
    Reservation = apps.get_model("booking", "Reservation")
    CancellationTier = apps.get_model("booking", "CancellationTier")
    tiers_by_property: dict[int, list[dict]] = {}
    for tier in CancellationTier.objects.order_by("property_id", "-days_before_arrival"):
        tiers_by_property.setdefault(tier.property_id, []).append({"days_before_arrival": tier.days_before_arrival, "refund_percent": str(tier.refund_percent)})
    for reservation in Reservation.objects.filter(accepted_terms={}).only("pk", "property_id", "accepted_terms", "payment_schedule", "total").iterator():
        reservation.accepted_terms = {
            "cancellation_tiers": tiers_by_property.get(reservation.property_id, []),
            "deposit_percent": "0",
            "balance_due_days": 0,
            "security_deposit": "0.00",
        }
        if not reservation.payment_schedule:
            reservation.payment_schedule = [{"type": "immediate", "amount": float(reservation.total), "due_date": None}]
        reservation.save(update_fields=["accepted_terms", "payment_schedule"])


class Migration(migrations.Migration):
    dependencies = [
        ("booking", "0020_payment_terms_and_schedule"),
    ]

    operations = [
        migrations.AddField(
            model_name="reservation",
            name="accepted_terms",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
        migrations.RunPython(copy_terms_in_force, migrations.RunPython.noop),
    ]
