from django.apps import AppConfig


class ItalyConfig(AppConfig):
    """Running the rental in Italy: online check-in, the police registration (Alloggiati Web), the
    city-tax and statistics reports, arrival instructions (docs/italy.md)."""

    name = "booking.italy"
    label = "italy"
    verbose_name = "Italy: check-in, police, city tax"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from booking.italy import tasks  # noqa: F401  (registered in every process, like booking's)
