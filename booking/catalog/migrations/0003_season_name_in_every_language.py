"""A season's name in every language (modeltranslation), so staff read it in theirs: the English
column starts as the name the owner typed; the other languages fall back to it until translated."""

from django.db import migrations, models


def english_from_name(apps, schema_editor):
    Season = apps.get_model("catalog", "Season")
    Season.objects.filter(name_en__isnull=True).update(name_en=models.F("name"))


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0002_extra_code_help_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="name_de",
            field=models.CharField(max_length=100, null=True),
        ),
        migrations.AddField(
            model_name="season",
            name="name_en",
            field=models.CharField(max_length=100, null=True),
        ),
        migrations.AddField(
            model_name="season",
            name="name_fr",
            field=models.CharField(max_length=100, null=True),
        ),
        migrations.AddField(
            model_name="season",
            name="name_it",
            field=models.CharField(max_length=100, null=True),
        ),
        migrations.RunPython(english_from_name, migrations.RunPython.noop),
    ]
