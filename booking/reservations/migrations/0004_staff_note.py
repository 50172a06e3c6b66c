from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("reservations", "0003_breakdowns_as_data"),
    ]

    operations = [
        migrations.AddField(
            model_name="reservation",
            name="staff_note",
            field=models.TextField(blank=True, default=""),
        ),
    ]
