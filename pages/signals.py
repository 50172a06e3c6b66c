"""An edit of what the public pages show besides the property (page texts, FAQ, articles, the
privacy page's retention period) bumps the property's content version, as an edit of the property
does (booking/catalog/signals.py): remembered pages are keyed by it (pages/caching.py)."""

from django.db.models.signals import post_delete, post_save

from booking.catalog.models import Property
from booking.catalog.signals import bump_rules_version
from booking.italy.models import ItalySettings
from pages.models import BlogPost, FaqEntry, PageText

SHOWN_MODELS = (PageText, FaqEntry, BlogPost, ItalySettings)


def content_changed(sender, raw=False, **kwargs) -> None:
    if raw:
        return
    for property_id in Property.objects.values_list("pk", flat=True):
        bump_rules_version(property_id)


for model in SHOWN_MODELS:
    post_save.connect(content_changed, sender=model, dispatch_uid=f"pages-content-{model._meta.label}")
    post_delete.connect(content_changed, sender=model, dispatch_uid=f"pages-content-deleted-{model._meta.label}")
