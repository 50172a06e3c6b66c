"""Booking numbers ("FLR-27-0042"), and a number for every reservation already stored: per year
of creation (the property's time zone), in creation order."""

from django.db import migrations, models
from django.utils import timezone

from booking.reservations.booking_numbers import format_booking_number, prefix_from_city


def number_existing(apps, schema_editor):
    Reservation = apps.get_model("reservations", "Reservation")
    last: dict[int, int] = {}
    prefixes: dict[int, str] = {}
    for reservation in list(Reservation.objects.select_related("property").order_by("created_at", "pk")):
        prop = reservation.property
        if prop.pk not in prefixes:
            prefixes[prop.pk] = prop.booking_number_prefix or prefix_from_city(prop.city)
        year = timezone.localtime(reservation.created_at).year
        last[year] = last.get(year, 0) + 1
        Reservation.objects.filter(pk=reservation.pk).update(
            number_year=year, number_sequence=last[year], booking_number=format_booking_number(prefixes[prop.pk], year, last[year])
        )


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0005_booking_number_prefix"),
        ("reservations", "0005_city_tax_collected_by_host"),
    ]

    operations = [
        migrations.AddField(
            model_name="reservation",
            name="booking_number",
            field=models.CharField(blank=True, editable=False, max_length=24, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="reservation",
            name="number_sequence",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="reservation",
            name="number_year",
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddConstraint(
            model_name="reservation",
            constraint=models.UniqueConstraint(fields=("number_year", "number_sequence"), name="one_booking_number_per_year_and_sequence"),
        ),
        migrations.RunPython(number_existing, migrations.RunPython.noop),
    ]
