from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="extra",
            name="code",
            field=models.SlugField(
                help_text="Agents and the API name the extra by this code: lowercase letters, digits, hyphens and underscores, e.g. late_checkout.",
                max_length=40,
            ),
        ),
    ]
