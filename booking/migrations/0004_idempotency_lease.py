import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("booking", "0003_payment_events"),
    ]

    operations = [
        migrations.AlterField(
            model_name="idempotencyrecord",
            name="created_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="owner",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="lease_expires_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="created_reservation_id",
            field=models.CharField(blank=True, max_length=40, null=True),
        ),
    ]
