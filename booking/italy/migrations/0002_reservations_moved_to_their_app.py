"""The foreign keys follow the property and the reservation to their new apps (same tables, no SQL)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0001_initial"),
        ("italy", "0001_check_in_and_police_registration"),
        ("reservations", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="checkin",
                    name="reservation",
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="online_check_in", to="reservations.reservation"),
                ),
                migrations.AlterField(
                    model_name="italysettings",
                    name="property",
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="italy_settings", to="catalog.property"),
                ),
                migrations.AlterField(
                    model_name="policeregistration",
                    name="reservation",
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="police_registration", to="reservations.reservation"),
                ),
            ],
        ),
    ]
