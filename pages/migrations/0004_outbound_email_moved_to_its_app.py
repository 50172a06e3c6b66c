"""The foreign key follows the outbound email to the outbox app (same table, no SQL)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("outbox", "0001_initial"),
        ("pages", "0003_inquiry_outbound_email"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="contactinquiry",
                    name="outbound_email",
                    field=models.OneToOneField(
                        blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="inquiry", to="outbox.outboundemail"
                    ),
                ),
            ],
        ),
    ]
