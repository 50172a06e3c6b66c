"""Every reservation says who collects its city tax: `host`, or the platform that does. Rows from
before said nothing (blank: the host's); a platform's stay now follows the property's setting."""

from django.db import migrations, models

PLATFORMS = ("booking_com", "airbnb", "expedia", "vrbo", "other")


def name_the_collector(apps, schema_editor):
    Reservation = apps.get_model("reservations", "Reservation")
    collecting = {row.property_id: set(row.city_tax_collecting_channels or []) for row in apps.get_model("italy", "ItalySettings").objects.all()}
    for stay in Reservation.objects.filter(city_tax_collected_by="", source__in=PLATFORMS).only("pk", "property_id", "source"):
        if stay.source in collecting.get(stay.property_id, set()):
            Reservation.objects.filter(pk=stay.pk).update(city_tax_collected_by=stay.source)
    Reservation.objects.filter(city_tax_collected_by="").update(city_tax_collected_by="host")


def blank_the_host(apps, schema_editor):
    apps.get_model("reservations", "Reservation").objects.filter(city_tax_collected_by="host").update(city_tax_collected_by="")


class Migration(migrations.Migration):
    dependencies = [
        ("reservations", "0004_staff_note"),
        ("italy", "0004_city_tax_collecting_channels"),
    ]

    operations = [
        migrations.AlterField(
            model_name="reservation",
            name="city_tax_collected_by",
            field=models.CharField(default="host", editable=False, max_length=16),
        ),
        migrations.RunPython(name_the_collector, blank_the_host),
    ]
