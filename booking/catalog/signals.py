"""Any edit to the property, its pricing rules or its content bumps the property's rules_version,
so every process rebuilds its cached rules and property document (booking/catalog/rules.py, stays.py)."""

from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from booking.catalog.models import (
    Amenity,
    ArrivalDayMinimum,
    CancellationTier,
    DisplayCurrency,
    Extra,
    LengthOfStayDiscount,
    NightRate,
    Photo,
    PromoCode,
    Property,
    Season,
)

RULE_MODELS = (Season, ArrivalDayMinimum, LengthOfStayDiscount, DisplayCurrency, Amenity, Photo, CancellationTier, NightRate, Extra, PromoCode)


def bump_rules_version(property_id: int) -> None:
    Property.objects.filter(pk=property_id).update(rules_version=F("rules_version") + 1)


@receiver(post_save, sender=Property)
def property_saved(sender, instance, created, raw=False, **kwargs):
    # A save of the property itself may change rates; bump unless this save is the bump's own.
    if not raw and not created:
        bump_rules_version(instance.pk)
        # The instance learns its new version (the update above bypassed it; save() never writes it).
        instance.rules_version = Property.objects.values_list("rules_version", flat=True).get(pk=instance.pk)


def bump_on_every_edit(model) -> None:
    """Any save or delete of a `model` row (which has a `property`) bumps its property's version."""
    post_save.connect(lambda sender, instance, raw=False, **kw: raw or bump_rules_version(instance.property_id), sender=model, weak=False)
    post_delete.connect(lambda sender, instance, **kw: bump_rules_version(instance.property_id), sender=model, weak=False)


for model in RULE_MODELS:
    bump_on_every_edit(model)
