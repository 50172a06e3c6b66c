"""The platforms that collect the city tax are the property's Italian setting now
(italy 0004 copied the connection's list there first)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("partner_sync", "0003_reservations_moved_to_their_app"),
        ("italy", "0004_city_tax_collecting_channels"),
    ]

    operations = [
        migrations.RemoveField(model_name="channexconnection", name="channels_collecting_city_tax"),
    ]
