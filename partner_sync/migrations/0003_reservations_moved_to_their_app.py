"""The foreign keys follow the reservation to its new app (same table, no SQL)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("partner_sync", "0002_channex_connection"),
        ("reservations", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="channexrevision",
                    name="reservation",
                    field=models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="channex_revisions", to="reservations.reservation"
                    ),
                ),
                migrations.AlterField(
                    model_name="conflict",
                    name="reservation",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="partner_conflicts", to="reservations.reservation"),
                ),
            ],
        ),
    ]
