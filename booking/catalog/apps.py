from django.apps import AppConfig


class CatalogConfig(AppConfig):
    """What the owner sells: the property, its rates, seasons, discounts, promo codes, extras,
    display currencies and photos, and the pure pricing engine that reads them."""

    name = "booking.catalog"
    label = "catalog"
    verbose_name = "Property and rates"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from booking.catalog import signals  # noqa: F401  (any edit of the rates bumps the rules version)
