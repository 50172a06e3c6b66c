# The ages of the children among the guests, kept by the hold (city tax, emails).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("booking", "0012_outbox_one_off_notices"),
    ]

    operations = [
        migrations.AddField(
            model_name="reservation",
            name="children_ages",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
