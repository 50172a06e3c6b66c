"""Which platforms collect the city tax moves from the Channex connection to the property's Italian
settings (it depends on the city). Where a connection exists, each property takes its list."""

from django.db import migrations, models


def copy_from_connection(apps, schema_editor):
    connection = apps.get_model("partner_sync", "ChannexConnection").objects.filter(pk=1).first()
    if connection is None:
        return  # no channel manager, no platform stays yet: the owner ticks the platforms when connecting
    ItalySettings = apps.get_model("italy", "ItalySettings")
    for prop in apps.get_model("catalog", "Property").objects.all():
        settings, _created = ItalySettings.objects.get_or_create(property=prop)
        settings.city_tax_collecting_channels = list(connection.channels_collecting_city_tax or [])
        settings.save(update_fields=["city_tax_collecting_channels"])


class Migration(migrations.Migration):
    dependencies = [
        ("italy", "0003_florence_short_let_rules"),
        ("partner_sync", "0003_reservations_moved_to_their_app"),
    ]

    operations = [
        migrations.AddField(
            model_name="italysettings",
            name="city_tax_collecting_channels",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Their guests pay the city tax to the platform: those stays are left out of what the host owes. Applies to bookings that arrive from now on.",
                verbose_name="platforms that collect the city tax",
            ),
        ),
        migrations.RunPython(copy_from_connection, migrations.RunPython.noop),
    ]
