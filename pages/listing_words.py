"""The listing (the API's document of the property, language-neutral: English names) with the words
a page shows in the reader's language: the seasons' names and the length-of-stay discounts' labels
(the owner's translations, booking/catalog/translation.py), the host's languages (named from the
locale data) and each review's language, so the page can mark a review with `lang` and say which
language it was written in."""

from django.conf import settings

from booking.catalog.models import Property
from booking.formatting import active_language
from booking.language_names import spoken_languages

# The property's own texts a page shows from the listing.
PROPERTY_TEXTS = ("headline", "summary", "description", "house_rules")


def untranslated(row, field: str) -> str:
    """The language an owner's text is served in when the page's language has none of it: the
    English it falls back to ("" when it is translated, or the page is English)."""
    language, fallback = active_language(), settings.LANGUAGE_CODE
    if language == fallback or getattr(row, f"{field}_{language}", None):
        return ""
    return fallback if getattr(row, f"{field}_{fallback}", None) else ""


def in_reader_language(listing: dict, prop: Property) -> dict:
    rules = listing["pricing_rules"]
    # Read in the active language (django-modeltranslation falls back to English).
    seasons = {season.name_en or season.name: season.name for season in prop.seasons.all()}
    for season in rules["seasons"]:
        season["name"] = seasons.get(season["name"]) or season["name"]
    discounts = {discount.label_en or discount.label: discount.label for discount in prop.discounts.all()}
    for discount in rules["length_of_stay_discounts"]:
        discount["label"] = discounts.get(discount["label"]) or discount["label"]
    listing["host"]["languages"] = spoken_languages(listing["host"]["languages"])
    # `lang` for the property's texts the page's language lacks (pages/templatetags/languages.py).
    listing["untranslated"] = {field: code for field in PROPERTY_TEXTS if (code := untranslated(prop, field))}
    # The owner's reviews (typed from the platforms) say no language: the site's own, English.
    languages = [review.language or settings.LANGUAGE_CODE for review in prop.reviews.all() if review.published]
    for item, language in zip(listing["reviews"]["items"], languages, strict=False):
        item["language"] = language
    return listing
