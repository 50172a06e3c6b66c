"""The owner's words about the property in Italian, German and French (django-modeltranslation):
the name and type, the headline, summary and description, the house rules, the payment policy, the
arrival note the guest gets before the stay, the cleaning-fee label, the amenities, the photos'
captions and alt texts, the length-of-stay discounts' labels and the extras. Empty translations show
the English text. The JSON API, MCP and A2A read them in English (their paths are unprefixed, so
English is the active language there)."""

from modeltranslation.translator import TranslationOptions, register

from booking.catalog.models import Amenity, Extra, LengthOfStayDiscount, Photo, Property, Season


@register(Property)
class PropertyTranslation(TranslationOptions):
    fields = (
        "name",
        "property_type",
        "headline",
        "summary",
        "description",
        "house_rules",
        "pre_arrival_message",
        "cleaning_fee_label",
    )


@register(Amenity)
class AmenityTranslation(TranslationOptions):
    fields = ("name", "category")


@register(Photo)
class PhotoTranslation(TranslationOptions):
    fields = ("caption", "alt_text")


@register(LengthOfStayDiscount)
class LengthOfStayDiscountTranslation(TranslationOptions):
    fields = ("label",)


@register(Extra)
class ExtraTranslation(TranslationOptions):
    fields = ("name",)


@register(Season)
class SeasonTranslation(TranslationOptions):
    fields = ("name",)  # shown to staff in their language (rate calendar, the property's seasons)
